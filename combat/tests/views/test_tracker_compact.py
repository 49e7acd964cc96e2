"""A board that fits the table: a fighter at full strength is one line (name, profile, track), its card fetched
whole when opened; the page names the cards it shows open, so a board drawn again keeps them. A board of two crews
of 15 stays small and costs the same number of queries as a small one."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat.models import TrackerFighter
from combat.tests.tracker_helpers import board_url, crews_of, damage, target_url, text

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# Two crews of 15 at full strength, on a 390 px phone: the whole page under this many bytes.
MOST_BOARD_BYTES = 60 * 1024


def card_of(body: str, fighter_id: int) -> str:
    """The `<li>` of one fighter's card (a card holds no list of its own but the list without JavaScript)."""
    found = re.search(
        rf'<li class="tracker-fighter[^"]*" id="fighter-{fighter_id}"[^>]*>.*?</li>\s*(?=<li class="tracker-fighter|</ul>\s*(?:</details>|</section>|<details))',
        body,
        re.S,
    )
    return found.group(0)


def compact(body: str, fighter_id: int) -> bool:
    return f'<li class="tracker-fighter tf-compact status-active" id="fighter-{fighter_id}"' in body


def card_url(table, name: str) -> str:
    return target_url(table, name, "card/")


@pytest.mark.parametrize("preset", ["fallout_factions", "trench_crusade"])
def test_a_board_of_15_v_15_is_under_60_kb(client, campaign, player, player2, preset):
    game, _ = crews_of(15, campaign=campaign, player=player, player2=player2, preset=preset)
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/tracker/")
    assert page.status_code == 200
    assert text(page).count('class="tracker-fighter tf-compact status-active"') == 30
    assert len(page.content) < MOST_BOARD_BYTES, len(page.content)
    # The live part a changed poll sends whole is smaller still.
    live = client.get(f"/games/{game.pk}/tracker/board/", {"version": 99}, headers=HTMX)
    assert live.status_code == 200
    assert len(live.content) < len(page.content)


def test_a_board_of_15_v_15_marked_all_over_is_under_60_kb(client, campaign, player, player2):
    """Every fighter of both crews marked by a tap (1 Harm each, the last one 2): each drawn as its line with
    its marks, fetched whole when opened; the one the last tap changed whole, its next tap in reach."""
    from combat.services.tracker.marks import tracker_mark

    game, _ = crews_of(15, campaign=campaign, player=player, player2=player2)
    rows = list(TrackerFighter.objects.filter(tracker__game=game).order_by("id"))
    for version, row in enumerate([*rows, rows[-1]]):
        tracker_mark(game=game, target_id=row.fighter_id, mark="harm", by=player, version=version)
    client.force_login(player)
    page = client.get(f"/games/{game.pk}/tracker/")
    assert page.status_code == 200
    body = text(page)
    last = rows[-1].fighter_id
    assert not compact(body, last)
    assert "Quick Damage" in card_of(body, last)
    assert body.count('class="tracker-fighter tf-compact status-active"') == 29
    assert body.count("Quick Damage") == 1
    for row in rows[:-1]:
        line = card_of(body, row.fighter_id)
        assert re.search(r'tf-harm">Harm <strong class="num">1</strong>', line)
        assert f'hx-get="/games/{game.pk}/tracker/fighters/{row.fighter_id}/card/?part=card"' in line
    assert len(page.content) < MOST_BOARD_BYTES, len(page.content)


