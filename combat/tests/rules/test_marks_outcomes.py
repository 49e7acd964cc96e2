"""Whole outcomes of marking 1 Harm or 1 Injury outside Damage (seed 000 "Harm", "Injury"; RULINGS D-2, D-4,
D-8), each compared field by field, with the refusals and sentences of a model with and without a name (
the mutation pass found these fields unchecked)."""

import pytest

from combat.rules import Combatant
from combat.rules.marks import MarkOutcome, explain_mark, suffer_harm, suffer_injury


def test_d_2_one_harm_below_the_limit_is_the_whole_outcome():
    brick = Combatant(endurance=6, health=3, harm=1, name="Brick")
    assert suffer_harm(brick) == MarkOutcome(
        "harm", 1, False, brick, Combatant(endurance=6, health=3, harm=2, name="Brick")
    )


def test_d_2_harm_at_the_limit_outside_damage_is_the_whole_outcome_of_nothing():
    vera = Combatant(endurance=4, health=2, harm=3, injuries=1, name="Vera")
    outcome = suffer_harm(vera)
    assert outcome == MarkOutcome("harm", 0, False, vera, vera)
    assert outcome.incapacitated is False


def test_d_4_no_harm_limit_is_the_whole_outcome():
    ghoul = Combatant(endurance=4, harm=7, harm_limit=None, name="Ghoul")
    assert suffer_harm(ghoul) == MarkOutcome(
        "harm", 1, False, ghoul, Combatant(endurance=4, harm=8, harm_limit=None, name="Ghoul")
    )


def test_d_8_an_injury_is_the_whole_outcome_below_and_at_health():
    lisk = Combatant(endurance=4, health=3, injuries=1, name="Lisk")
    assert suffer_injury(lisk) == MarkOutcome(
        "injury", 1, False, lisk, Combatant(endurance=4, health=3, injuries=2, name="Lisk")
    )
    vera = Combatant(endurance=4, health=2, injuries=1, name="Vera")
    assert suffer_injury(vera) == MarkOutcome(
        "injury", 1, True, vera, Combatant(endurance=4, health=2, injuries=2, incapacitated=True, name="Vera")
    )


@pytest.mark.parametrize(("mark", "what"), [(suffer_harm, "Harm"), (suffer_injury, "an Injury")])
def test_an_incapacitated_model_is_refused_by_name_and_nameless(mark, what):
    fallen = Combatant(endurance=4, health=2, injuries=2, incapacitated=True, name="Rhee")
    with pytest.raises(ValueError, match="already Incapacitated") as named:
        mark(fallen)
    assert str(named.value) == f"Rhee is already Incapacitated and cannot suffer {what}"
    nameless = Combatant(endurance=4, health=2, injuries=2, incapacitated=True)
    with pytest.raises(ValueError, match="already Incapacitated") as unnamed:
        mark(nameless)
    assert str(unnamed.value) == f"the model is already Incapacitated and cannot suffer {what}"


def test_the_sentences_of_a_nameless_model_say_the_model():
    assert (
        explain_mark(suffer_harm(Combatant(endurance=4, harm=1))) == "The model suffers 1 Harm (2 of 3 now)."
    )
    assert explain_mark(suffer_harm(Combatant(endurance=4, harm=3))) == (
        "The model is at its Harm Limit (3): 1 more Harm is Excess Harm, which has no effect outside Damage "
        '(000 "Harm", RULING D-2).'
    )
    assert explain_mark(suffer_injury(Combatant(endurance=4, health=1))) == (
        "The model suffers an Injury (1 of 1 Injury Boxes marked). The model is Incapacitated: its Injuries equal "
        "its Health (RULING D-8)."
    )
    assert explain_mark(suffer_injury(Combatant(endurance=4, health=3))) == (
        "The model suffers an Injury (1 of 3 Injury Boxes marked)."
    )
