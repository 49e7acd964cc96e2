"""Whole Trauma Step outcomes, one per branch of the Trauma Table's consequences.

Each test writes the full expected `TraumaOutcome`, so a field the post-game selectors read can never be wrong
unnoticed (seed 003, TRAUMA_TABLE.md, RULINGS T-1 to T-9).
"""

import pytest

from combat.rules import Casualty, ScriptedDice, TraumaOutcome, TraumaTable, settle_capture, trauma_step

TABLE = TraumaTable.default()


def entry(code):
    return next(row for row in TABLE.entries if row.code == code)


def elite(**fields):
    """A veteran: one Scar and a Hand Wound already, named, so nothing is at its default."""
    values = dict(elite=True, scars=1, injuries=frozenset({"hand_wound"}), name="Vet")
    return Casualty("vet", **{**values, **fields})


def outcome(**fields):
    """The outcome of a veteran's Trauma roll that leaves it as it was; each test says what differs."""
    values = dict(
        id="vet",
        rolls=(),
        entry=None,
        survived=True,
        removed=False,
        reason=None,
        scars=1,
        injuries=frozenset({"hand_wound"}),
        battlekit="kept",
        xp_gained=0,
        misses_next_game=False,
        can_gain_xp=True,
        pending=None,
        elite=True,
        scar_gained=False,
        rerolled=(),
        treated_as_full_recovery=False,
        heavy_battlekit_lost=False,
        ransom_paid=None,
        scar_limit=3,
        name="Vet",
        rulings=(),
    )
    return TraumaOutcome(**{**values, **fields})


def roll(casualty, *faces, table=None):
    (result,) = trauma_step([casualty], ScriptedDice(faces), table=table)
    return result


# --- RULING T-2: a Troop's Survival Roll ---------------------------------------------------------------------


def test_ruling_T_2_a_troop_that_survives_keeps_everything_and_gains_nothing():
    trooper = Casualty(
        "t1",
        elite=False,
        scars=1,
        injuries=frozenset({"lost_arm"}),
        scar_limit=4,
        can_gain_xp=False,
        name="Ann",
    )
    assert roll(trooper, 3) == TraumaOutcome(
        "t1", (3,), None, True, False, None, 1, frozenset({"lost_arm"}), "kept", 0, False, False, None,
        elite=False, scar_limit=4, name="Ann", rulings=("T-2",),
    )  # fmt: skip


def test_ruling_T_2_a_troop_removed_on_a_2_loses_its_battlekit():
    trooper = Casualty("t2", elite=False, scars=2, injuries=frozenset({"insomniac"}), name="Bo")
    assert roll(trooper, 2) == TraumaOutcome(
        "t2", (2,), None, False, True, "dead", 2, frozenset({"insomniac"}), "lost", 0, False, True, None,
        elite=False, scar_limit=3, name="Bo", rulings=("T-2", "T-6"),
    )  # fmt: skip


# --- Results that leave the model as it was --------------------------------------------------------------------


def test_a_sniper_priests_lost_an_eye_is_a_full_recovery_that_keeps_the_rolled_entry():
    priest = elite(full_recovery_instead=frozenset({"lost_an_eye"}))
    assert roll(priest, 1, 5) == outcome(
        rolls=(15,), entry=entry("lost_an_eye"), treated_as_full_recovery=True
    )


def test_a_sniper_priest_who_cannot_gain_xp_still_cannot_after_its_lost_an_eye():
    priest = elite(full_recovery_instead=frozenset({"lost_an_eye"}), can_gain_xp=False)
    assert roll(priest, 1, 5) == outcome(
        rolls=(15,), entry=entry("lost_an_eye"), treated_as_full_recovery=True, can_gain_xp=False
    )


def test_full_recovery_keeps_the_scars_and_injuries():
    assert roll(elite(), 5, 2) == outcome(rolls=(52,), entry=entry("full_recovery"))


# --- Captured and the ransom (TRAUMA_TABLE.md, RULINGS T-6, T-8) -----------------------------------------------


def test_captured_waits_for_the_ransom_neither_survived_nor_removed():
    assert roll(elite(), 1, 2) == outcome(
        rolls=(12,), entry=entry("captured"), survived=False, pending="ransom"
    )


