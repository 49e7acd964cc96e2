"""A fighter's card: its digest (the card's fragment cache key) and, on first use only, what the card shows.

The card (templates/rosters/fighter.html) is cached whole under `FighterCard.key`, a digest PostgreSQL computes
of every row it shows: so a card read again after a write elsewhere costs one query more than the access check,
and a write to the fighter, its Injuries, skills or Battlekit, its Out of Action marks, its warband's active
fighters (the "Give to" lists), the campaign (its name, words and Trauma Table) or the newest Battlekit price list
(the Add form's choices) changes the key, so the card is drawn again. The view reads the fighter, the digest and
the rows a card drawn again needs in one snapshot (`consistent_reads`).
"""

from functools import cache, cached_property
from itertools import accumulate

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import prefetch_related_objects

from campaigns.models import Campaign, Membership, OutOfAction
from campaigns.plain_rows import part
from campaigns.terms import Terms
from rosters.models import Fighter, PriceList, Warband
from rosters.selectors.common import consistent_reads, kit_prefetches, release

__all__ = ["FighterCard", "card_for_reader", "consistent_reads", "fighter_card"]

# Everything the card shows, as one digest, and the other active fighters of its warband (each piece of
# Battlekit's "Give to" list, drawn once for the page rather than once per piece, as `holders_for` orders them).
# The game of an Injury, a skill or an Out of Action mark is shown by its number (and date), which a game's
# renumbering changes: so those are read with the rows.
# Of the fighter `f` read with its warband `w` and campaign `c` (`_CARD_FROM`): a statement that reads those rows
# anyway (the card's own, `card_for_reader`) reads them once.
_CARD_DIGEST = """md5(concat_ws('#',
           f::text,
           w::text,
           c::text,
           (SELECT string_agg(concat_ws(',', j::text, g.number), '|' ORDER BY j.id)
              FROM rosters_injury j LEFT JOIN campaigns_game g ON g.id = j.game_id WHERE j.fighter_id = f.id),
           (SELECT string_agg(concat_ws(',', k::text, g.number), '|' ORDER BY k.id)
              FROM rosters_skill k LEFT JOIN campaigns_game g ON g.id = k.game_id WHERE k.fighter_id = f.id),
           (SELECT string_agg(i::text, '|' ORDER BY i.id) FROM rosters_item i WHERE i.fighter_id = f.id),
           (SELECT string_agg(concat_ws(',', o.id, g.id, g.number, g.played_on), '|' ORDER BY o.id)
              FROM campaigns_outofaction o JOIN campaigns_gameplayer p ON p.id = o.player_id
              JOIN campaigns_game g ON g.id = p.game_id WHERE o.fighter_id = f.id),
           (SELECT p::text FROM rosters_pricelist p WHERE p.campaign_id = c.id AND p.kind = %(battlekit)s
             ORDER BY p.version DESC LIMIT 1),
           holders.ids::text, holders.names::text
       )),
       holders.ids, holders.names"""
_CARD_FROM = """
  FROM rosters_fighter f
  JOIN rosters_warband w ON w.id = f.warband_id
  JOIN campaigns_campaign c ON c.id = w.campaign_id
 CROSS JOIN LATERAL (
       SELECT coalesce(array_agg(h.id ORDER BY h.name, h.id), '{}') AS ids,
              coalesce(array_agg(h.name ORDER BY h.name, h.id), '{}') AS names
         FROM rosters_fighter h
        WHERE h.warband_id = w.id AND h.status = %(active)s AND h.id <> f.id) AS holders"""
CARD_DIGEST_SQL = f"SELECT {_CARD_DIGEST}{_CARD_FROM} WHERE f.id = %(fighter)s"


