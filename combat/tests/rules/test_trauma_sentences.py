"""The post-game wizard's sentences for Trauma results, written out whole (TRAUMA_TABLE.md, RULINGS T-2, T-4,
T-5, T-9). A house table with its own effect texts shows the sentence follows the result's code."""

from combat.rules import (
    Casualty,
    ScriptedDice,
    TraumaTable,
    explain_trauma,
    explain_trauma_entry,
    trauma_step,
)


def house_table():
    """Trench Crusade's table with other effect texts, and a Robbed that gives a Scar."""
    changes = {
        "full_recovery": {"effect": "back on its feet"},
        "robbed": {"effect": "purse gone", "scar": True},
        "hardened": {"effect": ""},
    }
    return TraumaTable.from_rows(
        [{**row, **changes.get(row["code"], {})} for row in TraumaTable.default().to_rows()]
    )


def said(casualty, *faces, table=None):
    (outcome,) = trauma_step([casualty], ScriptedDice(faces), table=table)
    return explain_trauma(outcome)


def vet(**fields):
    return Casualty("vet", **{"elite": True, "name": "Vet", **fields})


def test_ruling_T_2_the_survival_roll_sentence_gives_the_die():
    ann = Casualty("t", elite=False, name="Ann")
    assert said(ann, 4) == "Ann: Survival Roll 4 (3+) — survived and fights on as normal (RULING T-2)."
    assert said(ann, 1) == (
        "Ann: Survival Roll 1 (1-2) — dead, removed from the roster with all its Battlekit (RULING T-2)."
    )


def test_full_recovery_says_no_injury_and_no_scar_whatever_the_tables_text():
    assert said(vet(), 5, 1, table=house_table()) == "Vet: D66 51, Full Recovery — no Injury and no Scar."


def test_robbed_says_what_is_lost_whatever_the_tables_text():
    assert said(vet(scars=1), 3, 6, table=house_table()) == (
        "Vet: D66 36, Robbed — Battle Scar 2 of 3; all its Battlekit is lost, except Battlekit that cannot be "
        "lost; no Injury and no Scar."
    )


def test_ruling_T_4_unfit_for_duty_after_robbed_keeps_the_battlekit_lost():
    assert said(vet(scars=2), 3, 6, table=house_table()) == (
        "Vet: D66 36, Robbed — Battle Scar 3 of 3; all its Battlekit is lost, except Battlekit that cannot be "
        "lost; no Injury and no Scar; so it is Unfit For Duty: removed from the roster, its Battlekit is lost "
        "(RULING T-4)."
    )


def test_ruling_T_4_unfit_for_duty_after_muscle_damage_sends_the_rest_to_the_arsenal():
    assert said(vet(scars=2), 3, 4) == (
        "Vet: D66 34, Muscle Damage — Battle Scar 3 of 3; it cannot carry HEAVY Battlekit, and any it has is "
        "lost; so it is Unfit For Duty: removed from the roster, the rest of its Battlekit and its Glory Items go "
        "to the Arsenal (RULING T-4)."
    )


def test_ruling_T_5_a_second_lost_an_eye_sentence():
    assert said(vet(injuries=frozenset({"lost_an_eye"})), 1, 5) == (
        "Vet: D66 15, Lost an Eye a second time — blinded and removed from the roster with all its Battlekit, no "
        "reroll (RULING T-5)."
    )


def test_ruling_T_9_bitter_lessons_sentence_for_a_fighter_that_cannot_gain_xp():
    assert said(vet(can_gain_xp=False), 6, 5) == (
        "Vet: D66 65, Bitter Lessons — no XP, as it can no longer gain XP (RULING T-9); no Injury and no Scar."
    )


def test_captured_sentence_while_the_ransom_waits():
    assert said(vet(), 1, 2) == (
        "Vet: D66 12, Captured — the players may agree a ransom: unpaid, it is executed and removed with all its "
        "Battlekit; paid, it counts as Full Recovery."
    )


def test_ruling_T_5_two_rerolls_are_listed_in_order():
    assert said(vet(injuries=frozenset({"hand_wound", "chest_wound"})), 1, 4, 1, 6, 5, 2) == (
        "Vet: D66 52 after rerolling 14 (Hand Wound), 16 (Chest Wound), an Injury it already has (RULING T-5), "
        "Full Recovery — no Injury and no Scar."
    )


def test_a_result_with_no_effect_text_ends_at_its_name():
    table = house_table()
    assert explain_trauma_entry(table.lookup(64), roll=64, name="Vet") == "Vet: D66 64, Hardened."
