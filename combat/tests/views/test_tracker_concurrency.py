"""Two phones acting at once on PostgreSQL, in real threads with their own connections: never a lost update.

Each thread is one player's client posting through the page, as the phones do. The game's tracker row is locked
for each action and every form carries the board version it was filled in on, so two actions on the same fighter
are either applied one after the other or the later one is refused with a message that says who changed what.
"""

import threading

import pytest
from django.db import connections
from django.test import Client

from combat.models import TrackerAction, TrackerFighter, TrackerGame

pytestmark = pytest.mark.django_db(transaction=True)


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def run_together(*jobs):
    """Start every job at the same moment in its own thread; each closes its database connection when done."""
    barrier = threading.Barrier(len(jobs))
    errors = []

    def run(job):
        try:
            barrier.wait(timeout=10)
            job()
        except Exception as error:  # reported in the test thread below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads)
    assert not errors, errors


def damage_url(table, name):
    return f"/games/{table.game.pk}/tracker/fighters/{table[name].pk}/damage/"


def test_two_clients_damaging_the_same_fighter_from_the_same_board(table, player, player2):
    # Both phones show version 0 and both players tap at once: one is applied, the other refused with a message.
    answers = {}
    pat, quinn = client_for(player), client_for(player2)

    def pat_hits():
        answers["pat"] = pat.post(damage_url(table, "Brick"), {"version": 0, "damage": 2})

    def quinn_hits():
        answers["quinn"] = quinn.post(damage_url(table, "Brick"), {"version": 0, "damage": 6})

    run_together(pat_hits, quinn_hits)

    statuses = sorted(response.status_code for response in answers.values())
    assert statuses == [302, 409]
    (applied,) = TrackerAction.objects.filter(tracker__game=table.game)
    refused_by = "quinn" if answers["quinn"].status_code == 409 else "pat"
    winner = "quinn_player" if refused_by == "pat" else "pat_player"
    message = answers[refused_by].content.decode()
    assert f"Brick was changed by {winner} a moment ago; here is the board as it is now." in message

    brick = TrackerFighter.objects.get(tracker__game=table.game, fighter=table["Brick"])
    if applied.by.username == "pat_player":
        assert (brick.harm, brick.injuries) == (1, 0)  # Damage 2 < Endurance 6: 1 Harm
    else:
        assert (brick.harm, brick.injuries) == (1, 1)  # Damage 6 >= Endurance 6: an Injury and 1 Harm
    assert TrackerGame.objects.get(game=table.game).version == 1


def test_two_clients_on_different_fighters_are_both_applied(table, player, player2):
    answers = {}
    pat, quinn = client_for(player), client_for(player2)
    run_together(
        lambda: answers.setdefault("pat", pat.post(damage_url(table, "Mags"), {"version": 0, "damage": 2})),
        lambda: answers.setdefault(
            "quinn", quinn.post(damage_url(table, "Brick"), {"version": 0, "damage": 2})
        ),
    )
    assert [answers["pat"].status_code, answers["quinn"].status_code] == [302, 302]
    rows = TrackerFighter.objects.filter(tracker__game=table.game, fighter__name__in=["Mags", "Brick"])
    assert sorted(row.harm for row in rows) == [1, 1]
    assert sorted(TrackerAction.objects.values_list("version", flat=True)) == [1, 2]


def test_two_clients_hammering_one_fighter_lose_no_update(table, player, player2):
    # Each client reads the board's version, posts 1 Damage, and on a refusal reads the board again and retries,
    # three times each. Brick (Endurance 6, Health 3, Harm Limit 3) then took six Damage of 1, one after the
    # other: 3 Harm, then three Injuries from Excess Harm (RULING D-2), the third Incapacitating him.
    def hammer(user):
        client = client_for(user)
        applied = attempts = 0
        while applied < 3:
            attempts += 1
            assert attempts < 60, "too many refusals"
            version = TrackerGame.objects.get(game=table.game).version
            response = client.post(damage_url(table, "Brick"), {"version": version, "damage": 1})
            if response.status_code == 302:
                applied += 1
            else:
                assert response.status_code == 409
                assert "Brick was changed by" in response.content.decode()

    run_together(lambda: hammer(player), lambda: hammer(player2))

    brick = TrackerFighter.objects.get(tracker__game=table.game, fighter=table["Brick"])
    assert (brick.harm, brick.injuries, brick.status) == (3, 3, TrackerFighter.Status.INCAPACITATED)
    actions = list(TrackerAction.objects.filter(tracker__game=table.game).order_by("version"))
    assert [action.version for action in actions] == [1, 2, 3, 4, 5, 6]
    assert {action.by.username for action in actions} == {"pat_player", "quinn_player"}
    # Each action started from the state the one before it left: the before-images form one unbroken chain.
    harm_before = [action.before[0]["values"]["harm"] for action in actions]
    injuries_before = [action.before[0]["values"]["injuries"] for action in actions]
    assert harm_before == [0, 1, 2, 3, 3, 3]
    assert injuries_before == [0, 0, 0, 0, 1, 2]
