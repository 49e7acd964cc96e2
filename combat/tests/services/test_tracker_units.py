"""Units on the board (combat/services/tracker/units.py): Health Pools (seed 004), Damage Allocation (seed 001),
the defender's order for ties (RULING A-2) and the shooting engagement (RULING A-5)."""

import pytest

from combat.models import TrackerFighter, TrackerGame
from combat.services.tracker.board import tracker_start, tracker_undo
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerBlocked, TrackerError
from combat.services.tracker.units import tracker_end_shooting, tracker_order_ties
from combat.tests.tracker_helpers import damage, snapshot

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


@pytest.fixture
def trolls(table, make_fighter, rival_warband, player):
    table.fighters["Trolls"] = make_fighter(rival_warband, "Trolls", unit_size=10, health=3, endurance=5)
    TrackerGame.objects.filter(game=table.game).delete()
    tracker_start(game=table.game, by=player)
    return table


def test_a_unit_loses_whole_models_and_carries_the_rest(trolls, player):
    # RULING H-1: "10 Trolls with 3 HP losing 7 -> 2 removed, 1 kept; then 2 more -> 1 removed, 0 kept".
    action = damage(trolls, "Trolls", 7, player)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (8, 1)
    assert "2 models removed, 1 lost Health Point kept for later attacks (RULING H-1)" in action.summary
    damage(trolls, "Trolls", 2, player)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (7, 0)


def test_a_unit_ignores_losses_beyond_its_pool_and_is_wiped_out(trolls, player):
    action = damage(trolls, "Trolls", 40, player)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp, row.status) == (0, 0, INCAPACITATED)
    assert "the 10 beyond what the Health Pool had are ignored (RULING H-2)" in action.summary
    assert "wiped out" in action.summary
    # A unit is not one model: its loss sets off no Confusion Test.
    assert trolls.tracker.pending is None


def test_damage_allocation_goes_to_the_closest_models_first(trolls, player):
    distances = [6, 2, 3, 9, 12, 14, 15, 16, 18, None]
    action = damage(trolls, "Trolls", 4, player, distances=distances)
    row = trolls.tracked("Trolls")
    # Model 2 (2") takes 3 and is removed; model 3 (3") takes 1, into the Sustained Damage pool (RULING A-4).
    assert (row.models_left, row.lost_hp) == (9, 1)
    assert 'model 2 (2") removed; model 3 (3") takes 1, into the Sustained Damage pool' in action.summary


def test_damage_allocation_respects_the_target_limit(trolls, player):
    distances = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    action = damage(trolls, "Trolls", 7, player, distances=distances, target_limit=2)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (8, 0)
    assert "1 damage lost beyond the Target Limit of 2 (RULING A-3)" in action.summary


def test_equally_close_models_wait_for_the_defenders_order(trolls, player, player2):
    distances = [4, 2, 2, 9, 9, 9, 9, 9, 9, 9]
    action = damage(trolls, "Trolls", 4, player, distances=distances)
    assert "equally close" in action.summary
    assert "RULING A-2" in action.summary
    assert trolls.tracked("Trolls").models_left == 10  # nothing applied yet
    with pytest.raises(TrackerBlocked):
        damage(trolls, "Kit", 1, player)
    with pytest.raises(TrackerError, match="not one of the equally close"):
        tracker_order_ties(game=trolls.game, tie_order=["4"], by=player2, version=trolls.version)

    action = tracker_order_ties(game=trolls.game, tie_order=["3", "2"], by=player2, version=trolls.version)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (9, 1)
    assert 'model 3 (2") removed; model 2 (2") takes 1' in action.summary
    assert trolls.tracker.pending is None

    tracker_undo(game=trolls.game, by=player2, version=trolls.version)
    assert trolls.tracker.pending["kind"] == "tie"
    assert trolls.tracked("Trolls").models_left == 10


def test_distances_must_match_the_models_left(trolls, player):
    with pytest.raises(TrackerError, match="give one distance per model"):
        damage(trolls, "Trolls", 3, player, distances=[1, 2])


# --- The shooting engagement (seed 001 "Timing", RULING A-5) --------------------------------------------------


def shoot(table, amount, by, distances, **extra):
    return damage(table, "Trolls", amount, by, distances=distances, shooting=True, **extra)


