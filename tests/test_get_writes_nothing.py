"""GET never writes: every named page, fetched by each person of the permission matrix, changes no row.

The URLs are every named URL of the project (Django's admin aside), reversed with the ids of a small campaign
world, so a page added later is checked without anyone listing it; a URL with an argument this file has no sample
for fails loudly. Each is fetched as a plain GET and as an htmx GET. Around the GETs, two measures must stay the
same for every table (all models of `apps.get_models()`, which include pghistory's event tables, and pghistory's
context table): its row count, and PostgreSQL's count of rows inserted, updated or deleted in this transaction
(`pg_stat_xact_user_tables`), which also catches an UPDATE that leaves the count as it was. Sessions may change
(`django_session`: logging in, messages).
"""

import datetime

import pytest
from django.apps import apps
from django.db import connection
from django.urls import URLPattern, URLResolver, get_resolver, reverse

pytestmark = pytest.mark.django_db

ROLES = ("anonymous", "outsider", "spectator", "player", "organiser")
SESSIONS = "django_session"
HTMX = {"HTTP_HX_REQUEST": "true"}


def named_urls(resolver: URLResolver | None = None, namespace: str = "") -> list[tuple[str, list[str]]]:
    """(name, argument names) of every named URL, skipping namespaced ones (the admin: Django's own, staff only)."""
    found = []
    for entry in (resolver or get_resolver()).url_patterns:
        if isinstance(entry, URLResolver):
            if entry.namespace is None:
                found += named_urls(entry, namespace)
        elif isinstance(entry, URLPattern) and entry.name:
            found.append((entry.name, list(entry.pattern.converters)))
    return found


def table_names() -> list[str]:
    """Every table a model owns (pghistory's `Events` is a view over the event tables: they are counted)."""
    models = apps.get_models(include_auto_created=True)
    tables = {model._meta.db_table for model in models if model._meta.managed and not model._meta.proxy}
    assert "pghistory_context" in tables
    assert "campaigns_campaignevent" in tables
    return sorted(tables - {SESSIONS})


def measure(tables: list[str]) -> dict[str, tuple[int, int]]:
    """Per table: (rows, rows inserted + updated + deleted so far in this transaction), in one query."""
    quoted = [connection.ops.quote_name(table) for table in tables]
    counts = ", ".join(f"(SELECT count(*) FROM {name})" for name in quoted)  # noqa: S608 - the models' tables
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {counts}")
        rows = cursor.fetchone()
        cursor.execute(
            "SELECT relname, n_tup_ins + n_tup_upd + n_tup_del FROM pg_stat_xact_user_tables "
            "WHERE relname = ANY(%s)",
            [tables],
        )
        writes = dict(cursor.fetchall())
    return {table: (rows[index], writes.get(table, 0)) for index, table in enumerate(tables)}


