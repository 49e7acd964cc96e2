"""A Trench Crusade model on the board (combat/views/tracker_injury.py): its card shows its markers, Down and Tough
and offers one tap for an Injury Roll, the markers and Down; the short form shows the exact odds, updated by an
htmx GET; refusals are 4xx with the reason beside the field and nothing stored; one tap is one small swap with a
fixed number of queries whatever the crews' size."""

import pytest

from combat.models import DiceRoll, TrackerAction, TrackerFighter
from combat.services.tracker.injury import tracker_marker
from combat.tests.tracker_helpers import board_url, target_url, text
from combat.tests.views.test_tracker_out_of_action import card_of, card_post

pytestmark = pytest.mark.django_db


def stored(table) -> tuple:
    return table.version, DiceRoll.objects.count(), TrackerAction.objects.count()


def test_the_card_shows_markers_down_tough_and_the_taps(client, tc_table, player, make_fighter, warband):
    cole = make_fighter(warband, "Brother Cole", keywords=["TOUGH"])
    TrackerFighter.objects.create(tracker=tc_table.tracker, player=tc_table.alex, fighter=cole)
    tc_table.fighters["Brother Cole"] = cole
    tracker_marker(game=tc_table.game, target_id=cole.pk, what="down", change=1, by=player, version=0)
    client.force_login(player)
    card = card_of(text(client.get(board_url(tc_table))), cole.pk)
    assert 'class="tf-blood">Blood <strong class="num">0</strong>/6' in card
    assert 'tf-down">Down</span>' in card
    assert 'tf-tough">Tough</span>' in card
    assert f'id="injury-roll-{cole.pk}"' in card
    assert 'value="blood:1"' in card
    assert 'value="down:-1"' in card
    assert 'value="blood:-1"' not in card  # no Blood Marker to take off
    # The unit keeps its Health Pool: no markers on its card.
    choir = card_of(text(client.get(board_url(tc_table))), tc_table["The Choir"].pk)
    assert "tf-blood" not in choir


def test_one_tap_rolls_with_the_servers_dice_and_swaps_the_card_and_the_log(client, tc_table, player):
    client.force_login(player)
    response = card_post(client, tc_table, "Vera", "injury-roll/roll/", {"version": 0, "from": "board"})
    assert response.status_code == 200
    body = text(response)
    action = TrackerAction.objects.get(tracker=tc_table.tracker)
    roll = DiceRoll.objects.get(pk__in=action.rolls)
    assert (roll.source, len(roll.faces)) == ("server", 2)
    if tc_table.tracked("Vera").status == "active":  # the card alone, the log out of band
        assert body.lstrip().startswith(
            f'<li class="tracker-fighter status-active" id="fighter-{tc_table["Vera"].pk}"'
        )
        assert 'id="tracker-log" hx-swap-oob="true"' in body
    assert "Vera: Injury Roll 2D6 (" in body


def test_the_card_takes_the_faces_typed_in_and_queues_them_offline_but_not_the_servers_dice(
    client, tc_table, player
):
    client.force_login(player)
    vera = tc_table["Vera"].pk
    card = card_of(
        text(client.get(board_url(tc_table), {"open": vera})), vera
    )  # opened: one line at full strength
    # Both forms of the card go in the offline queue; its "Roll for me" is the one static/js/offline.js never keeps.
    assert 'class="inline tf-injury" data-offline-queue data-queue-words="Injury Roll on Vera"' in card
    assert 'name="roll" value="server"' in card
    assert card.count('name="face" min="1" max="6"') == 2  # an Injury Roll with nothing special is 2D6
    assert 'name="roll" value="entered"' in card
    before = stored(tc_table)
    response = card_post(
        client, tc_table, "Vera", "injury-roll/roll/", {"version": 0, "from": "board", "roll": "entered"}
    )
    assert response.status_code == 422  # "I rolled" with no faces typed: nothing stored
    assert stored(tc_table) == before


def test_a_roll_typed_offline_is_replayed_once_by_its_key(client, tc_table, player):
    """The offline queue sends the card's form again with its key and batch when the signal comes back; a send
    whose answer was lost and is sent again rolls nothing twice (combat/services/tracker/keys.py)."""
    client.force_login(player)
    queued = {
        "version": 0,
        "from": "board",
        "roll": "entered",
        "face": ["4", "3"],
        "key": "typed-offline-1",
        "batch": "batch-1",
    }
    for _ in range(2):
        response = card_post(client, tc_table, "Vera", "injury-roll/roll/", queued)
        assert response.status_code == 200
    (action,) = TrackerAction.objects.filter(tracker=tc_table.tracker)
    roll = DiceRoll.objects.get(pk__in=action.rolls)
    assert (roll.faces, roll.source) == ([4, 3], "entered")
    assert DiceRoll.objects.count() == 1
    assert (tc_table.tracked("Vera").blood, tc_table.tracked("Vera").down) == (1, True)  # 7: Down


def test_without_javascript_the_roll_goes_back_to_the_board(client, tc_table, player):
    client.force_login(player)
    response = client.post(
        target_url(tc_table, "Kit", "injury-roll/roll/"),
        {"version": 0, "roll": "entered", "face": ["3", "2"]},
    )
    assert response.status_code == 302
    assert response["Location"] == board_url(tc_table)
    assert tc_table.tracked("Kit").blood == 1


