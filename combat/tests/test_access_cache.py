"""The readers the tracker's poll remembers (combat/access_cache.py): what makes an entry stale, and the order
that keeps a removal from being missed. Against this machine's Redis, as deployed; the poll itself is tested in
combat/tests/views/test_tracker_poll.py."""

from datetime import date

import pytest
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.cached_db import SessionStore
from django.core.cache import cache

from campaigns.models import Game, Membership
from campaigns.services.members import membership_remove
from combat import access_cache
from config.tests.shared_cache import shared_redis_or_skip

pytestmark = pytest.mark.django_db


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


@pytest.fixture
def game(campaign):
    return Game.objects.create(
        campaign=campaign, number=1, played_on=date(2026, 11, 30), status=Game.Status.IN_PROGRESS
    )


def session_of(user) -> SessionStore:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return session


def remembered(session, game) -> bool:
    """What the poll reads in its one round trip, judged as it judges it."""
    keys = [
        access_cache.session_cache_key(session.session_key),
        access_cache.reader_key(session.session_key, game.pk),
        access_cache.token_key(game.pk),
    ]
    found = cache.get_many(keys)
    return access_cache.is_remembered_reader(
        session_data=found.get(keys[0]), entry=found.get(keys[1]), token=found.get(keys[2])
    )


def remember(session, game) -> None:
    access_cache.remember_reader(session=session, game=game, token=access_cache.reader_token(game_id=game.pk))


def test_a_reader_remembered_under_the_current_token_is_known(game, spectator, shared):
    with shared.as_process():
        session = session_of(spectator)
        remember(session, game)
        assert remembered(session, game)


def test_a_removal_committed_during_the_check_leaves_the_entry_stale(
    game, spectator, organiser, shared, django_capture_on_commit_callbacks
):
    with shared.as_process():
        session = session_of(spectator)
        token = access_cache.reader_token(game_id=game.pk)  # read before the check...
        with django_capture_on_commit_callbacks(execute=True):  # ...the removal commits meanwhile...
            membership_remove(
                membership=Membership.objects.get(campaign=game.campaign, user=spectator), by=organiser
            )
        access_cache.remember_reader(session=session, game=game, token=token)  # ...the check had passed
        assert not remembered(session, game)


def test_a_removal_not_yet_committed_replaces_no_token(game, spectator, organiser, shared):
    with shared.as_process():
        before = access_cache.reader_token(game_id=game.pk)
        membership_remove(
            membership=Membership.objects.get(campaign=game.campaign, user=spectator), by=organiser
        )
        assert access_cache.reader_token(game_id=game.pk) == before


def test_a_session_whose_auth_hash_changed_is_not_the_one_remembered(game, spectator, shared):
    with shared.as_process():
        session = session_of(spectator)
        remember(session, game)
        session[HASH_SESSION_KEY] = "another-hash"
        session.save()
        assert not remembered(session, game)


def test_a_logged_out_session_is_not_remembered(game, spectator, shared):
    with shared.as_process():
        session = session_of(spectator)
        remember(session, game)
        key = session.session_key
        session.delete()  # what logging out does to it
        found = cache.get_many([access_cache.session_cache_key(key), access_cache.reader_key(key, game.pk)])
        assert not access_cache.is_remembered_reader(
            session_data=found.get(access_cache.session_cache_key(key)),
            entry=found.get(access_cache.reader_key(key, game.pk)),
            token=access_cache.reader_token(game_id=game.pk),
        )


def test_a_role_changed_forgets_every_reader_of_the_campaigns_games(
    game, player, organiser, shared, django_capture_on_commit_callbacks
):
    from campaigns.services.members import membership_set_role

    with shared.as_process():
        session = session_of(player)
        remember(session, game)
        with django_capture_on_commit_callbacks(execute=True):
            membership_set_role(
                membership=Membership.objects.get(campaign=game.campaign, user=player),
                role=Membership.Role.SPECTATOR,
                by=organiser,
            )
        assert not remembered(session, game)


def test_a_game_deleted_forgets_its_readers(
    game, player, organiser, shared, django_capture_on_commit_callbacks
):
    from rosters.services.games import game_delete

    with shared.as_process():
        session = session_of(player)
        remember(session, game)
        with django_capture_on_commit_callbacks(execute=True):
            game_delete(game=game, by=organiser)
        assert not remembered(session, game)


def test_a_board_action_keeps_every_reader(
    campaign,
    warband,
    rival_warband,
    make_fighter,
    player,
    player2,
    shared,
    django_capture_on_commit_callbacks,
):
    """A tap changes no one's access: the phones at the table keep answering their polls from the cache."""
    from combat.tests.tracker_helpers import damage, setup_game

    table = setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )
    with shared.as_process():
        session = session_of(player2)
        remember(session, table.game)
        with django_capture_on_commit_callbacks(execute=True):
            damage(table, "Fidus", 2, player)
        assert remembered(session, table.game)


def test_no_write_that_rolled_back_forgets_a_reader(game, player, organiser, shared):
    with shared.as_process():
        session = session_of(player)
        remember(session, game)
        membership_remove(
            membership=Membership.objects.get(campaign=game.campaign, user=player), by=organiser
        )
        assert remembered(session, game)  # the test's transaction has not committed: the token stands
