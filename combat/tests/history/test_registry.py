"""Combat registers its own history sources from `CombatConfig.ready()` (combat/apps.py)."""

from django.apps import apps

from combat.history.dice_log import DiceLogSource
from combat.history.post_game import PostGameSource
from combat.history.tracker import TrackerSource
from rosters.history import registry


def test_combat_registers_the_tracker_the_post_game_and_the_dice_log():
    assert isinstance(registry.by_name("tracker"), TrackerSource)
    assert isinstance(registry.by_name("post_game"), PostGameSource)
    assert isinstance(registry.by_name("dice_log"), DiceLogSource)


def test_the_board_s_events_are_read_in_the_last_rank_of_a_moment():
    tracker = registry.by_name("tracker")
    assert tracker.model is apps.get_model("combat", "TrackerGameEvent")
    assert tracker.rank == max(s.rank for s in registry.table_sources())
    assert tracker in registry.table_sources()