def test_ruling_T_6_an_unpaid_ransom_executes_the_model_with_all_its_battlekit():
    captured = roll(elite(), 1, 2)
    assert settle_capture(captured, ransom_paid=False) == outcome(
        rolls=(12,),
        entry=entry("captured"),
        survived=False,
        removed=True,
        reason="executed",
        battlekit="lost",
        ransom_paid=False,
        rulings=("T-6",),
    )


def test_ruling_T_8_a_paid_ransom_counts_as_full_recovery_with_no_scar():
    captured = roll(elite(can_gain_xp=False), 1, 2)
    assert settle_capture(captured, ransom_paid=True) == outcome(
        rolls=(12,), entry=entry("captured"), can_gain_xp=False, ransom_paid=True, rulings=("T-8",)
    )


def test_ruling_T_5_a_ransom_after_a_reroll_keeps_both_rulings():
    captured = roll(elite(), 1, 4, 1, 2)  # 14 is the Hand Wound it has: rolled again (RULING T-5)
    settled = settle_capture(captured, ransom_paid=True)
    assert settled.rulings == ("T-5", "T-8")
    assert settle_capture(captured, ransom_paid=False).rulings == ("T-5", "T-6")


# --- Removals (RULINGS T-4, T-5, T-6) ---------------------------------------------------------------------------


def test_ruling_T_6_dead_removes_the_model_with_all_its_battlekit_and_no_scar():
    assert roll(elite(), 1, 1) == outcome(
        rolls=(11,), entry=entry("dead"), survived=False, removed=True, reason="dead", battlekit="lost",
        rulings=("T-6",),
    )  # fmt: skip


def test_ruling_T_5_a_second_lost_an_eye_blinds_and_removes_the_model():
    one_eyed = Casualty("vet", elite=True, scars=1, injuries=frozenset({"lost_an_eye"}), name="Vet")
    assert roll(one_eyed, 1, 5) == outcome(
        rolls=(15,), entry=entry("lost_an_eye"), survived=False, removed=True, reason="blinded", scars=2,
        injuries=frozenset({"lost_an_eye"}), battlekit="lost", scar_gained=True, rulings=("T-5", "T-6"),
    )  # fmt: skip


def test_ruling_T_5_blinded_after_a_reroll_names_t_5_once():
    one_eyed = Casualty(
        "vet", elite=True, injuries=frozenset({"lost_an_eye", "hand_wound"}), can_gain_xp=False
    )
    result = roll(one_eyed, 1, 4, 1, 5)
    assert result == TraumaOutcome(
        "vet", (14, 15), entry("lost_an_eye"), False, True, "blinded", 1,
        frozenset({"lost_an_eye", "hand_wound"}), "lost", 0, False, False, None, elite=True, scar_gained=True,
        rerolled=(entry("hand_wound"),), rulings=("T-5", "T-6"),
    )  # fmt: skip


def test_ruling_T_4_the_last_scar_from_muscle_damage_sends_the_rest_to_the_arsenal():
    last = elite(scars=2)
    assert roll(last, 3, 4) == outcome(
        rolls=(34,), entry=entry("muscle_damage"), survived=False, removed=True, reason="unfit_for_duty",
        scars=3, injuries=frozenset({"hand_wound", "muscle_damage"}), battlekit="arsenal", scar_gained=True,
        heavy_battlekit_lost=True, rulings=("T-4",),
    )  # fmt: skip


def test_ruling_T_4_the_last_scar_from_a_minor_wound_removes_it_without_missing_a_game():
    assert roll(elite(scars=2), 3, 5) == outcome(
        rolls=(35,), entry=entry("minor_wound"), survived=False, removed=True, reason="unfit_for_duty", scars=3,
        battlekit="arsenal", scar_gained=True, rulings=("T-4",),
    )  # fmt: skip


def test_ruling_T_4_the_last_scar_from_a_head_wound_also_ends_xp_gain():
    assert roll(elite(scars=2), 2, 2) == outcome(
        rolls=(22,), entry=entry("head_wound"), survived=False, removed=True, reason="unfit_for_duty", scars=3,
        injuries=frozenset({"hand_wound", "head_wound"}), battlekit="arsenal", can_gain_xp=False,
        scar_gained=True, rulings=("T-4",),
    )  # fmt: skip


