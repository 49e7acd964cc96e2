"""Tests for combat/rules/campaign_data_checks.py: the fighter types (never promoted, Limited Potential:
CAMPAIGN_PHASE.md Promotions, RULING X-2) and a Patron's skills, checked in plain words; every problem found."""

from hypothesis import given
from hypothesis import strategies as st

from combat.rules.campaign_data_checks import fighter_type_problems, patron_skill_problems


def fighter_type(name, never=False, limited=False):
    return {"name": name, "never_promoted": never, "limited_potential": limited}


def test_sound_lists_have_no_problems_and_may_be_empty():
    assert fighter_type_problems([fighter_type("Anchorite Shrine", never=True), fighter_type("Nun")]) == ()
    assert patron_skill_problems([{"code": "vigil", "name": "Vigil"}]) == ()
    assert fighter_type_problems([]) == ()
    assert patron_skill_problems([]) == ()


def test_a_fighter_type_named_twice_is_one_type_whatever_its_case_and_spaces():
    assert fighter_type_problems([fighter_type("War Dog"), fighter_type(" war dog ")]) == (
        "Rows 1 and 2 both name the fighter type war dog: a type is on one row.",
    )


def test_every_problem_of_a_fighter_type_list_is_told():
    rows = [
        {"name": "", "never_promoted": "yes", "limited_potential": False},
        {"name": "Nun", "never_promoted": False},
        {"name": "Nun", "never_promoted": False, "limited_potential": False, "price": 5},
        "Nun",
    ]
    assert fighter_type_problems(rows) == (
        "Row 1: it needs a name.",
        "Row 1: never_promoted must be yes or no, got 'yes'.",
        "Row 2 (Nun) has no limited_potential.",
        "Row 3 (Nun) has unknown fields price.",
        "Row 4 is not a row of name, never_promoted, limited_potential.",
    )


def test_every_problem_of_a_patron_list_is_told():
    rows = [
        {"code": "vigil", "name": "Vigil"},
        {"code": "vigil", "name": "Second Vigil"},
        {"code": "Bad Code", "name": "  "},
        {"name": 3, "code": "ok"},
    ]
    assert patron_skill_problems(rows) == (
        "Rows 1 and 2 both have the code vigil: give each skill its own code.",
        "Row 3: it needs a name.",
        "Row 3: code must be lower-case letters, digits and underscores, starting with a letter, got 'Bad Code'.",
        "Row 4: it needs a name, in words.",
    )


def test_something_that_is_not_a_list_of_rows_is_refused():
    assert fighter_type_problems("War Dog") == ("A list of fighter types is a list of rows.",)
    assert patron_skill_problems({"code": "a", "name": "A"}) == (
        "A list of Patron skills is a list of rows.",
    )
    assert patron_skill_problems(None) == ("A list of Patron skills is a list of rows.",)


codes = st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True)


@given(st.lists(codes, min_size=1, max_size=12))
def test_a_patron_list_has_a_problem_exactly_when_a_code_repeats(chosen):
    rows = [{"code": code, "name": f"Skill {index}"} for index, code in enumerate(chosen)]
    problems = patron_skill_problems(rows)
    assert len(problems) == len(chosen) - len(set(chosen))
    assert all("both have the code" in problem for problem in problems)


def test_a_malformed_patron_row_is_told_by_its_number_and_the_rows_after_it_are_still_checked():
    # Every row is checked, a malformed one does not stop the list; the row is named by its place.
    assert patron_skill_problems([{"code": "aim"}, {"code": "Bad Code", "name": "Deadeye"}]) == (
        "Row 1 has no name.",
        "Row 2 (Deadeye): code must be lower-case letters, digits and underscores, starting with a letter, got "
        "'Bad Code'.",
    )


def test_a_patron_row_names_every_missing_and_unknown_field_in_one_sentence_each():
    assert patron_skill_problems([{"cost": 3, "rank": 1}]) == (
        "Row 1 has no code, name.",
        "Row 1 has unknown fields cost, rank.",
    )
