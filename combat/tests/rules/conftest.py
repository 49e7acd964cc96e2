"""Hypothesis profiles for the rules tests.

`mutation` (chosen by `--hypothesis-profile=mutation`, as `[tool.mutmut]` in pyproject.toml does) makes every
property test draw the same examples on every run and keeps no example database, so a mutant is killed or
survives for the same reason each time. No deadline: mutmut's trampolines slow every call down.
"""

from hypothesis import settings

settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
