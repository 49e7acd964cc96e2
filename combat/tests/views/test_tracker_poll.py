"""The board's poll answered from the shared cache: no query once warm, and never a stale answer.

Against this machine's Redis, as deployed (config/tests/shared_cache.py); each `as_process()` block stands for
another gunicorn worker or host with cache connections of its own.
"""

import pytest
from django.core.cache import cache

from campaigns.models import Membership
from campaigns.services.members import membership_remove
from combat.tests.tracker_helpers import board_url, damage, text
from config.tests.shared_cache import shared_redis_or_skip
from rosters.services.games import game_delete

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def warm(client, table, user, shared) -> tuple[str, int]:
    """The user logged in and one poll made, which passes the full check and teaches the cache the reader
    (combat/access_cache.py)."""
    url, version = board_url(table, "board/"), table.version
    with shared.as_process():
        client.force_login(user)
        assert client.get(url, {"version": version}).status_code == 204
    return url, version


def test_a_warm_poll_asks_the_database_nothing(client, table, player, shared, django_assert_num_queries):
    url, version = warm(client, table, player, shared)
    with shared.as_process(), django_assert_num_queries(0):
        response = client.get(url, {"version": version})
    assert response.status_code == 204
    assert response.content == b""
    assert "Cookie" in response["Vary"]


def test_a_session_logged_in_again_as_someone_else_is_checked_again(client, table, player, outsider, shared):
    url, version = warm(client, table, player, shared)
    with shared.as_process():
        client.force_login(outsider)  # a new session key: the entry made for the player's is never found
        assert client.get(url, {"version": version}).status_code == 404


def test_a_cookie_that_is_no_session_key_takes_the_full_check(client, table, shared):
    with shared.as_process():
        client.cookies["sessionid"] = "../../not-a-session"
        response = client.get(board_url(table, "board/"), {"version": 0})
    assert response.status_code == 302


def test_a_damage_in_another_process_is_seen_by_the_next_poll(client, table, player, player2, shared):
    url, version = warm(client, table, player, shared)
    with shared.as_process():
        damage(table, "Brick", 2, player2)
    with shared.as_process():
        changed = client.get(url, {"version": version}, headers={"HX-Request": "true"})
        assert changed.status_code == 200
        assert "Damage 2 &lt; Endurance 6: 1 Harm" in text(changed)
        assert f"?version={version + 1}" in text(changed)
        assert client.get(url, {"version": version + 1}).status_code == 204


def test_an_undo_moves_the_cached_version_on_too(client, table, player, player2, shared):
    from combat.services.tracker.board import tracker_undo

    damage(table, "Brick", 2, player2)
    url, version = warm(client, table, player, shared)
    with shared.as_process():
        tracker_undo(game=table.game, by=player2, version=version)
    with shared.as_process():
        assert client.get(url, {"version": version}).status_code == 200


def test_a_member_taken_out_is_refused_once_it_is_committed(
    client, table, spectator, organiser, shared, django_capture_on_commit_callbacks
):
    url, version = warm(client, table, spectator, shared)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        membership_remove(
            membership=Membership.objects.get(campaign=table.game.campaign, user=spectator), by=organiser
        )
    with shared.as_process():
        assert client.get(url, {"version": version}).status_code == 404


def test_a_deleted_game_is_not_answered_from_the_cache(
    client, table, player, organiser, shared, django_capture_on_commit_callbacks
):
    url, version = warm(client, table, player, shared)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        game_delete(game=table.game, by=organiser)
    with shared.as_process():
        assert client.get(url, {"version": version}).status_code == 404


def test_a_logged_out_session_is_sent_to_log_in(client, table, player, shared):
    url, version = warm(client, table, player, shared)
    with shared.as_process():
        client.logout()
        response = client.get(url, {"version": version})
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")
        htmx = client.get(url, {"version": version}, headers={"HX-Request": "true"})
        assert htmx["HX-Redirect"].startswith("/accounts/login/?next=")


def test_without_a_shared_cache_the_version_comes_from_the_database(client, table, player, player2):
    # Local memory is per process: a version another worker moved on never reaches this one's memory.
    client.force_login(player)
    url, version = board_url(table, "board/"), table.version
    assert client.get(url, {"version": version}).status_code == 204
    damage(table, "Brick", 2, player2)
    cache.set(f"tracker-version:{table.game.pk}", version)  # what this worker would still hold
    assert client.get(url, {"version": version}).status_code == 200
