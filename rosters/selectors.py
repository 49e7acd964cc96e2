"""Reads for the roster, campaign, dashboard, fighter and game pages: one function per page need.

Each one fetches what its page shows in a fixed number of queries (joins and prefetches, sums in subqueries), so
a page costs the same with 5 fighters as with 50 (the query-budget tests hold them to it).
"""

import hashlib
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache, cached_property
from types import SimpleNamespace

from django.db import connection, transaction
from django.db.models import Count, F, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from campaigns.models import Campaign, Game, GamePlayer, Membership, OutOfAction
from campaigns.terms import Terms
from rosters.models import SPECIAL, Fighter, Injury, Item, Warband

WAITING_POST_GAME = (GamePlayer.PostGame.PENDING, GamePlayer.PostGame.IN_PROGRESS)


def _sum_of(queryset: QuerySet, column: str) -> Coalesce:
    """A correlated subquery summing one column, so several sums on one row never multiply each other's joins."""
    total = queryset.order_by().values(queryset.model._meta.get_field("warband").attname)
    return Coalesce(
        Subquery(total.annotate(total=Sum(column)).values("total")[:1], output_field=IntegerField()),
        Value(0),
    )


def _count_of(queryset: QuerySet) -> Coalesce:
    grouped = queryset.order_by().values(queryset.model._meta.get_field("warband").attname)
    return Coalesce(
        Subquery(grouped.annotate(n=Count("pk")).values("n")[:1], output_field=IntegerField()), Value(0)
    )


def warbands_with_headlines(queryset: QuerySet[Warband]) -> QuerySet[Warband]:
    """Warbands with their headline numbers: active fighters, ELITE among them, XP, Battle Scars, games, wins,
    draws and losses (as `fighter_count`, `elite_count`, `total_xp`, `total_scars`, `games_played`, `wins`,
    `draws`, `losses`)."""
    active = Fighter.objects.filter(warband=OuterRef("pk"), status=Fighter.Status.ACTIVE)
    entries = GamePlayer.objects.filter(warband=OuterRef("pk"))
    return queryset.annotate(
        fighter_count=_count_of(active),
        elite_count=_count_of(active.filter(Q(keywords__contains=["ELITE"]) | Q(champion=True))),
        total_xp=_sum_of(active, "xp"),
        total_scars=_sum_of(active, "battle_scars"),
        games_played=_count_of(entries.exclude(game__status=Game.Status.IN_PROGRESS)),
        wins=_count_of(entries.filter(result=GamePlayer.Result.WIN)),
        draws=_count_of(entries.filter(result=GamePlayer.Result.DRAW)),
        losses=_count_of(entries.filter(result=GamePlayer.Result.LOSS)),
    )


def _fighters_with_kit() -> QuerySet[Fighter]:
    return Fighter.objects.prefetch_related(
        Prefetch("injuries", queryset=Injury.objects.select_related("game").order_by("id")),
        Prefetch("battlekit", queryset=Item.objects.order_by("id")),
    )


@cache
def _row_markup_version() -> str:
    """A digest of the roster template, so a changed row markup never meets rows cached from the old one."""
    from django.template.loader import get_template

    source = get_template("rosters/warband.html").template.source
    return hashlib.blake2b(source.encode(), digest_size=8).hexdigest()


