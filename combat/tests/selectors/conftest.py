"""Fixtures shared by this folder's tests."""

from combat.tests.tracker_helpers import table, tc_table  # noqa: F401, E402  (the tracker tests' shared boards)
