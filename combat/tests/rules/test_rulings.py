"""Every ruling of RULINGS.md, pinned by a test named after it (`test_ruling_D_2_...`; the Injury Rolls' I- rulings
by `test_i_1_...` in test_injury.py, beside the rest of that module's tests)."""

import re
from pathlib import Path

import pytest

from combat.rules import (
    MAKESHIFT_WEAPON,
    RULINGS,
    Casualty,
    Combatant,
    Formation,
    FriendlyModel,
    HarshLessons,
    HealthPool,
    RandomDice,
    ScriptedDice,
    ShootingEngagement,
    UnitModel,
    allocate_damage,
    brawl,
    brawl_bonus_dice,
    can_take_fatigue,
    confusion_test,
    confusion_tests_due,
    inflict_damage,
    lose_health_points,
    remove_casualties,
    ruling,
    settle_capture,
    trauma_step,
)

RULING_IDS = (
    *(f"D-{number}" for number in range(1, 13)),
    *(f"A-{number}" for number in range(1, 6)),
    *(f"H-{number}" for number in range(1, 4)),
    *(f"T-{number}" for number in range(1, 10)),
    *(f"I-{number}" for number in range(1, 9)),
)
TESTS = Path(__file__).resolve().parent

# --- Fallout: Factions (000, 002) ---------------------------------------------------------------------------------


def test_ruling_D_1_damage_is_compared_with_endurance_in_the_tables_order():
    model = Combatant(endurance=3, health=3)
    assert inflict_damage(model, 6).row == "incapacitated"  # also >= Endurance, but double comes first
    assert inflict_damage(model, 5).row == "injury"
    assert inflict_damage(model, 3).row == "injury"
    assert inflict_damage(model, 2).row == "harm"


def test_ruling_D_2_excess_harm_from_damage_is_an_injury_on_either_row():
    at_limit = Combatant(endurance=3, health=3, harm=3)
    injury_row = inflict_damage(at_limit, 4)
    assert injury_row.row == "injury"
    assert injury_row.injuries_suffered == 2  # one from the row, one from the Excess Harm
    assert injury_row.excess_harm == 1
    assert injury_row.after.harm == 3  # Harm never rises above the Harm Limit
    harm_row = inflict_damage(at_limit, 1)
    assert harm_row.injuries_suffered == 1
    assert harm_row.after.harm == 3
    assert "D-2" in harm_row.rulings


def test_ruling_D_3_injuries_come_before_harm_which_is_then_moot():
    last_box = Combatant(endurance=3, health=2, injuries=1, harm=1)
    outcome = inflict_damage(last_box, 3)
    assert outcome.incapacitated
    assert outcome.harm_suffered == 0
    assert outcome.excess_harm == 0
    assert outcome.after.harm == 1
    # At the Harm Limit the Injury from the row comes first and Incapacitates, so no Excess Harm is counted.
    assert inflict_damage(Combatant(endurance=3, health=2, injuries=1, harm=3), 3).excess_harm == 0


def test_ruling_D_4_a_model_with_no_harm_limit_never_suffers_excess_harm():
    unlimited = Combatant(endurance=4, health=2, harm=7, harm_limit=None)
    outcome = inflict_damage(unlimited, 1)
    assert outcome.after.harm == 8
    assert outcome.excess_harm == 0
    assert outcome.injuries_suffered == 0


def test_ruling_D_5_damage_of_0_does_nothing():
    model = Combatant(endurance=3, harm=1)
    outcome = inflict_damage(model, 0)
    assert outcome.row == "none"
    assert outcome.after == model
    assert (outcome.harm_suffered, outcome.injuries_suffered, outcome.incapacitated) == (0, 0, False)
    missed = brawl(ScriptedDice([10, 10, 10]), target=model, stat=3)  # 2S + 1 Bonus Die for the Harm, no Hit
    assert missed.damage.row == "none"


def test_ruling_D_6_a_confusion_test_is_passed_with_at_least_one_hit():
    assert confusion_test(ScriptedDice([4, 9]), intelligence=4).passed
    assert confusion_test(ScriptedDice([1, 2]), intelligence=4).passed
    assert not confusion_test(ScriptedDice([5, 9]), intelligence=4).passed


def test_ruling_D_7_a_confused_model_at_2_fatigue_must_flee():
    exhausted = FriendlyModel("ann", intelligence=3, fatigue=2)
    assert not can_take_fatigue(exhausted)
    assert not can_take_fatigue(Combatant(endurance=3, fatigue=2))
    sequence = confusion_tests_due(incapacitated="bo", friends_within_3=[exhausted]).test(
        ScriptedDice([9, 9])
    )
    assert sequence.fled == ("ann",)
    assert sequence.results[0].forced


