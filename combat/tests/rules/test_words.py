"""combat/rules/words.py: a name's possessive, as every sentence of the engine and the apps writes it."""

import pytest

from combat.rules import ScriptedDice
from combat.rules.confusion import ConfusionResult, FriendlyModel, confusion_test, explain_confusion
from combat.rules.words import possessive


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Pilgrims", "Pilgrims'"),
        ("Brother Marcus", "Brother Marcus'"),
        ("HERETICS", "HERETICS'"),
        ("Pat", "Pat's"),
        ("Iron Sepulchre", "Iron Sepulchre's"),
        ("Game 3", "Game 3's"),
        ("", ""),
    ],
)
def test_a_name_ending_in_s_takes_only_the_apostrophe(name, expected):
    assert possessive(name) == expected


def test_the_engine_s_sentences_use_it():
    friend = FriendlyModel("f1", intelligence=4, name="Brother Marcus")
    result = ConfusionResult(friend, confusion_test(ScriptedDice([1, 9]), intelligence=4))
    assert explain_confusion(result).startswith("Brother Marcus' Confusion Test (2I against Intelligence 4)")


@pytest.mark.parametrize(("name", "expected"), [("Rex", "Rex's"), ("MAX", "MAX's"), ("Sam", "Sam's")])
def test_a_name_ending_in_any_other_letter_takes_apostrophe_s(name, expected):
    assert possessive(name) == expected
