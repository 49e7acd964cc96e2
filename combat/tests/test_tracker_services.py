"""The tracker's services on PostgreSQL: the seed's worked examples, Confusion, Harsh Lessons, units, undo, end of
game, and bad input that changes nothing."""

import pytest

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.models import DiceRoll, TrackerAction, TrackerFighter, TrackerGame
from combat.selectors.tracker import tracker_board
from combat.selectors.tracker_attack import AttackTest
from combat.services.tracker.board import tracker_start, tracker_undo
from combat.services.tracker.confusion import (
    tracker_confusion_choose,
    tracker_confusion_test,
    tracker_mark_friends,
)
from combat.services.tracker.damage import tracker_apply_damage, tracker_roll_attack
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from combat.services.tracker.fatigue import tracker_adjust_fatigue, tracker_recover_harm
from combat.services.tracker.units import tracker_order_ties
from combat.tests.tracker_helpers import events_of, setup_game, snapshot

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def damage(table, name, amount, by, **extra):
    return tracker_apply_damage(
        game=table.game, target_id=table[name].pk, damage=amount, by=by, version=table.version, **extra
    )


# --- The seed's worked examples (000 "Damage Examples") --------------------------------------------------------


def test_example_one_brick_super_sledge_four_hits_on_fidus_through_the_attack_test(table, player):
    # "Alex's Master, Brick, has attacked Sam's Good Boy, Fidus, with a Super Sledge and scored 4 Hits."
    sledge = AttackTest(dice=4, stat=7, brawl=True, attacker=table.tracked("Brick"))
    action = tracker_roll_attack(
        game=table.game, target_id=table["Fidus"].pk, attack=sledge, faces=[2, 7, 5, 1], by=player, version=0
    )

    fidus = table.tracked("Fidus")
    # "the second result on the table applies [...] so Fidus suffers an Injury and 1 Harm. A Good Boy only has
    # 1 Health, so as soon as Sam marks the first Injury Box, the model is Incapacitated" (RULINGS D-3, D-8).
    assert fidus.injuries == 1
    assert fidus.status == INCAPACITATED
    assert "Damage 4 ≥ Endurance 3: one Injury and 1 Harm" in action.summary
    assert "Fidus is Incapacitated" in action.summary
    assert "4 Hits" in action.summary
    # "If she has any other Friendly models within 3", she'll have to make Confusion Tests for them."
    assert table.tracker.pending == {
        "kind": "confusion",
        "stage": "friends",
        "incapacitated": table["Fidus"].pk,
    }
    assert 'tick the friends that were within 3"' in action.summary

    roll = DiceRoll.objects.get(pk=action.rolls[0])
    assert (roll.purpose, roll.source, roll.faces, roll.sides) == ("attack", "entered", [2, 7, 5, 1], 10)
    assert roll.game == table.game
    assert roll.fighter == table["Brick"]
    assert roll.rolled_by == player


def test_example_one_then_confusion_tests_for_friends_within_3_inches(table, player, player2):
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(
        game=table.game,
        friend_ids=[table["Double-Joe"].pk, table["Kit"].pk],
        by=player2,
        version=table.version,
    )
    board = tracker_board(game=table.game)
    assert board.pending.kind == "test"
    assert [f.fighter.name for f in board.pending.remaining] == ["Double-Joe", "Kit"]

    # Sam tests Kit first (RULING D-10: in the order of the controlling player's choosing): 2 is a Hit on I 4.
    action = tracker_confusion_test(
        game=table.game, friend_id=table["Kit"].pk, faces=[2, 9], by=player2, version=table.version
    )
    assert "passed: nothing happens (RULING D-6)" in action.summary
    # Double-Joe fails (9 and 10 against Intelligence 5) and is Confused: Flee or Take Fatigue.
    action = tracker_confusion_test(game=table.game, faces=[9, 10], by=player2, version=table.version)
    assert "Confused: Flee or Take Fatigue" in action.summary
    assert tracker_board(game=table.game).pending.choices == ("flee", "fatigue")
    with pytest.raises(TrackerBlocked):
        damage(table, "Brick", 1, player)

    action = tracker_confusion_choose(game=table.game, choice="fatigue", by=player2, version=table.version)
    assert table.tracked("Double-Joe").fatigue == 1
    assert table.tracked("Double-Joe").status == TrackerFighter.Status.ACTIVE
    assert "The Confusion Tests are done and Fidus is removed from play" in action.summary
    assert table.tracker.pending is None
    rolls = DiceRoll.objects.filter(game=table.game, purpose="confusion").order_by("id")
    assert [roll.faces for roll in rolls] == [[2, 9], [9, 10]]