def test_a_folded_marked_card_shows_its_marks_and_opens_whole(client, table, player, player2):
    """Brick marked by an earlier tap, Vera by the last: Brick's line carries his Harm and Fatigue, his card
    whole one tap away; Vera's card is whole."""
    from combat.services.tracker.fatigue import tracker_adjust_fatigue

    damage(table, "Brick", 2, player2)  # 1 Harm
    tracker_adjust_fatigue(game=table.game, target_id=table["Brick"].pk, change=1, by=player2, version=1)
    damage(table, "Vera", 2, player2)
    client.force_login(player)
    page = text(client.get(board_url(table)))
    brick, vera = table["Brick"].pk, table["Vera"].pk
    assert compact(page, brick)
    line = card_of(page, brick)
    assert re.search(r'tf-harm">Harm <strong class="num">1</strong>/\d', line)
    assert 'tf-fatigue">Fatigue <strong class="num">1</strong>/2' in line
    assert "<form" not in line
    assert not compact(page, vera)
    assert "Quick Damage" in card_of(page, vera)
    opened = text(client.get(card_url(table, "Brick"), headers=HTMX))
    assert opened.lstrip().startswith(f'<li class="tracker-fighter status-active" id="fighter-{brick}">')
    assert 'aria-label="Brick: take 1 Fatigue"' in opened


@pytest.mark.parametrize("preset", ["fallout_factions", "trench_crusade"])
def test_the_board_costs_the_same_queries_with_3_or_15_fighters_a_crew(
    client, campaign, player, player2, preset, django_assert_num_queries
):
    counts = []
    for number, size in ((1, 3), (2, 15)):
        game, fighter = crews_of(
            size, campaign=campaign, player=player, player2=player2, number=number, preset=preset
        )
        # One fighter marked (a Blood Marker reads on either board): its card whole, the rest one line each.
        TrackerFighter.objects.filter(tracker__game=game, fighter=fighter).update(blood=1)
        client.force_login(player)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(f"/games/{game.pk}/tracker/", {"open": fighter.pk}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]
    # Session, user, then in one round trip the tracker with its game and the membership (with whether the
    # player's warband took part), its fighters and its log.
    with django_assert_num_queries(3):
        client.get(f"/games/{game.pk}/tracker/")


def test_a_fighter_at_full_strength_is_one_line_and_a_marked_one_whole(client, table, player, player2):
    damage(table, "Brick", 2, player2)  # 1 Harm
    client.force_login(player)
    page = text(client.get(board_url(table)))
    brick, vera = table["Brick"].pk, table["Vera"].pk
    assert not compact(page, brick)
    assert "Quick Damage" in card_of(page, brick)
    assert compact(page, vera)
    line = card_of(page, vera)
    # One link: the board with the card open without JavaScript, the card fetched and swapped in by htmx.
    assert f'href="{board_url(table)}?open={vera}#fighter-{vera}"' in line
    # `part=`: the service worker keeps the card it fetched, to open it again with no signal (static/sw.js).
    assert (
        f'hx-get="{card_url(table, "Vera")}?part=card" hx-target="#fighter-{vera}" hx-swap="outerHTML"'
        in line
    )
    assert (
        '<span class="visually-hidden">Open the card of </span><strong class="tf-name">Vera</strong>' in line
    )
    # Its profile and its track, and nothing to post.
    assert "E 4 · I 5" in line
    assert re.search(r'tf-harm">Harm <strong class="num">0</strong>/\d', line)
    assert re.search(r'tf-injuries">Injuries <strong class="num">0</strong>/2', line)
    assert "<form" not in line
    assert "data-outcome" not in line


def test_a_unit_at_full_strength_is_one_line_with_its_models(client, tc_table, player):
    client.force_login(player)
    page = text(client.get(board_url(tc_table)))
    choir = tc_table["The Choir"].pk
    assert compact(page, choir)
    assert 'Models <strong class="num tf-models">3</strong> of 3' in card_of(page, choir)


def test_htmx_opens_a_card_whole_and_folds_it_back(client, table, player):
    client.force_login(player)
    vera = table["Vera"].pk
    response = client.get(card_url(table, "Vera"), headers={**HTMX, "HX-Target": f"fighter-{vera}"})
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith(f'<li class="tracker-fighter status-active" id="fighter-{vera}">')
    assert 'aria-label="Vera: take 1 Fatigue"' in body
    assert f'data-outcome-line="#outcome-{vera}"' in body
    assert "<noscript>" not in body  # fetched by a page that runs JavaScript
    assert 'id="fighter-' + str(table["Brick"].pk) not in body  # that card alone
    fold = f'href="{board_url(table)}#fighter-{vera}" hx-get="{card_url(table, "Vera")}?part=card&amp;fold=1"'
    assert fold in body
    assert '>Fold<span class="visually-hidden"> the card of Vera</span></a>' in body

    folded = text(client.get(card_url(table, "Vera"), {"fold": 1}, headers=HTMX))
    assert folded.lstrip().startswith(
        f'<li class="tracker-fighter tf-compact status-active" id="fighter-{vera}"'
    )
    assert "<form" not in folded