def test_ruling_D_8_injuries_reaching_health_incapacitate_like_the_table():
    champion = Combatant(endurance=4, health=2, injuries=1, champion=True)
    assert not inflict_damage(champion, 1).incapacitated  # 1 Harm, no Injury
    outcome = inflict_damage(champion, 4)  # one Injury: 2 of 2
    assert outcome.row == "injury"
    assert outcome.incapacitated
    assert outcome.after.incapacitated
    assert "D-8" in outcome.rulings
    assert HarshLessons().award("raiders", outcome.after) == 1  # and Harsh Lessons alike


def test_ruling_D_9_a_model_that_flees_is_not_incapacitated():
    sequence = confusion_tests_due(
        incapacitated="bo", friends_within_3=[FriendlyModel("boss", intelligence=2)]
    ).test(ScriptedDice([8, 7]))
    sequence = sequence.choose("flee")
    assert sequence.fled == ("boss",)
    # The fled Champion stays not Incapacitated: it earns no Harsh Lessons and is no Out of Action casualty.
    fled_champion = Combatant(endurance=4, champion=True)
    assert HarshLessons().award("raiders", fled_champion) == 0


def test_ruling_D_10_confusion_tests_go_one_at_a_time_and_a_model_can_be_tested_again():
    friends = [FriendlyModel("ann", intelligence=5), FriendlyModel("cy", intelligence=5)]
    first = confusion_tests_due(incapacitated="bo", friends_within_3=friends)
    first = first.test(ScriptedDice([10, 10]), friend="cy")  # the player's order
    with pytest.raises(ValueError, match="choose flee or fatigue before the next Confusion Test"):
        first.test(ScriptedDice([1, 1]), friend="ann")
    first = first.choose("fatigue").test(ScriptedDice([1, 1]))
    assert first.done
    # A later Incapacitation in the same turn tests cy again.
    second = confusion_tests_due(incapacitated="dee", friends_within_3=[FriendlyModel("cy", 5, fatigue=1)])
    assert second.test(ScriptedDice([2, 2])).results[0].friend.id == "cy"


def test_ruling_D_11_harsh_lessons_at_most_once_per_crew_per_game():
    lessons = HarshLessons()
    first = Combatant(endurance=4, injuries=1, champion=True, incapacitated=True, name="Brick")
    second = Combatant(endurance=5, injuries=1, champion=True, incapacitated=True, name="Alex")
    assert lessons.award("raiders", first) == 1
    assert lessons.award("raiders", second) == 0
    assert HarshLessons().award("raiders", second) == 1  # a new game


def test_ruling_D_12_brawl_bonus_dice_are_summed_and_the_makeshift_weapon_is_2s():
    assert brawl_bonus_dice(charged=True, target_harm=2, supporting_friends=2) == 5
    assert (MAKESHIFT_WEAPON.dice, MAKESHIFT_WEAPON.stat) == (2, "S")
    assert MAKESHIFT_WEAPON.traits == ()
    assert MAKESHIFT_WEAPON.critical_effect is None


# --- Damage Allocation (001) --------------------------------------------------------------------------------------


def test_ruling_A_1_distance_is_measured_from_the_closest_contributing_attacker():
    models = [UnitModel("near-first", 1, 2, 0), UnitModel("near-second", 1, 9, 0)]
    allocation = allocate_damage(models=models, attackers=[(0, 0), (10, 0)], damage=1)
    assert allocation.assigned == {"near-second": 1}
    assert allocation.distances == {"near-first": 2.0, "near-second": 1.0}


def test_ruling_A_2_closest_first_and_the_defender_orders_a_tie():
    models = [UnitModel("a", 1, 0, 3), UnitModel("b", 1, 3, 0), UnitModel("c", 1, 1, 0)]
    allocation = allocate_damage(models=models, attackers=[(0, 0)], damage=2)
    assert allocation.assigned == {"c": 1, "a": 1}
    assert allocation.ties == (("a", "b"),)  # the page asks the defending player
    chosen = allocate_damage(models=models, attackers=[(0, 0)], damage=2, tie_order=["b", "a"])
    assert chosen.assigned == {"c": 1, "b": 1}
    assert chosen.ties == ()


def test_ruling_A_3_at_most_target_limit_models_and_the_rest_is_lost():
    models = [UnitModel(f"m{index}", 2, index, 0) for index in range(1, 6)]
    allocation = allocate_damage(models=models, attackers=[(0, 0)], damage=9, target_limit=3)
    assert allocation.assigned == {"m1": 2, "m2": 2, "m3": 2}
    assert allocation.lost == 3


