"""RULING T-1: who plays the ELITE part, the ELITE keyword or a Champion."""

import pytest

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


def test_keywords_compare_without_case_or_outer_spaces():
    """RULING T-1 by its keyword, however it was typed: the key the roster's ELITE count compares too."""
    from combat.rules.roles import keyword_key

    assert keyword_key(" elite ") == "ELITE"
    assert keyword_key("Two-Handed") == "TWO-HANDED"
    assert has_elite_keyword(["heavy", "\telite\n"]) is True
    with pytest.raises(ValueError, match="a keyword is text"):
        keyword_key(None)