class FighterCard:
    """A fighter's card. `key` names the cached card; the fighter's Injuries, Battlekit and skills and its Out
    of Action marks load on first use only, so a card whose key is cached already never loads them."""

    def __init__(self, *, fighter: Fighter, digest: str, holders: list[tuple[int, str]]):
        self.head = fighter  # the row the access check read, with its warband and campaign
        self.terms: Terms = fighter.warband.campaign.terms
        self.key = f"{release()}:{digest}"
        self._holders = holders

    @cached_property
    def fighter(self) -> Fighter:
        """The fighter with its Injuries, Battlekit and skills (three queries)."""
        prefetch_related_objects([self.head], *kit_prefetches())
        return self.head

    @cached_property
    def out_of_action(self) -> list[OutOfAction]:
        return list(
            OutOfAction.objects.filter(fighter=self.head)
            .select_related("player__game")
            .order_by("-player__game__number")
        )

    @cached_property
    def holder_choices(self) -> list[tuple[str, str]]:
        """("arsenal", "the Arsenal") and (id, name) of each other active fighter of the warband."""
        return [("arsenal", f"the {self.terms.arsenal}"), *((str(pk), name) for pk, name in self._holders)]


def fighter_card(*, fighter: Fighter) -> FighterCard:
    """The card of `fighter` (read with its warband and campaign, as the access check reads it): its digest and
    the other holders in one query."""
    with connection.cursor() as cursor:
        cursor.execute(CARD_DIGEST_SQL, {**_CARD_WORDS, "fighter": fighter.pk})
        digest, ids, names = cursor.fetchone()
    return FighterCard(fighter=fighter, digest=digest, holders=list(zip(ids, names, strict=True)))


# The words the card's statements compare with.
_CARD_WORDS = {"battlekit": PriceList.Kind.BATTLEKIT, "active": Fighter.Status.ACTIVE}


def _reader_tables() -> tuple[tuple[type, str], ...]:
    return ((Fighter, "f"), (Warband, "w"), (Campaign, "c"), (get_user_model(), "u"), (Membership, "m"))


@cache
def _reader_sql() -> str:
    fighter, warband, campaign, owner, member = (part(*table) for table in _reader_tables())
    # Only the models' own column names go into the text; the ids are parameters.
    return (
        f"SELECT {fighter.columns}, {warband.columns}, {campaign.columns}, {owner.columns}, {member.columns}, {_CARD_DIGEST}{_CARD_FROM}"
        " JOIN auth_user u ON u.id = w.owner_id"
        " LEFT JOIN campaigns_membership m ON m.campaign_id = w.campaign_id AND m.user_id = %(reader)s"
        " WHERE f.id = %(fighter)s"
    )


def card_for_reader(*, fighter_id: int, reader_id: int) -> tuple[FighterCard, Membership | None] | None:
    """The card of fighter `fighter_id` as `fighter_card` reads it (the fighter with its warband, campaign and
    owner, as the access check reads it; the digest and the other holders) and the reader's membership of its
    campaign (None for an outsider), in one statement that reads each row once; None when there is no such
    fighter. The card read on every request, where the ORM building the three statements this replaces cost more
    than PostgreSQL running them."""
    with connection.cursor() as cursor:
        cursor.execute(_reader_sql(), {**_CARD_WORDS, "fighter": fighter_id, "reader": reader_id})
        row = cursor.fetchone()
    if row is None:
        return None
    reads = [part(*table) for table in _reader_tables()]
    cut = [0, *accumulate(len(read.names) for read in reads)]
    fighter, warband, campaign, owner, member = (
        row[start:end] for start, end in zip(cut, cut[1:], strict=False)
    )
    fighter_read, warband_read, campaign_read, owner_read, member_read = reads
    fighter = fighter_read.load(fighter)
    fighter.warband = warband_read.load(warband)
    fighter.warband.campaign, fighter.warband.owner = campaign_read.load(campaign), owner_read.load(owner)
    membership = None
    if member[0] is not None:  # the membership's id: None for an outsider
        membership = member_read.load(member)
        membership.campaign = fighter.warband.campaign
    digest, ids, names = row[cut[-1] :]
    return FighterCard(fighter=fighter, digest=digest, holders=list(zip(ids, names, strict=True))), membership
