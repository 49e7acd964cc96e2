"""A changed poll carries only what changed: the changed fighters' cards, the last action, the
game log and the board's version, out of band, a few KB whatever the crews' size; the whole board when the change
cannot be told card by card."""

import re

import pytest

from combat.models import TrackerFighter, TrackerGame
from combat.selectors import tracker_poll
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.damage import tracker_apply_damage
from combat.services.tracker.fatigue import tracker_adjust_fatigue
from combat.tests.tracker_helpers import board_url, crews_of, damage, text
from rosters.models import Fighter

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
# One card (about 5 KB with its twelve Damage choices and its forms), the last action, a short game log, the version.
FEW_KB = 8 * 1024


def page_poll(client, game) -> tuple[str, dict]:
    """The board's page as a phone loads it, and the poll its live partial makes (`hx-get`)."""
    page = text(client.get(f"/games/{game.pk}/tracker/"))
    url = re.search(r'hx-get="([^"]+)"', page[page.index('id="tracker-live"') :]).group(1)
    path, query = url.replace("&amp;", "&").split("?")
    return path, dict(part.split("=") for part in query.split("&"))


def oob_ids(body: str) -> list[str]:
    return re.findall(r'id="([^"]+)"[^>]*hx-swap-oob="true"', body)


def version_of(game) -> int:
    return TrackerGame.objects.get(game=game).version


def test_the_page_polls_with_its_version_and_layout(client, table, player):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    assert path == board_url(table, "board/")
    assert params["version"] == "0"
    assert re.fullmatch(r"[0-9a-f]{16}", params["layout"])


def test_one_fighter_changed_sends_the_same_few_kb_in_crews_of_2_and_of_50(client, campaign, player, player2):
    client.force_login(player)
    answers = {}
    for number, size in ((1, 2), (2, 50)):
        game, target = crews_of(size, campaign=campaign, player=player, player2=player2, number=number)
        path, params = page_poll(client, game)
        tracker_apply_damage(game=game, target_id=target.pk, damage=2, by=player2, version=0)
        answers[size] = (client.get(path, params, headers=HTMX), target)
    for size, (response, target) in answers.items():
        body = text(response)
        assert response.status_code == 200
        assert response["HX-Reswap"] == "none"  # the live partial stays and keeps polling
        assert oob_ids(body) == [f"fighter-{target.pk}", "last-action", "tracker-log", "board-version"]
        assert 'id="tracker-live"' not in body
        assert len(body.encode()) < FEW_KB, size
        assert "Damage 2 &lt; Endurance 6: 1 Harm" in body
        # The card is the damaged fighter's, as it is now.
        assert '<strong class="tf-name">Fighter 1</strong>' in body
        assert re.search(r'tf-harm">Harm <strong class="num">1</strong>', body)
        assert '<span id="board-version" data-version="1" hidden hx-swap-oob="true"></span>' in body
    small, large = (len(answers[size][0].content) for size in (2, 50))
    assert abs(small - large) <= 20  # only the ids' digits differ


@pytest.mark.parametrize("size", [2, 10])
def test_a_changed_poll_runs_a_fixed_number_of_queries(
    client, campaign, player, player2, size, django_assert_num_queries
):
    game, target = crews_of(size, campaign=campaign, player=player, player2=player2)
    client.force_login(player)
    path, params = page_poll(client, game)
    first = (
        Fighter.objects.filter(warband__owner=player, warband__game_entries__game=game).order_by("pk").first()
    )
    for fighter in (first, target):
        tracker_apply_damage(game=game, target_id=fighter.pk, damage=2, by=player2, version=version_of(game))
    # Session, user, then in one round trip the board's row with its game, the membership with who may act and
    # the version, every fighter's row (the layout, the changed cards) and the log.
    with django_assert_num_queries(3):
        response = client.get(path, params, headers=HTMX)
    assert len(oob_ids(text(response))) == 2 + 3


def test_an_undo_of_an_action_the_page_saw_swaps_its_card_back(client, table, player, player2):
    damage(table, "Brick", 2, player2)
    client.force_login(player)
    path, params = page_poll(client, table.game)
    tracker_undo(game=table.game, by=player2, version=1)
    response = client.get(path, params, headers=HTMX)
    body = text(response)
    assert oob_ids(body) == [
        f"fighter-{table['Brick'].pk}",
        "last-action",
        "tracker-log-summary",
        "log-1",  # the Damage, now undone: its Undo goes, "Undone by" comes
        "board-version",
    ]
    assert re.search(r'tf-harm">Harm <strong class="num">0</strong>', body)
    assert "Undone by quinn_player" in body
    assert 'id="log-undo-button"' not in body