def test_ruling_A_4_the_sustained_damage_pool_removes_the_next_model_at_its_hp():
    models = [UnitModel("a", 3, 1, 0), UnitModel("b", 3, 2, 0)]
    first = allocate_damage(models=models, attackers=[(0, 0)], damage=2)
    assert first.removed == ()
    assert first.sustained == 2
    second = allocate_damage(models=models, attackers=[(0, 0)], damage=1, sustained=first.sustained)
    assert second.removed == ("a",)
    assert second.sustained == 0


def test_ruling_A_5_shooting_assignments_are_fixed_and_removed_when_the_engagement_ends():
    models = [UnitModel("a", 1, 1, 0), UnitModel("b", 1, 2, 0)]
    engagement = ShootingEngagement().allocate(models=models, attackers=[(0, 0)], damage=1)
    # The unit moves so that b is now closest; the assignment to a stands.
    moved = [UnitModel("a", 1, 5, 0), UnitModel("b", 1, 1, 0)]
    engagement = engagement.allocate(models=moved, attackers=[(0, 0)], damage=0)
    assert engagement.allocations[0].assigned == {"a": 1}
    assert engagement.end() == ("a",)


# --- Health Pools and Casualties (004) ----------------------------------------------------------------------------


def test_ruling_H_1_whole_models_removed_and_lost_health_points_carried():
    first = lose_health_points(HealthPool(models=10, hp_per_model=3), 7)
    assert (first.removed, first.after.lost) == (2, 1)
    second = lose_health_points(first.after, 2)
    assert (second.removed, second.after.lost) == (1, 0)


def test_ruling_H_2_losses_beyond_the_pool_are_ignored_and_reported():
    loss = lose_health_points(HealthPool(models=1, hp_per_model=2), 5)
    assert loss.ignored == 3
    assert loss.after.models == 0


def test_ruling_H_3_back_rank_first_then_alternate_sides_skipping_other_pools():
    formation = Formation((("rf", "champion", "rf", "rf"), ("rf", None, None, None)))
    positions, _ = remove_casualties(formation, pool="rf", count=3)
    assert positions == ((1, 0), (0, 0), (0, 3))


# --- Trauma Step (003) --------------------------------------------------------------------------------------------


def test_ruling_T_1_all_troops_roll_before_any_elite_model():
    group = [Casualty("hero", elite=True), Casualty("trooper", elite=False)]
    dice = ScriptedDice([4, 5, 6])
    outcomes = trauma_step(group, dice)
    assert [outcome.id for outcome in outcomes] == ["trooper", "hero"]
    assert outcomes[0].rolls == (4,)
    assert outcomes[1].rolls == (56,)


def test_ruling_T_2_a_troop_is_removed_with_its_battlekit_on_1_or_2():
    dead, alive = trauma_step([Casualty("a", elite=False), Casualty("b", elite=False)], ScriptedDice([2, 3]))
    assert (dead.removed, dead.battlekit) == (True, "lost")
    assert (alive.survived, alive.battlekit) == (True, "kept")


def test_ruling_T_3_elite_d66_first_die_tens_looked_up_in_the_table():
    (outcome,) = trauma_step([Casualty("hero", elite=True)], ScriptedDice([2, 1]))
    assert outcome.rolls == (21,)
    assert outcome.entry.code == "insomniac"


def test_ruling_T_4_the_scar_limit_makes_a_model_unfit_for_duty_with_kit_to_the_arsenal():
    (outcome,) = trauma_step([Casualty("hero", elite=True, scars=2)], ScriptedDice([1, 3]))
    assert outcome.scars == 3
    assert outcome.reason == "unfit_for_duty"
    assert outcome.battlekit == "arsenal"
    (robbed,) = trauma_step([Casualty("hero", elite=True, scars=2)], ScriptedDice([3, 6]))
    assert not robbed.removed  # "no Scar": no step toward the limit


def test_ruling_T_5_a_repeated_injury_is_rerolled_except_a_second_lost_an_eye():
    dice = ScriptedDice([1, 3, 1, 4, 4, 4])
    (outcome,) = trauma_step(
        [Casualty("hero", elite=True, injuries={"severe_nerve_damage", "hand_wound"})], dice
    )
    assert outcome.rolls == (13, 14, 44)
    assert len(dice.log) == 6
    (blinded,) = trauma_step([Casualty("hero", elite=True, injuries={"lost_an_eye"})], ScriptedDice([1, 5]))
    assert blinded.rolls == (15,)
    assert blinded.reason == "blinded"


