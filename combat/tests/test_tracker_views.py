"""The tracker's pages through Django's test client: the worked examples, permissions for the five people, bad
input, conflicts, the poll, and the end of the game."""

import pytest

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.models import DiceRoll, TrackerAction, TrackerFighter
from combat.services.tracker.board import tracker_start
from combat.services.tracker.damage import tracker_apply_damage
from combat.tests.tracker_helpers import setup_game, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def board_url(table, rest=""):
    return f"/games/{table.game.pk}/tracker/{rest}"


def target_url(table, name, rest=""):
    return board_url(table, f"fighters/{table[name].pk}/{rest}")


def text(response) -> str:
    return response.content.decode()


# --- The seed's worked examples through the page ---------------------------------------------------------------


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


# --- Permissions: the five people ----------------------------------------------------------------------------


def test_anonymous_users_are_sent_to_log_in(client, table):
    for url in (
        board_url(table),
        board_url(table, "board/"),
        target_url(table, "Brick"),
        board_url(table, "end/"),
    ):
        response = client.get(url)
        assert response.status_code == 302
        assert "/accounts/login/" in response["Location"]
    response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 3})
    assert response.status_code == 302
    assert table.tracked("Brick").harm == 0


def test_outsiders_get_404(client, table, outsider):
    client.force_login(outsider)
    assert client.get(board_url(table)).status_code == 404
    assert client.get(board_url(table, "board/")).status_code == 404
    assert client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 3}).status_code == 404
    assert table.tracked("Brick").harm == 0


def test_a_spectator_reads_and_polls_but_cannot_act(client, table, spectator, player):
    client.force_login(spectator)
    page = client.get(board_url(table))
    assert page.status_code == 200
    assert "Brick" in text(page)
    assert "Undo this" not in text(page)
    assert "Damage Brick" not in text(page)
    assert client.get(board_url(table, "board/"), {"version": 0}).status_code == 204
    tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player, version=0)
    assert client.get(board_url(table, "board/"), {"version": 0}).status_code == 200

    before = snapshot(table.game)
    posts = [
        (target_url(table, "Brick", "damage/"), {"version": 1, "damage": 3}),
        (target_url(table, "Brick", "attack/"), {"version": 1, "dice": 2, "stat": 5, "roll": "server"}),
        (target_url(table, "Brick", "fatigue/"), {"version": 1, "change": 1}),
        (target_url(table, "Brick", "recover-harm/"), {"version": 1}),
        (board_url(table, "undo/"), {"version": 1}),
        (board_url(table, "confusion/friends/"), {"version": 1}),
        (board_url(table, "confusion/test/"), {"version": 1, "roll": "server"}),
        (board_url(table, "confusion/choice/"), {"version": 1, "choice": "flee"}),
        (board_url(table, "ties/"), {"version": 1, "order": "1"}),
        (board_url(table, "end/"), {"version": 1}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    assert snapshot(table.game) == before


def test_both_players_in_the_game_and_the_organiser_act(client, table, player, player2, organiser):
    for number, user in enumerate((player, player2, organiser)):
        client.force_login(user)
        response = client.post(
            target_url(table, "Vera", "fatigue/"), {"version": number, "change": 1 - 2 * (number == 2)}
        )
        assert response.status_code == 302, user
    assert TrackerAction.objects.filter(tracker__game=table.game).count() == 3


def test_a_player_whose_warband_is_not_in_the_game_only_reads(
    client, campaign, warband, make_fighter, player, player2
):
    game = Game.objects.create(
        campaign=campaign, number=7, played_on="2026-11-30", status=Game.Status.IN_PROGRESS
    )
    GamePlayer.objects.create(game=game, warband=warband)
    brick = make_fighter(warband, "Brick")
    tracker_start(game=game, by=player)
    client.force_login(player2)
    assert client.get(f"/games/{game.pk}/tracker/").status_code == 200
    response = client.post(
        f"/games/{game.pk}/tracker/fighters/{brick.pk}/damage/", {"version": 0, "damage": 1}
    )
    assert response.status_code == 403


def test_the_first_look_of_a_reader_does_not_set_up_the_board(
    client, campaign, warband, rival_warband, make_fighter, player, spectator
):
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    client.force_login(spectator)
    assert "No board yet" in text(client.get(board_url(table)))
    client.force_login(player)
    # GET never writes: the player sets the board up with "Track this game live" (a POST) first.
    assert client.post(board_url(table, "start/")).status_code == 302
    assert "Brick" in text(client.get(board_url(table)))
    assert table.version == 0


# --- Bad input: a message, nothing changed --------------------------------------------------------------------


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


# --- Conflicts, pending steps, the poll ------------------------------------------------------------------------


def test_a_stale_form_gets_the_board_as_it_is_now(client, table, player, player2):
    tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player2, version=0)
    client.force_login(player)
    response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2})
    assert response.status_code == 409
    body = text(response)
    assert "Brick was changed by quinn_player a moment ago; here is the board as it is now." in body
    assert 'id="tracker-live"' in body
    assert table.tracked("Brick").harm == 1


