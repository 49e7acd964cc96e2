"""The roster page: its digest (the fragment cache's key), its rows, and the choices of its Battlekit forms.

The page costs the same with 5 fighters as with 50 (rosters/tests/test_query_budget.py holds it to it)."""

import hashlib
from functools import cache, cached_property
from types import SimpleNamespace
from typing import NamedTuple

from django.db import connection
from django.db.models import Q

from campaigns.models import Game, GamePlayer
from campaigns.profiles import Profile
from combat.rules import AUTOMATIC_AFTER, counts_as_elite
from rosters.models import SPECIAL, Fighter, FoundLocation, Item, Warband
from rosters.selectors.common import (  # noqa: F401 -- consistent_reads: the roster views read it from here
    WAITING_POST_GAME,
    consistent_reads,
    fighters_for_rows,
    release,
    roster_order,
    rows_from_json,
)
from rosters.selectors.row_text import RowLinks, row_links, stat_lines, tag_lines


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


def for_row(fighter: Fighter, profile: Profile, links: RowLinks | None = None) -> Fighter:
    """`injury_list`, `kit` and `skill_list` (read by `fighters_for_rows` in the fighter's own query), `row_key`,
    and what the row template would otherwise work out per row: `fid` (the id as text), `elite` (the ELITE
    keyword or a Champion, for the badge), the addresses `card_url`, `xp_url` and `edit_url`, and the stat lines
    of its campaign's `profile` (`stat_lines`) and its tags (`tag_lines`)."""
    rows_from_json(fighter)
    fighter.row_key = _row_key(fighter)
    links = links or row_links()
    pk = fighter.pk
    fighter.fid = str(pk)
    fighter.elite = fighter.is_elite or fighter.champion
    fighter.card_url = links.card(pk)
    fighter.xp_url = links.xp(pk)
    fighter.edit_url = links.edit(pk)
    stat_lines(fighter, profile)
    tag_lines(fighter)
    return fighter


# -- the roster -------------------------------------------------------------------------------------------------


# Everything the cached parts of the roster page show, as one digest computed by PostgreSQL: the warband's row and
# every row of its fighters, their Injuries and skills and its Battlekit, as text; its campaign's row (its name,
# words, house rules and limits), its owner's name, its games (the battles played, the post-games it owes) and the
# campaign's newest Battlekit price list (the Add form's choices). Any change to any of them, by any code path,
# changes it; reading it costs one query and no model instances. The same query returns the warband's headline
# values, so the summary shown under a digest is the one that digest was computed from.
# The digest and the headline values, of the warband `w` read with its campaign `c` and its owner `o` (`ROSTER_FROM`):
# a statement that reads those rows anyway (the roster page's, rosters/selectors/roster_reader.py) reads them once.
ROSTER_DIGEST_COLUMNS = """md5(concat_ws('#',
           w::text,
           (SELECT string_agg(f::text, '|' ORDER BY f.id) FROM rosters_fighter f WHERE f.warband_id = w.id),
           (SELECT string_agg(i::text, '|' ORDER BY i.id) FROM rosters_item i WHERE i.warband_id = w.id),
           (SELECT string_agg(j::text, '|' ORDER BY j.id)
              FROM rosters_injury j JOIN rosters_fighter f ON f.id = j.fighter_id WHERE f.warband_id = w.id),
           (SELECT string_agg(l::text, '|' ORDER BY l.id) FROM rosters_foundlocation l WHERE l.warband_id = w.id),
           (SELECT string_agg(k::text, '|' ORDER BY k.id)
              FROM rosters_skill k JOIN rosters_fighter f ON f.id = k.fighter_id WHERE f.warband_id = w.id),
           c::text,
           concat_ws(',', o.username, o.first_name),
           (SELECT string_agg(concat_ws(',', p.id, p.post_game, g.id, g.number, g.status), '|' ORDER BY p.id)
              FROM campaigns_gameplayer p JOIN campaigns_game g ON g.id = p.game_id WHERE p.warband_id = w.id),
           (SELECT p::text FROM rosters_pricelist p WHERE p.campaign_id = w.campaign_id AND p.kind = 'battlekit'
             ORDER BY p.version DESC LIMIT 1)
       )),
       w.strongbox, w.glory, w.crew_xp, w.notes, w.promotion_tally,
       (SELECT count(*) FROM rosters_item i WHERE i.warband_id = w.id),
       (SELECT count(*) FROM rosters_foundlocation l WHERE l.warband_id = w.id)"""
ROSTER_FROM = """
  FROM rosters_warband w
  JOIN campaigns_campaign c ON c.id = w.campaign_id
  JOIN auth_user o ON o.id = w.owner_id"""
ROSTER_DIGEST_SQL = f"SELECT {ROSTER_DIGEST_COLUMNS}{ROSTER_FROM} WHERE w.id = %(warband)s"


