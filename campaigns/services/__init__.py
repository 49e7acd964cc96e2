"""Writes for campaigns, one module per flow: `campaigns` (create, settings), `invitations`, `members`,
`sharing` (the read-only link) and `games` (the game counter); the house Trauma Table's write is combat's.

Every function is keyword-only, runs in one transaction, `full_clean()`s before it saves, records why in
django-pghistory's context (`action`, `reason`, `campaign`, `user`), which the history feed reads, and refuses
with a domain error (campaigns/errors.py), never an HTTP status. Permission checks are the views' job
(campaigns/access.py); these functions keep the campaign's own invariants (a campaign always has an organiser).
Writes that need warbands or fighters (games, rosters) live in `rosters.services`: `campaigns` never imports
`rosters` (docs/architecture.md). Callers import the module: `from campaigns.services import members as member_services`.
"""
