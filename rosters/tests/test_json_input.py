"""rosters/json_input.py: the one way a JSON file handed to the tool is read (depth counted before the parse,
strict JSON, a sentence for every refusal)."""

import json

import pytest

from rosters.json_input import DEEPEST, JSONRefused, load_json, nesting

DEEP = "[" * 5_000 + "]" * 5_000


@pytest.mark.parametrize(
    ("text", "depth"),
    [
        ("1", 0),
        ("[]", 1),
        ('[{"a": [1]}]', 3),
        ('{"a": "[[[[[[[[[[", "b": "\\"[[[["}', 1),  # brackets inside strings, escaped quotes too
        (DEEP, 5_000),
    ],
)
def test_nesting_counts_arrays_and_objects_but_not_brackets_in_strings(text, depth):
    assert nesting(text) == depth


@pytest.mark.parametrize("text", [DEEP, DEEP.encode(), "[" * 200_000, '{"a":' * 5_000 + "1" + "}" * 5_000])
def test_deep_nesting_is_refused_before_the_parse_never_a_recursion_error(text):
    with pytest.raises(JSONRefused, match="nests too deeply to be a price list"):
        load_json(text, max_depth=8, what="a price list")


def test_a_file_exactly_as_deep_as_allowed_is_read():
    assert load_json("[[[1]]]", max_depth=3, what="x") == [[[1]]]
    with pytest.raises(JSONRefused, match="at most 2 levels"):
        load_json("[[[1]]]", max_depth=2, what="x")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "not valid JSON"),
        ('{"cost": NaN}', "NaN is not a number"),
        ('{"cost": -Infinity}', "-Infinity is not a number"),
        ('{"cost": 1, "cost": 2}', "repeats a key"),
        ('{"cost": ' + "9" * 5_000 + "}", "not valid JSON"),
        (b"\xff\xfe{", r"not text \(UTF-8\)"),
    ],
)
def test_what_is_not_strict_json_is_refused_in_words(text, words):
    with pytest.raises(JSONRefused, match=words):
        load_json(text, max_depth=8, what="x")


def test_a_byte_order_mark_is_read_past():
    assert load_json("\ufeff[1]".encode(), max_depth=8, what="x") == [1]


def test_no_caller_may_allow_a_depth_near_pythons_recursion_limit():
    with pytest.raises(ValueError, match="max_depth"):
        load_json("[]", max_depth=DEEPEST + 1, what="x")


def test_a_long_file_of_rows_is_counted_by_its_deepest_row():
    text = json.dumps([{"name": f"row [{n}]", "rows": [n, [n]]} for n in range(20_000)])
    assert nesting(text) == 4
