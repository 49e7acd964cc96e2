"""Bad input raises `ValueError` with a message that names the value (docs/engine.md), and the edge values the rules
allow are accepted: a 1-die weapon, a model with no Health Pool loss yet."""

import pytest

from combat.rules import (
    Casualty,
    Combatant,
    ExperienceAward,
    Formation,
    HarshLessons,
    HealthPool,
    MeleeWeapon,
    ScriptedDice,
    brawl,
    damage_odds,
    dice_pool,
    hit_distribution,
    inflict_damage,
    pass_odds,
)


def test_a_one_die_weapon_is_a_weapon():
    knife = MeleeWeapon(name="Knife", dice=1, stat="A")
    assert knife.test == "1A"
    with pytest.raises(ValueError, match="^a weapon's Test needs 1 die or more, got 0$"):
        MeleeWeapon(name="Nothing", dice=0, stat="A")


def test_a_weapons_stat_error_lists_the_stats():
    with pytest.raises(
        ValueError, match="^a weapon's Test stat must be one of S, P, E, C, I, A, L, got 'X'$"
    ):
        MeleeWeapon(name="Odd", dice=2, stat="X")


def test_an_incapacitated_target_is_named_or_called_the_target():
    down = Combatant(endurance=3, injuries=1, incapacitated=True)
    with pytest.raises(ValueError, match="^the Target is already Incapacitated and cannot be attacked$"):
        brawl(ScriptedDice([1, 1]), target=down, stat=3)
    with pytest.raises(ValueError, match="^the target is already Incapacitated: no odds for Damage to it$"):
        damage_odds(down, dice_count=2, stat=3)


@pytest.mark.parametrize("odds", [hit_distribution, pass_odds])
def test_the_odds_name_a_negative_dice_count(odds):
    with pytest.raises(ValueError, match="^dice_count must be 0 or more, got -1$"):
        odds(dice_count=-1, stat=3)


def test_damage_odds_name_a_negative_dice_count():
    with pytest.raises(ValueError, match="^dice_count must be 0 or more, got -1$"):
        damage_odds(Combatant(endurance=3), dice_count=-1, stat=3)


def test_dice_pool_names_a_negative_base():
    with pytest.raises(ValueError, match="^base must be 0 or more, got -1$"):
        dice_pool(base=-1)


def test_a_health_pools_errors_name_the_value():
    with pytest.raises(ValueError, match="^lost must be 0 or more, got -1$"):
        HealthPool(2, 3, lost=-1)
    with pytest.raises(
        ValueError,
        match="^lost 3 would remove a whole model of 3 Health Points: remove it and carry the rest$",
    ):
        HealthPool(2, 3, lost=3)


def test_a_formations_rank_must_be_a_tuple():
    with pytest.raises(ValueError, match=r"^each rank must be a tuple of cells, got \['a'\]$"):
        Formation((["a"],))


def test_a_casualtys_errors_name_the_value():
    with pytest.raises(ValueError, match="^a casualty needs an id, got ''$"):
        Casualty("", elite=True)
    with pytest.raises(ValueError, match="^a casualty needs an id, got 7$"):
        Casualty(7, elite=True)
    with pytest.raises(ValueError, match="^injuries must hold result codes, got 7$"):
        Casualty("vet", elite=True, injuries=frozenset({7}))


def test_damage_to_an_incapacitated_unnamed_model_calls_it_the_model():
    down = Combatant(endurance=3, injuries=1, incapacitated=True)
    with pytest.raises(ValueError, match="^the model is already Incapacitated and cannot take Damage 2$"):
        inflict_damage(down, 2)


def test_an_experience_reason_error_lists_the_reasons():
    with pytest.raises(
        ValueError,
        match="^reason must be one of removed, pending, did_not_take_part, cannot_gain_xp, earned, got 'won'$",
    ):
        ExperienceAward(0, 0, 0, 0, 0, "won")


def test_harsh_lessons_shows_the_crews_that_earned_it_in_order():
    assert repr(HarshLessons(["raiders", "hunters"])) == "HarshLessons(earned=['hunters', 'raiders'])"