@pytest.mark.parametrize("recruits", [0, 12])
def test_opening_a_card_costs_the_same_queries_whatever_the_crews_size(
    client, table, player, make_fighter, warband, recruits, django_assert_num_queries
):
    for number in range(recruits):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=table.tracker, player=table.alex, fighter=fighter)
    client.force_login(player)
    client.get(board_url(table))
    # As the board's page: session, user, then in one round trip the tracker with its game and the membership
    # (with whether the player's warband took part), its fighters and its log.
    with django_assert_num_queries(3):
        response = client.get(card_url(table, "Vera"), headers=HTMX)
    assert response.status_code == 200
    assert "Recruit" not in text(response)


def test_without_javascript_the_link_loads_the_board_with_that_card_open(client, table, player):
    client.force_login(player)
    vera = table["Vera"].pk
    page = text(client.get(board_url(table), {"open": vera}))
    assert not compact(page, vera)
    card = card_of(page, vera)
    assert "Quick Damage" in card
    assert '<noscript><details class="tf-ladder">' in card  # the whole list, for a page without JavaScript
    assert f'href="{board_url(table)}#fighter-{vera}"' in card  # Fold: the board again
    assert compact(page, table["Brick"].pk)
    # The card's own URL, reached without htmx, is the board with it open (or folded).
    response = client.get(card_url(table, "Vera"))
    assert response.status_code == 302
    assert response["Location"] == f"{board_url(table)}?open={vera}#fighter-{vera}"
    response = client.get(card_url(table, "Vera"), {"fold": 1})
    assert response["Location"] == f"{board_url(table)}#fighter-{vera}"


def test_anything_but_fighter_ids_in_open_is_left_out(client, table, player):
    client.force_login(player)
    vera = table["Vera"].pk
    response = client.get(board_url(table), {"open": f"x,{vera},-3,99999999999,,"})
    assert response.status_code == 200
    page = text(response)
    assert not compact(page, vera)
    assert compact(page, table["Brick"].pk)


def test_the_poll_keeps_the_cards_the_page_shows_open(client, table, player, player2):
    client.force_login(player)
    vera, kit = table["Vera"].pk, table["Kit"].pk
    damage(table, "Brick", 2, player2)
    # A page without the layout gets the whole live part: Vera stays open as the page said, Kit stays a line.
    live = text(client.get(board_url(table, "board/"), {"version": 0, "open": str(vera)}, headers=HTMX))
    assert live.lstrip().startswith('<section id="tracker-live"')
    assert not compact(live, vera)
    assert compact(live, kit)
    # A form's answer drawn whole too (a refused tap: the board as it is now).
    refused = client.post(
        target_url(table, "Brick", "fatigue/"),  # changed by the other phone since version 0
        {"version": 0, "change": 1, "open": f"{vera},{kit}"},
        headers=HTMX,
    )
    assert refused.status_code == 409
    assert not compact(text(refused), vera)
    assert not compact(text(refused), kit)


def test_a_card_acted_on_stays_whole_back_at_full_strength(client, table, player):
    client.force_login(player)
    vera = table["Vera"].pk
    headers = {**HTMX, "HX-Target": f"fighter-{vera}"}
    client.post(target_url(table, "Vera", "fatigue/"), {"version": 0, "change": 1}, headers=headers)
    response = client.post(
        target_url(table, "Vera", "fatigue/"), {"version": 1, "change": -1}, headers=headers
    )
    assert response.status_code == 200
    body = text(response)
    assert table.tracked("Vera").fatigue == 0
    assert body.lstrip().startswith(
        f'<li class="tracker-fighter status-active" id="fighter-{vera}" hx-swap-oob="true">'
    )
    assert 'aria-label="Vera: take 1 Fatigue"' in body


