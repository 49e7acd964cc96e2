"""Whole `DamageOutcome` values for each row of the Damage Resolution table, `recover_harm`, and the checks on a
model's state (seed 000, RULINGS D-1 to D-5 and D-8)."""

import pytest

from combat.rules import Combatant, DamageOutcome, FriendlyModel, explain_damage, inflict_damage, recover_harm


def test_ruling_D_5_no_damage_returns_the_model_as_it_was():
    model = Combatant(endurance=3, harm=1, name="Fidus")
    assert inflict_damage(model, 0) == DamageOutcome("none", 0, 0, 0, False, model, 0, model, ("D-5",))


def test_ruling_D_1_double_endurance_incapacitates_whatever_the_boxes_say():
    model = Combatant(endurance=2, health=3, harm=1, injuries=1, name="Fidus")
    after = Combatant(endurance=2, health=3, harm=1, injuries=1, incapacitated=True, name="Fidus")
    assert inflict_damage(model, 4) == DamageOutcome("incapacitated", 0, 0, 0, True, after, 4, model, ())


def test_ruling_D_3_an_injury_that_reaches_health_makes_the_harm_moot():
    model = Combatant(endurance=3, health=2, harm=1, injuries=1)
    after = Combatant(endurance=3, health=2, harm=1, injuries=2, incapacitated=True)
    assert inflict_damage(model, 3) == DamageOutcome("injury", 0, 0, 1, True, after, 3, model, ("D-3", "D-8"))


def test_ruling_D_2_excess_harm_that_reaches_health_incapacitates_like_the_table():
    model = Combatant(endurance=3, health=1, harm=3)
    after = Combatant(endurance=3, health=1, harm=3, injuries=1, incapacitated=True)
    assert inflict_damage(model, 1) == DamageOutcome("harm", 0, 1, 1, True, after, 1, model, ("D-2", "D-8"))


def test_ruling_D_2_excess_harm_short_of_health_is_one_injury():
    model = Combatant(endurance=3, health=3, harm=3)
    after = Combatant(endurance=3, health=3, harm=3, injuries=1)
    assert inflict_damage(model, 1) == DamageOutcome("harm", 0, 1, 1, False, after, 1, model, ("D-2",))


def test_the_harm_row_adds_one_harm_and_names_no_ruling():
    model = Combatant(endurance=3, health=2, harm=1, fatigue=1, champion=True, name="Brick")
    after = Combatant(endurance=3, health=2, harm=2, fatigue=1, champion=True, name="Brick")
    assert inflict_damage(model, 2) == DamageOutcome("harm", 1, 0, 0, False, after, 2, model, ())


def test_recover_harm_keeps_every_other_field():
    model = Combatant(
        endurance=4, health=3, harm=3, harm_limit=4, injuries=1, fatigue=1, champion=True, name="Brick"
    )
    assert recover_harm(model, 2) == Combatant(
        endurance=4, health=3, harm=1, harm_limit=4, injuries=1, fatigue=1, champion=True, name="Brick"
    )


def test_recover_harm_of_an_incapacitated_model_leaves_it_incapacitated():
    model = Combatant(endurance=2, health=2, harm=1, harm_limit=None, injuries=2, incapacitated=True)
    assert recover_harm(model, 5) == Combatant(
        endurance=2, health=2, harm=0, harm_limit=None, injuries=2, incapacitated=True
    )


@pytest.mark.parametrize("field", ["injuries", "fatigue"])
def test_a_negative_count_is_named_in_the_error(field):
    with pytest.raises(ValueError, match=f"^{field} must be 0 or more, got -1$"):
        Combatant(endurance=3, health=2, **{field: -1})


def test_injuries_equal_to_health_need_incapacitated():
    with pytest.raises(
        ValueError,
        match=r"^injuries 2 equal health 2: such a model is Incapacitated, pass incapacitated=True$",
    ):
        Combatant(endurance=3, health=2, injuries=2)


def test_a_friendly_models_errors_name_its_field():
    with pytest.raises(ValueError, match="^intelligence must be 1 to 10, got 0$"):
        FriendlyModel("ann", intelligence=0)
    with pytest.raises(ValueError, match="^fatigue must be 0 or more, got -1$"):
        FriendlyModel("ann", intelligence=3, fatigue=-1)
    with pytest.raises(ValueError, match="^fatigue must be 0 to 2, got 3$"):
        FriendlyModel("ann", intelligence=3, fatigue=3)


def test_explain_damage_without_the_model_before_reads_the_model_after():
    after = Combatant(endurance=3, health=2, harm=2, name="Brick")
    outcome = DamageOutcome("harm", 1, 0, 0, False, after, damage=1)
    assert explain_damage(outcome) == "Damage 1 < Endurance 3: 1 Harm — Brick now has 2 Harm."


def test_explain_damage_calls_an_unnamed_model_the_model():
    outcome = inflict_damage(Combatant(endurance=3), 7)
    assert explain_damage(outcome) == (
        "Damage 7 ≥ double Endurance 3: the model is Incapacitated (Damage Resolution table)."
    )
