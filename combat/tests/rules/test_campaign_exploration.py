"""Tests for combat/rules/campaign_exploration.py: Exploration Dice, tables, score, loot and Locations, with their
exact odds (CAMPAIGN_PHASE.md "Looting and Exploration"; RULINGS E-1 to E-4)."""

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat import rules
from combat.rules import (
    CampaignTableError,
    Location,
    LocationTable,
    exploration_dice,
    exploration_score,
    exploration_tables,
    find_locations,
    location_odds,
    loot,
    score_odds,
)
from combat.rules.campaign_exploration import MOST_EXPLORATION_DICE, check_reroll_die, exploration_reroll_open

# House Location tables: the names are campaign data, made up here.
COMMON = LocationTable.from_rows(
    [
        {"score": 7, "code": "abandoned_chapel", "name": "Abandoned Chapel"},
        {"score": 10, "code": "shell_crater", "name": "Shell Crater"},
        {"score": 12, "code": "field_hospital", "name": "Field Hospital"},
    ],
    name="common",
)
RARE = LocationTable.from_rows(
    [
        {"score": 12, "code": "sunken_reliquary", "name": "Sunken Reliquary"},
        {"score": 16, "code": "heretic_armoury", "name": "Heretic Armoury"},
    ],
    name="rare",
)
LEGENDARY = LocationTable.from_rows(
    [{"score": 40, "code": "gate_of_dis", "name": "Gate of Dis"}], name="legendary"
)
TABLES = {"common": COMMON, "rare": RARE, "legendary": LEGENDARY}


def test_e_1_battles_fought_count_the_battle_just_played_for_dice_and_tables():
    dice = {battles: exploration_dice(battles_fought=battles) for battles in range(1, 13)}
    assert dice == {1: 3, 2: 3, 3: 4, 4: 4, 5: 4, 6: 5, 7: 5, 8: 5, 9: 5, 10: 6, 11: 6, 12: 6}
    assert exploration_tables(battles_fought=1) == ("common",)
    assert exploration_tables(battles_fought=2) == ("common",)
    assert exploration_tables(battles_fought=3) == ("common", "rare")
    assert exploration_tables(battles_fought=5) == ("common", "rare")
    assert exploration_tables(battles_fought=6) == ("rare",)
    assert exploration_tables(battles_fought=9) == ("rare",)
    assert exploration_tables(battles_fought=10) == ("rare", "legendary")
    with pytest.raises(
        ValueError, match=r"battles_fought must be 1 or more \(the battle just played counts\), got 0"
    ):
        exploration_dice(battles_fought=0)
    with pytest.raises(ValueError, match="battles_fought must be 1 or more"):
        exploration_tables(battles_fought=-1)


def test_e_2_the_winners_reroll_is_made_before_the_score_so_the_new_face_stands():
    rolled = [2, 5, 1]
    rerolled = [2, 5, 3]  # the winner rerolled the 1 once; the 3 stands (RULING E-2)
    assert exploration_score(rerolled) == 10
    assert exploration_score(rolled) == 8


def test_e_3_the_score_counts_its_modifiers_is_never_below_0_and_loots_10_ducats_a_point():
    assert exploration_score([3, 4, 5], modifier=2) == 14
    assert exploration_score([1, 1, 1], modifier=-5) == 0
    assert loot(14) == 140
    assert loot(0) == 0
    with pytest.raises(ValueError, match="an Exploration Die is a D6, 1 to 6, got 7"):
        exploration_score([7, 1, 1])
    with pytest.raises(ValueError, match="modifier must be a whole number, got 1.5"):
        exploration_score([1], modifier=1.5)
    with pytest.raises(ValueError, match="score must be 0 or more, got -1"):
        loot(-1)


def test_e_4_a_score_finds_on_either_allowed_table_and_never_a_location_found_before():
    both = find_locations(12, tables=TABLES, allowed=("common", "rare"))
    assert both == (
        Location(12, "field_hospital", "Field Hospital", "common"),
        Location(12, "sunken_reliquary", "Sunken Reliquary", "rare"),
    )  # the player chooses which
    assert find_locations(12, tables=TABLES, allowed=("rare",)) == (
        Location(12, "sunken_reliquary", "Sunken Reliquary", "rare"),
    )
    assert find_locations(
        12, tables=TABLES, allowed=("common", "rare"), found=frozenset({"field_hospital"})
    ) == (Location(12, "sunken_reliquary", "Sunken Reliquary", "rare"),)
    assert find_locations(7, tables=TABLES, allowed=("common",), found=frozenset({"abandoned_chapel"})) == ()
    assert find_locations(11, tables=TABLES, allowed=("common", "rare")) == ()  # exactly, or nothing
    assert loot(11) == 110  # the loot is still taken


