"""How combat's own events read as history, registered with rosters' history from `CombatConfig.ready()`.

- `tracker` (with `tracker_steps`): the board's actions, undos and the end of a game, as a battle report;
- `post_game`: why a Strongbox moved in a post-game, and each fighter's result after the Apply;
- `dice_log`: the rolls the sentences name.
"""
