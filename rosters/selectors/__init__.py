"""Reads for the roster, campaign, dashboard, fighter and game pages: one module per page, one function per need.

Each one fetches what its page shows in a fixed number of queries (joins and prefetches, sums in subqueries), so
a page costs the same with 5 fighters as with 50 (the query-budget tests hold them to it). Callers import the
module they need (`from rosters.selectors import roster as roster_selectors`).
"""

# TEMPORARY re-export for rosters/views/share.py, which another engineer owns and is rewriting right now; the lead
# removes it at merge once share.py imports the modules below. Nothing in this branch's own files uses it.
from rosters.selectors.campaigns import campaign_page  # noqa: F401
from rosters.selectors.roster import warband_roster  # noqa: F401
