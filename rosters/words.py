"""The possessive the history's sentences write ("Pilgrims' Strongbox"), and the name of a post-game step's house
rule ("Use Glory switched off"), under names of rosters' own.

It is the engine's (`combat.rules.words`, pure Python, which every app may call), so the rules' sentences and the
history's read alike. The history package (rosters/history/) names nothing of combat, not even its engine, so its
tables stay the ones that register with it (rosters/tests/history/test_registry.py): it imports the possessive
from here. Every other module imports the engine's directly.
"""

from combat.rules.post_game_steps import post_game_switch
from combat.rules.words import possessive

__all__ = ["possessive", "post_game_switch"]