# The roster page shows this many active fighters in full; the rest come by a second request as soon as the page
# has loaded (`later`, the `later-fighters` part of templates/rosters/warband.html; the service worker keeps it for
# reading offline), or all at once without JavaScript (`?fighters=all`). A warband of the three games' usual sizes
# fits inside, the first screen of a phone shows fewer, and a 200-fighter roster costs its page what a 12-fighter
# one does.
FIRST_ROWS = 12


# The roster's other reads, written out once: the ORM spent longer building each of these statements than
# PostgreSQL spent running them, and a roster drawn again after any change makes all of them. Each returns what its
# queryset did (rosters/tests/selectors/test_roster.py compares them).
LINE_UP_SQL = """
SELECT id, name, status, keywords, champion, xp, battle_scars FROM rosters_fighter WHERE warband_id = %s ORDER BY id
"""
# The post-games a warband still owes (WAITING_POST_GAME), of games no longer being played, oldest first.
WAITING_SQL = """
SELECT p.id, p.post_game, g.id, g.number
  FROM campaigns_gameplayer p JOIN campaigns_game g ON g.id = p.game_id
 WHERE p.warband_id = %(warband)s AND p.post_game = ANY(%(waiting)s) AND g.status <> %(playing)s
 ORDER BY g.number
"""
WAITING_PARAMETERS = {"waiting": list(WAITING_POST_GAME), "playing": Game.Status.IN_PROGRESS}
ITEM_FIELDS = tuple(field.attname for field in Item._meta.concrete_fields)
# The Arsenal: the warband's Battlekit that no fighter holds, by name.
ARSENAL_SQL = f"""
SELECT {", ".join(field.column for field in Item._meta.concrete_fields)} FROM rosters_item
 WHERE fighter_id IS NULL AND warband_id = %s ORDER BY name, id
"""  # noqa: S608 -- the model's own column names
# The Battlekit that can change hands: in the Arsenal (first), or removable and held by an active fighter.
MOVABLE_SQL = """
SELECT i.id, i.name, f.name
  FROM rosters_item i LEFT JOIN rosters_fighter f ON f.id = i.fighter_id
 WHERE i.warband_id = %(warband)s AND (i.fighter_id IS NULL OR (f.status = %(active)s AND i.removable))
 ORDER BY f.name ASC NULLS FIRST, i.name, i.id
"""


class LineUp(NamedTuple):
    """A fighter as the roster's order and headline totals need it, read without its Injuries and Battlekit."""

    pk: int
    name: str
    status: str
    keywords: list[str]
    champion: bool
    xp: int
    battle_scars: int

    @property
    def counts_as_elite(self) -> bool:
        return counts_as_elite(keywords=self.keywords, champion=self.champion)

    @property
    def is_active(self) -> bool:
        return self.status == Fighter.Status.ACTIVE


