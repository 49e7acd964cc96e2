"""Tests for combat/selectors/post_game/steps.py: the registry of the post-game's steps."""

import pytest
from django.urls import reverse
from django.utils.module_loading import import_string

from combat.selectors.post_game import glory
from combat.selectors.post_game.steps import POST_GAME_STEPS, TRENCH_CRUSADE, step, steps_for


def test_the_trench_crusade_sequence_is_the_default_presets_list():
    keys = [entry.key for entry in TRENCH_CRUSADE]
    assert keys == [
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
    ]
    assert steps_for(None) is TRENCH_CRUSADE
    # Every step of the Trench Crusade sequence is registered, in its order; Fallout: Factions' own steps too.
    registered = [entry.key for entry in POST_GAME_STEPS]
    assert [key for key in registered if key in keys] == keys
    assert set(registered) - set(keys) == {"harsh-lessons", "injuries"}


def test_every_name_a_step_gives_resolves():
    for entry in POST_GAME_STEPS:
        assert reverse(entry.url_name, args=[1, 2]) == f"/games/1/post-game/2/{entry.key}/"
        assert entry.view is not None, entry.key
        for path in (entry.view, entry.form, entry.apply, entry.revert, entry.summary):
            if path is not None:
                assert callable(import_string(path)), path


def test_a_step_that_writes_at_apply_takes_it_back_at_revert():
    for entry in POST_GAME_STEPS:
        assert (entry.apply is None) == (entry.revert is None), entry.key


def test_use_glory_is_one_entry_of_its_own_module():
    assert step("glory") is glory.STEP
    assert glory.STEP.read is glory.read
    assert glory.STEP.done is glory.done


def test_titles_speak_the_campaigns_words():
    class Terms:
        troop, elite = "Grunt", "Champion"

    assert step("troops").heading(Terms) == "Grunts"
    assert step("elites").heading(Terms) == "Champion fighters"
    with pytest.raises(KeyError):
        step("nowhere")
