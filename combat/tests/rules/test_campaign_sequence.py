"""Tests for combat/rules/campaign_sequence.py: what one step of the post-battle sequence decides for another
(CAMPAIGN_PHASE.md, "The order of the steps")."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat import rules
from combat.rules.campaign_sequence import REINFORCEMENTS_INSTEAD


@pytest.mark.parametrize(("scars", "allowed"), [(0, False), (1, False), (2, True), (3, True)])
def test_a_fighter_with_2_or_more_battle_scars_may_be_dismissed(scars, allowed):
    """CAMPAIGN_PHASE.md: "After the Trauma Step, a player may also dismiss any fighter with 2 or more Battle
    Scars"."""
    assert rules.DISMISS_FROM_SCARS == 2
    assert rules.may_dismiss(battle_scars=scars, on_roster=True) is allowed


@given(st.integers(min_value=0, max_value=20))
def test_a_fighter_off_the_roster_is_never_dismissed(scars):
    assert rules.may_dismiss(battle_scars=scars, on_roster=False) is False


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"battle_scars": -1, "on_roster": True}, "battle_scars must be 0 or more, got -1"),
        ({"battle_scars": 2.0, "on_roster": True}, "battle_scars must be 0 or more, got 2.0"),
        ({"battle_scars": 2, "on_roster": 1}, "on_roster must be True or False, got 1"),
        ({"battle_scars": 2, "on_roster": None}, "on_roster must be True or False, got None"),
    ],
)
def test_dismissal_refuses_bad_input_naming_it(bad, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        rules.may_dismiss(**bad)


def test_the_dismissal_is_told_with_its_rule():
    assert (
        rules.explain_dismissal(battle_scars=3)
        == "Dismissed with 3 Battle Scars (a fighter with 2 or more may be)."
    )
    assert (
        rules.explain_dismissal(battle_scars=2)
        == "Dismissed with 2 Battle Scars (a fighter with 2 or more may be)."
    )
    with pytest.raises(ValueError, match="only a fighter with 2 or more may be dismissed"):
        rules.explain_dismissal(battle_scars=1)


def test_reinforcements_called_skip_the_exploration_and_nothing_else_does():
    """CAMPAIGN_PHASE.md: "4. Reinforcements (optional; see below: taking them skips step 5)"; "its player may
    call Reinforcements instead of Exploring"."""
    assert rules.exploration_skipped(reinforcements_called=True) == REINFORCEMENTS_INSTEAD
    assert (
        REINFORCEMENTS_INSTEAD
        == "Reinforcements were called instead (CAMPAIGN_PHASE.md: they skip the Exploration)"
    )
    assert rules.exploration_skipped(reinforcements_called=False) is None
    assert rules.exploration_skipped(reinforcements_called=None) is None
    with pytest.raises(ValueError, match="reinforcements_called must be True or False, got 1"):
        rules.exploration_skipped(reinforcements_called=1)