class Roster:
    """The roster page's data. The fighters, the Arsenal and their totals load on first use only: the page
    caches the parts that show them under `digest` (templates/rosters/warband.html), so a page whose roster has
    not changed since it was last shown never loads them. Of the active fighters, the page loads in full only
    those it shows (`on_page`: the first FIRST_ROWS, or all with `all_rows`); the others load when asked for
    (`later`)."""

    def __init__(
        self,
        *,
        warband: Warband,
        digest: str,
        summary: SimpleNamespace,
        all_rows: bool = False,
    ):
        self.warband = warband
        self.terms = warband.campaign.terms
        self.all_rows = all_rows
        self.digest = f"{_row_markup_version()}:{digest}"
        # The whole page's key: its digest, and the release that draws it (its forms, words, limits and rulings).
        self.page_key = f"{release()}:{digest}"
        self.summary = summary  # strongbox, glory, crew_xp, notes, the number of items and of Locations, read with the digest

    @cached_property
    def waiting(self) -> list[GamePlayer]:
        """The post-games this warband still owes, oldest game first, each with its game's id and number (what the
        page shows of it)."""
        with connection.cursor() as cursor:
            cursor.execute(WAITING_SQL, {"warband": self.warband.pk, **WAITING_PARAMETERS})
            rows = cursor.fetchall()
        return [
            GamePlayer(id=pk, game=Game(id=game, number=number), warband=self.warband, post_game=post_game)
            for pk, post_game, game, number in rows
        ]

    @cached_property
    def line_up(self) -> list[LineUp]:
        """Every fighter of the warband, active or not, in roster order: ELITE first, then by joining."""
        with connection.cursor() as cursor:
            cursor.execute(LINE_UP_SQL, [self.warband.pk])
            rows = cursor.fetchall()
        return sorted((LineUp(*row) for row in rows), key=roster_order)

    @cached_property
    def _active(self) -> list[LineUp]:
        return [fighter for fighter in self.line_up if fighter.is_active]

    def _loaded(self, fighters: list[LineUp]) -> list[Fighter]:
        """These fighters with what their rows show, in the order given: one query, none if empty."""
        if not fighters:
            return []
        found = {
            fighter.pk: fighter for fighter in fighters_for_rows().filter(pk__in=[f.pk for f in fighters])
        }
        links, profile = row_links(), self.terms.profile
        return [for_row(found[fighter.pk], profile, links) for fighter in fighters if fighter.pk in found]

    @cached_property
    def _rows(self) -> list[LineUp]:
        """The active fighters the page shows in full: the first FIRST_ROWS, or all with `all_rows`."""
        return self._active if self.all_rows else self._active[:FIRST_ROWS]

    @cached_property
    def _shown(self) -> dict[int, Fighter]:
        """The fighters this page shows in full (its active rows and the removed ones), loaded together."""
        removed = [fighter for fighter in self.line_up if not fighter.is_active]
        return {fighter.pk: fighter for fighter in self._loaded([*self._rows, *removed])}

    @cached_property
    def on_page(self) -> list[Fighter]:
        """The active fighters the page shows in full, ELITE first."""
        return [self._shown[fighter.pk] for fighter in self._rows if fighter.pk in self._shown]

    @property
    def later_count(self) -> int:
        """Active fighters the page leaves to `later`."""
        return 0 if self.all_rows else max(0, len(self._active) - FIRST_ROWS)

    @cached_property
    def later(self) -> list[Fighter]:
        """The active fighters after the page's first FIRST_ROWS, in full (the `later-fighters` part)."""
        return self._loaded(self._active[FIRST_ROWS:])

    @cached_property
    def fighters(self) -> list[Fighter]:
        """Every active fighter in full, ELITE first (the print and shared views)."""
        return self.on_page + self.later if self.later_count else self.on_page

    @cached_property
    def removed(self) -> list[Fighter]:
        """Fighters who left the roster (dead, retired...), kept for the history."""
        gone = [fighter for fighter in self.line_up if not fighter.is_active]
        return [self._shown[fighter.pk] for fighter in gone if fighter.pk in self._shown]

    @cached_property
    def arsenal(self) -> list[Item]:
        """The Battlekit nobody holds, by name."""
        with connection.cursor() as cursor:
            cursor.execute(ARSENAL_SQL, [self.warband.pk])
            return [Item.from_db(connection.alias, ITEM_FIELDS, row) for row in cursor.fetchall()]

    @cached_property
    def locations(self) -> list[FoundLocation]:
        """The Locations the warband found by Exploration (RULING E-4), with the game that found each; no query
        when the digest counted none."""
        if not self.summary.locations:
            return []
        return list(FoundLocation.objects.filter(warband=self.warband).select_related("game").order_by("id"))

    @cached_property
    def move_choices(self) -> list[tuple[int, str]]:
        """(id, label) of the Battlekit that can change hands, for the Move form: one query with no instances."""
        with connection.cursor() as cursor:
            cursor.execute(MOVABLE_SQL, {"warband": self.warband.pk, "active": Fighter.Status.ACTIVE})
            rows = cursor.fetchall()
        return [(pk, f"{name} ({holder or self.terms.arsenal})") for pk, name, holder in rows]

    @cached_property
    def holder_choices(self) -> list[tuple[str, str]]:
        """("arsenal", "the Arsenal") and (id, name) of each active fighter, for the Battlekit forms."""
        holders = sorted(((f.pk, f.name) for f in self._active), key=lambda holder: (holder[1], holder[0]))
        return [("arsenal", f"the {self.terms.arsenal}"), *((str(pk), name) for pk, name in holders)]

    @property
    def active_count(self) -> int:
        return len(self._active)

    @property
    def total_xp(self) -> int:
        return sum(fighter.xp for fighter in self._active)

    @property
    def total_scars(self) -> int:
        return sum(fighter.battle_scars for fighter in self._active)

    @property
    def elite_count(self) -> int:
        return sum(1 for fighter in self._active if fighter.counts_as_elite)


def roster_digest(*, warband: Warband) -> tuple[str, SimpleNamespace]:
    """The digest of everything the roster shows, and the warband's headline values read with it."""
    with connection.cursor() as cursor:
        cursor.execute(ROSTER_DIGEST_SQL, {"warband": warband.pk})
        return digest_read(cursor.fetchone())


def digest_read(values) -> tuple[str, SimpleNamespace]:
    digest, strongbox, glory, crew_xp, notes, promotion_tally, items, locations = values
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


def warband_roster(*, warband: Warband, all_rows: bool = False) -> Roster:
    """The roster page: active fighters with Injuries and Battlekit (the first FIRST_ROWS, or all with
    `all_rows`), the removed ones, the Arsenal and the post-games this warband still owes, each loaded when
    first used; read now, only the digest and the headline values."""
    digest, summary = roster_digest(warband=warband)
    return Roster(warband=warband, digest=digest, summary=summary, all_rows=all_rows)


def fighter_for_row(*, fighter_id: int) -> Fighter:
    """One fighter with what its roster row shows (for an htmx row swap)."""
    fighter = fighters_for_rows().select_related("warband__campaign").get(pk=fighter_id)
    return for_row(fighter, fighter.warband.campaign.terms.profile)


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
