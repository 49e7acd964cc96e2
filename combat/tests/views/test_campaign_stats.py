"""The statistics page: read by every member and no one else, its figures and charts drawn with a table beside
each, linked from the campaign page, a fixed number of queries, and kept in the page cache like the campaign page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.tests.stats_helpers import FIVE_GAMES, crews, play
from config.page_cache import MEMBER_COOKIE
from config.tests.shared_cache import shared_redis_or_skip

pytestmark = pytest.mark.django_db


def url(campaign) -> str:
    return f"/campaigns/{campaign.pk}/stats/"


@pytest.fixture
def played(campaign, warband, rival_warband, make_fighter, organiser):
    fighters = crews(warband, rival_warband, make_fighter)
    for number, game in enumerate(FIVE_GAMES, start=1):
        play(campaign, number, game, iron=warband, heretic=rival_warband, fighters=fighters, by=organiser)
    return fighters


@pytest.mark.parametrize("who", ["organiser", "player", "spectator"])
def test_every_member_reads_it(client, campaign, played, who, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(url(campaign))
    assert response.status_code == 200
    assert response.templates[0].name == "combat/campaign_stats.html"


def test_an_outsider_learns_nothing(client, campaign, outsider):
    client.force_login(outsider)
    assert client.get(url(campaign)).status_code == 404


def test_a_visitor_is_asked_to_log_in(client, campaign):
    response = client.get(url(campaign))
    assert response.status_code == 302
    assert "/login/" in response["Location"]


def cell(body: str, row_id: str, label: str) -> str:
    row = body[body.index(f'id="{row_id}"') :]
    found = re.search(rf'data-label="{re.escape(label)}" class="num">([^<]*)</td>', row[: row.index("</tr>")])
    return found.group(1).strip()


def test_it_shows_the_figures_the_charts_and_a_table_beside_each(client, campaign, warband, played, player):
    client.force_login(player)
    body = client.get(url(campaign)).content.decode()
    row = f"warband-stats-{warband.pk}"
    assert (cell(body, row, "Games"), cell(body, row, "Wins"), cell(body, row, "Victory Points")) == (
        "5",
        "2",
        "11",
    )
    assert (cell(body, row, "Taken Out of Action"), cell(body, row, "Caused Out of Action")) == ("4", "4")
    brick = f"fighter-stats-row-{played['Brick'].pk}"
    assert cell(body, brick, "Caused Out of Action") == "3"
    assert "<strong>Most Out of Action caused:</strong>\n      Brick" in body
    for chart in ("standings-chart", "value-chart"):
        assert f'<figure class="chart" id="{chart}">' in body
        assert f'role="img" aria-labelledby="{chart}-title"' in body
    # Each line told apart without colour: a dash pattern and a marker shape, and its name at its end.
    assert 'stroke-dasharray="6 3"' in body
    assert "<polygon points=" in body
    assert 'id="standings-table"' in body
    assert '<td class="num">1 (11 VP)</td>' in body
    assert 'id="value-table"' in body
    assert "<script" not in body[body.index("<main") :]


def test_the_campaign_page_links_to_it(client, campaign, player):
    client.force_login(player)
    assert f'href="{url(campaign)}"' in client.get(f"/campaigns/{campaign.pk}/").content.decode()


def test_an_empty_campaign_says_so(client, campaign, player):
    client.force_login(player)
    body = client.get(url(campaign)).content.decode()
    assert "The standings start with the first game." in body
    assert "nobody yet" in body


# The session, the user, the campaign with its membership, then the selector's 14 (its own test).
PAGE_QUERIES = 17


@pytest.mark.parametrize("games", [2, 5])
def test_the_page_costs_the_same_after_two_games_as_after_five(
    client,
    campaign,
    warband,
    rival_warband,
    make_fighter,
    organiser,
    player,
    games,
    django_assert_num_queries,
):
    fighters = crews(warband, rival_warband, make_fighter)
    for number, game in enumerate(FIVE_GAMES[:games], start=1):
        play(campaign, number, game, iron=warband, heretic=rival_warband, fighters=fighters, by=organiser)
    client.force_login(player)
    with django_assert_num_queries(PAGE_QUERIES):
        assert client.get(url(campaign)).status_code == 200


@pytest.fixture
def shared():
    redis = shared_redis_or_skip()
    yield redis
    redis.flush()


def test_a_page_read_again_is_answered_from_the_page_cache(client, campaign, played, player, shared):
    client.force_login(player)
    with shared.as_process():
        client.get(url(campaign))
        assert MEMBER_COOKIE in client.cookies
        second = client.get(url(campaign))
    with shared.as_process(), CaptureQueriesContext(connection) as captured:
        third = client.get(url(campaign))
    assert len(captured) == 1  # whether the user may still load it (config/page_versions.py, access_state)
    assert third.content == second.content
