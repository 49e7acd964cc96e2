"""The board of a Trench Crusade campaign (no Endurance): each single model's card offers Out of Action in one tap
(and Back in play), the sentence says why Fallout: Factions' single-model Damage is absent, the refusals are 4xx
with the reason, the page works without JavaScript, and the board's reads stay a fixed number of queries."""

import re

import pytest
from django.utils.html import escape

from combat.models import DiceRoll, TrackerFighter
from combat.rules import board_rules
from combat.services.tracker.out_of_action import tracker_out_of_action
from combat.tests.tracker_helpers import answers_whole_board, board_url, target_url, text

pytestmark = pytest.mark.django_db


def card_post(client, table, name, rest, data):
    """A form of `name`'s card posted by htmx, asking for its card (`hx-target="#fighter-N"`)."""
    headers = {"HX-Request": "true", "HX-Target": f"fighter-{table[name].pk}"}
    return client.post(target_url(table, name, rest), data, headers=headers)


def card_of(body: str, fighter_id: int) -> str:
    """The card's markup, up to the next card or the end of its crew's list."""
    start = body.index(f'id="fighter-{fighter_id}"')
    ends = [body.find(mark, start) for mark in ('<li class="tracker-fighter', "</ul>\n")]
    return body[start : min(end for end in ends if end > 0)]


SENTENCE = escape(board_rules.NO_ENDURANCE_BOARD)


def every_card_open(table) -> dict:
    """The board's query opening every card: a fighter at full strength is otherwise one line without actions."""
    return {
        "open": ",".join(
            str(fighter_id) for fighter_id in table.tracker.fighters.values_list("fighter_id", flat=True)
        )
    }


def test_the_board_offers_out_of_action_marks_and_says_why_the_rest_is_absent(client, tc_table, player):
    client.force_login(player)
    body = text(client.get(board_url(tc_table), every_card_open(tc_table)))
    assert SENTENCE in body
    brick = card_of(body, tc_table["Brick"].pk)
    assert 'aria-label="Out of Action: Brick">Out of Action</button>' in brick
    assert f'hx-post="{target_url(tc_table, "Brick", "out-of-action/")}"' in brick
    # Its own profile (Movement, Ranged, Melee, Armour, base), not Endurance and Intelligence.
    assert re.search(r'<abbr title="Movement">M</abbr> 6″ · <abbr title="Ranged">R</abbr> 0 ·', brick)
    assert '<abbr title="Base">B</abbr> 25mm' in brick
    for absent in (
        "Quick Damage",
        "+ Fatigue",
        "+1 Harm",
        "+1 Injury",
        "Injuries <strong",
        "E 6 ·",
        ">Damage<",
    ):
        assert absent not in brick, absent
    # A unit keeps its Health Pool and its Damage (seed 004), with no Fatigue and no Out of Action mark.
    choir = card_of(body, tc_table["The Choir"].pk)
    assert "Models <strong" in choir
    assert "Quick Damage" in choir
    assert "Out of Action</button>" not in choir
    assert "+ Fatigue" not in choir


def test_a_fallout_factions_board_has_neither_the_marks_nor_the_sentence(client, table, player):
    client.force_login(player)
    body = text(client.get(board_url(table), every_card_open(table)))
    assert SENTENCE not in body
    assert "out-of-action/" not in body
    assert "+ Fatigue" in card_of(body, table["Brick"].pk)