def test_find_locations_refuses_an_unknown_table_or_bad_score():
    with pytest.raises(
        ValueError, match="no Location table is named 'mythic'; there are: common, rare, legendary"
    ):
        find_locations(7, tables=TABLES, allowed=("mythic",))
    with pytest.raises(ValueError, match="score must be 0 or more, got -3"):
        find_locations(-3, tables=TABLES, allowed=("common",))
    with pytest.raises(ValueError, match="allowed must be a sequence of table names"):
        find_locations(7, tables=TABLES, allowed="common")
    with pytest.raises(ValueError, match="found must be a set of Location codes"):
        find_locations(7, tables=TABLES, allowed=("common",), found="abandoned_chapel")


@given(st.integers(0, 40), st.sets(st.sampled_from(("common", "rare", "legendary")), min_size=1))
def test_find_locations_only_returns_exact_matches_on_allowed_tables(score, allowed):
    allowed = tuple(sorted(allowed))
    for location in find_locations(score, tables=TABLES, allowed=allowed):
        assert location.score == score
        assert location.table in allowed
        assert TABLES[location.table].at(score).code == location.code
    found = {
        location.code for key in allowed for location in TABLES[key].locations if location.score == score
    }
    assert {location.code for location in find_locations(score, tables=TABLES, allowed=allowed)} == found


def test_location_tables_name_a_repeated_score_or_code():
    rows = [
        {"score": 7, "code": "abandoned_chapel", "name": "Abandoned Chapel"},
        {"score": 7, "code": "shell_crater", "name": "Shell Crater"},
        {"score": -1, "code": "abandoned_chapel", "name": "Chapel Ruins"},
        {"score": 9, "code": "Well", "name": ""},
    ]
    assert LocationTable.problems(rows) == (
        "Row 3 (Chapel Ruins): score -1 is not an Exploration Score (a whole number, 0 or more).",
        "Row 4: code must be lower-case letters, digits and underscores, starting with a letter, got 'Well'.",
        "Row 4: it needs a name.",
        "Two rows have the score 7 (Abandoned Chapel; Shell Crater): a score holds one Location.",
        "Two rows have the code abandoned_chapel (Abandoned Chapel, score 7; Chapel Ruins, score -1): give each "
        "Location its own code.",
    )
    with pytest.raises(CampaignTableError) as refused:
        LocationTable.from_rows(rows)
    assert refused.value.problems == LocationTable.problems(rows)
    assert LocationTable.problems("abc") == ("A Location table is a list of rows.",)
    assert LocationTable.problems([]) == ("The Location table has no rows.",)
    assert LocationTable.problems([["score", 7]]) == ("Row 1 is not a row of score, code, name.",)
    assert LocationTable.problems([{"score": 7, "code": "well", "name": "Well", "note": ""}]) == (
        "Row 1 (Well) has unknown fields note.",
    )


def test_a_location_table_is_equal_to_the_same_rows():
    rows = [{"score": 16, "code": "heretic_armoury", "name": "Heretic Armoury"}]
    rows.insert(0, {"score": 12, "code": "sunken_reliquary", "name": "Sunken Reliquary"})
    assert LocationTable.from_rows(iter(rows[::-1]), name="rare") == RARE
    assert hash(LocationTable.from_rows(rows, name="rare")) == hash(RARE)
    assert repr(RARE) == "LocationTable(name='rare', locations=2)"


# --- the exact odds -------------------------------------------------------------------------------------------


