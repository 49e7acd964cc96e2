"""Tests for combat/rules/campaign_limits.py: Threshold Value, Field Strength, selling, Reinforcements, stages and
standings (CAMPAIGN_PHASE.md; RULINGS C-1 to C-4, W-1, W-2)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat import rules
from combat.rules import (
    CampaignLimits,
    Purchase,
    RosterFighter,
    Standing,
    campaign_limits,
    campaign_stage,
    purchase_order,
    rank_standings,
    reinforcement_budget,
    sale_value,
    warband_value,
)
from combat.rules.campaign_limits import OVER_FIELD_STRENGTH, OVER_THRESHOLD, fielding_breaches, next_battle

# CAMPAIGN_PHASE.md, "Threshold Value and Maximum Field Strength", battles 1 to 12.
TABLE = {
    1: (700, 10),
    2: (800, 11),
    3: (900, 12),
    4: (1000, 13),
    5: (1100, 14),
    6: (1200, 15),
    7: (1300, 16),
    8: (1400, 17),
    9: (1500, 18),
    10: (1600, 19),
    11: (1700, 20),
    12: (1800, 22),
}


def test_the_threshold_value_and_field_strength_table():
    for battle, (threshold, field_strength) in TABLE.items():
        assert campaign_limits(battle=battle) == CampaignLimits(
            threshold=threshold, field_strength=field_strength
        )


def test_c_1_the_threshold_is_shifted_by_the_starting_value_and_there_is_no_battle_13():
    # CAMPAIGN_PHASE.md: "the Papal States start 200 lower, so they have 700 before their battle 3".
    assert campaign_limits(battle=3, starting_value=500) == CampaignLimits(threshold=700, field_strength=12)
    assert campaign_limits(battle=1, starting_value=500) == CampaignLimits(threshold=500, field_strength=10)
    assert campaign_limits(battle=12, starting_value=800) == CampaignLimits(threshold=1900, field_strength=22)
    with pytest.raises(ValueError, match="battle must be 1 to 12, got 13"):
        campaign_limits(battle=13)
    with pytest.raises(ValueError, match="battle must be 1 to 12, got 0"):
        campaign_limits(battle=0)
    with pytest.raises(ValueError, match="starting_value must be 0 or more, got -5"):
        campaign_limits(battle=1, starting_value=-5)


def test_c_2_the_value_counts_fighters_on_the_roster_and_the_battlekit_they_carry():
    fighters = [
        RosterFighter(cost=60, battlekit=(15, 5)),
        RosterFighter(cost=25),
        RosterFighter(cost=90, battlekit=(40,), removed=True),  # removed: not counted
    ]
    assert warband_value(fighters) == 105
    assert warband_value([]) == 0
    with pytest.raises(ValueError, match="a Battlekit cost must be 0 or more, got -5"):
        RosterFighter(cost=10, battlekit=(-5,))
    with pytest.raises(ValueError, match="battlekit must be a tuple of costs"):
        RosterFighter(cost=10, battlekit=[5])
    with pytest.raises(ValueError, match="a fighter must be a RosterFighter"):
        warband_value([60])


def test_c_4_reinforcements_spend_the_threshold_minus_the_value_only_below_it():
    assert reinforcement_budget(threshold=900, warband_value=warband_value([RosterFighter(760)])) == 140
    assert reinforcement_budget(threshold=900, warband_value=760) == 140
    assert reinforcement_budget(threshold=900, warband_value=900) == 0
    assert reinforcement_budget(threshold=900, warband_value=950) == 0
    with pytest.raises(ValueError, match="warband_value must be 0 or more, got -1"):
        reinforcement_budget(threshold=900, warband_value=-1)
    with pytest.raises(ValueError, match="threshold must be 0 or more, got -900"):
        reinforcement_budget(threshold=-900, warband_value=0)


def test_c_3_selling_gives_half_the_base_cost_rounded_up():
    assert sale_value(5) == 3
    assert sale_value(0) == 0
    assert sale_value(1) == 1
    assert sale_value(40) == 20
    with pytest.raises(ValueError, match="cost must be 0 or more, got -2"):
        sale_value(-2)


@given(st.integers(0, 10_000))
def test_a_sale_is_never_more_than_the_cost_and_two_sales_cover_it(cost):
    assert sale_value(cost) <= cost
    assert 2 * sale_value(cost) - cost in (0, 1)


def test_w_1_the_stages_read_battle_9_as_endgame():
    stages = [campaign_stage(battle) for battle in range(1, 13)]
    assert stages == ["early"] * 3 + ["mid"] * 5 + ["endgame"] * 3 + ["final"]
    assert campaign_stage(9) == "endgame"
    with pytest.raises(ValueError, match="battle must be 1 to 12, got 13"):
        campaign_stage(13)


def test_w_2_standings_rank_by_victory_points_then_wins_then_name_and_keep_disbanded_rows():
    rows = [
        Standing("Iron Sepulchre", 12, 3),
        Standing("ashen choir", 12, 4),
        {"warband": "Black Grail", "victory_points": 15, "wins": 2, "disbanded": True},
        Standing("Trench Pilgrims", 12, 3),
        Standing("Court of the Seven", 4, 1),
    ]
    assert rank_standings(rows) == (
        Standing("Black Grail", 15, 2, disbanded=True),
        Standing("ashen choir", 12, 4),
        Standing("Iron Sepulchre", 12, 3),
        Standing("Trench Pilgrims", 12, 3),
        Standing("Court of the Seven", 4, 1),
    )
    assert rank_standings([]) == ()


def test_a_standing_refuses_bad_fields_naming_them():
    with pytest.raises(ValueError, match="victory_points must be 0 or more, got -1"):
        Standing("Black Grail", -1, 0)
    with pytest.raises(ValueError, match="a standing needs the warband's name"):
        Standing("  ", 1, 0)
    with pytest.raises(ValueError, match="disbanded must be True or False"):
        Standing("Black Grail", 1, 0, disbanded="no")
    with pytest.raises(ValueError, match="a standing is a Standing or a mapping of its fields"):
        rank_standings([("Black Grail", 1, 0)])


standings = st.builds(
    Standing,
    warband=st.text("abAB c", min_size=1, max_size=4).filter(str.strip),
    victory_points=st.integers(0, 4),
    wins=st.integers(0, 3),
    disbanded=st.booleans(),
)


@given(st.lists(standings, max_size=8), st.randoms(use_true_random=False))
def test_rank_standings_is_a_total_order_consistent_with_w_2(rows, random):
    ranked = rank_standings(rows)
    shuffled = list(rows)
    random.shuffle(shuffled)
    assert rank_standings(shuffled) == ranked  # the order given does not matter: the order is total
    assert sorted(ranked, key=repr) == sorted(rows, key=repr)  # every row kept, disbanded ones too
    for higher, lower in zip(ranked, ranked[1:], strict=False):
        assert (higher.victory_points, higher.wins) >= (lower.victory_points, lower.wins)
        if (higher.victory_points, higher.wins) == (lower.victory_points, lower.wins):
            assert higher.warband.casefold() <= lower.warband.casefold()


def test_an_order_is_paid_from_the_strongbox_in_full_or_not_at_all():
    # CAMPAIGN_PHASE.md: "A purchase is paid from the Strongbox in full; a warband cannot buy what it cannot pay
    # for." Ten Mire Pilgrims at 40 and a Bell Hammer at 15: 415.
    lines = [Purchase("Mire Pilgrim", 40, 10), Purchase("Bell Hammer", 15), Purchase("Chain Sling", 5, 0)]
    paid = purchase_order(strongbox=415, purchases=lines)
    assert (paid.total, paid.strongbox, paid.left, paid.can_pay, paid.count) == (415, 415, 0, True, 11)
    assert [line.name for line in paid.purchases] == ["Mire Pilgrim", "Bell Hammer"]  # nothing of quantity 0
    short = purchase_order(strongbox=414, purchases=lines)
    assert (short.total, short.left, short.can_pay) == (
        415,
        -1,
        False,
    )  # refused whole, not the part it affords
    assert purchase_order(strongbox=0, purchases=[]).can_pay


def test_a_purchase_refuses_bad_fields_naming_them():
    with pytest.raises(ValueError, match="quantity"):
        Purchase("Mire Pilgrim", 40, -1)
    with pytest.raises(ValueError, match="cost"):
        Purchase("Mire Pilgrim", -40)
    with pytest.raises(ValueError, match="names what it buys"):
        Purchase(" ", 40)
    with pytest.raises(ValueError, match="strongbox"):
        purchase_order(strongbox=-1, purchases=[])
    with pytest.raises(ValueError, match="must be a Purchase"):
        purchase_order(strongbox=10, purchases=[("Mire Pilgrim", 40, 1)])


purchases = st.builds(
    Purchase, st.sampled_from(["Mire Pilgrim", "Bell Hammer"]), st.integers(0, 200), st.integers(0, 20)
)


@given(st.integers(0, 5_000), st.lists(purchases, max_size=6), st.randoms(use_true_random=False))
def test_an_order_pays_exactly_its_lines_whatever_their_order(strongbox, lines, random):
    order = purchase_order(strongbox=strongbox, purchases=lines)
    assert order.total == sum(line.cost * line.quantity for line in lines)
    assert order.left == strongbox - order.total
    assert order.can_pay == (order.total <= strongbox)
    shuffled = list(lines)
    random.shuffle(shuffled)
    assert purchase_order(strongbox=strongbox, purchases=shuffled).total == order.total


# The next battle, the Reinforcements condition and fielding (RULINGS C-1, C-4; CAMPAIGN_PHASE.md).


@pytest.mark.parametrize(
    ("played", "following"), [(0, 1), (1, 2), (10, 11), (11, 12), (12, None), (30, None)]
)
def test_c_1_the_next_battle_is_the_battles_played_plus_one_and_there_is_no_battle_13(played, following):
    assert next_battle(battles_played=played) == following


@pytest.mark.parametrize("bad", [-1, 1.0, None, "2"])
def test_the_next_battle_refuses_a_count_that_is_not_one(bad):
    with pytest.raises(ValueError, match="battles_played must be 0 or more"):
        next_battle(battles_played=bad)


@pytest.mark.parametrize(("value", "allowed"), [(0, True), (899, True), (900, False), (950, False)])
def test_c_4_reinforcements_only_below_the_threshold_value(value, allowed):
    assert rules.may_call_reinforcements(threshold=900, warband_value=value) is allowed
    assert rules.reinforcement_budget(threshold=900, warband_value=value) == (900 - value if allowed else 0)


@pytest.mark.parametrize(("threshold", "value"), [(-1, 0), (0, -1), (900, 1.5)])
def test_the_reinforcements_condition_refuses_negative_inputs(threshold, value):
    with pytest.raises(ValueError, match="must be 0 or more"):
        rules.may_call_reinforcements(threshold=threshold, warband_value=value)


@pytest.mark.parametrize(
    ("value", "models", "breaches"),
    [
        (800, 11, ()),
        (801, 11, (OVER_THRESHOLD,)),
        (800, 12, (OVER_FIELD_STRENGTH,)),
        (900, 13, (OVER_THRESHOLD, OVER_FIELD_STRENGTH)),
        (0, 0, ()),
    ],
)
def test_fielding_within_the_threshold_value_and_field_strength(value, models, breaches):
    """CAMPAIGN_PHASE.md: "The Threshold Value is the most a warband may field, in ducats; the Field Strength the
    most models it may field": battle 2 allows 800 ducats and 11 models, each limit itself allowed."""
    limits = rules.campaign_limits(battle=2)
    assert fielding_breaches(limits=limits, value=value, models=models) == breaches


