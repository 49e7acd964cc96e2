"""Idempotency keys of the board's actions (combat/services/tracker/keys.py): a repeat is applied once,
keys are per person and game, and the taps of one offline queue do not refuse each other."""

import pytest

from combat.models import TrackerAction, TrackerActionKey, TrackerFighter
from combat.services.tracker.damage import tracker_apply_damage
from combat.services.tracker.errors import TrackerConflict
from combat.services.tracker.fatigue import tracker_adjust_fatigue, tracker_recover_harm
from combat.services.tracker.keys import Sent
from combat.services.tracker.marks import tracker_mark
from combat.tests.tracker_helpers import damage, events_of

pytestmark = pytest.mark.django_db


def test_the_same_key_sent_twice_is_applied_once(table, player):
    sent = Sent(key="3f1c-aa", batch="queue-1")
    first = tracker_mark(
        game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0, sent=sent
    )
    again = tracker_mark(
        game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0, sent=sent
    )
    assert again.pk == first.pk
    assert table.tracked("Brick").harm == 1
    assert table.version == 1
    assert TrackerAction.objects.filter(tracker__game=table.game).count() == 1
    assert TrackerActionKey.objects.get(key="3f1c-aa").action == first
    # The history tells it once: one event of Brick's row after the board was set up.
    assert len(events_of(table.tracked("Brick"))) == 2


@pytest.mark.parametrize("service", ["fatigue", "recover_harm", "damage"])
def test_every_one_tap_service_answers_a_repeat_with_its_action(table, player, player2, service):
    damage(table, "Brick", 2, player2)  # 1 Harm, so Recover Harm has something to recover
    sent = Sent(key=f"key-{service}")
    calls = {
        "fatigue": lambda: tracker_adjust_fatigue(
            game=table.game, target_id=table["Brick"].pk, change=1, by=player, version=1, sent=sent
        ),
        "recover_harm": lambda: tracker_recover_harm(
            game=table.game, target_id=table["Brick"].pk, by=player, version=1, sent=sent
        ),
        "damage": lambda: tracker_apply_damage(
            game=table.game, target_id=table["Brick"].pk, damage=2, by=player, version=1, sent=sent
        ),
    }
    first = calls[service]()
    state = (table.tracked("Brick").harm, table.tracked("Brick").fatigue, table.version)
    assert calls[service]().pk == first.pk
    assert (table.tracked("Brick").harm, table.tracked("Brick").fatigue, table.version) == state


def test_a_key_is_kept_per_person_and_game(table, player, player2):
    sent = Sent(key="same-key")
    tracker_mark(game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0, sent=sent)
    # Another person's phone made the same key: it is theirs, and their tap is applied.
    tracker_mark(game=table.game, target_id=table["Fidus"].pk, mark="harm", by=player2, version=1, sent=sent)
    assert table.tracked("Fidus").harm == 1
    assert TrackerActionKey.objects.filter(key="same-key").count() == 2


def test_a_tap_with_no_key_keeps_none(table, player):
    tracker_mark(game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0)
    assert not TrackerActionKey.objects.exists()


def test_three_taps_of_one_queue_on_one_fighter_are_three_actions(table, player):
    for number in (1, 2, 3):
        tracker_adjust_fatigue(
            game=table.game,
            target_id=table["Vera"].pk,
            change=1 if number < 3 else -1,
            by=player,
            version=0,  # all three made offline on the board at version 0
            sent=Sent(key=f"tap-{number}", batch="queue-1"),
        )
    assert table.tracked("Vera").fatigue == 1
    summaries = list(
        TrackerAction.objects.filter(tracker__game=table.game)
        .order_by("version")
        .values_list("summary", flat=True)
    )
    assert summaries == [
        "Vera takes 1 Fatigue (1 now).",
        "Vera takes 1 Fatigue (2 now, Exhausted).",
        "Vera loses 1 Fatigue (1 now).",
    ]


def test_a_queued_tap_on_a_fighter_the_other_phone_changed_is_refused_with_who(table, player, player2):
    tracker_mark(
        game=table.game, target_id=table["Fidus"].pk, mark="harm", by=player, version=0, sent=Sent("a", "q")
    )
    damage(table, "Fidus", 1, player2)  # the other phone, online, meanwhile
    with pytest.raises(TrackerConflict, match="Fidus was changed by quinn_player"):
        tracker_mark(
            game=table.game,
            target_id=table["Fidus"].pk,
            mark="harm",
            by=player,
            version=0,
            sent=Sent("b", "q"),
        )
    assert table.tracked("Fidus").harm == 2  # the first tap and the other phone's Damage, nothing more
    assert not TrackerActionKey.objects.filter(key="b").exists()


def test_another_queue_of_the_same_person_still_conflicts(table, player):
    tracker_mark(
        game=table.game,
        target_id=table["Brick"].pk,
        mark="harm",
        by=player,
        version=0,
        sent=Sent("a", "phone-1"),
    )
    with pytest.raises(TrackerConflict):
        tracker_mark(
            game=table.game,
            target_id=table["Brick"].pk,
            mark="harm",
            by=player,
            version=0,
            sent=Sent("b", "phone-2"),
        )


def test_a_queued_tap_undone_by_the_other_phone_refuses_the_next(table, player, player2):
    from combat.services.tracker.board import tracker_undo

    tracker_mark(
        game=table.game, target_id=table["Brick"].pk, mark="harm", by=player, version=0, sent=Sent("a", "q")
    )
    tracker_undo(game=table.game, by=player2, version=1)
    with pytest.raises(TrackerConflict, match="changed by quinn_player"):
        tracker_mark(
            game=table.game,
            target_id=table["Brick"].pk,
            mark="harm",
            by=player,
            version=0,
            sent=Sent("b", "q"),
        )
    assert table.tracked("Brick").status == TrackerFighter.Status.ACTIVE
    assert table.tracked("Brick").harm == 0


def test_a_key_costs_two_queries_and_a_repeat_four(table, player, django_assert_num_queries):
    """Measured and pinned: what a key adds to a tap (the look-up and the key kept), and what a repeat costs (a
    savepoint pair, the lock, the look-up with its action)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    target = table["Brick"].pk
    with CaptureQueriesContext(connection) as plain:
        tracker_mark(game=table.game, target_id=target, mark="harm", by=player, version=table.version)
    version = table.version
    with CaptureQueriesContext(connection) as keyed:
        tracker_mark(
            game=table.game, target_id=target, mark="harm", by=player, version=version, sent=Sent("k", "q")
        )
    assert len(keyed) == len(plain) + 2
    with django_assert_num_queries(4):  # a savepoint pair around the lock and the look-up with its action
        tracker_mark(
            game=table.game, target_id=target, mark="harm", by=player, version=version, sent=Sent("k", "q")
        )