def test_example_two_double_joe_two_hits_on_brick_is_one_harm(table, player2):
    # "Sam's Security Guard, Double-Joe, has returned fire at Brick. [...] she only scored 2 Hits. [...] using
    # Brick's Endurance of 6, sees that the third result applies [...] Brick takes 1 Harm".
    action = damage(table, "Brick", 2, player2)
    brick = table.tracked("Brick")
    assert (brick.harm, brick.injuries, brick.status) == (1, 0, "active")
    assert action.summary.startswith("Damage 2 < Endurance 6: 1 Harm")
    assert table.tracker.pending is None


def test_a_rolled_attack_gains_a_bonus_die_per_harm_on_the_target(table, player2):
    damage(table, "Brick", 2, player2)  # 1 Harm on Brick
    # Double-Joe's 2 dice + 1 Bonus Die for Brick's Harm (000 "Harm"): three faces are asked for.
    with pytest.raises(TrackerError, match="rolls 3 D10s: enter 3 faces"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Brick"].pk,
            attack=AttackTest(dice=2, stat=6),
            faces=[1, 2],
            by=player2,
            version=table.version,
        )
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Brick"].pk,
        attack=AttackTest(dice=2, stat=6),
        faces=[1, 2, 9],
        by=player2,
        version=table.version,
    )
    assert "2 Hits" in action.summary
    assert table.tracked("Brick").harm == 2


def test_a_makeshift_weapon_is_2s_with_the_attackers_strength_and_the_brawl_bonus_dice(table, player):
    # RULING D-12: 2S, +1 for charging, +1 per supporting friend; Brick's Strength is 7.
    attack = AttackTest(makeshift=True, charged=True, supporting_friends=1, attacker=table.tracked("Brick"))
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Mags"].pk,
        attack=attack,
        faces=[7, 8, 1, 10],
        by=player,
        version=table.version,
    )
    assert "4 D10s, a Hit on 7 or less" in action.summary
    assert "2 Hits" in action.summary


def test_server_dice_are_stored_before_the_result(table, player):
    action = tracker_roll_attack(
        game=table.game, target_id=table["Kit"].pk, attack=AttackTest(dice=3, stat=5), by=player, version=0
    )
    roll = DiceRoll.objects.get(pk=action.rolls[0])
    assert roll.source == "server"
    assert len(roll.faces) == 3
    assert all(1 <= face <= 10 for face in roll.faces)
    hits = sum(1 for face in roll.faces if face <= 5)
    assert f"Damage {hits}" in action.summary


# --- Excess Harm, Harsh Lessons, forced Flee ------------------------------------------------------------------


def test_excess_harm_is_an_injury(table, player2):
    for _ in range(3):
        damage(table, "Brick", 1, player2)
    assert table.tracked("Brick").harm == 3  # the Harm Limit
    action = damage(table, "Brick", 1, player2)
    brick = table.tracked("Brick")
    # RULING D-2: Excess Harm caused by Damage is an Injury; Harm never rises above the Harm Limit.
    assert (brick.harm, brick.injuries) == (3, 1)
    assert "RULING D-2" in action.summary
    # On the "equal or greater" row at the Harm Limit: the row's Injury and one from the Excess Harm.
    action = damage(table, "Brick", 6, player2)
    assert table.tracked("Brick").injuries == 3
    assert table.tracked("Brick").status == INCAPACITATED
    assert "RULING D-2" in action.summary


