"""The campaign page's cached parts: kept under a version PostgreSQL changes in the transaction of every
write to what they show, so no write, by any code path or process, is ever followed by a stale page.

The stale-cache tests run against this machine's Redis: each `as_process()` block has cache connections of its
own, as another gunicorn worker would (config/tests/shared_cache.py), under a key prefix of the test's own.
"""

import datetime as dt

import pytest
from django.db import connection
from django.test import Client

from campaigns.models import Membership
from config.tests.shared_cache import shared_redis_or_skip
from rosters.selectors.campaigns import campaign_page_version
from rosters.services.fighters import fighter_create
from rosters.services.games import GameEntry, game_record
from rosters.services.warbands import warband_create

pytestmark = pytest.mark.django_db

# Warm, with nothing changed: the user, the membership (the access check), the version and, with the shared cache,
# the user's access state the whole page is kept under, read before the view renders (config/page_versions.py):
# whatever the campaign's size. The session comes from the shared cache, and the snapshot the page is read in adds
# no savepoint inside a transaction already open (rosters/selectors/common.py, `consistent_reads`).
WARM_QUERIES = 4


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def page(client, campaign) -> str:
    response = client.get(f"/campaigns/{campaign.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def cached_parts(html: str) -> str:
    """From the warbands to the games (the rest carries a CSRF token masked afresh on every response)."""
    return html[html.index('<section id="warbands"') : html.index('<section id="campaign-latest-history"')]


def play(campaign, organiser, warband, rival_warband, day: int):
    return game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2025, 1, 1) + dt.timedelta(days=day),
        entries=[GameEntry(warband, "win"), GameEntry(rival_warband, "loss")],
    )


def test_every_write_the_page_shows_changes_its_version(campaign, organiser, player, warband, rival_warband):
    seen = [campaign_page_version(campaign=campaign)]

    def changed() -> bool:
        seen.append(campaign_page_version(campaign=campaign))
        return seen[-1] != seen[-2]

    fighter = fighter_create(warband=warband, by=player, name="Brother Marcus")
    assert changed()
    play(campaign, organiser, warband, rival_warband, 0)
    assert changed()
    # Written past every service, straight with SQL: the trigger sees it all the same.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE rosters_fighter SET xp = xp + 1 WHERE id = %s", [fighter.pk])
    assert changed()
    player.first_name = "Pat the Pilgrim"
    player.save()
    assert changed()
    Membership.objects.filter(campaign=campaign, user=player).update(role=Membership.Role.SPECTATOR)
    assert changed()


def test_a_login_and_another_campaign_s_writes_leave_the_version(
    campaign, organiser, player, warband, make_user
):
    fighter_create(warband=warband, by=player, name="Brother Marcus")
    before = campaign_page_version(campaign=campaign)
    Client().force_login(player)  # writes last_login only
    other = make_user("other_organiser")
    from campaigns.services.campaigns import campaign_create

    elsewhere = campaign_create(name="Elsewhere", by=other)
    warband_create(campaign=elsewhere, owner=other, name="Far Band", by=other)
    assert campaign_page_version(campaign=campaign) == before


def test_a_game_recorded_through_one_process_is_on_the_page_read_through_another(
    campaign, organiser, player, warband, rival_warband, shared
):
    reader = Client()
    reader.force_login(player)
    with shared.as_process():
        assert 'id="game-' not in page(reader, campaign)
    with shared.as_process():
        game = play(campaign, organiser, warband, rival_warband, 0)
    with shared.as_process():
        html = page(reader, campaign)
    assert f'id="game-{game.pk}"' in html
    assert f'id="standing-{warband.pk}"' in html


def test_a_fighter_written_with_sql_by_another_process_is_counted_at_once(campaign, player, warband, shared):
    marcus = fighter_create(warband=warband, by=player, name="Brother Marcus")
    reader = Client()
    reader.force_login(player)
    with shared.as_process():
        assert '<td data-label="XP" class="num">0</td>' in page(reader, campaign)
    with shared.as_process(), connection.cursor() as cursor:
        cursor.execute("UPDATE rosters_fighter SET xp = 7 WHERE id = %s", [marcus.pk])
    with shared.as_process():
        assert '<td data-label="XP" class="num">7</td>' in page(reader, campaign)


@pytest.mark.parametrize("games", [1, 10])
def test_the_warm_page_costs_the_same_queries_at_1_and_10_games(
    client, campaign, organiser, player, warband, rival_warband, games, django_assert_num_queries, shared
):
    for day in range(games):
        play(campaign, organiser, warband, rival_warband, day)
    client.force_login(player)
    with shared.as_process():
        cold = page(client, campaign)
        with django_assert_num_queries(WARM_QUERIES):
            warm = page(client, campaign)
    assert warm.count('<tr id="game-') == cold.count('<tr id="game-') == games
    assert cached_parts(warm) == cached_parts(cold)


def test_who_may_record_is_not_shared_through_the_cache(campaign, organiser, player, spectator, shared):
    as_spectator, as_organiser = Client(), Client()
    as_spectator.force_login(spectator)
    as_organiser.force_login(organiser)
    with shared.as_process():
        assert "Record the first one" not in page(as_spectator, campaign)
        # Two warbands, so the organiser is offered the first game; the spectator still is not.
        warband_create(campaign=campaign, owner=organiser, name="One", by=organiser)
        warband_create(campaign=campaign, owner=organiser, name="Two", by=organiser)
        assert "Record the first one" in page(as_organiser, campaign)
        assert "Record the first one" not in page(as_spectator, campaign)
