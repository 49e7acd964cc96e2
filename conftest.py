"""Fixtures shared by the whole suite: the people every permission test uses, and browser settings."""

import os
import shutil

import pytest
from hypothesis import settings

# Property tests assert what holds, never how fast: no per-example deadline, which a loaded CI machine (two cores
# running the suite) would otherwise turn into a failure. `make mutate` chooses its own profile.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

# Playwright's sync API runs an event loop in the test thread; Django's ORM would refuse to run there
# (docs/development.md). Browser tests only ever talk to the database from the test thread, one call at a time.
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
    """Debian's Chromium, with the flags this machine's closed network needs (docs/development.md)."""
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


# The people every permission test uses (docs/architecture.md, after healthchecks): the organiser, a player, a second
# player, a spectator, and an outsider who belongs to no campaign of theirs.
@pytest.fixture
def organiser(make_user):
    return make_user("olga_organiser")


@pytest.fixture
def player(make_user):
    return make_user("pat_player")


@pytest.fixture
def player2(make_user):
    return make_user("quinn_player")


@pytest.fixture
def spectator(make_user):
    return make_user("sam_spectator")


@pytest.fixture
def outsider(make_user):
    return make_user("otto_outsider")


@pytest.fixture
def campaign(organiser, player, player2, spectator):
    from campaigns.models import Campaign, Membership

    campaign = Campaign.objects.create(name="The Long Trench", created_by=organiser)
    for user, role in [
        (organiser, Membership.Role.ORGANISER),
        (player, Membership.Role.PLAYER),
        (player2, Membership.Role.PLAYER),
        (spectator, Membership.Role.SPECTATOR),
    ]:
        Membership.objects.create(campaign=campaign, user=user, role=role)
    return campaign


@pytest.fixture
def demoted(campaign, organiser, player):
    """The player, made spectator by the organiser, still owning their warband: they read only, and the warband
    waits for a player (docs/architecture.md, "Who may do what"). Ask for it after what the player set up."""
    from campaigns.models import Membership
    from campaigns.services.members import membership_set_role

    membership = Membership.objects.get(campaign=campaign, user=player)
    membership_set_role(membership=membership, role=Membership.Role.SPECTATOR, by=organiser)
    return player


@pytest.fixture
def warband(campaign, player):
    from rosters.models import Warband

    return Warband.objects.create(
        campaign=campaign, owner=player, name="Iron Sepulchre", faction="Trench Pilgrims", strongbox=50
    )


@pytest.fixture
def rival_warband(campaign, player2):
    from rosters.models import Warband

    return Warband.objects.create(
        campaign=campaign, owner=player2, name="Heretic Legion", faction="Heretic Legion", strongbox=30
    )


@pytest.fixture
def make_fighter():
    def make(warband, name: str, *, elite: bool = False, **fields):
        from rosters.models import Fighter

        keywords = fields.pop("keywords", ["ELITE"] if elite else [])
        return Fighter.objects.create(warband=warband, name=name, keywords=keywords, **fields)

    return make


def pytest_sessionfinish(session, exitstatus):
    """A test run that had to start the embedded PostgreSQL (no DATABASE_URL, no server running) stops it again at
    its end, as every test stops what it started; a server that was already running is left alone."""
    from config import database

    if database.STARTED_HERE:
        from config import embedded_db

        for data_dir in sorted(database.STARTED_HERE):
            embedded_db.stop(data_dir)
