"""Fixtures shared by this folder's tests."""

from combat.tests.tracker_helpers import table  # noqa: F401  (a board, for the poll and the htmx redirects)