def test_a_pending_confusion_test_blocks_other_actions(client, table, player):
    tracker_apply_damage(game=table.game, target_id=table["Fidus"].pk, damage=4, by=player, version=0)
    client.force_login(player)
    board = text(client.get(board_url(table)))
    assert "Other actions wait until they are done." in board
    assert "Damage Brick" not in board
    response = client.post(target_url(table, "Brick", "damage/"), {"version": 1, "damage": 2})
    assert response.status_code == 409
    assert "The Confusion Tests for Fidus&#x27;s Incapacitation come first" in text(response)
    assert table.tracked("Brick").harm == 0


def test_the_poll_answers_204_while_nothing_changed(client, table, player, django_assert_max_num_queries):
    client.force_login(player)
    version = table.version
    # The session, the user, the game, the membership, the version: nothing of the board is loaded.
    with django_assert_max_num_queries(5):
        response = client.get(board_url(table, "board/"), {"version": version})
    assert response.status_code == 204
    assert response.content == b""


def test_the_poll_answers_the_live_partial_when_the_board_changed(client, table, player, player2):
    client.force_login(player)
    tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player2, version=0)
    response = client.get(board_url(table, "board/"), {"version": 0}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    body = text(response)
    assert body.lstrip().startswith('<section id="tracker-live"')
    assert "?version=1" in body
    assert "Damage 2 &lt; Endurance 6: 1 Harm" in body


def test_the_board_runs_a_fixed_number_of_queries(
    client, table, player, make_fighter, warband, django_assert_max_num_queries
):
    client.force_login(player)
    client.get(board_url(table))
    for number in range(12):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=table.tracker, player=table.alex, fighter=fighter)
    with django_assert_max_num_queries(10):
        response = client.get(board_url(table))
    assert "Recruit 11" in text(response)


def test_applying_damage_runs_a_fixed_number_of_queries(
    client, table, player, make_fighter, warband, django_assert_max_num_queries
):
    for number in range(12):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=table.tracker, player=table.alex, fighter=fighter)
    client.force_login(player)
    client.get(board_url(table))
    # Session, user, game, membership, the right to act, the target; then the locked board, the target again, and
    # the writes (the fighter, the board's version, the action, with their history): whatever the crews' size.
    with django_assert_max_num_queries(13):
        response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2})
    assert response.status_code == 302


def test_a_quick_action_by_htmx_answers_the_live_partial(client, table, player):
    client.force_login(player)
    response = client.post(
        target_url(table, "Vera", "fatigue/"), {"version": 0, "change": 1}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert text(response).lstrip().startswith('<section id="tracker-live"')
    assert table.tracked("Vera").fatigue == 1


def test_undo_through_the_page(client, table, player):
    client.force_login(player)
    client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 6})
    assert table.tracked("Brick").injuries == 1
    response = client.post(board_url(table, "undo/"), {"version": 1})
    assert response.status_code == 302
    brick = table.tracked("Brick")
    assert (brick.harm, brick.injuries) == (0, 0)
    assert "Undone by pat_player" in text(client.get(board_url(table)))


# --- End of game ----------------------------------------------------------------------------------------------


def test_the_end_of_the_game_through_the_page(client, table, player, player2):
    tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=8, by=player2, version=0)
    client.force_login(player)
    client.post(board_url(table, "confusion/friends/"), {"version": 1})
    review = text(client.get(board_url(table, "end/")))
    assert "Kit" in review
    assert "No warband earned Harsh Lessons XP." in review or "No crew earned Harsh Lessons XP." in review

    response = client.post(
        board_url(table, "end/"),
        {"version": table.version, f"result_{table.alex.pk}": "win", f"result_{table.sam.pk}": "loss"},
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Game over" in board
    assert f"/games/{table.game.pk}/post-game/{table.sam.warband_id}/" in board
    assert list(OutOfAction.objects.values_list("fighter__name", flat=True)) == ["Kit"]
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.RECORDED


def test_the_end_of_the_game_needs_the_results(client, table, player):
    client.force_login(player)
    response = client.post(board_url(table, "end/"), {"version": 0, f"result_{table.alex.pk}": "win"})
    assert response.status_code == 422
    assert "Enter Heretic Legion&#x27;s result." in text(response)
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS
