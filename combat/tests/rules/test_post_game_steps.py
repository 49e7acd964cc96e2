"""Tests for combat/rules/post_game_steps.py: each preset's post-game steps, the house-rule switches, and the
crew's Harsh Lessons XP after a game (000 "Experience: Harsh Lessons", RULING D-11)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from combat import rules

TC_STEPS = (
    "out-of-action",
    "troops",
    "elites",
    "experience",
    "advancement",
    "promotions",
    "dismiss",
    "reinforcements",
    "exploration",
    "trade",
    "glory",
    "review",
)
SWITCH_KEYS = [switch.key for switch in rules.POST_GAME_SWITCHES]


def test_trench_crusade_keeps_its_whole_post_battle_sequence():
    assert rules.post_game_sequence(preset="trench_crusade") == TC_STEPS


def test_fallout_factions_takes_only_the_steps_its_texts_support():
    # 000: the Incapacitated (Out of Action), Harsh Lessons, the Injuries on the Model Entry; then the Review.
    assert rules.post_game_sequence(preset="fallout_factions") == (
        "out-of-action",
        "harsh-lessons",
        "injuries",
        "review",
    )


def test_fallout_factions_has_no_trench_crusade_step_it_did_not_switch_on():
    steps = set(rules.post_game_sequence(preset="fallout_factions"))
    trench_crusade_only = set(TC_STEPS) - {"out-of-action", "review"}
    assert steps & trench_crusade_only == set()


def test_a_switch_turns_a_step_on_in_the_order_the_post_game_takes_it():
    steps = rules.post_game_sequence(preset="fallout_factions", switches={"trauma": True, "glory": True})
    assert steps == ("out-of-action", "troops", "elites", "harsh-lessons", "injuries", "glory", "review")


def test_a_switch_turns_a_preset_step_off():
    steps = rules.post_game_sequence(preset="trench_crusade", switches={"exploration": False, "glory": False})
    assert "exploration" not in steps
    assert "glory" not in steps
    assert steps[-2] == "trade"


def test_a_step_switched_on_without_what_it_reads_is_refused_with_the_reason():
    with pytest.raises(ValueError, match="Experience.*reads what.*Trauma Step"):
        rules.post_game_sequence(preset="fallout_factions", switches={"experience": True})
    with pytest.raises(ValueError, match="Advancement.*Experience"):
        rules.post_game_sequence(preset="trench_crusade", switches={"experience": False})


@pytest.mark.parametrize(
    ("switches", "words"),
    [
        ({"out-of-action": False}, "'out-of-action' is not a post-game step"),
        ({"review": False}, "'review' is not a post-game step"),
        ({"bogus": True}, "'bogus' is not a post-game step"),
        ({"glory": "yes"}, "on \\(True\\) or off \\(False\\), not 'yes'"),
    ],
)
def test_bad_switches_name_the_bad_value(switches, words):
    with pytest.raises(ValueError, match=words):
        rules.post_game_sequence(preset="trench_crusade", switches=switches)


def test_an_unknown_preset_is_refused():
    with pytest.raises(ValueError, match="'chess' is not a preset"):
        rules.post_game_sequence(preset="chess")


@given(
    preset=st.sampled_from(["trench_crusade", "fallout_factions"]),
    switches=st.dictionaries(st.sampled_from(SWITCH_KEYS), st.booleans()),
)
def test_every_accepted_sequence_opens_with_out_of_action_and_closes_with_the_review(preset, switches):
    try:
        steps = rules.post_game_sequence(preset=preset, switches=switches)
    except ValueError:
        return
    assert steps[0] == "out-of-action"
    assert steps[-1] == "review"
    assert len(set(steps)) == len(steps)
    # The Trauma Step's two pages come together, and every step a switch needs is on.
    assert ("troops" in steps) == ("elites" in steps)
    if "experience" in steps:
        assert "troops" in steps


def test_ruling_D_11_a_champion_incapacitated_earns_the_crew_1_xp():
    award = rules.harsh_lessons_after_game(crew="Rust Riders", champions=["Mags"], earned_on_the_board=False)
    assert (award.xp, award.earned) == (1, True)
    assert award.words == (
        "Mags was Incapacitated: Rust Riders earns 1 crew XP, once per game however many Champions fell "
        "(RULING D-11)."
    )
    assert award.rulings == ("D-11",)


def test_ruling_D_11_never_more_than_once_per_crew_per_game():
    award = rules.harsh_lessons_after_game(
        crew="Rust Riders", champions=["Mags", "Boone", "Tess"], earned_on_the_board=False
    )
    assert award.xp == 1
    assert award.words.startswith("Mags, Boone and Tess were Incapacitated")


def test_ruling_D_11_the_board_already_gave_it():
    award = rules.harsh_lessons_after_game(crew="Rust Riders", champions=["Mags"], earned_on_the_board=True)
    assert (award.xp, award.earned) == (0, True)
    assert "added to the crew's XP at the end of the game" in award.words


def test_ruling_D_11_no_champion_no_xp():
    award = rules.harsh_lessons_after_game(crew="Rust Riders", champions=[], earned_on_the_board=False)
    assert (award.xp, award.earned) == (0, False)
    assert (
        award.words == "None of Rust Riders' Champions was Incapacitated: no Harsh Lessons XP (RULING D-11)."
    )


def test_harsh_lessons_refuses_bad_input():
    with pytest.raises(ValueError, match="earned_on_the_board is True or False"):
        rules.harsh_lessons_after_game(crew="x", champions=[], earned_on_the_board=1)
    with pytest.raises(ValueError, match="each Champion is named"):
        rules.harsh_lessons_after_game(crew="x", champions=[""], earned_on_the_board=False)


def test_the_switches_and_presets_name_known_steps():
    for preset, on in rules.PRESET_POST_GAME.items():
        assert on <= set(SWITCH_KEYS), preset
        assert rules.preset_switches_on(preset) == on
    assert rules.post_game_switch("trauma").steps == ("troops", "elites")


def test_fallout_factions_uses_no_promotion_dice_glory_or_campaign_stages():
    uses = rules.campaign_uses(preset="fallout_factions")
    assert uses == rules.CampaignUses(promotion_dice=False, glory=False, crew_xp=True, campaign_stages=False)
    assert uses.key == "0010"


def test_trench_crusade_uses_no_crew_xp_until_harsh_lessons_is_switched_on():
    assert rules.campaign_uses(preset="trench_crusade") == rules.CampaignUses(True, True, False, True)
    switched = rules.campaign_uses(preset="trench_crusade", switches={"harsh-lessons": True, "glory": False})
    assert switched == rules.CampaignUses(True, False, True, True)
    assert switched.key == "1011"


def test_the_organiser_choice_of_campaign_stages_wins_over_the_preset():
    assert rules.campaign_uses(preset="fallout_factions", campaign_stages=True).campaign_stages is True
    assert rules.campaign_uses(preset="trench_crusade", campaign_stages=False).campaign_stages is False


def test_switches_the_engine_refuses_leave_the_preset_own_uses():
    refused = rules.campaign_uses(preset="trench_crusade", switches={"trauma": False})
    assert refused == rules.campaign_uses(preset="trench_crusade")


@given(
    st.dictionaries(st.sampled_from(SWITCH_KEYS), st.booleans()),
    st.sampled_from(["trench_crusade", "fallout_factions"]),
)
def test_what_a_campaign_uses_follows_its_switches(switches, preset):
    uses = rules.campaign_uses(preset=preset, switches=switches)
    try:
        steps = rules.post_game_sequence(preset=preset, switches=switches)
    except ValueError:
        steps = rules.post_game_sequence(preset=preset)
    assert uses.promotion_dice == ("promotions" in steps)
    assert uses.glory == ("glory" in steps)
    assert uses.crew_xp == ("harsh-lessons" in steps)
    assert uses.campaign_stages is rules.PRESET_CAMPAIGN_STAGES[preset]
