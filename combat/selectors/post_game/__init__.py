"""Reads of the post-game Trauma Step wizard, one module per step; callers import the module they need:

- `out_of_action`  the warband's entry, its fighters taken Out of Action, the engine's `Casualty` for each
- `rolls`          the stored rolls as the pages show them, and the roll still needed
- `survival`       a Troop's Survival Roll: its odds (RULING T-2)
- `trauma`         each casualty worked out again by the engine from its stored faces; an ELITE's odds
- `experience`     the XP each fighter earns (`rules.post_game_experience`), in the page's words
- `ransom`         what paid ransoms move between Strongboxes (TRAUMA_TABLE.md 12)
- `changes`        every change the Apply would make, with its sentence, and what still stops it
- `chain`          after a correction: which stored rolls the engine reads now
- `base`           `PostGameState` (immutable), `StepRead` (what a step's read returns), `PostGameStep`
- `steps`          the registry: each step as one `PostGameStep`, the Trench Crusade sequence, `steps_for`
- `state`          `post_game_state`: the base, then each step's read in order as far as the page reads, once

Nothing here writes; `combat.services.post_game.apply` calls `post_game_state(..., for_update=True)` and writes
what it says. An outcome is never stored: it is worked out again from the stored faces by running
`rules.trauma_step` on that one fighter with `ScriptedDice`, so a refresh shows the same result and the page
knows the next roll needed when the dice run out (a reroll for an Injury it already has, RULING T-5; the D3 of
Bitter Lessons).
"""