def test_ruling_T_6_every_removal_but_unfit_for_duty_loses_all_battlekit():
    troop = trauma_step([Casualty("t", elite=False)], ScriptedDice([1]))[0]
    dead = trauma_step([Casualty("d", elite=True)], ScriptedDice([1, 1]))[0]
    blinded = trauma_step([Casualty("b", elite=True, injuries={"lost_an_eye"})], ScriptedDice([1, 5]))[0]
    executed = settle_capture(
        trauma_step([Casualty("c", elite=True)], ScriptedDice([1, 2]))[0], ransom_paid=False
    )
    for outcome in (troop, dead, blinded, executed):
        assert outcome.removed
        assert outcome.battlekit == "lost"
    assert [troop.reason, dead.reason, blinded.reason, executed.reason] == [
        "dead",
        "dead",
        "blinded",
        "executed",
    ]


def test_ruling_T_7_the_dice_log_says_whether_the_server_rolled_or_dice_were_entered():
    entered = ScriptedDice([4, 4])
    trauma_step([Casualty("hero", elite=True)], entered)
    assert {roll.source for roll in entered.log} == {"entered"}
    server = RandomDice()
    trauma_step([Casualty("hero", elite=True), Casualty("t", elite=False)], server)
    assert len(server.log) >= 3
    assert {roll.source for roll in server.log} == {"server"}


def test_ruling_T_8_one_scar_for_the_final_result_and_none_for_a_paid_ransom():
    # Rolled Hand Wound (already had, rerolled), then Leg Wound: one Scar only.
    (outcome,) = trauma_step(
        [Casualty("hero", elite=True, injuries={"hand_wound"})], ScriptedDice([1, 4, 3, 1])
    )
    assert outcome.rolls == (14, 31)
    assert outcome.scars == 1
    captured = trauma_step([Casualty("hero", elite=True, scars=2)], ScriptedDice([1, 2]))[0]
    paid = settle_capture(captured, ransom_paid=True)
    assert paid.scars == 2
    assert not paid.removed


def test_ruling_T_9_a_fighter_that_cannot_gain_xp_gets_nothing_from_bitter_lessons():
    dice = ScriptedDice([6, 5])  # no D3 face: none may be rolled
    (outcome,) = trauma_step([Casualty("hero", elite=True, can_gain_xp=False)], dice)
    assert outcome.entry.code == "bitter_lessons"
    assert outcome.xp_gained == 0
    assert len(dice.log) == 2
    assert "T-9" in outcome.rulings


# --- the list itself ----------------------------------------------------------------------------------------------


def test_every_ruling_has_a_plain_sentence_and_a_test_named_after_it():
    assert tuple(RULINGS) == RULING_IDS
    names = [name for name in globals() if name.startswith("test_ruling_")]
    injury_tests = {
        name
        for path in TESTS.glob("test_injury*.py")
        for name in re.findall(r"^def (test_i_\d+_\w+)", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    }
    for ruling_id in RULING_IDS:
        assert ruling(ruling_id).endswith(".")
        if ruling_id.startswith("I-"):
            prefix = f"test_{ruling_id.lower().replace('-', '_')}_"
            assert any(name.startswith(prefix) for name in injury_tests), ruling_id
            continue
        prefix = f"test_ruling_{ruling_id.replace('-', '_')}_"
        assert any(name.startswith(prefix) for name in names), ruling_id
    with pytest.raises(ValueError, match="no ruling has the id 'Z-1'"):
        ruling("Z-1")


def _rulings_md() -> Path | None:
    root = Path(__file__).resolve().parents[3]
    for candidate in (
        root.parent / "shared" / "rules" / "RULINGS.md",
        root / "shared" / "rules" / "RULINGS.md",
    ):
        if candidate.exists():
            return candidate
    return None


@pytest.mark.skipif(_rulings_md() is None, reason="shared/rules/RULINGS.md is not beside the repository")
def test_the_rulings_are_those_of_rulings_md():
    text = _rulings_md().read_text(encoding="utf-8")
    assert tuple(re.findall(r"^- \*\*([DAHTI]-\d+)\*\*", text, flags=re.MULTILINE)) == RULING_IDS


def test_docs_rules_md_names_every_ruling_and_only_tests_that_exist():
    root = Path(__file__).resolve().parents[3]
    text = (root / "docs" / "rules.md").read_text(encoding="utf-8")
    tests_folder = Path(__file__).resolve().parent
    defined = {
        name
        for path in tests_folder.glob("test_*.py")
        for name in re.findall(r"^def (test_\w+)", path.read_text(encoding="utf-8"), flags=re.MULTILINE)
    }
    named = set(re.findall(r"\b(test_\w+)`", text)) | set(re.findall(r"::(test_\w+)", text))
    named = {name for name in named if not name.endswith(".py")}
    assert named
    assert named - defined == set()
    for ruling_id in RULING_IDS:
        assert f"| {ruling_id} " in text, ruling_id
