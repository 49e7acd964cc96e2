"""RULING T-1: who plays the ELITE part, the ELITE keyword or a Champion."""

from combat.rules import counts_as_elite, has_elite_keyword


def test_ruling_T_1_the_elite_keyword_is_read_without_case_or_spaces():
    assert has_elite_keyword([" elite ", "INFILTRATOR"])
    assert not has_elite_keyword(["INFILTRATOR", "FEAR"])
    assert not has_elite_keyword([])


def test_ruling_T_1_a_champion_or_an_elite_keyword_counts_as_elite():
    assert counts_as_elite(keywords=["Elite"])
    assert counts_as_elite(keywords=[], champion=True)
    assert counts_as_elite(keywords=["ELITE"], champion=True)
    assert not counts_as_elite(keywords=["FEAR"])
    assert not counts_as_elite(keywords=["FEAR"], champion=False)