def test_ruling_A_5_two_shots_in_one_engagement_remove_their_models_only_when_it_ends(
    trolls, player, player2
):
    # Shot 1: 3 Damage to the closest model (model 1, 1"): its 3 HP assigned, but it stays on the table.
    first = shoot(trolls, 3, player, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (10, 0)
    assert "model 1 assigned, removed when the shooting engagement ends (RULING A-5)" in first.summary
    assert trolls.tracker.shooting["target"] == trolls["Trolls"].pk

    # Shot 2, after the models moved: model 1 is now the farthest, model 2 the closest. Model 1 keeps its
    # assignment and takes nothing more; model 2 takes 3 (due), model 3 takes 1 into the Sustained Damage pool.
    second = shoot(trolls, 4, player, [12, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (10, 0)  # still nobody removed
    assert "shot 2 of this shooting engagement" in second.summary
    assert "Due for removal when the shooting ends: model 1, model 2." in second.summary

    ended = tracker_end_shooting(game=trolls.game, by=player2, version=trolls.version)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp, row.status) == (8, 1, TrackerFighter.Status.ACTIVE)
    assert "ends after 2 shots (RULING A-5): model 1, model 2 removed" in ended.summary
    assert trolls.tracker.shooting is None


def test_undo_puts_the_shooting_engagement_back_exactly(trolls, player, player2):
    shoot(trolls, 3, player, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    after_first = snapshot(trolls.game), trolls.tracker.shooting
    shoot(trolls, 4, player, [12, 1, 2, 3, 4, 5, 6, 7, 8, 9])
    after_second = snapshot(trolls.game), trolls.tracker.shooting
    tracker_end_shooting(game=trolls.game, by=player2, version=trolls.version)

    tracker_undo(game=trolls.game, by=player2, version=trolls.version)
    assert (snapshot(trolls.game), trolls.tracker.shooting) == after_second
    tracker_undo(game=trolls.game, by=player2, version=trolls.version)
    assert (snapshot(trolls.game), trolls.tracker.shooting) == after_first
    tracker_undo(game=trolls.game, by=player2, version=trolls.version)
    assert trolls.tracker.shooting is None
    assert trolls.tracked("Trolls").models_left == 10


def test_a_unit_under_fire_takes_no_other_damage_and_the_game_waits_for_the_shooting(trolls, player):
    shoot(trolls, 3, player, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    before = snapshot(trolls.game)
    with pytest.raises(TrackerBlocked, match="open shooting engagement"):
        damage(trolls, "Trolls", 2, player)
    with pytest.raises(TrackerBlocked, match="end the shooting first"):
        tracker_end_game(
            game=trolls.game,
            results={trolls.alex.pk: "win", trolls.sam.pk: "loss"},
            by=player,
            version=trolls.version,
        )
    assert snapshot(trolls.game) == before
    # Another fighter is not under fire: the game goes on around the engagement.
    damage(trolls, "Kit", 1, player)


def test_a_shot_needs_distances_and_a_unit(trolls, player):
    with pytest.raises(TrackerError, match="give each model's distance"):
        damage(trolls, "Trolls", 3, player, shooting=True)
    with pytest.raises(TrackerError, match="is one model"):
        damage(trolls, "Kit", 1, player, shooting=True)
    with pytest.raises(TrackerError, match="No shooting engagement is open"):
        tracker_end_shooting(game=trolls.game, by=player, version=trolls.version)
    assert trolls.tracker.shooting is None


def test_equally_close_models_of_a_shot_wait_for_the_defenders_order(trolls, player, player2):
    action = shoot(trolls, 4, player, [2, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    assert "equally close" in action.summary
    assert trolls.tracker.shooting is None  # nothing assigned yet
    action = tracker_order_ties(game=trolls.game, tie_order=["2", "1"], by=player2, version=trolls.version)
    assert "model 2 assigned, removed when the shooting engagement ends" in action.summary
    assert trolls.tracked("Trolls").models_left == 10
    tracker_end_shooting(game=trolls.game, by=player2, version=trolls.version)
    row = trolls.tracked("Trolls")
    assert (row.models_left, row.lost_hp) == (9, 1)
