"""The fighter's card is cached whole under a digest of what it shows (rosters/selectors/fighters.py): read again
it costs the access check and the digest, a write to anything it shows draws it again, and its forms carry the
reader's own CSRF token, never a cached one."""

import pytest
from django.test import Client

from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.templatetags.csrf_slots import MARK
from rosters.tests.test_query_budget import CARD_KEPT_QUERIES, CARD_QUERIES
from rosters.tests.views.page_drawing import TOKEN, drawn, without_tokens

pytestmark = pytest.mark.django_db


def card(client, fighter):
    """The page drawn, not answered from the whole-page cache (page_drawing.drawn)."""
    return drawn(client, f"/fighters/{fighter.pk}/")


@pytest.fixture
def odo(warband, player, make_fighter):
    odo = make_fighter(warband, "Pilgrim Odo", xp=3)
    make_fighter(warband, "Pilgrim Anselm")
    battlekit_services.item_create(warband=warband, fighter=odo, name="Trench Club", by=player)
    return odo


def test_a_card_read_again_costs_the_access_check_and_its_digest(
    client, player, odo, django_assert_num_queries
):
    client.force_login(player)
    with django_assert_num_queries(CARD_QUERIES):
        first = card(client, odo)
    with django_assert_num_queries(CARD_KEPT_QUERIES):
        again = card(client, odo)
    assert without_tokens(again) == without_tokens(first)
    assert MARK not in again


def test_a_write_to_what_the_card_shows_draws_it_again(client, player, warband, odo):
    client.force_login(player)
    assert 'aria-label="Give Trench Club to"' in card(client, odo)
    fighter_services.fighter_adjust_xp(fighter=odo, delta=1, by=player)
    assert "<dt>XP</dt><dd>4" in card(client, odo)
    # Back to the XP it had: the row is as it was, and so is the card (never the one drawn with 4 XP).
    odo.refresh_from_db()
    fighter_services.fighter_adjust_xp(fighter=odo, delta=-1, by=player)
    assert "<dt>XP</dt><dd>3" in card(client, odo)
    # Another fighter of the warband renamed: the "Give to" list names it anew.
    anselm = warband.fighters.get(name="Pilgrim Anselm")
    fighter_services.fighter_update(fighter=anselm, by=player, changes={"name": "Brother Anselm"})
    html = card(client, odo)
    assert ">Brother Anselm</option>" in html
    assert ">Pilgrim Anselm</option>" not in html


def test_who_may_change_the_fighter_has_a_card_of_their_own(client, player, spectator, odo):
    client.force_login(player)
    assert "Take Pilgrim Odo off the roster" in card(client, odo)
    reader = Client()
    reader.force_login(spectator)
    html = card(reader, odo)
    assert "Pilgrim Odo" in html
    assert "Take Pilgrim Odo off the roster" not in html


def test_a_cached_cards_forms_carry_the_readers_own_token(player, odo):
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(player)
    card(browser, odo)  # drawn and cached
    html = card(browser, odo)  # from the cache, with another cookie
    tokens = set(TOKEN.findall(html))
    assert len(tokens) == 1  # every form of the card, the request's one token
    response = browser.post(
        f"/fighters/{odo.pk}/skills/new/",
        {"csrfmiddlewaretoken": tokens.pop(), "name": "Sprint", "chart": ""},
    )
    assert response.status_code == 302
    assert odo.skills.filter(name="Sprint").exists()
