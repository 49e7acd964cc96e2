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
