"""Fixtures shared by the whole suite: the people every permission test uses, and browser settings."""

import os
import shutil

import pytest

# Playwright's sync API runs an event loop in the test thread; Django's ORM would refuse to run there
# (PITFALLS.md). Browser tests only ever talk to the database from the test thread, one call at a time.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's Chromium, with the flags this machine's closed network needs (DEVELOPERS.md)."""
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium is not installed at {CHROMIUM}; `make test` installs Debian's chromium package."
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_FLAGS}


PASSWORD = "correct-horse-battery-staple"


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(
            username=username, email=f"{username}@example.org", password=PASSWORD, **extra
        )

    return make