def test_the_form_shows_the_exact_odds_and_htmx_updates_them(client, tc_table, player):
    client.force_login(player)
    page = text(client.get(target_url(tc_table, "Vera", "injury-roll/")))
    # 2D6: 1 or less never; 2-6 is 15/36; 7-8 is 11/36; 9 or more 10/36 (TC_IN_GAME.md, the Injury Table).
    assert '<strong>No Effect</strong>: <span class="num">no chance</span>' in page
    assert '<strong>Minor Hit</strong>: <span class="num">42%</span>' in page
    assert '<strong>Out of Action</strong>: <span class="num">28%</span>' in page
    assert 'hx-get="' in page
    assert "Show the odds" in page  # the plain GET without JavaScript
    params = {"version": 0, "armour": "machine", "modifiers": "-2"}
    partial = text(
        client.get(target_url(tc_table, "Vera", "injury-roll/"), params, headers={"HX-Request": "true"})
    )
    assert partial.lstrip().startswith('<section class="card injury-odds" id="injury-odds"')
    assert "Injury Roll 2D6, -3" in partial  # the cap of -3 (RULING I-2)
    assert '<strong>No Effect</strong>: <span class="num">1 in 6</span>' in partial  # a sum of 4 or less
    assert "<html" not in partial


def test_refusals_are_4xx_beside_the_field_with_nothing_stored(client, tc_table, player):
    client.force_login(player)
    url = target_url(tc_table, "Vera", "injury-roll/roll/")
    before = stored(tc_table)
    response = client.post(url, {"version": 0, "roll": "entered", "face": ["7", "2"]})
    assert response.status_code == 400
    assert 'id="error-faces"' in text(response)
    assert "7 is not a face of a D6" in text(response)
    response = client.post(url, {"version": 0, "roll": "server", "blood_spent": 2})
    assert response.status_code == 400
    assert 'id="error-blood_spent"' in text(response)
    response = client.post(url, {"version": 0, "roll": "server", "modifiers": "plus one"})
    assert response.status_code == 422
    assert 'id="error-modifiers"' in text(response)
    response = client.post(url, {"version": 0, "roll": "server", "armour": "plate"})
    assert response.status_code == 422
    assert stored(tc_table) == before


def test_a_stale_tap_is_refused_with_who_changed_the_model(client, tc_table, player, player2):
    tracker_marker(
        game=tc_table.game, target_id=tc_table["Vera"].pk, what="blood", change=1, by=player2, version=0
    )
    client.force_login(player)
    before = stored(tc_table)
    response = card_post(client, tc_table, "Vera", "injury-roll/roll/", {"version": 0, "from": "board"})
    assert response.status_code == 409
    assert "Vera was changed by" in text(response)
    assert stored(tc_table) == before


def test_marker_taps_and_their_refusals(client, tc_table, player):
    client.force_login(player)
    response = card_post(client, tc_table, "Kit", "markers/", {"version": 0, "marker": "blessings:1"})
    assert response.status_code == 200
    assert tc_table.tracked("Kit").blessings == 1
    response = card_post(client, tc_table, "Kit", "markers/", {"version": 1, "marker": "blood:-1"})
    assert response.status_code == 400
    assert "carries no Blood Marker to take off" in text(response)
    response = card_post(client, tc_table, "Kit", "markers/", {"version": 1, "marker": "harm:1"})
    assert response.status_code == 422


def test_a_fallout_factions_board_offers_none_of_it(client, table, player):
    client.force_login(player)
    response = client.post(target_url(table, "Vera", "injury-roll/roll/"), {"version": 0, "roll": "server"})
    assert response.status_code == 404
    response = client.post(target_url(table, "Vera", "markers/"), {"version": 0, "marker": "blood:1"})
    assert response.status_code == 400
    assert "fighters have Endurance" in text(response)
    assert "tf-blood" not in text(client.get(board_url(table)))


# Measured: the tap's session, access, lock, conflict check and write, the card and the log (the roll adds the
# model's Battlekit for its armour and the roll stored).
# Whether the player's warband took part is read with the membership (campaigns.access.game_membership).
TAP_QUERIES = {"injury-roll/roll/": 17, "markers/": 14}


@pytest.mark.parametrize("path", list(TAP_QUERIES))
def test_one_tap_runs_the_same_number_of_queries_whatever_the_crews_size(
    client, tc_table, player, make_fighter, warband, path, django_assert_num_queries
):
    client.force_login(player)
    client.get(board_url(tc_table))
    for name, recruits in (("Vera", 0), ("Rusty", 12)):
        for number in range(recruits):
            fighter = make_fighter(warband, f"Recruit {number}")
            TrackerFighter.objects.create(tracker=tc_table.tracker, player=tc_table.alex, fighter=fighter)
        data = {"version": tc_table.version, "from": "board", "marker": "blessings:1", "roll": "entered"}
        data["face"] = ["1", "1"]  # a Minor Hit: the model stays in play, so the card alone is swapped
        with django_assert_num_queries(TAP_QUERIES[path]):
            response = card_post(client, tc_table, name, path, data)
        assert response.status_code == 200
        assert 'id="tracker-live"' not in text(response)
