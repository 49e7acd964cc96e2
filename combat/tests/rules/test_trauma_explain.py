"""Tests for combat/rules/trauma_explain.py: the plain sentences of the Trauma Step (TRAUMA_TABLE.md's words,
RULINGS T-2 to T-9). Most outcomes' sentences are pinned beside their rule in test_trauma.py."""

import pytest

from combat.rules import (
    Casualty,
    DiceExhausted,
    ScriptedDice,
    TraumaTable,
    explain_trauma,
    explain_trauma_entry,
    trauma_step,
)

TABLE = TraumaTable.default()


def _elite(faces, **fields):
    return trauma_step([Casualty("hero", elite=True, **fields)], ScriptedDice(faces))[0]


def test_a_bitter_lessons_result_says_what_it_is_while_its_d3_waits():
    dice = ScriptedDice([6, 5])
    with pytest.raises(DiceExhausted):
        trauma_step([Casualty("hero", elite=True)], dice)  # the D3 is not rolled yet
    roll = 65

    sentence = explain_trauma_entry(TABLE.lookup(roll), roll=roll, name="Brother Marcus")

    assert sentence == "Brother Marcus: D66 65, Bitter Lessons — gains D3 extra XP; no Injury and no Scar."


def test_a_trauma_entry_sentence_names_the_rerolls_as_explain_trauma_does():
    # Hand Wound (14) already had, rolled again (RULING T-5): 65, Bitter Lessons, its D3 still to roll.
    rerolled = [(14, TABLE.lookup(14))]

    sentence = explain_trauma_entry(TABLE.lookup(65), roll=65, rerolled=rerolled)

    assert sentence == (
        "This fighter: D66 65 after rerolling 14 (Hand Wound), an Injury it already has (RULING T-5), Bitter "
        "Lessons — gains D3 extra XP; no Injury and no Scar."
    )
    outcome = _elite([1, 4, 6, 5, 3], injuries={"hand_wound"})
    assert explain_trauma(outcome).startswith(sentence.split(" — ")[0].replace("This fighter", "hero"))


@pytest.mark.parametrize(
    ("roll", "rerolled", "message"),
    [
        (64, [], "roll 64 is not a D66 result of Bitter Lessons \\(65\\)"),
        (67, [], "roll 67 is not a D66 result"),
        (65, [(15, TABLE.lookup(14))], "rerolled 15 is not a D66 result of Hand Wound \\(14\\)"),
    ],
)
def test_a_trauma_entry_sentence_refuses_a_roll_outside_its_result(roll, rerolled, message):
    with pytest.raises(ValueError, match=message):
        explain_trauma_entry(TABLE.lookup(65), roll=roll, rerolled=rerolled)


@pytest.mark.parametrize(
    ("face", "sentence"),
    [
        (3, "Pte Lowe: Survival Roll 3 (3+) — survived and fights on as normal (RULING T-2)."),
        (
            2,
            "Pte Lowe: Survival Roll 2 (1-2) — dead, removed from the roster with all its Battlekit (RULING T-2).",
        ),
    ],
)
def test_ruling_T_2_a_troops_survival_roll_reads_as_one_sentence(face, sentence):
    outcome = trauma_step([Casualty("t", elite=False, name="Pte Lowe")], ScriptedDice([face]))[0]
    assert explain_trauma(outcome) == sentence


def test_ruling_T_9_bitter_lessons_for_a_fighter_that_cannot_gain_xp_says_no_xp():
    outcome = _elite([6, 5], can_gain_xp=False)
    assert explain_trauma(outcome) == (
        "hero: D66 65, Bitter Lessons — no XP, as it can no longer gain XP (RULING T-9); no Injury and no Scar."
    )


def test_robbed_as_the_last_scar_of_a_house_table_says_its_battlekit_is_lost():
    # A house table where Robbed gives a Scar: Unfit For Duty, and what Robbed took stays lost (RULING T-4).
    rows = [dict(row, scar=True) if row["code"] == "robbed" else row for row in TABLE.to_rows()]
    outcome = trauma_step(
        [Casualty("hero", elite=True, scars=2)], ScriptedDice([3, 6]), table=TraumaTable.from_rows(rows)
    )[0]
    assert outcome.battlekit == "lost"
    assert explain_trauma(outcome).endswith(
        "so it is Unfit For Duty: removed from the roster, its Battlekit is lost (RULING T-4)."
    )