def test_harsh_lessons_once_per_crew(table, player, player2, rival_warband, warband):
    # Mags, Sam's Champion, is Incapacitated: Sam's crew earns 1 XP (RULING D-11).
    action = damage(table, "Mags", 10, player)
    assert "Harsh Lessons: Heretic Legion earns 1 XP" in action.summary
    assert table.tracker.harsh_lessons == [rival_warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    # A second Champion of the same crew gives nothing more.
    fighter = table["Kit"]
    fighter.champion = True
    fighter.save()
    action = damage(table, "Kit", 8, player)
    assert "already earned its Harsh Lessons XP this game" in action.summary
    assert table.tracker.harsh_lessons == [rival_warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    # The other crew earns its own, once.
    damage(table, "Brick", 12, player2)
    assert table.tracker.harsh_lessons == [rival_warband.pk, warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player, version=table.version)

    results = {table.alex.pk: "loss", table.sam.pk: "win"}
    tracker_end_game(game=table.game, results=results, by=player, version=table.version)
    rival_warband.refresh_from_db()
    warband.refresh_from_db()
    assert (rival_warband.crew_xp, warband.crew_xp) == (1, 1)


def test_a_non_champion_gives_no_harsh_lessons(table, player):
    damage(table, "Kit", 8, player)
    assert table.tracker.harsh_lessons == []


def test_forced_flee_when_the_confused_model_cannot_take_fatigue(table, player, player2):
    joe = table.tracked("Double-Joe")
    joe.fatigue = 2
    joe.save()
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(
        game=table.game, friend_ids=[table["Double-Joe"].pk], by=player2, version=table.version
    )
    action = tracker_confusion_test(game=table.game, faces=[8, 6], by=player2, version=table.version)

    joe = table.tracked("Double-Joe")
    # RULING D-7: at 2 Fatigue it cannot Take Fatigue, so it must Flee; no choice is asked.
    assert joe.status == FLED
    assert "RULING D-7" in action.summary
    assert table.tracker.pending is None


def test_a_confused_model_may_choose_to_flee(table, player, player2):
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    tracker_confusion_test(game=table.game, faces=[10, 10], by=player2, version=table.version)
    action = tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)
    assert table.tracked("Kit").status == FLED
    assert "RULING D-9" in action.summary


def test_take_fatigue_is_refused_when_the_model_cannot(table, player, player2):
    kit = table.tracked("Kit")
    kit.fatigue = 2
    kit.save()
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    before = snapshot(table.game)
    with pytest.raises(TrackerError):
        tracker_confusion_choose(game=table.game, choice="fatigue", by=player2, version=table.version)
    assert snapshot(table.game) == before


def test_friends_within_3_must_be_friendly_and_in_play(table, player, player2):
    damage(table, "Fidus", 4, player)
    version = table.version
    with pytest.raises(TrackerError, match="not a Friendly model"):
        tracker_mark_friends(game=table.game, friend_ids=[table["Brick"].pk], by=player2, version=version)
    with pytest.raises(TrackerError, match="not a Friendly model"):
        tracker_mark_friends(game=table.game, friend_ids=[table["Fidus"].pk], by=player2, version=version)
    assert table.version == version


def test_no_friend_ticked_means_no_confusion_test(table, player, player2):
    damage(table, "Fidus", 4, player)
    action = tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)
    assert "no Confusion Test" in action.summary
    assert table.tracker.pending is None


def test_the_last_fighter_of_a_crew_has_no_confusion_to_wait_for(table, player):
    for name in ("Fidus", "Double-Joe", "Mags"):
        row = table.tracked(name)
        row.status = FLED
        row.save()
    action = damage(table, "Kit", 8, player)
    assert "no friend is left in play" in action.summary
    assert table.tracker.pending is None


