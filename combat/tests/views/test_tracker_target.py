"""A target's page through Django's test client: the worked examples, the odds, units, and bad input."""

import pytest

from campaigns.models import Game, GamePlayer
from combat.models import DiceRoll, TrackerFighter
from combat.services.tracker.board import tracker_start
from combat.tests.tracker_helpers import board_url, snapshot, target_url, text

pytestmark = pytest.mark.django_db


def test_example_one_through_the_page(client, table, player, player2):
    client.force_login(player)
    page = client.get(
        target_url(table, "Fidus"), {"dice": 4, "stat": 7, "brawl": "on", "supporting": 0, "bonus": 0}
    )
    assert page.status_code == 200
    # The odds before the roll: 4 dice against 7 on Endurance 3 (damage_odds).
    assert "4 dice: 4 D10s, a Hit on 7 or less" in text(page)
    assert "Incapacitated either way" in text(page)
    assert 'name="face"' in text(page)

    response = client.post(
        target_url(table, "Fidus", "attack/"),
        {
            "version": 0,
            "attacker": table["Brick"].pk,
            "dice": 4,
            "stat": 7,
            "brawl": "on",
            "supporting": 0,
            "bonus": 0,
            "roll": "entered",
            "face": ["2", "7", "5", "1"],
        },
    )
    assert response.status_code == 302
    assert response["Location"] == board_url(table)
    assert table.tracked("Fidus").status == TrackerFighter.Status.INCAPACITATED
    assert DiceRoll.objects.get(purpose="attack").faces == [2, 7, 5, 1]

    board = text(client.get(board_url(table)))
    assert "Damage 4 ≥ Endurance 3: one Injury and 1 Harm" in board
    assert "Confusion: Fidus is Incapacitated" in board
    assert "Which friends of Fidus were within 3″?" in board

    # Sam (the second player) ticks Double-Joe; the Confusion Test follows, typed in from the table.
    client.force_login(player2)
    response = client.post(
        board_url(table, "confusion/friends/"),
        {"version": table.version, "friends": [table["Double-Joe"].pk]},
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Double-Joe (I 5) — passes 75%" in board
    response = client.post(
        board_url(table, "confusion/test/"), {"version": table.version, "roll": "entered", "face": ["9", "8"]}
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Double-Joe</strong> is Confused" in board
    response = client.post(
        board_url(table, "confusion/choice/"), {"version": table.version, "choice": "fatigue"}
    )
    assert response.status_code == 302
    assert table.tracked("Double-Joe").fatigue == 1
    assert table.tracker.pending is None


def test_example_two_through_the_page(client, table, player2):
    client.force_login(player2)
    response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2})
    assert response.status_code == 302
    assert table.tracked("Brick").harm == 1
    board = text(client.get(board_url(table)))
    assert "Damage 2 &lt; Endurance 6: 1 Harm" in board


def test_the_target_page_shows_what_each_damage_does(client, table, player):
    client.force_login(player)
    page = text(client.get(target_url(table, "Fidus")))
    assert "Damage 1–2</strong>: 1 Harm" in page
    assert "Damage 6 or more</strong>: Incapacitated" in page


