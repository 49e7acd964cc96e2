"""The board's quick actions on each fighter's card: one Damage in one request, answered
by htmx with only what changed; the full page without htmx; a stale action shown again beside its refusal."""

import re

import pytest

from combat.models import TrackerFighter
from combat.services.tracker.fatigue import tracker_adjust_fatigue
from combat.tests.tracker_helpers import answers_whole_board, board_url, damage, target_url, text

pytestmark = pytest.mark.django_db


def card_post(client, table, name, rest, data):
    """A form of `name`'s card posted by htmx, asking for its card (`hx-target="#fighter-N"`)."""
    headers = {"HX-Request": "true", "HX-Target": f"fighter-{table[name].pk}"}
    return client.post(target_url(table, name, rest), data, headers=headers)


def test_one_damage_from_the_card_answers_its_card_and_the_rest_out_of_band(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Brick", "damage/", {"version": 0, "damage": 6, "from": "board"})
    assert response.status_code == 200
    body = text(response)
    brick = table["Brick"].pk
    # The card first, out of band in place of the old one: Brick's Injury marked (Damage 6 ≥ Endurance 6).
    assert body.lstrip().startswith(
        f'<li class="tracker-fighter status-active" id="fighter-{brick}" hx-swap-oob="true">'
    )
    assert re.search(r'tf-injuries">Injuries <strong class="num">1</strong>/3', body)
    # Out of band: the last action with its Undo, the game log, the board's version, the message cleared.
    assert '<div class="card last-action" id="last-action" hx-swap-oob="true">' in body
    assert "Damage 6 ≥ Endurance 6" in body
    assert 'id="undo-button"' in body
    assert '<details class="card tracker-log" id="tracker-log" hx-swap-oob="true">' in body
    assert '<span id="board-version" data-version="1" hidden hx-swap-oob="true"></span>' in body
    assert '<div id="tracker-message" hx-swap-oob="true"></div>' in body
    # Nothing else: no board, no other fighter's card.
    assert 'id="tracker-live"' not in body
    assert f'id="fighter-{table["Vera"].pk}"' not in body
    assert "HX-Retarget" not in response.headers
    # Every part found by its id, nothing swapped into the form's target: a form swapped away meanwhile still lands.
    assert response.headers["HX-Reswap"] == "none"
    brick = table.tracked("Brick")
    assert (brick.harm, brick.injuries) == (1, 1)


@pytest.mark.parametrize("recruits", [0, 12])
def test_the_card_swap_runs_a_fixed_number_of_queries(
    client, table, player, make_fighter, warband, recruits, django_assert_num_queries
):
    for number in range(recruits):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=table.tracker, player=table.alex, fighter=fighter)
    client.force_login(player)
    client.get(board_url(table))
    # Whatever the crews' size: session, user, the target with its game and the membership, the locked board and
    # the writes with their history (a savepoint's two statements around them), then the game log to render one
    # card: the board's row and the fighter's are those the action just saved.
    with django_assert_num_queries(10):
        response = card_post(client, table, "Brick", "damage/", {"version": 0, "damage": 2, "from": "board"})
    assert response.status_code == 200
    assert "Recruit" not in text(response)
    assert table.tracked("Brick").harm == 1


def test_a_card_tap_after_the_other_phones_change_swaps_the_whole_board(client, table, player, player2):
    # The other phone marked Fatigue on Vera (version 0 -> 1); this page, still at 0, taps Damage on Brick. Its
    # card alone would carry version 2 and the page would never be sent Vera's change: the board comes whole.
    tracker_adjust_fatigue(game=table.game, target_id=table["Vera"].pk, change=1, by=player2, version=0)
    client.force_login(player)
    response = card_post(client, table, "Brick", "damage/", {"version": 0, "damage": 2, "from": "board"})
    assert response.status_code == 200
    assert answers_whole_board(response)
    body = text(response)
    assert body.lstrip().startswith('<section id="tracker-live"')
    assert re.search(
        r'tf-fatigue">Fatigue <strong class="num">1</strong>/2', body
    )  # Vera's, from the other phone
    assert 'data-version="2"' in body
    assert table.tracked("Brick").harm == 1