def test_a_refused_quick_damage_opens_the_card_it_was_picked_on(client, table, player):
    client.force_login(player)
    vera = table["Vera"].pk
    response = client.post(
        target_url(table, "Vera", "damage/"), {"version": 0, "damage": "x", "from": "board"}
    )
    page = text(client.get(response["Location"]))
    assert not compact(page, vera)
    assert "Not applied: Damage x to Vera." in card_of(page, vera)


def test_who_may_open_a_card(client, table, spectator, outsider):
    client.force_login(spectator)
    response = client.get(card_url(table, "Vera"), headers=HTMX)
    assert response.status_code == 200
    assert "Vera" in text(response)
    assert "<form" not in text(response)  # a spectator reads
    assert (
        client.get(
            target_url(table, "Vera", "card/").replace(str(table["Vera"].pk), "987654"), headers=HTMX
        ).status_code
        == 404
    )
    client.force_login(outsider)
    assert client.get(card_url(table, "Vera"), headers=HTMX).status_code == 404
    client.logout()
    response = client.get(card_url(table, "Vera"), headers=HTMX)
    assert response.status_code in (302, 401, 204) or "login" in response.get("HX-Redirect", "")


def test_each_open_card_s_outcomes_are_worked_out_once_for_the_page(client, table, player, monkeypatch):
    """The card reads its outcomes for the options, the line under them and the list without JavaScript."""
    from combat.selectors import tracker as selectors

    calls = []
    real = selectors.damage_choices
    monkeypatch.setattr(
        selectors, "damage_choices", lambda fighter: calls.append(fighter.id) or real(fighter)
    )
    client.force_login(player)
    opened = [table[name].pk for name in ("Brick", "Vera")]
    page = text(client.get(board_url(table), {"open": ",".join(map(str, opened))}))
    assert sorted(calls) == sorted(opened)  # once each, and none for the cards drawn compact
    # Brick's Damage 1 to 12, Vera's 1 to 8: up to double the Endurance, which Incapacitates (RULING D-1).
    assert page.count("data-outcome=") == 12 + 8


def test_a_finished_board_draws_its_short_lines_with_no_link_to_open(client, campaign, player, player2):
    """An opened card of an ended game has no buttons: its short line is no longer a link to open it."""
    from combat.models import TrackerGame
    from combat.services.tracker.end import tracker_end_game

    game, _ = crews_of(3, campaign=campaign, player=player, player2=player2)
    client.force_login(player)
    live = client.get(f"/games/{game.pk}/tracker/").content.decode()
    assert live.count("Open the card of ") == 6
    board = TrackerGame.objects.get(game=game)
    results = {gp.pk: "draw" for gp in game.players.all()}
    tracker_end_game(game=game, results=results, by=player, version=board.version)
    ended = client.get(f"/games/{game.pk}/tracker/").content.decode()
    assert ended.count('class="tracker-fighter tf-compact status-active"') == 6
    assert "Open the card of" not in ended
    assert 'class="tf-open" href=' not in ended
    assert "Fighter 1" in ended


def test_a_folded_line_kept_in_memory_reads_as_drawn_and_follows_its_fighter(client, table, player):
    """A folded line is kept in this process's memory and the shared cache under what it shows: the board drawn
    again without the shared cache reads the same, and a fighter renamed on its roster gets its line drawn anew."""
    from django.core.cache import cache

    client.force_login(player)
    vera = table["Vera"].pk
    first = card_of(text(client.get(board_url(table))), vera)
    cache.clear()  # the shared cache lost: the line comes from this process's memory
    assert card_of(text(client.get(board_url(table))), vera) == first
    table["Vera"].__class__.objects.filter(pk=vera).update(name="Vera the Bold")
    renamed = card_of(text(client.get(board_url(table))), vera)
    assert compact(renamed, vera)
    assert '<strong class="tf-name">Vera the Bold</strong>' in renamed
    assert renamed == first.replace("Vera", "Vera the Bold")