# --- Units: Health Pools (seed 004) and Damage Allocation (seed 001) ------------------------------------------


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


# --- Undo -----------------------------------------------------------------------------------------------------


def test_undo_restores_the_exact_previous_state_in_order(table, player, player2):
    states = [snapshot(table.game)]
    damage(table, "Brick", 2, player2)
    states.append(snapshot(table.game))
    damage(table, "Mags", 5, player)  # an Injury and 1 Harm
    states.append(snapshot(table.game))
    damage(table, "Mags", 10, player)  # Incapacitated: Harsh Lessons, Confusion pending
    states.append(snapshot(table.game))
    tracker_mark_friends(
        game=table.game,
        friend_ids=[table["Kit"].pk, table["Double-Joe"].pk],
        by=player2,
        version=table.version,
    )
    states.append(snapshot(table.game))
    tracker_confusion_test(game=table.game, faces=[10, 9], by=player2, version=table.version)
    states.append(snapshot(table.game))
    tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)
    states.append(snapshot(table.game))
    assert table.tracked("Kit").status == FLED
    assert states[3]["harsh_lessons"]
    assert states[3]["pending"]

    current = states.pop()
    assert snapshot(table.game) == current
    while states:
        undone = tracker_undo(game=table.game, by=player, version=table.version)
        assert undone.undone
        assert undone.undone_by == player
        assert snapshot(table.game) == states.pop()
    with pytest.raises(TrackerError, match="Nothing to undo"):
        tracker_undo(game=table.game, by=player, version=table.version)


def test_undo_refuses_a_board_that_changed_unseen(table, player, player2):
    damage(table, "Brick", 2, player2)
    seen = table.version
    damage(table, "Kit", 1, player)
    with pytest.raises(TrackerConflict, match="Kit was changed by pat_player a moment ago"):
        tracker_undo(game=table.game, by=player2, version=seen)
    assert table.tracked("Kit").harm == 1


def test_undo_keeps_the_dice_log(table, player):
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Kit"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[1, 2],
        by=player,
        version=0,
    )
    tracker_undo(game=table.game, by=player, version=table.version)
    assert DiceRoll.objects.filter(pk=action.rolls[0]).exists()
    assert table.tracked("Kit").status == TrackerFighter.Status.ACTIVE


# --- Versions: no lost update, a clear message ----------------------------------------------------------------


def test_a_stale_form_on_the_same_fighter_is_refused_and_changes_nothing(table, player, player2):
    seen = table.version
    damage(table, "Brick", 2, player2)
    before = snapshot(table.game)
    with pytest.raises(TrackerConflict) as refused:
        tracker_apply_damage(game=table.game, target_id=table["Brick"].pk, damage=2, by=player, version=seen)
    assert (
        str(refused.value)
        == "Brick was changed by quinn_player a moment ago; here is the board as it is now."
    )
    assert snapshot(table.game) == before


def test_a_stale_form_on_another_fighter_still_applies(table, player, player2):
    seen = table.version
    damage(table, "Brick", 2, player2)
    tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=1, by=player, version=seen)
    assert table.tracked("Kit").harm == 1
    assert table.tracked("Brick").harm == 1


def test_a_version_from_the_future_is_refused(table, player):
    with pytest.raises(TrackerError, match="does not come from this game's board"):
        tracker_apply_damage(game=table.game, target_id=table["Kit"].pk, damage=1, by=player, version=99)


# --- Bad input: a message, nothing changed --------------------------------------------------------------------


def test_negative_damage_is_refused(table, player):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="0 or more"):
        damage(table, "Brick", -1, player)
    assert snapshot(table.game) == before
    assert table.version == 0
    assert not TrackerAction.objects.exists()


