"""combat.rules: the Papal States' Glory for Reinforcements and what Glory can pay (CAMPAIGN_PHASE.md)."""

import pytest

from combat import rules


@pytest.mark.parametrize(
    ("faction", "glory"),
    [
        ("Papal States", 4),
        ("the papal  states", 4),
        (" THE PAPAL STATES ", 4),
        ("Papal Guard", 0),
        ("Trench Pilgrims", 0),
        ("", 0),
        ("States", 0),
    ],
)
def test_a_papal_states_warband_gains_4_glory_for_reinforcements(faction, glory):
    # CAMPAIGN_PHASE.md, Reinforcements: "A Papal States warband gains 4 Glory each time it does this."
    assert rules.reinforcement_glory(faction=faction) == glory
    assert rules.is_papal_states(faction) is bool(glory)


def test_glory_left_after_the_spends():
    assert rules.glory_left(glory=10, costs=[4, 3]) == 3
    assert rules.glory_left(glory=2, costs=[3]) == -1  # below 0: the Glory cannot pay, the caller refuses
    assert rules.glory_left(glory=0, costs=[]) == 0
    with pytest.raises(ValueError, match="cost"):
        rules.glory_left(glory=5, costs=[-1])
    with pytest.raises(ValueError, match="glory"):
        rules.glory_left(glory=-1, costs=[])
