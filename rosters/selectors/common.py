"""What the page reads share: sums and counts in subqueries, fighters with their kit, the roster's order."""

import hashlib
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import psycopg
from django.conf import settings
from django.db import connection, transaction
from django.db.models import (
    BooleanField,
    Count,
    Func,
    IntegerField,
    JSONField,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
)
from django.db.models.expressions import RawSQL
from django.db.models.functions import Coalesce

from campaigns.models import Game, GamePlayer
from combat.rules.roles import keyword_key
from rosters.models import ELITE, Fighter, Injury, Item, Skill, Warband

WAITING_POST_GAME = (GamePlayer.PostGame.PENDING, GamePlayer.PostGame.IN_PROGRESS)


@cache
def release() -> str:
    """A digest of the apps' code and the templates, read once per process: a cached part of a page keyed on it
    is never served by a release whose templates, forms, words or rulings would draw it otherwise (the whole-page
    cache keys its pages the same way, config/page_cache.py's `build`, which no app may import)."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(settings.BASE_DIR)
    for top in ("campaigns", "rosters", "combat", "templates"):
        for path in sorted((root / top).rglob("*")):
            if path.suffix in {".py", ".html", ".json"} and "tests" not in path.parts:
                digest.update(path.read_bytes())
    return digest.hexdigest()


def sum_of(queryset: QuerySet, column: str) -> Coalesce:
    """A correlated subquery summing one column, so several sums on one row never multiply each other's joins."""
    total = queryset.order_by().values(queryset.model._meta.get_field("warband").attname)
    return Coalesce(
        Subquery(total.annotate(total=Sum(column)).values("total")[:1], output_field=IntegerField()),
        Value(0),
    )


def count_of(queryset: QuerySet) -> Coalesce:
    grouped = queryset.order_by().values(queryset.model._meta.get_field("warband").attname)
    return Coalesce(
        Subquery(grouped.annotate(n=Count("pk")).values("n")[:1], output_field=IntegerField()), Value(0)
    )


class HasKeyword(Func):
    """Whether an array of keywords holds `keyword`, compared as the engine compares them (`rules.keyword_key`:
    without case or outer spaces, so a fighter imported with "elite" is ELITE, RULING T-1)."""

    output_field = BooleanField()

    def __init__(self, expression: str, keyword: str) -> None:
        super().__init__(expression, Value(keyword_key(keyword)))

    def as_sql(self, compiler, connection, **extra_context):
        keywords, keywords_params = compiler.compile(self.source_expressions[0])
        wanted, wanted_params = compiler.compile(self.source_expressions[1])
        # str.strip() trims whitespace; btrim trims the characters it is given: space, tab, newlines, form feed, VT.
        # The SQL is the compiler's own for the column and a placeholder for the keyword: every value is a parameter.
        trimmed = r"upper(btrim(keyword, E' \t\n\r\f\x0b'))"
        sql = f"EXISTS (SELECT 1 FROM unnest({keywords}) AS keyword WHERE {trimmed} = {wanted})"  # noqa: S608
        return sql, (*keywords_params, *wanted_params)


# The fighters a warband lost: taken off the roster by the Trauma Step (not retired nor dismissed by choice).
LOST_STATUSES = (
    Fighter.Status.DEAD,
    Fighter.Status.EXECUTED,
    Fighter.Status.BLINDED,
    Fighter.Status.UNFIT_FOR_DUTY,
)


def warbands_with_headlines(queryset: QuerySet[Warband]) -> QuerySet[Warband]:
    """Warbands with their headline numbers: active fighters, ELITE among them, XP, Battle Scars, games, wins,
    draws and losses, Victory Points and fighters lost (as `fighter_count`, `elite_count`, `total_xp`,
    `total_scars`, `games_played`, `wins`, `draws`, `losses`, `victory_points`, `fighters_lost`)."""
    active = Fighter.objects.filter(warband=OuterRef("pk"), status=Fighter.Status.ACTIVE)
    entries = GamePlayer.objects.filter(warband=OuterRef("pk"))
    return queryset.annotate(
        fighter_count=count_of(active),
        elite_count=count_of(active.filter(Q(HasKeyword("keywords", ELITE)) | Q(champion=True))),
        total_xp=sum_of(active, "xp"),
        total_scars=sum_of(active, "battle_scars"),
        games_played=count_of(entries.exclude(game__status=Game.Status.IN_PROGRESS)),
        wins=count_of(entries.filter(result=GamePlayer.Result.WIN)),
        draws=count_of(entries.filter(result=GamePlayer.Result.DRAW)),
        losses=count_of(entries.filter(result=GamePlayer.Result.LOSS)),
        # The leaderboard's Victory Points (games over only) and fighters lost (RULING W-2).
        victory_points=sum_of(entries.exclude(game__status=Game.Status.IN_PROGRESS), "victory_points"),
        fighters_lost=count_of(Fighter.objects.filter(warband=OuterRef("pk"), status__in=LOST_STATUSES)),
    )


