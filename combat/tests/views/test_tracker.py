"""The board's pages through Django's test client: permissions for the five people, setting the board up,
conflicts, pending steps, the poll and the quick actions."""

import pytest

from campaigns.models import Game, GamePlayer
from combat.models import TrackerAction, TrackerFighter
from combat.services.tracker.board import tracker_start
from combat.services.tracker.damage import tracker_apply_damage
from combat.tests.tracker_helpers import board_url, setup_game, snapshot, target_url, text

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("who", ["spectator", "demoted"])
def test_a_spectator_reads_and_polls_but_cannot_act(client, table, player2, who, request):
    """`demoted`: the player whose warband is on this board, made spectator since; they read only
    (docs/architecture.md, "Who may do what"), the htmx taps too."""
    client.force_login(request.getfixturevalue(who))
    page = client.get(board_url(table))
    assert page.status_code == 200
    assert "Brick" in text(page)
    assert "Undo this" not in text(page)
    assert "Damage Brick" not in text(page)
    assert client.get(board_url(table, "board/"), {"version": 0}).status_code == 204
    tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player2, version=0)
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
        assert client.post(url, data, HTTP_HX_REQUEST="true").status_code == 403, url
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
    assert "The Confusion Tests for Fidus&#x27; Incapacitation come first" in text(response)
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
    # Session, user, the target with its game and the right to act on it; then the locked board (the target read
    # once: the lock proves nothing changed it since the form) and the writes (the fighter, the board's version,
    # the action, with their history, between a savepoint's two statements): whatever the crews' size.
    with django_assert_max_num_queries(10):
        response = client.post(target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2})
    assert response.status_code == 302
    assert table.tracked("Brick").harm == 1


def test_applying_damage_by_htmx_runs_a_fixed_number_of_queries(
    client, table, player, make_fighter, warband, django_assert_max_num_queries
):
    for number in range(12):
        fighter = make_fighter(warband, f"Recruit {number}")
        TrackerFighter.objects.create(tracker=table.tracker, player=table.alex, fighter=fighter)
    client.force_login(player)
    client.get(board_url(table))
    brick = table["Brick"].pk
    headers = {"HX-Request": "true", "HX-Target": f"fighter-{brick}"}
    # The plain POST's, then the game log the card's answer shows: the board's row and the fighter's are those
    # the action just saved, not read again.
    with django_assert_max_num_queries(10):
        response = client.post(
            target_url(table, "Brick", "damage/"), {"version": 0, "damage": 2}, headers=headers
        )
    assert response.status_code == 200
    body = text(response)
    assert f'id="fighter-{brick}"' in body
    assert "Damage 2 &lt; Endurance 6: 1 Harm" in body
    assert 'id="tracker-log"' in body
    assert table.tracked("Brick").harm == 1


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


# --- GET never writes; the board is set up by a POST ----------------------------------------------------------


def row_counts() -> dict[str, int]:
    """Rows of every table Django knows, pghistory's event tables included."""
    from django.apps import apps

    return {model._meta.db_table: model._default_manager.count() for model in apps.get_models()}


def test_no_get_of_the_tracker_pages_writes_a_row(
    client, campaign, warband, rival_warband, make_fighter, player, player2, organiser, spectator
):
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    urls = [
        board_url(table),
        board_url(table, "board/"),
        board_url(table, "end/"),
        target_url(table, "Brick"),
    ]
    for started in (False, True):
        if started:
            tracker_start(game=table.game, by=player)
        before = row_counts()
        for user in (player, player2, organiser, spectator):
            client.force_login(user)
            for url in urls:
                assert client.get(url).status_code in (200, 403, 404), url
            client.get(board_url(table, "board/"), {"version": 0}, headers={"HX-Request": "true"})
        after = row_counts()
        # Logging each person in writes their session and axes' access log: that is the login, not a GET.
        for bookkeeping in ("django_session", "axes_accesslog"):
            before.pop(bookkeeping, None), after.pop(bookkeeping, None)
        assert after == before, {
            table: (before[table], after[table]) for table in before if before[table] != after[table]
        }
    assert not TrackerAction.objects.exists()


