"""Reads for the roster, campaign, dashboard, fighter and game pages: one module per page, one function per need.

Each one fetches what its page shows in a fixed number of queries (joins and prefetches, sums in subqueries), so
a page costs the same with 5 fighters as with 50 (the query-budget tests hold them to it). Callers import the
module they need (`from rosters.selectors import roster as roster_selectors`).
"""