def test_the_chance_of_each_location_with_three_dice():
    odds = location_odds(dice=3, tables=TABLES, allowed=("common",))
    assert odds == {
        Location(7, "abandoned_chapel", "Abandoned Chapel", "common"): Fraction(15, 216),
        Location(10, "shell_crater", "Shell Crater", "common"): Fraction(27, 216),
        Location(12, "field_hospital", "Field Hospital", "common"): Fraction(25, 216),
    }
    # A +4 modifier moves every score up; the Armoury (16) needs 12 on the dice.
    odds = location_odds(
        dice=4, tables=TABLES, allowed=("common", "rare"), modifier=4, found=frozenset({"shell_crater"})
    )
    assert odds[Location(16, "heretic_armoury", "Heretic Armoury", "rare")] == Fraction(125, 1296)
    assert Location(10, "shell_crater", "Shell Crater", "common") not in odds
    # The Gate of Dis (40) is out of reach of six dice (36 at most), but not with +4.
    assert location_odds(dice=6, tables=TABLES, allowed=("legendary",)) == {}
    assert location_odds(dice=6, tables=TABLES, allowed=("legendary",), modifier=4) == {
        Location(40, "gate_of_dis", "Gate of Dis", "legendary"): Fraction(1, 46656)
    }
    six = location_odds(dice=6, tables=TABLES, allowed=("rare", "legendary"))
    assert six == {
        Location(12, "sunken_reliquary", "Sunken Reliquary", "rare"): Fraction(456, 46656),
        Location(16, "heretic_armoury", "Heretic Armoury", "rare"): Fraction(2247, 46656),
    }


def test_the_score_odds_clamp_at_0_and_always_sum_to_1():
    assert score_odds(dice=1, modifier=-3) == {
        0: Fraction(1, 2),
        1: Fraction(1, 6),
        2: Fraction(1, 6),
        3: Fraction(1, 6),
    }
    assert score_odds(dice=0, modifier=2) == {2: Fraction(1)}
    with pytest.raises(ValueError, match="dice must be 0 or more, got -1"):
        score_odds(dice=-1)
    with pytest.raises(ValueError, match="modifier must be a whole number"):
        score_odds(dice=2, modifier="2")


# Enumerating every face is slow on a busy machine: no per-example deadline.
@settings(deadline=None)
@given(
    st.integers(0, 3), st.integers(-10, 10), st.sets(st.sampled_from(["abandoned_chapel", "field_hospital"]))
)
def test_the_location_odds_agree_with_every_face_of_the_dice(dice, modifier, found):
    allowed = ("common", "rare")
    faces_of = list(product(range(1, 7), repeat=dice))
    counted: dict[Location, Fraction] = {}
    for faces in faces_of:
        score = exploration_score(faces, modifier=modifier)
        for location in find_locations(score, tables=TABLES, allowed=allowed, found=frozenset(found)):
            counted[location] = counted.get(location, Fraction(0)) + Fraction(1, len(faces_of))
    odds = location_odds(dice=dice, tables=TABLES, allowed=allowed, modifier=modifier, found=frozenset(found))
    assert {location: chance for location, chance in odds.items() if chance} == counted
    assert sum(score_odds(dice=dice, modifier=modifier).values()) == 1


# The winner's reroll and the most Exploration Dice (CAMPAIGN_PHASE.md; RULINGS E-1, E-2).


def test_e_1_the_most_exploration_dice_are_6():
    """ "10 or more: 6": no battle count rolls more, so a form needs 6 dice fields."""
    assert MOST_EXPLORATION_DICE == 6
    assert max(rules.exploration_dice(battles_fought=n) for n in range(1, 40)) == MOST_EXPLORATION_DICE


@pytest.mark.parametrize(
    ("won", "rolled", "rerolled", "declined", "open_"),
    [
        (True, True, False, False, True),
        (False, True, False, False, False),  # a draw or a loss: "The winner of the battle may reroll"
        (True, False, False, False, False),  # nothing rolled yet
        (True, True, True, False, False),  # E-2: once
        (True, True, False, True, False),  # declined: the dice stand
    ],
)
def test_e_2_only_the_winner_may_reroll_once(won, rolled, rerolled, declined, open_):
    assert exploration_reroll_open(won=won, rolled=rolled, rerolled=rerolled, declined=declined) is open_


@pytest.mark.parametrize("name", ["won", "rolled", "rerolled", "declined"])
def test_the_reroll_refuses_an_answer_that_is_not_true_or_false(name):
    answers = {"won": True, "rolled": True, "rerolled": False, "declined": False, name: 1}
    with pytest.raises(ValueError, match=f"{name} must be True or False, got 1"):
        exploration_reroll_open(**answers)


def test_e_2_the_winner_rerolls_any_one_of_its_dice():
    assert [check_reroll_die(die, dice=4) for die in (1, 2, 3, 4)] == [1, 2, 3, 4]
    for bad in (0, 5, -1, 2.0, "1", None):
        with pytest.raises(ValueError, match=r"pick one of the 4 Exploration Dice to reroll \(1 to 4\)"):
            check_reroll_die(bad, dice=4)
    with pytest.raises(ValueError, match="dice must be 0 or more"):
        check_reroll_die(1, dice=-1)