def test_without_htmx_the_same_form_goes_back_to_the_board(client, table, player):
    client.force_login(player)
    response = client.post(
        target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2, "from": "board"}
    )
    assert response.status_code == 302
    assert response["Location"] == board_url(table)
    page = text(client.get(board_url(table)))
    assert page.count('class="tracker-fighter ') == 7
    assert "Damage 2 &lt; Endurance 6: 1 Harm" in page


def test_a_damage_that_starts_a_step_swaps_the_whole_board(client, table, player):
    # Fidus (Endurance 3, Health 1) Incapacitated: the Confusion prompt shows and every card's actions wait.
    client.force_login(player)
    response = card_post(client, table, "Fidus", "damage/", {"version": 0, "damage": 6, "from": "board"})
    assert response.status_code == 200
    assert answers_whole_board(response)
    body = text(response)
    assert body.lstrip().startswith('<section id="tracker-live"')
    assert 'id="pending"' in body
    assert "Confusion: Fidus is Incapacitated" in body


def test_a_fatigue_from_the_card_answers_its_card(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Vera", "fatigue/", {"version": 0, "change": 1})
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith(
        f'<li class="tracker-fighter status-active" id="fighter-{table["Vera"].pk}" hx-swap-oob="true">'
    )
    assert re.search(r'tf-fatigue">Fatigue <strong class="num">1</strong>/2', body)
    assert table.tracked("Vera").fatigue == 1


def test_a_stale_damage_keeps_what_was_picked_beside_the_refusal_on_the_board(client, table, player, player2):
    damage(table, "Brick", 2, player2)  # Quinn's phone changed Brick since Pat's board (version 0)
    client.force_login(player)
    response = card_post(client, table, "Brick", "damage/", {"version": 0, "damage": 3, "from": "board"})
    assert response.status_code == 409
    assert answers_whole_board(response)
    body = text(response)
    assert body.lstrip().startswith('<section id="tracker-live"')
    card = re.search(
        rf'<li class="tracker-fighter[^"]*" id="fighter-{table["Brick"].pk}">(.*?)</li>\s', body, re.S
    )
    assert "Not applied: Damage 3 to Brick." in card.group(1)
    assert "quinn_player" in card.group(1)  # who changed it, from the service's refusal
    assert re.search(r'<option value="3" data-outcome="Damage 3: [^"]*" selected>', card.group(1))
    assert 'name="version" value="1"' in card.group(1)  # the retry is on the board's version now
    assert table.tracked("Brick").harm == 1  # nothing changed


def test_a_stale_damage_without_htmx_comes_back_to_the_boards_own_url(client, table, player, player2):
    damage(table, "Brick", 2, player2)
    client.force_login(player)
    response = client.post(
        target_url(table, "Brick", "damage/"), {"version": 0, "damage": 3, "from": "board"}
    )
    brick = table["Brick"].pk
    assert response.status_code == 302
    assert response["Location"] == f"{board_url(table)}?refused={brick}&damage=3#fighter-{brick}"
    page = text(client.get(response["Location"]))
    card = re.search(
        rf'<li class="tracker-fighter[^"]*" id="fighter-{brick}">(.*?)</li>\s', page, re.S
    ).group(1)
    assert "Not applied: Damage 3 to Brick." in card
    assert "quinn_player" in card  # the reason, beside what was picked
    assert re.search(r'<option value="3" data-outcome="Damage 3: [^"]*" selected>', card)
    # Without JavaScript the line under the form says what the picked Damage 3 does, not Damage 1.
    assert re.search(r'id="outcome-\d+" aria-live="polite"><strong class="num">Damage 3</strong>', card)
    assert table.tracked("Brick").harm == 1
    # Said once: a reload of the same URL keeps the board and drops the refusal.
    assert "Not applied" not in text(client.get(response["Location"]))


def test_a_bad_damage_from_the_card_is_refused_on_the_board(client, table, player):
    client.force_login(player)
    response = client.post(
        target_url(table, "Brick", "damage/"), {"version": 0, "damage": "x", "from": "board"}
    )
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "Not applied: Damage x to Brick." in page
    assert "Not applied: Damage x to Brick. Damage is a whole number." in page
    assert table.tracked("Brick").harm == 0


def test_a_bad_damage_from_the_card_by_htmx_answers_the_board_with_422(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Brick", "damage/", {"version": 0, "damage": "x", "from": "board"})
    assert response.status_code == 422
    assert answers_whole_board(response)
    assert "Not applied: Damage x to Brick." in text(response)


def test_each_card_says_what_each_damage_does(client, table, player):
    client.force_login(player)
    brick = table["Brick"].pk
    page = text(client.get(board_url(table), {"open": brick}))  # at full strength: one line until opened
    outcomes = re.search(rf'<ul class="tf-outcomes small" id="outcomes-{brick}"[^>]*>(.*?)</ul>', page, re.S)
    items = re.findall(r'<li data-outcome-for="(\d+)">(.*?)</li>', outcomes.group(1))
    # Endurance 6: Damage 1-5 one Harm, 6-11 an Injury and 1 Harm, 12 (double) Incapacitated (RULING D-1).
    assert [number for number, _ in items] == [str(n) for n in range(1, 13)]
    words = dict(items)
    assert (
        'this Damage\'s row: 1 Harm</span> → <span class="tf-after">after it: Harm 1/3, Injuries 0 of 3'
        in words["5"]
    )
    assert (
        'row: an Injury and 1 Harm</span> → <span class="tf-after">after it: Harm 1/3, Injuries 1 of 3'
        in words["6"]
    )
    assert "Damage 12 or more" in words["12"]
    assert "after it: Incapacitated" in words["12"]
    # The picked N's line, Damage 1 until another is picked, and each option's outcome for ledger.js to show.
    line = re.search(rf'<p class="tf-outcome small" id="outcome-{brick}"[^>]*>(.*?)</p>', page).group(1)
    assert line.startswith(
        '<strong class="num">Damage 1</strong>: <span class="tf-row">this Damage\'s row: 1 Harm'
    )
    assert f'data-outcome-line="#outcome-{brick}"' in page
    assert (
        '<option value="6" data-outcome="Damage 6: this Damage\'s row: an Injury and 1 Harm → after it: Harm 1/3, '
        'Injuries 1 of 3">6</option>'
    ) in page
    assert '<noscript><details class="tf-ladder">' in page  # the whole list without JavaScript, folded


def test_my_warband_first_with_a_jump_bar(client, table, player, player2, spectator):
    order = {}
    for user in (player, player2, spectator):
        client.force_login(user)
        page = text(client.get(board_url(table)))
        order[user.username] = re.findall(r'<h2 id="crew-title-\d+">([^<]+)</h2>', page)
        jump = re.search(r'<nav class="jump-bar"[^>]*>(.*?)</nav>', page, re.S).group(1)
        assert re.findall(r'href="#crew-(\d+)"', jump) == [
            str(crew) for crew in re.findall(r'<section class="card tracker-crew" id="crew-(\d+)"', page)
        ]
    assert order["pat_player"] == ["Iron Sepulchre", "Heretic Legion"]
    assert order["quinn_player"] == ["Heretic Legion", "Iron Sepulchre"]
    assert order["sam_spectator"] == ["Iron Sepulchre", "Heretic Legion"]  # the game's order


def test_the_fallen_are_folded_away(client, table, player, player2):
    damage(table, "Fidus", 6, player2)  # Incapacitated outright (Damage 6 = double Endurance 3)
    client.force_login(player)
    page = text(client.get(board_url(table)))
    rival = table.sam.warband_id
    fallen = re.search(
        rf'<details class="tracker-fallen" id="fallen-{rival}">(.*?)</details>', page, re.S
    ).group(1)
    assert "<summary>Out of play (1)</summary>" in fallen
    assert f'id="fighter-{table["Fidus"].pk}"' in fallen
    assert f'id="fighter-{table["Mags"].pk}"' not in fallen
    assert f'id="fallen-{table.alex.warband_id}"' not in page


def test_the_game_log_shows_every_action_in_order_with_undo_on_the_last(client, table, player):
    for _ in range(5):
        for name in ("Vera", "Kit"):
            tracker_adjust_fatigue(
                game=table.game, target_id=table[name].pk, change=1, by=player, version=table.version
            )
            tracker_adjust_fatigue(
                game=table.game, target_id=table[name].pk, change=-1, by=player, version=table.version
            )
    assert table.version == 20  # more than the 8 latest the board used to show
    client.force_login(player)
    page = text(client.get(board_url(table)))
    log = re.search(r'<details class="card tracker-log" id="tracker-log">(.*?)</details>', page, re.S).group(
        1
    )
    assert '<summary id="tracker-log-summary">Game log (20 actions)</summary>' in log
    sentences = re.findall(r"<span>((?:Vera|Kit)[^<]*)</span>", log)
    assert len(sentences) == 20
    assert sentences[0] == "Vera takes 1 Fatigue (1 now)."
    assert sentences[-1] == "Kit loses 1 Fatigue (0 now)."
    assert log.count('id="log-undo-button"') == 1
    assert log.rindex('id="log-undo-button"') > log.rindex("Kit loses 1 Fatigue")
    response = client.post(board_url(table, "undo/"), {"version": 20})
    assert response.status_code == 302
    assert table.tracked("Kit").fatigue == 1
    assert TrackerFighter.objects.filter(fatigue__gt=0).count() == 1


def test_plus_one_harm_and_plus_one_injury_from_the_card(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Brick", "harm/", {"version": 0})
    assert response.status_code == 200
    assert re.search(r'tf-harm">Harm <strong class="num">1</strong>/3', text(response))
    response = card_post(client, table, "Brick", "injury/", {"version": 1})
    assert response.status_code == 200
    body = text(response)
    assert re.search(r'tf-injuries">Injuries <strong class="num">1</strong>/3', body)
    assert "Brick suffers an Injury (1 of 3 Injury Boxes marked)." in body
    brick = table.tracked("Brick")
    assert (brick.harm, brick.injuries) == (1, 1)


def test_plus_one_injury_that_incapacitates_swaps_the_board_with_the_confusion_prompt(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Fidus", "injury/", {"version": 0})
    assert response.status_code == 200
    assert answers_whole_board(response)
    assert "Confusion: Fidus is Incapacitated" in text(response)
    assert table.tracked("Fidus").status == TrackerFighter.Status.INCAPACITATED


def test_plus_one_harm_is_offered_below_the_harm_limit_only(client, table, player):
    TrackerFighter.objects.filter(pk=table.tracked("Vera").pk).update(harm=3)
    client.force_login(player)
    # Both opened: Brick at full strength, Vera marked by no action of the board's (a marked card the last
    # action did not change is folded to its line too).
    page = text(client.get(board_url(table), {"open": f"{table['Brick'].pk},{table['Vera'].pk}"}))
    assert 'aria-label="+1 Harm on Brick"' in page
    assert 'aria-label="+1 Harm on Vera"' not in page
    assert 'aria-label="+1 Injury on Vera"' in page
    response = client.post(target_url(table, "Vera", "harm/"), {"version": 0})
    assert response.status_code == 400
    assert "Excess Harm, which has no effect outside Damage" in text(response)
    assert table.tracked("Vera").harm == 3


def test_the_organiser_who_plays_sees_their_warband_first(client, table, organiser):
    table.sam.warband.owner = organiser
    table.sam.warband.save(update_fields=["owner"])
    client.force_login(organiser)
    page = text(client.get(board_url(table)))
    assert re.findall(r'<h2 id="crew-title-\d+">([^<]+)</h2>', page) == ["Heretic Legion", "Iron Sepulchre"]
