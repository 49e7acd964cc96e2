"""The roster page: its digest (the fragment cache's key), its rows, and the choices of its Battlekit forms.

The page costs the same with 5 fighters as with 50 (rosters/tests/test_query_budget.py holds it to it)."""

import hashlib
from contextlib import contextmanager
from functools import cache, cached_property
from types import SimpleNamespace

from django.db import connection, transaction
from django.db.models import F, Q

from campaigns.models import Game, GamePlayer
from combat.rules import AUTOMATIC_AFTER
from rosters.models import SPECIAL, Fighter, FoundLocation, Item, Warband
from rosters.selectors.common import WAITING_POST_GAME, fighters_with_kit, roster_order


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
        fighter.ranged,
        fighter.melee,
        fighter.armour,
        fighter.base_size,
        fighter.unit_size,
        fighter.xp,
        fighter.battle_scars,
        fighter.can_gain_xp,
        fighter.misses_next_game,
        fighter.status,
        tuple((injury.pk, injury.name, injury.effect) for injury in fighter.injury_list),
        tuple((item.pk, item.name, item.notes, tuple(item.keywords)) for item in fighter.kit),
        tuple((skill.pk, skill.name, skill.chart) for skill in fighter.skill_list),
    )
    return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()


def for_row(fighter: Fighter) -> Fighter:
    """`injury_list` and `kit`: the prefetched Injuries and Battlekit as plain lists (each `.all()` of a
    prefetched relation builds a queryset; a 50-fighter roster asked for them hundreds of times), and `row_key`."""
    fighter.injury_list = list(fighter.injuries.all())
    fighter.kit = list(fighter.battlekit.all())
    fighter.skill_list = list(fighter.skills.all())  # issue 12: the skills it has learnt
    fighter.row_key = _row_key(fighter)
    return fighter


# -- the roster -------------------------------------------------------------------------------------------------


# Everything the cached parts of the roster page show, as one digest computed by PostgreSQL: the warband's row and
# every row of its fighters, their Injuries and skills and its Battlekit, as text. Any change to any of them, by any code
# path, changes it; reading it costs one query and no model instances. The same query returns the warband's
# headline values, so the summary shown under a digest is the one that digest was computed from.
ROSTER_DIGEST_SQL = """
SELECT md5(concat_ws('#',
           (SELECT w::text FROM rosters_warband w WHERE w.id = %(warband)s),
           (SELECT string_agg(f::text, '|' ORDER BY f.id) FROM rosters_fighter f WHERE f.warband_id = %(warband)s),
           (SELECT string_agg(i::text, '|' ORDER BY i.id) FROM rosters_item i WHERE i.warband_id = %(warband)s),
           (SELECT string_agg(j::text, '|' ORDER BY j.id)
              FROM rosters_injury j JOIN rosters_fighter f ON f.id = j.fighter_id WHERE f.warband_id = %(warband)s),
           (SELECT string_agg(l::text, '|' ORDER BY l.id) FROM rosters_foundlocation l WHERE l.warband_id = %(warband)s),
           (SELECT string_agg(k::text, '|' ORDER BY k.id)
              FROM rosters_skill k JOIN rosters_fighter f ON f.id = k.fighter_id WHERE f.warband_id = %(warband)s)
       )),
       w.strongbox, w.glory, w.crew_xp, w.notes, w.promotion_tally,
       (SELECT count(*) FROM rosters_item i WHERE i.warband_id = %(warband)s),
       (SELECT count(*) FROM rosters_foundlocation l WHERE l.warband_id = %(warband)s)
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
        self.summary = summary  # strongbox, glory, crew_xp, notes, the number of items and of Locations, read with the digest
        self.waiting = waiting

    @cached_property
    def _everyone(self) -> list[Fighter]:
        fighters = list(fighters_with_kit().filter(warband=self.warband))
        fighters.sort(key=roster_order)
        return [for_row(fighter) for fighter in fighters]

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
    def locations(self) -> list[FoundLocation]:
        """The Locations the warband found by Exploration (RULING E-4), with the game that found each; no query
        when the digest counted none."""
        if not self.summary.locations:
            return []
        return list(FoundLocation.objects.filter(warband=self.warband).select_related("game").order_by("id"))

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
        return sum(1 for fighter in self.fighters if fighter.counts_as_elite)

    @property
    def battlekit_count(self) -> int:
        return len(self.arsenal) + sum(len(fighter.kit) for fighter in self.fighters)


def roster_digest(*, warband: Warband) -> tuple[str, SimpleNamespace]:
    """The digest of everything the roster shows, and the warband's headline values read with it."""
    with connection.cursor() as cursor:
        cursor.execute(ROSTER_DIGEST_SQL, {"warband": warband.pk})
        digest, strongbox, glory, crew_xp, notes, promotion_tally, items, locations = cursor.fetchone()
    return digest, SimpleNamespace(
        strongbox=strongbox,
        glory=glory,
        crew_xp=crew_xp,
        notes=notes,
        items=items,
        locations=locations,
        # RULING P-4: the warband's failed Promotion Dice in a row, across games; the 6th always succeeds.
        promotion_tally=promotion_tally,
        promotion_automatic_after=AUTOMATIC_AFTER,
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
    return for_row(fighters_with_kit().select_related("warband__campaign").get(pk=fighter_id))


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