def test_a_tap_by_htmx_marks_the_fighter_and_swaps_the_board_it_changed(client, tc_table, player):
    client.force_login(player)
    response = card_post(client, tc_table, "Fidus", "out-of-action/", {"version": 0})
    assert response.status_code == 200
    assert tc_table.tracked("Fidus").status == TrackerFighter.Status.OUT_OF_ACTION
    # Fidus left play: the crew's count and its folded "Out of play" change too, so the live part is swapped,
    # out of band in place of the board (no page load), with his card there and Back in play on it.
    assert answers_whole_board(response)
    body = text(response)
    assert body.lstrip().startswith('<section id="tracker-live"')
    fallen = body[body.index(f'id="fallen-{tc_table.sam.warband_id}"') :]
    assert f'id="fighter-{tc_table["Fidus"].pk}"' in fallen
    assert 'aria-label="Back in play: Fidus">Back in play</button>' in fallen
    assert "Fidus is taken Out of Action and removed from play" in body
    assert 'id="undo-button"' in body

    back = card_post(client, tc_table, "Fidus", "back-in-play/", {"version": 1})
    assert back.status_code == 200
    assert tc_table.tracked("Fidus").status == TrackerFighter.Status.ACTIVE
    assert "Fidus is back in play" in text(back)


def test_without_javascript_the_tap_goes_back_to_the_board(client, tc_table, player):
    client.force_login(player)
    response = client.post(target_url(tc_table, "Kit", "out-of-action/"), {"version": 0})
    assert response.status_code == 302
    assert response["Location"] == board_url(tc_table)
    page = text(client.get(board_url(tc_table)))
    assert "<summary>Out of play (1)</summary>" in page
    assert 'tf-status">Out of Action</span>' in card_of(page, tc_table["Kit"].pk)


def test_a_refusal_is_a_4xx_with_the_reason(client, tc_table, player):
    client.force_login(player)
    response = card_post(client, tc_table, "Brick", "fatigue/", {"version": 0, "change": 1})
    assert response.status_code == 400
    assert "Brick has no Endurance: single-model Damage against Endurance is Fallout: Factions" in text(
        response
    )
    response = client.post(target_url(tc_table, "Brick", "damage/"), {"version": 0, "damage": 3})
    assert response.status_code == 400
    assert "Brick has no Endurance" in text(response)
    response = card_post(client, tc_table, "The Choir", "out-of-action/", {"version": 0})
    assert response.status_code == 400
    assert "The Choir is a unit of several models" in text(response)
    response = card_post(client, tc_table, "Vera", "back-in-play/", {"version": 0})
    assert response.status_code == 400
    assert "there is no mark to take back" in text(response)
    assert tc_table.version == 0


def test_on_a_fallout_factions_board_the_mark_is_refused_with_the_reason(client, table, player):
    client.force_login(player)
    response = card_post(client, table, "Brick", "out-of-action/", {"version": 0})
    assert response.status_code == 400
    assert "a model leaves play by Damage, Incapacitated" in text(response)
    assert table.tracked("Brick").status == TrackerFighter.Status.ACTIVE


def test_a_spectator_cannot_mark(client, tc_table, spectator):
    client.force_login(spectator)
    response = client.post(target_url(tc_table, "Brick", "out-of-action/"), {"version": 0})
    assert response.status_code == 403
    assert tc_table.tracked("Brick").status == TrackerFighter.Status.ACTIVE


@pytest.mark.parametrize("recruits", [0, 12])
def test_the_trench_crusade_board_runs_a_fixed_number_of_queries(
    client, tc_table, player, make_fighter, warband, recruits, django_assert_max_num_queries
):
    for number in range(recruits):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=tc_table.tracker, player=tc_table.alex, fighter=fighter)
    tracker_out_of_action(game=tc_table.game, target_id=tc_table["Kit"].pk, taken=True, by=player, version=0)
    client.force_login(player)
    # As the Fallout: Factions board (test_tracker.py): the profile and the marks add no query, every card open.
    opened = every_card_open(tc_table)
    with django_assert_max_num_queries(10):
        response = client.get(board_url(tc_table), opened)
    assert response.status_code == 200
    assert text(response).count("Out of Action</button>") == 6 + recruits  # 8 fighters less Kit and The Choir