def test_ruling_T_4_what_a_house_tables_scarring_robbery_took_stays_lost_at_the_last_scar():
    rows = [{**row, "scar": True} if row["code"] == "robbed" else row for row in TABLE.to_rows()]
    house = TraumaTable.from_rows(rows)
    robbed = next(row for row in house.entries if row.code == "robbed")
    assert roll(elite(scars=2), 3, 6, table=house) == outcome(
        rolls=(36,), entry=robbed, survived=False, removed=True, reason="unfit_for_duty", scars=3,
        battlekit="lost", scar_gained=True, rulings=("T-4",),
    )  # fmt: skip


# --- Results the model survives with ----------------------------------------------------------------------------


def test_muscle_damage_loses_only_the_heavy_battlekit():
    assert roll(elite(), 3, 4) == outcome(
        rolls=(34,), entry=entry("muscle_damage"), scars=2, injuries=frozenset({"hand_wound", "muscle_damage"}),
        battlekit="heavy_lost", scar_gained=True, heavy_battlekit_lost=True,
    )  # fmt: skip


def test_a_minor_wound_misses_the_next_game_and_is_not_kept_as_an_injury():
    assert roll(elite(), 3, 5) == outcome(
        rolls=(35,), entry=entry("minor_wound"), scars=2, misses_next_game=True, scar_gained=True
    )


def test_robbed_loses_all_battlekit_with_no_scar():
    assert roll(elite(), 3, 6) == outcome(rolls=(36,), entry=entry("robbed"), battlekit="lost")


def test_a_head_wound_ends_xp_gain():
    assert roll(elite(), 2, 2) == outcome(
        rolls=(22,), entry=entry("head_wound"), scars=2, injuries=frozenset({"hand_wound", "head_wound"}),
        can_gain_xp=False, scar_gained=True,
    )  # fmt: skip


def test_bitter_lessons_gains_the_d3():
    assert roll(elite(), 6, 5, 2) == outcome(rolls=(65,), entry=entry("bitter_lessons"), xp_gained=2)


def test_ruling_T_9_bitter_lessons_after_a_reroll_for_a_fighter_that_cannot_gain_xp():
    assert roll(elite(can_gain_xp=False), 1, 4, 6, 5) == outcome(
        rolls=(14, 65), entry=entry("bitter_lessons"), can_gain_xp=False, rerolled=(entry("hand_wound"),),
        rulings=("T-5", "T-9"),
    )  # fmt: skip


# --- Rolling again on a table of Injuries only (RULING T-5) ----------------------------------------------------


def injuries_only_table():
    row = dict(name="", effect="", scar=True, injury=True)
    return TraumaTable.from_rows(
        [
            {**row, "low": 11, "high": 36, "code": "hand_wound", "name": "Hand Wound"},
            {**row, "low": 41, "high": 66, "code": "chest_wound", "name": "Chest Wound"},
        ]
    )


def test_ruling_T_5_a_table_of_injuries_only_rolls_again_until_one_the_model_lacks():
    table = injuries_only_table()
    result = roll(elite(), 1, 1, 4, 1, table=table)
    assert result == outcome(
        rolls=(11, 41), entry=table.lookup(41), scars=2, injuries=frozenset({"hand_wound", "chest_wound"}),
        scar_gained=True, rerolled=(table.lookup(11),), rulings=("T-5",),
    )  # fmt: skip


def test_ruling_T_5_a_model_with_every_injury_of_the_table_is_refused_before_any_roll():
    complete = Casualty("full", elite=True, injuries=frozenset({"hand_wound", "chest_wound"}))
    dice = ScriptedDice([1, 1])
    with pytest.raises(ValueError, match="'full' already has every result of the Trauma Table"):
        trauma_step([complete], dice, table=injuries_only_table())
    assert dice.log == []


def test_casualties_must_be_casualty_values():
    with pytest.raises(ValueError, match="casualties must be Casualty values, got 'vet'"):
        trauma_step(["vet"], ScriptedDice([]))