def test_a_page_with_a_log_gets_only_its_new_and_changed_entries(client, table, player, player2):
    for change in (1, -1) * 6:  # a long game so far: twelve actions on Vera
        tracker_adjust_fatigue(
            game=table.game, target_id=table["Vera"].pk, change=change, by=player2, version=table.version
        )
    client.force_login(player)
    path, params = page_poll(client, table.game)
    damage(table, "Brick", 2, player2)
    body = text(client.get(path, params, headers=HTMX))
    assert oob_ids(body) == [
        f"fighter-{table['Brick'].pk}",
        "last-action",
        "tracker-log-summary",
        "log-12",  # the last action the page had: its Undo moves to the new one
        "board-version",
    ]
    assert "Game log (13 actions)</summary>" in body
    added = body[body.index('<ol hx-swap-oob="beforeend:#tracker-log-list">') :]
    assert re.findall(r'<li id="(log-\d+)"', added) == ["log-13"]
    assert 'id="log-undo-button"' in added
    assert len(body.encode()) < FEW_KB


def test_without_htmx_the_poll_answers_the_live_partial(client, table, player, player2):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    damage(table, "Brick", 2, player2)
    body = text(client.get(path, params))
    assert 'id="tracker-live"' in body
    assert oob_ids(body) == []


# --- The whole board when the change cannot be told card by card ----------------------------------------------


def full_board(client, path, params) -> bool:
    response = client.get(path, params, headers=HTMX)
    assert response.status_code == 200
    assert "HX-Reswap" not in response.headers
    return 'id="tracker-live"' in text(response)


def test_a_page_with_another_layout_gets_the_whole_board(client, table, player, player2):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    damage(table, "Brick", 2, player2)
    assert full_board(client, path, {**params, "layout": "0123456789abcdef"})
    assert full_board(client, path, {"version": params["version"]})  # a page from before the layout


def test_a_fighter_gone_out_of_play_gets_the_whole_board(client, table, player, player2):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    # Damage 12 on Rusty (Endurance 4, Health 1): Incapacitated; its card folds under "Out of play".
    damage(table, "Rusty", 12, player2)
    assert full_board(client, path, params)


def test_a_change_of_the_games_own_state_gets_the_whole_board(client, table, player, player2):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    # Fidus Incapacitated: Confusion Tests wait for his friends (RULING D-10), a step above the crews.
    damage(table, "Fidus", 12, player)
    assert TrackerGame.objects.get(game=table.game).pending
    assert full_board(client, path, params)


def test_a_page_too_far_behind_gets_the_whole_board(client, table, player, player2, monkeypatch):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    monkeypatch.setattr(tracker_poll, "MOST_VERSIONS_BEHIND", 1)
    damage(table, "Brick", 2, player2)
    damage(table, "Vera", 2, player2)
    assert full_board(client, path, params)


def test_more_changed_cards_than_the_board_is_worth_get_the_whole_board(
    client, table, player, player2, monkeypatch
):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    monkeypatch.setattr(tracker_poll, "MOST_CARDS", 1)
    damage(table, "Brick", 2, player2)
    tracker_adjust_fatigue(game=table.game, target_id=table["Vera"].pk, change=1, by=player2, version=1)
    assert full_board(client, path, params)


def test_a_version_moved_on_by_no_logged_action_gets_the_whole_board(client, table, player, player2):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    damage(table, "Brick", 2, player2)
    TrackerGame.objects.filter(game=table.game).update(version=2)  # as the end of the game moves it on
    assert full_board(client, path, params)


@pytest.mark.parametrize("version", ["5", "x", ""])
def test_a_version_the_board_never_had_gets_the_whole_board(client, table, player, player2, version):
    client.force_login(player)
    path, params = page_poll(client, table.game)
    damage(table, "Brick", 2, player2)
    assert full_board(client, path, {**params, "version": version})


def test_a_changed_card_s_by_takes_the_other_side_s_fighters_from_the_page(client, campaign, player, player2):
    """The poll's card holds no other fighters (its board is the changed rows), so its "By" is empty, and the page,
    drawn whole, holds each crew's choices once: ledger.js copies them in after the swap."""
    game, target = crews_of(3, campaign=campaign, player=player, player2=player2)
    client.force_login(player)
    page = text(client.get(f"/games/{game.pk}/tracker/"))
    path, params = page_poll(client, game)
    tracker_apply_damage(game=game, target_id=target.pk, damage=2, by=player2, version=0)

    body = text(client.get(path, params, headers=HTMX))

    select = re.search(
        r'<select id="by-damage-\d+" name="attacker" class="tf-by-select">(.*?)</select>', body
    )
    assert select is not None
    assert select.group(1) == '<option value="">—</option>'
    choices = re.search(rf'<template id="by-against-crew-{target.warband_id}">(.*?)</template>', page).group(
        1
    )
    others = TrackerFighter.objects.filter(tracker__game=game).exclude(fighter__warband=target.warband_id)
    assert sorted(re.findall(r'<option value="(\d+)">', choices)) == sorted(
        str(fighter_id) for fighter_id in others.values_list("fighter_id", flat=True)
    )
    assert len(others) == 3