def _row_key(fighter: Fighter) -> str:
    """A digest of everything a roster row shows of its fighter (fields, Injuries, Battlekit).

    The row's HTML is cached under it (with who may change it and the campaign's words, templates/rosters/
    warband.html): rendering 50 rows is most of the roster page's time, and a row only changes when one of these
    values does. It is computed from rows already loaded, so it costs no query.
    """
    parts = (
        _row_markup_version(),
        fighter.pk,
        fighter.warband_id,
        fighter.name,
        fighter.fighter_type,
        tuple(fighter.keywords),
        fighter.champion,
        *(getattr(fighter, stat) for stat in SPECIAL),
        fighter.health,
        fighter.harm_limit,
        fighter.movement,
        fighter.unit_size,
        fighter.xp,
        fighter.battle_scars,
        fighter.can_gain_xp,
        fighter.misses_next_game,
        fighter.status,
        tuple((injury.pk, injury.name, injury.effect) for injury in fighter.injury_list),
        tuple((item.pk, item.name, item.notes, tuple(item.keywords)) for item in fighter.kit),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def _for_row(fighter: Fighter) -> Fighter:
    """`injury_list` and `kit`: the prefetched Injuries and Battlekit as plain lists (each `.all()` of a
    prefetched relation builds a queryset; a 50-fighter roster asked for them hundreds of times), and `row_key`."""
    fighter.injury_list = list(fighter.injuries.all())
    fighter.kit = list(fighter.battlekit.all())
    fighter.row_key = _row_key(fighter)
    return fighter


def _roster_order(fighter: Fighter) -> tuple:
    # ELITE fighters (Champions) head the roster, then Troops, each in the order they joined.
    return (not (fighter.is_elite or fighter.champion), fighter.pk)


# -- the roster -------------------------------------------------------------------------------------------------


# Everything the cached parts of the roster page show, as one digest computed by PostgreSQL: the warband's row and
# every row of its fighters, their Injuries and its Battlekit, as text. Any change to any of them, by any code
# path, changes it; reading it costs one query and no model instances. The same query returns the warband's
# headline values, so the summary shown under a digest is the one that digest was computed from.
ROSTER_DIGEST_SQL = """
SELECT md5(concat_ws('#',
           (SELECT w::text FROM rosters_warband w WHERE w.id = %(warband)s),
           (SELECT string_agg(f::text, '|' ORDER BY f.id) FROM rosters_fighter f WHERE f.warband_id = %(warband)s),
           (SELECT string_agg(i::text, '|' ORDER BY i.id) FROM rosters_item i WHERE i.warband_id = %(warband)s),
           (SELECT string_agg(j::text, '|' ORDER BY j.id)
              FROM rosters_injury j JOIN rosters_fighter f ON f.id = j.fighter_id WHERE f.warband_id = %(warband)s)
       )),
       w.strongbox, w.glory, w.crew_xp, w.notes,
       (SELECT count(*) FROM rosters_item i WHERE i.warband_id = %(warband)s)
  FROM rosters_warband w WHERE w.id = %(warband)s
"""


@contextmanager
def consistent_reads():
    """Every read inside sees one snapshot of the database (REPEATABLE READ), so the roster's digest and the
    rows loaded after it agree even while someone else saves: a page is never cached under a digest it does not
    show. Inside a transaction already (tests, ATOMIC_REQUESTS) it adds nothing."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


class Roster:
    """The roster page's data. The fighters, the Arsenal and their totals load on first use only: the page
    caches the parts that show them under `digest` (templates/rosters/warband.html), so a page whose roster has
    not changed since it was last shown never loads them."""

    def __init__(self, *, warband: Warband, digest: str, summary: SimpleNamespace, waiting: list[GamePlayer]):
        self.warband = warband
        self.terms = warband.campaign.terms
        self.digest = f"{_row_markup_version()}:{digest}"
        self.summary = (
            summary  # strongbox, glory, crew_xp, notes and the number of items, read with the digest
        )
        self.waiting = waiting

    @cached_property
    def _everyone(self) -> list[Fighter]:
        fighters = list(_fighters_with_kit().filter(warband=self.warband))
        fighters.sort(key=_roster_order)
        return [_for_row(fighter) for fighter in fighters]

    @cached_property
    def fighters(self) -> list[Fighter]:
        """The active roster, ELITE first."""
        return [fighter for fighter in self._everyone if fighter.is_active]

    @cached_property
    def removed(self) -> list[Fighter]:
        """Fighters who left the roster (dead, retired...), kept for the history."""
        return [fighter for fighter in self._everyone if not fighter.is_active]

    @cached_property
    def arsenal(self) -> list[Item]:
        return list(Item.objects.filter(warband=self.warband, fighter__isnull=True).order_by("name", "id"))

    @cached_property
    def move_choices(self) -> list[tuple[int, str]]:
        """(id, label) of the Battlekit that can change hands, for the Move form: from the loaded roster when the
        page loaded it, else one query with no instances."""
        if "_everyone" in self.__dict__:
            rows = [(item.pk, item.name, None) for item in self.arsenal]
            for fighter in self.fighters:
                rows.extend((item.pk, item.name, fighter.name) for item in fighter.kit if item.removable)
            rows.sort(key=lambda row: (row[2] is not None, row[2] or "", row[1], row[0]))
            return [(pk, f"{name} ({holder or self.terms.arsenal})") for pk, name, holder in rows]
        rows = (
            Item.objects.filter(warband=self.warband)
            .filter(Q(fighter__isnull=True) | Q(fighter__status=Fighter.Status.ACTIVE, removable=True))
            .order_by(F("fighter__name").asc(nulls_first=True), "name", "id")  # the Arsenal first
            .values_list("pk", "name", "fighter__name")
        )
        return [(pk, f"{name} ({holder or self.terms.arsenal})") for pk, name, holder in rows]

    @cached_property
    def holder_choices(self) -> list[tuple[str, str]]:
        """("arsenal", "the Arsenal") and (id, name) of each active fighter, for the Battlekit forms."""
        if "_everyone" in self.__dict__:
            holders = sorted(
                ((f.pk, f.name) for f in self.fighters), key=lambda holder: (holder[1], holder[0])
            )
        else:
            holders = (
                Fighter.objects.filter(warband=self.warband, status=Fighter.Status.ACTIVE)
                .order_by("name", "id")
                .values_list("pk", "name")
            )
        return [("arsenal", f"the {self.terms.arsenal}"), *((str(pk), name) for pk, name in holders)]

    @property
    def total_xp(self) -> int:
        return sum(fighter.xp for fighter in self.fighters)

    @property
    def total_scars(self) -> int:
        return sum(fighter.battle_scars for fighter in self.fighters)

    @property
    def elite_count(self) -> int:
        return sum(1 for fighter in self.fighters if fighter.is_elite or fighter.champion)

    @property
    def battlekit_count(self) -> int:
        return len(self.arsenal) + sum(len(fighter.kit) for fighter in self.fighters)


def roster_digest(*, warband: Warband) -> tuple[str, SimpleNamespace]:
    """The digest of everything the roster shows, and the warband's headline values read with it."""
    with connection.cursor() as cursor:
        cursor.execute(ROSTER_DIGEST_SQL, {"warband": warband.pk})
        digest, strongbox, glory, crew_xp, notes, items = cursor.fetchone()
    return digest, SimpleNamespace(
        strongbox=strongbox, glory=glory, crew_xp=crew_xp, notes=notes, items=items
    )


def warband_roster(*, warband: Warband) -> Roster:
    """The roster page: active fighters with Injuries and Battlekit, the removed ones, the Arsenal (these three
    loaded when first used), and the post-games this warband still owes."""
    waiting = list(
        GamePlayer.objects.filter(warband=warband, post_game__in=WAITING_POST_GAME)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .select_related("game")
        .order_by("game__number")
    )
    digest, summary = roster_digest(warband=warband)
    return Roster(warband=warband, digest=digest, summary=summary, waiting=waiting)


def fighter_for_row(*, fighter_id: int) -> Fighter:
    """One fighter with what its roster row shows (for an htmx row swap)."""
    return _for_row(_fighters_with_kit().select_related("warband__campaign").get(pk=fighter_id))


def holders_for(*, warband: Warband) -> list[Fighter]:
    """Who can be given Battlekit: the warband's active fighters."""
    return list(Fighter.objects.filter(warband=warband, status=Fighter.Status.ACTIVE).order_by("name", "id"))


def movable_items(*, warband: Warband) -> list[Item]:
    """Every piece of Battlekit that can change hands: in the Arsenal, or held by an active fighter."""
    return list(
        Item.objects.filter(warband=warband)
        .filter(Q(fighter__isnull=True) | Q(fighter__status=Fighter.Status.ACTIVE, removable=True))
        .select_related("fighter")
        .order_by("fighter__name", "name", "id")
    )


# -- a fighter's card -------------------------------------------------------------------------------------------


@dataclass
class FighterCard:
    fighter: Fighter
    terms: Terms
    out_of_action: list[OutOfAction]
    holders: list[Fighter]


def fighter_card(*, fighter: Fighter) -> FighterCard:
    fighter = _fighters_with_kit().select_related("warband__campaign", "warband__owner").get(pk=fighter.pk)
    marks = list(
        OutOfAction.objects.filter(fighter=fighter)
        .select_related("player__game")
        .order_by("-player__game__number")
    )
    return FighterCard(
        fighter=fighter,
        terms=fighter.warband.campaign.terms,
        out_of_action=marks,
        holders=[holder for holder in holders_for(warband=fighter.warband) if holder.pk != fighter.pk],
    )


# -- the campaign page ------------------------------------------------------------------------------------------


@dataclass
class CampaignPage:
    campaign: Campaign
    terms: Terms
    members: list[Membership]
    warbands: list[Warband]
    games: list[Game]

    @property
    def standings(self) -> list[Warband]:
        """Most wins first, then draws, fewest losses, Glory; warbands that have not played yet come last."""
        return sorted(
            self.warbands,
            key=lambda w: (-(w.games_played > 0), -w.wins, -w.draws, w.losses, -w.glory, w.name.lower()),
        )


def _games_with_players(queryset: QuerySet[Game]) -> QuerySet[Game]:
    players = GamePlayer.objects.select_related("warband__owner").annotate(out_count=Count("out_of_action"))
    return queryset.prefetch_related(Prefetch("players", queryset=players.order_by("id")))


def campaign_page(*, campaign: Campaign) -> CampaignPage:
    """The campaign page: members, warbands with headline numbers, games with their warbands, standings."""
    members = list(Membership.objects.filter(campaign=campaign).select_related("user").order_by("joined_at"))
    warbands = list(
        warbands_with_headlines(Warband.objects.filter(campaign=campaign).select_related("owner")).order_by(
            "name", "id"
        )
    )
    games = list(_games_with_players(Game.objects.filter(campaign=campaign)).order_by("-number"))
    return CampaignPage(
        campaign=campaign, terms=campaign.terms, members=members, warbands=warbands, games=games
    )


# -- the dashboard ----------------------------------------------------------------------------------------------


@dataclass
class Dashboard:
    memberships: list[Membership]
    warbands: list[Warband]
    waiting: list[GamePlayer]
    playing: list[GamePlayer]
    recent_games: list[Game]


def dashboard_for(*, user, recent: int = 8) -> Dashboard:
    """A member's home page: campaigns, warbands, the post-games waiting for them, games being played, and the
    latest games in their campaigns."""
    memberships = list(
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(
            warband_count=Coalesce(
                Subquery(
                    Warband.objects.filter(campaign=OuterRef("campaign"))
                    .order_by()
                    .values("campaign")
                    .annotate(n=Count("pk"))
                    .values("n")[:1],
                    output_field=IntegerField(),
                ),
                Value(0),
            )
        )
        .order_by("-campaign__created_at")
    )
    warbands = list(
        warbands_with_headlines(Warband.objects.filter(owner=user).select_related("campaign")).order_by(
            "campaign__name", "name"
        )
    )
    mine = GamePlayer.objects.filter(warband__owner=user).select_related("game__campaign", "warband")
    waiting = list(
        mine.filter(post_game__in=WAITING_POST_GAME)
        .exclude(game__status=Game.Status.IN_PROGRESS)
        .order_by("game__played_on", "game__number")
    )
    playing = list(mine.filter(game__status=Game.Status.IN_PROGRESS).order_by("-game__played_on"))
    games = list(
        _games_with_players(
            Game.objects.filter(campaign__memberships__user=user).select_related("campaign")
        ).order_by("-played_on", "-id")[:recent]
    )
    return Dashboard(
        memberships=memberships, warbands=warbands, waiting=waiting, playing=playing, recent_games=games
    )


# -- games ------------------------------------------------------------------------------------------------------


@dataclass
class GamePage:
    game: Game
    terms: Terms
    players: list[GamePlayer]


def game_page(*, game: Game) -> GamePage:
    """A game: its warbands with result, Out of Action fighters and post-game state."""
    players = list(
        GamePlayer.objects.filter(game=game)
        .select_related("warband__owner")
        .prefetch_related(
            Prefetch("out_of_action", queryset=OutOfAction.objects.select_related("fighter").order_by("id"))
        )
        .order_by("id")
    )
    return GamePage(game=game, terms=game.campaign.terms, players=players)


def warbands_for_game_form(*, campaign: Campaign) -> list[Warband]:
    """The campaign's warbands with their active fighters, for the Out of Action checkboxes."""
    active = Fighter.objects.filter(status=Fighter.Status.ACTIVE).order_by("id")
    warbands = list(
        Warband.objects.filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related(Prefetch("fighters", queryset=active, to_attr="active_fighters"))
        .order_by("name", "id")
    )
    for warband in warbands:
        warband.active_fighters.sort(key=_roster_order)
    return warbands


def out_of_action_ids(*, game: Game) -> dict[int, set[int]]:
    """Per warband id, the ids of its fighters marked Out of Action in the game."""
    marks: dict[int, set[int]] = {}
    for warband_id, fighter_id in OutOfAction.objects.filter(player__game=game).values_list(
        "player__warband_id", "fighter_id"
    ):
        marks.setdefault(warband_id, set()).add(fighter_id)
    return marks
