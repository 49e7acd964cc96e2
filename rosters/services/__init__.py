"""Writes for warbands, fighters, Injuries, Battlekit and games, one module per resource or flow.

Every function is keyword-only and typed, runs in one transaction, `full_clean()`s every row before it saves it,
and records why in django-pghistory's context (`action`, `reason`, `campaign`, `warband`, `fighter`, `game`,
`user`), which the history feed and timelines read. Bad input raises a domain error (`errors.RosterRefused`, a
`ValidationError`; or the model's own `ValidationError` from `full_clean()`) with a message a player can read and
no HTTP status, and nothing is written. Permission checks are the views' job (access.py).

Other apps (the post-game wizard, the tracker) call these rather than writing roster rows themselves, so every
change is checked and explained in one place. Callers import the module they need
(`from rosters.services import fighters as fighter_services`).
"""

# TEMPORARY re-export for callers outside this branch's files, which other engineers are rewriting right now
# (combat/services/post_game.py, bench/bench_web.py, tests/browser/test_history_journey.py, rosters/views/share.py,
# rosters/tests/test_history*.py, rosters/tests/test_share.py). The lead removes it at merge, once those import
# the modules below. Nothing in this branch's own files uses it.
from rosters.services.battlekit import item_create, item_delete, item_move  # noqa: F401
from rosters.services.fighters import (  # noqa: F401
    fighter_adjust_xp,
    fighter_create,
    fighter_remove,
    fighter_restore,
    fighter_update,
)
from rosters.services.games import GameEntry, game_post_game_mark, game_record, game_start  # noqa: F401
from rosters.services.injuries import injury_add  # noqa: F401
from rosters.services.warbands import warband_adjust, warband_create  # noqa: F401