def test_fielding_refuses_bad_input():
    limits = rules.campaign_limits(battle=1)
    with pytest.raises(ValueError, match="limits must be the battle's CampaignLimits"):
        fielding_breaches(limits=(700, 10), value=0, models=0)
    with pytest.raises(ValueError, match="value must be 0 or more"):
        fielding_breaches(limits=limits, value=-1, models=0)
    with pytest.raises(ValueError, match="models must be 0 or more"):
        fielding_breaches(limits=limits, value=0, models=-1)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rules.may_call_reinforcements(threshold=-1, warband_value=0),
            "threshold must be 0 or more, got -1",
        ),
        (
            lambda: rules.may_call_reinforcements(threshold=900, warband_value=-5),
            "warband_value must be 0 or more, got -5",
        ),
        (lambda: Purchase("Mire Pilgrim", -40), "cost must be 0 or more, got -40"),
        (lambda: Purchase("Mire Pilgrim", 40, -1), "quantity must be 0 or more, got -1"),
        (lambda: purchase_order(strongbox=-1, purchases=[]), "strongbox must be 0 or more, got -1"),
        (lambda: rules.glory_left(glory=-1, costs=[]), "glory must be 0 or more, got -1"),
        (lambda: rules.glory_left(glory=3, costs=[1, -2]), "cost must be 0 or more, got -2"),
    ],
)
def test_each_refusal_names_the_value_it_refuses(call, message):
    with pytest.raises(ValueError, match=f"^{message}$"):
        call()
