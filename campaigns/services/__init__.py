"""Writes for campaigns, one module per flow: `campaigns` (create, settings), `invitations`, `members`,
`sharing` (the read-only link), `games` (the game counter) and `trauma_table` (the house table, moving to combat).

Every function is keyword-only, runs in one transaction, `full_clean()`s before it saves, records why in
django-pghistory's context (`action`, `reason`, `campaign`, `user`), which the history feed reads, and refuses
with a domain error (campaigns/errors.py), never an HTTP status. Permission checks are the views' job
(campaigns/access.py); these functions keep the campaign's own invariants (a campaign always has an organiser).
Writes that need warbands or fighters (games, rosters) live in `rosters.services`: `campaigns` never imports
`rosters` (ARCHITECTURE.md). Callers import the module: `from campaigns.services import members as member_services`.
"""

# TEMPORARY, for the merge of issue 10 only: combat/management/commands/load_demo.py (rewritten on another branch
# right now) still does `from campaigns import services as campaign_services` and calls these two. The lead
# removes this re-export once load_demo imports `campaigns.services.campaigns` / `.invitations`.
from campaigns.services.campaigns import campaign_create  # noqa: F401
from campaigns.services.invitations import campaign_join  # noqa: F401
