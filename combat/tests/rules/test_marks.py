"""Tests for combat/rules/marks.py (seed 000 "Harm", "Injury"): 1 Harm or 1 Injury marked by a rule other than
Damage, as the board's "+1 Harm" and "+1 Injury" do."""

import pytest

from combat.rules import Combatant, inflict_damage
from combat.rules.marks import explain_mark, suffer_harm, suffer_injury


def test_one_harm_below_the_limit_is_marked():
    brick = Combatant(endurance=6, health=3, harm=1, name="Brick")
    outcome = suffer_harm(brick)
    assert (outcome.suffered, outcome.after.harm, outcome.after.injuries) == (1, 2, 0)
    assert not outcome.incapacitated
    assert explain_mark(outcome) == "Brick suffers 1 Harm (2 of 3 now)."


def test_harm_beyond_the_limit_outside_damage_has_no_effect():
    # 000 "Harm": Excess Harm "has no effect unless a rule specifically states otherwise"; RULING D-2 makes only
    # Damage's Excess Harm an Injury, so the same model does take an Injury from Damage 1.
    vera = Combatant(endurance=4, health=2, harm=3, injuries=1, name="Vera")
    outcome = suffer_harm(vera)
    assert outcome.suffered == 0
    assert outcome.after == vera
    assert "Excess Harm, which has no effect outside Damage" in explain_mark(outcome)
    assert inflict_damage(vera, 1).incapacitated


def test_no_harm_limit_never_stops_harm():
    # RULING D-4: no Harm Limit, no Excess Harm.
    outcome = suffer_harm(Combatant(endurance=4, harm=7, harm_limit=None, name="Ghoul"))
    assert outcome.after.harm == 8
    assert explain_mark(outcome) == "Ghoul suffers 1 Harm (8 now)."


def test_an_injury_reaching_health_incapacitates():
    # 000 "Injury": marked Injury Boxes equal to Health Incapacitate the model (RULING D-8: the same event).
    vera = Combatant(endurance=4, health=2, injuries=1, name="Vera")
    outcome = suffer_injury(vera)
    assert outcome.incapacitated
    assert outcome.after.incapacitated
    assert outcome.after.injuries == 2
    assert explain_mark(outcome) == (
        "Vera suffers an Injury (2 of 2 Injury Boxes marked). Vera is Incapacitated: its Injuries equal its "
        "Health (RULING D-8)."
    )


def test_an_injury_below_health_is_marked_only():
    outcome = suffer_injury(Combatant(endurance=6, health=3, harm=2, name="Brick"))
    assert (outcome.after.injuries, outcome.after.harm, outcome.incapacitated) == (1, 2, False)


@pytest.mark.parametrize("mark", [suffer_harm, suffer_injury])
def test_an_incapacitated_model_is_refused(mark):
    with pytest.raises(ValueError, match="already Incapacitated"):
        mark(Combatant(endurance=3, health=1, injuries=1, incapacitated=True, name="Fidus"))