def kit_prefetches() -> tuple[Prefetch, ...]:
    """A fighter's Injuries and skills (each with its game) and Battlekit, as the cards show them."""
    return (
        Prefetch("injuries", queryset=Injury.objects.select_related("game").order_by("id")),
        Prefetch("battlekit", queryset=Item.objects.order_by("id")),
        Prefetch("skills", queryset=Skill.objects.select_related("game").order_by("id")),
    )


def fighters_with_kit() -> QuerySet[Fighter]:
    return Fighter.objects.prefetch_related(*kit_prefetches())


@contextmanager
def consistent_reads():
    """Every read inside sees one snapshot of the database (REPEATABLE READ), so a page's digest and the
    rows loaded after it agree even while someone else saves: a part is never cached under a digest it does not
    show. Inside a transaction already (tests, ATOMIC_REQUESTS) it adds nothing, not even a savepoint."""
    if connection.in_atomic_block:
        yield
        return
    # Asked of the driver rather than by a SET TRANSACTION of its own, so the level rides on the transaction's BEGIN:
    # one round trip fewer on every page that reads in a snapshot.
    connection.ensure_connection()
    driver = connection.connection
    level = driver.isolation_level
    driver.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
    try:
        with transaction.atomic():
            yield
    finally:
        # Back to the connection's own level for its next transaction; a connection lost meanwhile is dropped
        # whole by Django, and a second error here would hide the first.
        if driver.info.transaction_status == psycopg.pq.TransactionStatus.IDLE:
            driver.isolation_level = level


# What a roster row shows of each relation of its fighter (templates/rosters/warband.html, the print and shared
# views): read as JSON inside the fighters' own query, so a page of rows costs one query, not one per relation.
ROW_RELATIONS = {
    "injury_list": (Injury, ("id", "name", "effect", "d66")),
    "kit": (Item, ("id", "name", "notes", "keywords")),
    "skill_list": (Skill, ("id", "name", "chart")),
}


def _rows_sql(model, fields: tuple[str, ...]) -> RawSQL:
    # Written out once rather than built from Subquery(JSONBAgg(JSONObject(...))): compiling those three
    # expressions cost the ORM 2.6 ms a page, ten times what PostgreSQL spends running them.
    meta, fighter = model._meta, Fighter._meta
    pairs = ", ".join(f"'{name}', r.{meta.get_field(name).column}" for name in fields)
    column = f'"{fighter.db_table}"."{fighter.pk.column}"'
    rows = f"SELECT jsonb_agg(jsonb_build_object({pairs}) ORDER BY r.id) FROM {meta.db_table} r"  # noqa: S608
    sql = f"COALESCE(({rows} WHERE r.{meta.get_field('fighter').column} = {column}), '[]'::jsonb)"
    return RawSQL(sql, (), output_field=JSONField())  # noqa: S611 -- names from the models, no input


ROW_JSON = {f"{name}_json": _rows_sql(model, fields) for name, (model, fields) in ROW_RELATIONS.items()}


def fighters_for_rows() -> QuerySet[Fighter]:
    """Fighters with what their roster rows show of their Injuries, Battlekit and skills, in one query; `for_row`
    (rosters/selectors/roster.py) turns them into the rows' `injury_list`, `kit` and `skill_list`."""
    return Fighter.objects.annotate(**ROW_JSON)


def rows_from_json(fighter: Fighter) -> Fighter:
    """`injury_list`, `kit` and `skill_list` of a fighter read by `fighters_for_rows`, each entry with the
    attributes its model would have (`id` and `pk`, and the fields of ROW_RELATIONS)."""
    for name in ROW_RELATIONS:
        entries = getattr(fighter, f"{name}_json")
        setattr(fighter, name, [SimpleNamespace(pk=entry["id"], **entry) for entry in entries])
    return fighter


def roster_order(fighter: Fighter) -> tuple:
    # ELITE fighters (Champions) head the roster, then Troops, each in the order they joined.
    return (not fighter.counts_as_elite, fighter.pk)


def games_with_players(queryset: QuerySet[Game]) -> QuerySet[Game]:
    players = GamePlayer.objects.select_related("warband__owner").annotate(out_count=Count("out_of_action"))
    return queryset.prefetch_related(Prefetch("players", queryset=players.order_by("id")))