def test_track_this_game_live_sets_the_board_up_by_a_post(
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
    client.force_login(player)
    page = text(client.get(board_url(table)))
    assert "Track this game live" in page
    assert f'action="{board_url(table, "start/")}"' in page
    assert not TrackerFighter.objects.exists()
    assert client.get(board_url(table, "start/")).status_code == 405  # a GET sets nothing up

    client.force_login(spectator)
    assert "Track this game live" not in text(client.get(board_url(table)))
    assert client.post(board_url(table, "start/")).status_code == 403
    assert not TrackerFighter.objects.exists()

    client.force_login(player)
    response = client.post(board_url(table, "start/"))
    assert response.status_code == 302
    assert response["Location"] == board_url(table)
    assert TrackerFighter.objects.filter(tracker__game=table.game).count() == len(table.fighters)
    assert client.post(board_url(table, "start/")).status_code == 302  # idempotent: still one board
    assert TrackerFighter.objects.filter(tracker__game=table.game).count() == len(table.fighters)


def test_a_recorded_game_gets_no_board(client, campaign, warband, player):
    game = Game.objects.create(
        campaign=campaign, number=9, played_on="2026-11-30", status=Game.Status.RECORDED
    )
    GamePlayer.objects.create(game=game, warband=warband)
    client.force_login(player)
    response = client.post(f"/games/{game.pk}/tracker/start/")
    assert response.status_code == 409
    assert "the tracker follows games in progress only" in text(response)
    assert not TrackerFighter.objects.exists()


# --- The shooting engagement through the page (RULING A-5) ----------------------------------------------------


def test_two_shots_then_end_the_shooting_through_the_page(
    client, table, player, player2, make_fighter, rival_warband
):
    rats = make_fighter(rival_warband, "Rats", unit_size=3, health=2, endurance=3)
    TrackerFighter.objects.create(tracker=table.tracker, player=table.sam, fighter=rats, models_left=3)
    client.force_login(player)
    shot = {"damage": 2, "distance_1": "1", "distance_2": "2", "distance_3": "3", "shooting": "on"}
    response = client.post(
        board_url(table, f"fighters/{rats.pk}/damage/"), {"version": table.version, **shot}
    )
    assert response.status_code == 302
    # The models moved: model 1 is now the farthest; it was assigned, so the second shot goes to model 2.
    shot.update(distance_1="9", distance_2="1", distance_3="2")
    response = client.post(
        board_url(table, f"fighters/{rats.pk}/attack/"),
        {"version": table.version, **shot, "dice": 2, "stat": 5, "supporting": 0, "bonus": 0}
        | {"roll": "entered", "face": ["1", "2"]},
    )
    assert response.status_code == 302
    board = text(client.get(board_url(table)))
    assert "Shooting at Rats" in board
    assert "Due for removal when the shooting ends: model 1, model 2" in board
    assert 'id="end-shooting-button"' in board
    assert TrackerFighter.objects.get(fighter=rats).models_left == 3  # nobody removed yet

    # Other Damage to the unit under fire waits for the end of the engagement.
    response = client.post(
        board_url(table, f"fighters/{rats.pk}/damage/"), {"version": table.version, "damage": 1}
    )
    assert response.status_code == 409
    assert "open shooting engagement" in text(response)

    client.force_login(player2)
    response = client.post(
        board_url(table, "shooting/end/"), {"version": table.version}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert 'id="tracker-live"' in text(response)
    assert "Shooting at Rats" not in text(response)
    row = TrackerFighter.objects.get(fighter=rats)
    assert (row.models_left, row.lost_hp) == (1, 0)
    assert "model 1, model 2 removed" in text(response)


def test_end_the_shooting_with_none_open_gets_a_message(client, table, player):
    client.force_login(player)
    before = snapshot(table.game)
    response = client.post(board_url(table, "shooting/end/"), {"version": table.version})
    assert response.status_code == 400
    assert "No shooting engagement is open" in text(response)
    assert snapshot(table.game) == before