@pytest.fixture
def world(campaign, organiser, player, player2, warband, rival_warband, make_fighter):
    """A campaign with both warbands, a fighter each, Battlekit and an Injury; a recorded game they played (a
    fighter Out of Action), a game in progress with its tracker board and one whose board nobody has opened yet;
    a read-only link."""
    from campaigns.models import Game, GamePlayer, OutOfAction
    from combat.services.tracker.board import tracker_start
    from rosters.models import Injury, Item, Skill

    anselm = make_fighter(warband, "Brother Anselm", elite=True, xp=3)
    heretic = make_fighter(rival_warband, "Heretic Priest", elite=True, xp=2)
    item = Item.objects.create(warband=warband, fighter=anselm, name="Trench Sword")
    injury = Injury.objects.create(fighter=anselm, code="hand_wound", name="Hand Wound")
    skill = Skill.objects.create(fighter=anselm, code="deadeye", name="Deadeye")
    games = []
    for number, status in (
        (1, Game.Status.RECORDED),
        (2, Game.Status.IN_PROGRESS),
        (3, Game.Status.IN_PROGRESS),
    ):
        game = Game.objects.create(
            campaign=campaign, number=number, played_on=datetime.date(2025, 3, number), status=status
        )
        GamePlayer.objects.create(game=game, warband=warband, result="win" if number == 1 else "")
        GamePlayer.objects.create(game=game, warband=rival_warband, result="loss" if number == 1 else "")
        games.append(game)
    recorded, in_progress, not_yet_tracked = games
    OutOfAction.objects.create(player=recorded.players.get(warband=warband), fighter=anselm)
    tracker_start(game=in_progress, by=player)
    from combat.models import DiceRoll

    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=recorded,
        warband=warband,
        fighter=anselm,
        source="entered",
        sides=6,
        faces=[4],
        purpose="survival",
        label="Brother Anselm: Survival Roll D6 4",
    )
    campaign.share_token = "a-read-only-link-token-for-the-get-test"
    campaign.save(update_fields=["share_token"])
    return {
        "campaign_id": campaign.pk,
        "warband_id": warband.pk,
        "fighter_id": anselm.pk,
        "rival_fighter_id": heretic.pk,
        "item_id": item.pk,
        "injury_id": injury.pk,
        "skill_id": skill.pk,
        "game_id": recorded.pk,
        "game_in_progress_id": in_progress.pk,
        "game_not_yet_tracked_id": not_yet_tracked.pk,
        "membership_id": campaign.memberships.get(user=player2).pk,
        "code": campaign.invitation_code,
        "token": campaign.share_token,  # also a (wrong) password-reset token: that page says the link is bad
        "uidb64": "MQ",
        "data_kind": "location_table:common",
        "kind": "fighters",  # a price list's export (rosters/views/price_lists.py)
        "roll_id": roll.pk,  # a roll's correction and void (combat/views/post_game/fixes.py)  # the campaign data pages (combat/views/campaign_data.py)
    }


def sample_kwargs(name: str, arguments: list[str], world: dict) -> dict:
    """The URL's arguments from the world: the tracker page takes the game whose board is not set up yet (the
    first look must not set it up), its other pages the game with a board, the rest the recorded game."""
    missing = [argument for argument in arguments if argument not in world]
    assert not missing, f"URL {name!r} takes {missing}: give tests/test_get_writes_nothing.py a sample for it"
    kwargs = {argument: world[argument] for argument in arguments}
    if name == "tracker":
        kwargs["game_id"] = world["game_not_yet_tracked_id"]
    elif name.startswith("tracker"):
        kwargs["game_id"] = world["game_in_progress_id"]
    return kwargs


@pytest.fixture
def people(organiser, player, spectator, outsider):
    return {
        "anonymous": None,
        "outsider": outsider,
        "spectator": spectator,
        "player": player,
        "organiser": organiser,
    }


def test_every_named_url_has_a_sample(world):
    urls = named_urls()
    assert len(urls) > 40, "the URL walk found too few pages"
    for name, arguments in urls:
        reverse(name, kwargs=sample_kwargs(name, arguments, world))


@pytest.mark.parametrize("role", ROLES)
def test_no_get_writes_anything(client, world, people, role):
    if people[role] is not None:
        client.force_login(people[role])
    tables = table_names()
    writers = []
    for name, arguments in named_urls():
        path = reverse(name, kwargs=sample_kwargs(name, arguments, world))
        for headers in ({}, HTMX):
            before = measure(tables)
            response = client.get(path, **headers)
            assert response.status_code < 500, f"{role} GET {path}: {response.status_code}"
            changed = {
                table: (before[table], now) for table, now in measure(tables).items() if now != before[table]
            }
            if changed:
                writers.append(f"GET {path}{' (htmx)' if headers else ''}: {changed}")
    assert not writers, f"{role}'s GETs wrote (table: (rows, writes) before -> after):\n" + "\n".join(writers)


def test_the_measure_sees_an_update_that_keeps_the_row_count(world):
    """The check itself: an UPDATE leaves every count as it was, and is still seen."""
    from campaigns.models import Campaign

    tables = table_names()
    before = measure(tables)
    Campaign.objects.filter(pk=world["campaign_id"]).update(last_game_number=99)  # an untracked field
    after = measure(tables)

    changed = {table for table in tables if after[table] != before[table]}
    assert changed == {"campaigns_campaign"}
    assert after["campaigns_campaign"][0] == before["campaigns_campaign"][0]