def test_the_target_page_of_a_single_model_says_why_and_offers_no_damage(client, tc_table, player):
    client.force_login(player)
    body = text(client.get(target_url(tc_table, "Brick")))
    assert SENTENCE in body
    assert 'id="roll-attack"' not in body
    assert 'id="type-damage"' not in body
    assert "<dt>Endurance</dt>" not in body
    assert "<dt>Movement</dt>" in body


def test_the_target_page_of_a_unit_keeps_its_damage_without_the_attack_test(client, tc_table, player):
    client.force_login(player)
    body = text(client.get(target_url(tc_table, "The Choir")))
    assert 'id="type-damage"' in body
    assert "<h2>Type the Damage</h2>" in body
    assert 'id="roll-attack"' not in body
    assert "Health Pool" in body


def test_the_end_page_lists_the_marked_fighters(client, tc_table, player):
    tracker_out_of_action(
        game=tc_table.game, target_id=tc_table["Rusty"].pk, taken=True, by=player, version=0
    )
    client.force_login(player)
    body = text(client.get(board_url(tc_table, "end/")))
    summary = body[body.index('id="end-summary"') :]
    assert "<li>Rusty" in summary


def test_a_tap_runs_the_same_number_of_queries_whatever_the_crews_size(
    client, tc_table, player, make_fighter, warband
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(player)
    client.get(board_url(tc_table))
    counts = []
    for name, recruits in (("Vera", 0), ("Rusty", 12)):
        for number in range(recruits):
            fighter = make_fighter(warband, f"Recruit {number}")
            TrackerFighter.objects.create(tracker=tc_table.tracker, player=tc_table.alex, fighter=fighter)
        with CaptureQueriesContext(connection) as queries:
            response = card_post(client, tc_table, name, "out-of-action/", {"version": tc_table.version})
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_an_attack_test_posted_there_is_refused_with_the_reason(client, tc_table, player):
    client.force_login(player)
    data = {
        "version": 0,
        "dice": 2,
        "stat": 5,
        "supporting": 0,
        "bonus": 0,
        "roll": "entered",
        "face": ["1", "2"],
    }
    response = client.post(target_url(tc_table, "The Choir", "attack/"), data)
    assert response.status_code == 400
    assert "ten-sided dice against a Fallout: Factions stat" in text(response)
    assert tc_table.version == 0
    assert not DiceRoll.objects.exists()


def test_the_mark_offers_by_with_the_other_sides_fighters_only(client, tc_table, player):
    client.force_login(player)
    opened = {"open": tc_table["Brick"].pk}  # one line at full strength until opened
    brick = card_of(text(client.get(board_url(tc_table), opened)), tc_table["Brick"].pk)
    by = brick[brick.index(f'id="by-out-{tc_table["Brick"].pk}"') :]
    by = by[: by.index("</select>")]
    assert f'<option value="{tc_table["Mags"].pk}">Mags</option>' in by
    assert f'value="{tc_table["Vera"].pk}"' not in by


def test_by_is_stored_with_the_mark(client, tc_table, player):
    client.force_login(player)
    data = {"version": tc_table.version, "attacker": tc_table["Mags"].pk}
    response = card_post(client, tc_table, "Brick", "out-of-action/", data)
    assert response.status_code == 200
    action = tc_table.tracker.actions.get()
    assert action.attacker_id == tc_table["Mags"].pk


@pytest.mark.parametrize(("given", "status", "reason"), [("own", 400, "own side"), ("x", 422, "“By” names")])
def test_a_bad_by_is_refused_with_the_reason_and_nothing_changed(
    client, tc_table, player, given, status, reason
):
    client.force_login(player)
    attacker = tc_table["Vera"].pk if given == "own" else given
    response = card_post(client, tc_table, "Brick", "out-of-action/", {"version": 0, "attacker": attacker})
    assert response.status_code == status
    assert escape(reason) in text(response)
    assert tc_table.tracked("Brick").status == TrackerFighter.Status.ACTIVE
    assert not tc_table.tracker.actions.exists()
