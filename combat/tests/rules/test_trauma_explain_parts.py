"""Tests for combat/rules/trauma_explain.py's parts of a sentence: a Minor Wound that makes the fighter Unfit For
Duty, a house result whose effect is left blank, an Injury already had (TRAUMA_TABLE.md 35, RULINGS T-3 to
T-5)."""

import pytest

from combat.rules import Casualty, ScriptedDice, TraumaTable, explain_trauma, trauma_step
from combat.rules.trauma import resolve_entry


def _house(**hardened):
    rows = TraumaTable.default().to_rows()
    for row in rows:
        if row["code"] == "hardened":
            row.update(hardened)
    return TraumaTable.from_rows(rows)


def test_ruling_t_4_a_minor_wound_that_is_the_last_scar_does_not_say_it_misses_the_next_game():
    outcome = trauma_step([Casualty("hero", elite=True, scars=2)], ScriptedDice([3, 5]))[0]
    assert explain_trauma(outcome) == (
        "hero: D66 35, Minor Wound — Battle Scar 3 of 3; so it is Unfit For Duty: removed from the roster, its "
        "Battlekit and Glory Items go to the Arsenal (RULING T-4)."
    )


def test_ruling_t_3_a_house_result_with_a_blank_effect_says_only_its_scar():
    outcome = trauma_step(
        [Casualty("hero", elite=True)], ScriptedDice([6, 4]), table=_house(effect="", scar=True)
    )
    assert explain_trauma(outcome[0]) == "hero: D66 64, Hardened — Battle Scar 1 of 3."


def test_ruling_t_3_a_house_result_with_a_blank_effect_and_no_scar_ends_at_its_name():
    outcome = trauma_step([Casualty("hero", elite=True)], ScriptedDice([6, 4]), table=_house(effect=""))
    assert explain_trauma(outcome[0]) == "hero: D66 64, Hardened."


def test_ruling_t_5_an_injury_the_fighter_already_has_is_not_resolved_but_rolled_again():
    # trauma_step rerolls it before resolving; resolve_entry, which the odds share, refuses it naming both.
    casualty = Casualty("hero", elite=True, injuries=frozenset({"hand_wound"}))
    with pytest.raises(ValueError, match=r"^'hero' already has 'hand_wound': roll again \(RULING T-5\)$"):
        resolve_entry(casualty, TraumaTable.default().lookup(14))