def test_a_d10_face_of_11_is_refused_and_no_roll_is_stored(table, player):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="11 is not a face of a D10"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Kit"].pk,
            attack=AttackTest(dice=2, stat=5),
            faces=[3, 11],
            by=player,
            version=0,
        )
    assert snapshot(table.game) == before
    assert not DiceRoll.objects.exists()


def test_a_target_from_another_game_is_refused(table, player, campaign, warband, make_fighter):
    other = Game.objects.create(
        campaign=campaign, number=2, played_on=table.game.played_on, status="in_progress"
    )
    GamePlayer.objects.create(game=other, warband=warband)
    tracker_start(game=other, by=player)
    before = snapshot(table.game)
    outsider = make_fighter(warband, "Latecomer")
    with pytest.raises(TrackerError, match="not on this game's board"):
        tracker_apply_damage(game=other, target_id=table["Fidus"].pk, damage=3, by=player, version=0)
    with pytest.raises(TrackerError, match="not on this game's board"):
        tracker_apply_damage(game=table.game, target_id=outsider.pk, damage=3, by=player, version=0)
    assert snapshot(table.game) == before


def test_an_attacker_from_another_game_is_refused(table, player, campaign, warband):
    other = Game.objects.create(
        campaign=campaign, number=2, played_on=table.game.played_on, status="in_progress"
    )
    GamePlayer.objects.create(game=other, warband=warband)
    tracker_start(game=other, by=player)
    stranger = TrackerFighter.objects.get(tracker__game=other, fighter=table["Brick"])
    with pytest.raises(TrackerError, match="attacker is not on this game's board"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Kit"].pk,
            attack=AttackTest(makeshift=True, attacker=stranger),
            faces=[1, 1],
            by=player,
            version=0,
        )


def test_an_incapacitated_fighter_cannot_take_damage(table, player, player2):
    damage(table, "Kit", 8, player)
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)
    with pytest.raises(TrackerError, match="Kit is Incapacitated and out of play"):
        damage(table, "Kit", 1, player)


# --- Fatigue and Harm -----------------------------------------------------------------------------------------


def test_fatigue_up_to_exhausted_and_back(table, player):
    for _ in range(2):
        tracker_adjust_fatigue(
            game=table.game, target_id=table["Vera"].pk, change=1, by=player, version=table.version
        )
    assert table.tracked("Vera").fatigue == 2
    with pytest.raises(TrackerError, match="RULING D-7"):
        tracker_adjust_fatigue(
            game=table.game, target_id=table["Vera"].pk, change=1, by=player, version=table.version
        )
    tracker_adjust_fatigue(
        game=table.game, target_id=table["Vera"].pk, change=-1, by=player, version=table.version
    )
    assert table.tracked("Vera").fatigue == 1


def test_recover_harm(table, player, player2):
    damage(table, "Brick", 2, player2)
    action = tracker_recover_harm(
        game=table.game, target_id=table["Brick"].pk, by=player, version=table.version
    )
    assert table.tracked("Brick").harm == 0
    assert action.summary == "Brick Recovers 1 Harm (0 now)."
    with pytest.raises(TrackerError, match="no Harm to Recover"):
        tracker_recover_harm(game=table.game, target_id=table["Brick"].pk, by=player, version=table.version)


# --- Start and end of the game --------------------------------------------------------------------------------


def test_start_is_idempotent_and_leaves_out_who_misses_the_game(
    campaign, warband, rival_warband, make_fighter, player
):
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        start=False,
    )
    make_fighter(warband, "Resting", misses_next_game=True)
    make_fighter(warband, "Gone", status="dead")
    first = tracker_start(game=table.game, by=player)
    assert tracker_start(game=table.game, by=player) == first
    names = set(TrackerFighter.objects.filter(tracker=first).values_list("fighter__name", flat=True))
    assert names == set(table.fighters)


