"""The roster page is cached whole under its digest (rosters/selectors/roster.py, ROSTER_DIGEST_SQL): read again it
costs the access check and the digest; a write to anything it shows (a fighter, the campaign's price list, a game
of the warband, its owner's name) draws it again; a page of one request's own (an Undo offer) is never cached; and
its forms carry the reader's own CSRF token, never a cached one."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import price_lists as price_list_services
from rosters.templatetags.csrf_slots import MARK
from rosters.tests.views.page_drawing import TOKEN, drawn, without_tokens
from rosters.views.undo import undo_url

pytestmark = pytest.mark.django_db

# The roster read again, nothing it shows changed: the session and user, then the warband with its campaign and
# owner, the reader's membership and the roster's digest in one query.
ROSTER_KEPT_QUERIES = 3


def roster(client, warband, query: str = "") -> str:
    """The page drawn, not answered from the whole-page cache (page_drawing.drawn)."""
    return drawn(client, f"/warbands/{warband.pk}/{query}")


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def odo(warband, make_fighter):
    return make_fighter(warband, "Pilgrim Odo", xp=3)


def test_a_roster_read_again_costs_the_access_check_and_its_digest(
    as_player, warband, odo, django_assert_num_queries
):
    first = roster(as_player, warband)
    with django_assert_num_queries(ROSTER_KEPT_QUERIES):
        again = roster(as_player, warband)
    assert without_tokens(again) == without_tokens(first)
    assert MARK not in again


def test_what_the_roster_shows_from_elsewhere_draws_it_again(
    as_player, campaign, organiser, player, warband, rival_warband, odo
):
    roster(as_player, warband)
    price_list_services.price_list_save(
        campaign=campaign,
        kind="battlekit",
        rows=[{"name": "Lance", "cost": 10, "keywords": [], "removable": True}],
        by=organiser,
    )
    assert ">Lance (10 ducats)</option>" in roster(as_player, warband)
    game_services.game_record(
        campaign=campaign,
        by=player,
        played_on="2025-03-01",
        entries=[
            game_services.GameEntry(warband, "win"),
            game_services.GameEntry(rival_warband, "loss"),
        ],
    )
    assert "Post-game of <a" in roster(as_player, warband)
    get_user_model().objects.filter(pk=player.pk).update(first_name="Ludwig")
    assert "kept by Ludwig" in roster(as_player, warband)


def test_an_undo_offer_is_drawn_for_its_request_only(as_player, player, warband, odo):
    removal = fighter_services.fighter_remove(fighter=odo, status="dead", battlekit="arsenal", by=player)
    assert 'id="undo"' not in roster(as_player, warband)
    offered = as_player.get(undo_url(removal))
    assert offered.status_code == 200
    assert 'id="undo"' in offered.content.decode()
    assert 'id="undo"' not in roster(as_player, warband)


def test_a_cached_rosters_forms_carry_the_readers_own_token(player, warband, odo):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    roster(browser, warband)  # drawn and cached
    html = roster(browser, warband)  # from the cache, with another cookie
    tokens = set(TOKEN.findall(html))
    assert len(tokens) == 1  # every form of the page, the request's one token
    response = browser.post(f"/fighters/{odo.pk}/xp/", {"csrfmiddlewaretoken": tokens.pop(), "delta": "1"})
    assert response.status_code == 302
    odo.refresh_from_db()
    assert odo.xp == 4