def test_odds_refresh_as_an_htmx_partial(client, table, player):
    client.force_login(player)
    response = client.get(
        target_url(table, "Brick"),
        {"dice": 3, "stat": 6, "supporting": 0, "bonus": 0, "makeshift": "on", "attacker": table["Kit"].pk},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith('<div id="attack-odds"')
    # Makeshift Weapon: 2 dice against Kit's Strength (5 by default), whatever was typed (RULING D-12).
    assert "Makeshift Weapon 2S: 2 D10s, a Hit on 5 or less" in body
    assert '<input type="hidden" name="makeshift" value="on">' in body


def test_a_unit_shows_its_health_pool_and_the_odds_of_models_removed(
    client, table, player, make_fighter, rival_warband
):
    trolls = make_fighter(rival_warband, "Trolls", unit_size=10, health=3, endurance=5)
    TrackerFighter.objects.create(
        tracker=table.tracker, player=table.sam, fighter=trolls, models_left=10, lost_hp=0
    )
    client.force_login(player)
    board = text(client.get(board_url(table)))
    assert 'Models <strong class="num tf-models">10</strong> of 10' in board
    page = text(
        client.get(
            board_url(table, f"fighters/{trolls.pk}/"), {"dice": 4, "stat": 10, "supporting": 0, "bonus": 0}
        )
    )
    assert "1 model removed" in page
    assert 'name="distance_10"' in page
    response = client.post(
        board_url(table, f"fighters/{trolls.pk}/damage/"),
        {"version": table.version, "damage": 7},
    )
    assert response.status_code == 302
    row = TrackerFighter.objects.get(fighter=trolls)
    assert (row.models_left, row.lost_hp) == (8, 1)


def test_a_unit_allocates_by_distance_and_asks_the_defender_about_ties(
    client, table, player, player2, make_fighter, rival_warband
):
    rats = make_fighter(rival_warband, "Rats", unit_size=3, health=2, endurance=3)
    TrackerFighter.objects.create(tracker=table.tracker, player=table.sam, fighter=rats, models_left=3)
    client.force_login(player)
    response = client.post(
        board_url(table, f"fighters/{rats.pk}/damage/"),
        {"version": 0, "damage": 3, "distance_1": "4", "distance_2": "4", "distance_3": ""},
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Equally close models" in board
    assert "model 1, model 2 — all at 4″" in board
    assert TrackerFighter.objects.get(fighter=rats).models_left == 3

    client.force_login(player2)  # the defending player orders them
    response = client.post(board_url(table, "ties/"), {"version": table.version, "order": "2 1"})
    assert response.status_code == 302
    row = TrackerFighter.objects.get(fighter=rats)
    assert (row.models_left, row.lost_hp) == (2, 1)
    board = text(client.get(board_url(table)))
    assert "model 2 (4&quot;) removed; model 1 (4&quot;) takes 1, into the Sustained Damage pool" in board


def test_negative_damage_gets_a_message_and_changes_nothing(client, table, player):
    client.force_login(player)
    before = snapshot(table.game)
    response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": -2})
    assert response.status_code == 422
    assert "Damage is at least 0." in text(response)
    assert snapshot(table.game) == before
    assert table.version == 0


def test_a_d10_face_of_11_gets_a_message_and_stores_no_roll(client, table, player):
    client.force_login(player)
    before = snapshot(table.game)
    response = client.post(
        target_url(table, "Kit", "attack/"),
        {
            "version": 0,
            "dice": 2,
            "stat": 5,
            "supporting": 0,
            "bonus": 0,
            "roll": "entered",
            "face": ["3", "11"],
        },
    )
    assert response.status_code == 422
    assert "Die 2: a D10 shows 1 to 10, not 11." in text(response)
    assert snapshot(table.game) == before
    assert not DiceRoll.objects.exists()


def test_too_few_faces_get_a_message(client, table, player):
    client.force_login(player)
    response = client.post(
        target_url(table, "Kit", "attack/"),
        {
            "version": 0,
            "dice": 3,
            "stat": 5,
            "supporting": 0,
            "bonus": 0,
            "roll": "entered",
            "face": ["3", "4"],
        },
    )
    assert response.status_code == 400
    assert "This Attack Test rolls 3 D10s: enter 3 faces (you entered 2)." in text(response)
    assert not DiceRoll.objects.exists()


def test_a_target_from_another_game_gets_a_message(client, table, player, campaign, warband, make_fighter):
    other = Game.objects.create(
        campaign=campaign, number=2, played_on="2026-11-30", status=Game.Status.IN_PROGRESS
    )
    GamePlayer.objects.create(game=other, warband=warband)
    stranger = make_fighter(warband, "Stranger")
    tracker_start(game=other, by=player)
    client.force_login(player)
    before = snapshot(table.game)
    response = client.post(board_url(table, f"fighters/{stranger.pk}/damage/"), {"version": 0, "damage": 3})
    assert response.status_code == 404
    assert "That fighter is not on this game&#x27;s board." in text(response)
    response = client.post(board_url(table, f"fighters/{stranger.pk}/fatigue/"), {"version": 0, "change": 1})
    assert response.status_code == 409 or response.status_code == 400
    assert "not on this game" in text(response)
    assert snapshot(table.game) == before
    assert TrackerFighter.objects.get(fighter=stranger).fatigue == 0


def test_a_missing_version_gets_a_message(client, table, player):
    client.force_login(player)
    response = client.post(target_url(table, "Brick", "fatigue/"), {"change": 1})
    assert response.status_code == 422
    assert "reload the board" in text(response)
