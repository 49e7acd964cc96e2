"""The odds before a Trauma roll use the campaign's own table (seed 003, docs/engine.md, `odds.py`)."""

from fractions import Fraction

from combat.rules import Casualty, TraumaTable, trauma_fate_odds, trauma_odds

ALL_DEAD = TraumaTable.from_rows(
    [dict(low=11, high=66, code="dead", name="Dead", effect="", scar=False, injury=False)]
)


def test_trauma_odds_read_a_house_table_of_one_row_of_dead():
    assert trauma_odds(Casualty("vet", elite=True), table=ALL_DEAD) == {"dead": 1, "removed": 1}


def test_trauma_fate_odds_read_a_house_table_of_one_row_of_dead():
    assert trauma_fate_odds(Casualty("vet", elite=True), table=ALL_DEAD) == {
        "stays": 0,
        "captured": 0,
        "dead": 1,
        "blinded": 0,
        "unfit_for_duty": 0,
    }


def test_ruling_T_2_a_troops_odds_are_two_in_three_to_survive():
    troop = Casualty("t", elite=False)
    assert trauma_odds(troop, table=ALL_DEAD) == {"survived": Fraction(2, 3), "removed": Fraction(1, 3)}
    assert trauma_fate_odds(troop) == {"stays": Fraction(2, 3), "dead": Fraction(1, 3)}
