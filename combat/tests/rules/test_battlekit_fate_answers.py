"""Every `battlekit` answer of a TraumaOutcome and the defaults of `battlekit_fate`, one whole answer each
(TRAUMA_TABLE.md 34 and 36, RULINGS T-4 and T-6; found by mutation testing)."""

import pytest

from combat.rules import KitPiece, battlekit_fate

RELIC = KitPiece("Relic", removable=False)
ARMOUR = KitPiece("Heavy Armour", ("HEAVY",))


def test_robbed_keeps_battlekit_that_cannot_be_lost_unless_removed():
    assert battlekit_fate("lost", [RELIC]) == ("kept",)
    assert battlekit_fate("lost", [RELIC], removed=True) == ("lost",)


def test_unfit_for_duty_sends_heavy_battlekit_to_the_arsenal_unless_heavy_battlekit_was_lost():
    assert battlekit_fate("arsenal", [ARMOUR]) == ("arsenal",)
    assert battlekit_fate("arsenal", [ARMOUR], heavy_battlekit_lost=True) == ("lost",)


def test_muscle_damage_loses_heavy_battlekit_and_kept_keeps_it():
    assert battlekit_fate("heavy_lost", [ARMOUR, RELIC]) == ("lost", "kept")
    assert battlekit_fate("kept", [ARMOUR], heavy_battlekit_lost=True) == ("kept",)


def test_an_answer_that_is_not_a_battlekit_answer_is_refused_listing_them():
    with pytest.raises(
        ValueError, match=r"^battlekit must be one of kept, lost, heavy_lost, arsenal, got 'gone'$"
    ):
        battlekit_fate("gone", [])
