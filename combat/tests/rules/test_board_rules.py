"""What the board offers a campaign's fighters (combat/rules/board_rules.py): Fallout: Factions' single-model Damage
where the profile has Endurance (seeds 000, 002), Out of Action marks where it has none (seed 003); a unit's Health
Pool and Damage Allocation everywhere (seeds 004, 001)."""

import pytest

from combat.rules import board_rules


def test_a_profile_with_endurance_gets_the_damage_table_and_the_attack_test():
    rules = board_rules.board_rules(has_endurance=True)
    assert rules.single_model_damage
    assert rules.attack_test
    assert rules.unit_damage
    assert not rules.out_of_action_marks
    assert rules.why_absent == ""


def test_a_profile_without_endurance_gets_out_of_action_marks_and_says_why():
    rules = board_rules.board_rules(has_endurance=False)
    assert not rules.single_model_damage
    assert not rules.attack_test
    assert rules.unit_damage  # seed 004 counts Health Points, not Endurance
    assert rules.out_of_action_marks
    assert rules.why_absent == board_rules.NO_ENDURANCE_BOARD
    assert "Fallout: Factions' rule" in rules.why_absent
    assert "Trauma Step" in rules.why_absent
    assert rules.why_absent.count(".") == 1  # one plain sentence
    assert "seed" not in rules.why_absent.lower()  # the rules' names, not the project's file numbers


def test_a_board_without_endurance_points_to_the_injury_roll_on_the_card():
    """The board rolls a Trench Crusade model's Injury Roll on its card (TC_IN_GAME.md "Injury Roll"): its sentence
    says so, rather than sending the players to roll at the table and only mark the result."""
    rules = board_rules.board_rules(has_endurance=False)
    assert rules.injury_dice == (1, 2)
    assert "Injury Roll on the model's card" in rules.why_absent
    assert "at the table" not in rules.why_absent


def test_anything_but_a_bool_is_refused():
    with pytest.raises(ValueError, match="has_endurance is True or False, not 'no'"):
        board_rules.board_rules(has_endurance="no")


def test_the_mark_says_what_the_trauma_step_rolls():
    # 003 "Trauma Step": an ELITE model's D66 on the Trauma Table, a Troop's Survival Roll (D6).
    assert board_rules.explain_out_of_action("Anselm", elite=True).endswith(
        "a D66 on the Trauma Table in the Trauma Step."
    )
    assert board_rules.explain_out_of_action("Hale", elite=False) == (
        "Hale is taken Out of Action and removed from play; after the game: a Survival Roll (D6) in the Trauma Step."
    )
    assert board_rules.explain_back_in_play("Hale").startswith("Hale is back in play")
    assert board_rules.single_model_damage_refused("Hale").startswith("Hale has no Endurance")


def test_a_trench_crusade_card_types_the_2d6_of_an_injury_roll_with_nothing_special():
    """TC_IN_GAME.md: an Injury Roll rolls 2D6; a Fallout: Factions board has no Injury Roll to type."""
    assert board_rules.board_rules(has_endurance=False).injury_dice == (1, 2)
    assert board_rules.board_rules(has_endurance=True).injury_dice == ()


def test_no_sentence_a_player_reads_names_the_projects_file_numbers():
    # Players know "Fallout: Factions' rule" and "the Trauma Step", not "seed 000".
    sentences = [
        board_rules.NO_ENDURANCE_BOARD,
        board_rules.attack_test_refused(),
        board_rules.single_model_damage_refused("Hale"),
        board_rules.confusion_refused(),
        board_rules.explain_out_of_action("Hale", elite=True),
        board_rules.explain_back_in_play("Hale"),
    ]
    assert all("seed" not in sentence.lower() for sentence in sentences)
    assert "Fallout: Factions stat" in board_rules.attack_test_refused()
