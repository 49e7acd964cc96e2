"""Fixtures for the history tests of combat's events: the same people, Brother Marcus and Game 3 as rosters'
history tests (one definition, in rosters/tests/history/conftest.py)."""

from rosters.tests.history.conftest import first_names, game3, marcus  # noqa: F401