def test_the_tracker_follows_games_in_progress_only(campaign, warband, player):
    game = Game.objects.create(
        campaign=campaign, number=5, played_on="2026-11-30", status=Game.Status.RECORDED
    )
    with pytest.raises(TrackerBlocked, match="games in progress only"):
        tracker_start(game=game, by=player)


def test_end_of_game_records_out_of_action_but_not_the_fled(table, player, player2, rival_warband):
    damage(table, "Fidus", 4, player)  # Incapacitated
    tracker_mark_friends(game=table.game, friend_ids=[table["Kit"].pk], by=player2, version=table.version)
    tracker_confusion_test(game=table.game, faces=[10, 10], by=player2, version=table.version)
    tracker_confusion_choose(game=table.game, choice="flee", by=player2, version=table.version)  # Kit Fled
    damage(table, "Mags", 10, player)  # Incapacitated Champion: Harsh Lessons
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    tracker_end_game(
        game=table.game,
        results={table.alex.pk: "win", table.sam.pk: "loss"},
        by=player,
        version=table.version,
        reason="Alex held the objective",
    )

    table.game.refresh_from_db()
    assert table.game.status == Game.Status.RECORDED
    # RULING D-9: Kit Fled, so it is not Out of Action.
    out = set(OutOfAction.objects.filter(player__game=table.game).values_list("fighter__name", flat=True))
    assert out == {"Fidus", "Mags"}
    assert set(OutOfAction.objects.values_list("player_id", flat=True)) == {table.sam.pk}
    table.alex.refresh_from_db()
    table.sam.refresh_from_db()
    assert (table.alex.result, table.sam.result) == ("win", "loss")
    assert table.alex.post_game == table.sam.post_game == GamePlayer.PostGame.PENDING
    rival_warband.refresh_from_db()
    assert rival_warband.crew_xp == 1
    # The roster itself is untouched by the game's Harm and Injuries.
    table["Mags"].refresh_from_db()
    assert table["Mags"].status == "active"

    context = events_of(table.game)[-1].pgh_context.metadata
    assert context["action"] == "tracker.end_game"
    assert context["game"] == table.game.pk
    assert context["reason"] == "Alex held the objective"
    assert context["user"] == player.pk
    ooa = OutOfAction.objects.filter(fighter=table["Fidus"]).get()
    assert events_of(ooa)[-1].pgh_context.metadata["action"] == "tracker.end_game"
    assert events_of(rival_warband)[-1].pgh_context.metadata["action"] == "tracker.end_game"

    with pytest.raises(TrackerBlocked, match="game is over"):
        damage(table, "Brick", 1, player)


def test_end_of_game_waits_for_the_confusion_tests(table, player):
    damage(table, "Fidus", 4, player)
    with pytest.raises(TrackerBlocked, match="Confusion Tests for Fidus"):
        tracker_end_game(
            game=table.game,
            results={table.alex.pk: "win", table.sam.pk: "loss"},
            by=player,
            version=table.version,
        )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS
    assert not OutOfAction.objects.exists()


def test_end_of_game_needs_every_result(table, player):
    with pytest.raises(TrackerError, match="Enter Heretic Legion's result"):
        tracker_end_game(game=table.game, results={table.alex.pk: "win"}, by=player, version=0)
    with pytest.raises(TrackerError, match="Enter Iron Sepulchre's result"):
        tracker_end_game(
            game=table.game, results={table.alex.pk: "won", table.sam.pk: "loss"}, by=player, version=0
        )
    table.game.refresh_from_db()
    assert table.game.status == Game.Status.IN_PROGRESS


def test_tracker_actions_leave_history_with_their_context(table, player):
    action = damage(table, "Brick", 2, player)
    event = events_of(table.tracked("Brick"))[-1]
    assert event.pgh_context.metadata["action"] == "tracker.damage"
    assert event.pgh_context.metadata["reason"] == action.summary
    assert event.pgh_context.metadata["fighter"] == table["Brick"].pk
