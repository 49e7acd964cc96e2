"""Reads for combat's pages: one module per flow, with the joins that page needs (docs/architecture.md).

Rules questions (odds, what a Damage would do, the XP a fighter earns) are answered by `combat.rules`; these
modules only load rows, turn them into the engine's objects, and shape the answers for templates:

- `tracker`, `tracker_attack`, `tracker_state`: the board of a game in progress;
- `post_game/`: the post-game wizard, one module per step;
- `dice_log`: every roll of the campaign;
- `trauma_table`: the campaign's house Trauma Table.

Callers import the module they need; nothing is re-exported here.
"""
