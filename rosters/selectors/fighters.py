"""A fighter's card: its digest (the card's fragment cache key) and, on first use only, what the card shows.

The card (templates/rosters/fighter.html) is cached whole under `FighterCard.key`, a digest PostgreSQL computes
of every row it shows: so a card read again after a write elsewhere costs one query more than the access check,
and a write to the fighter, its Injuries, skills or Battlekit, its Out of Action marks, its warband's active
fighters (the "Give to" lists), the campaign (its name, words and Trauma Table) or the newest Battlekit price list
(the Add form's choices) changes the key, so the card is drawn again. The view reads the fighter, the digest and
the rows a card drawn again needs in one snapshot (`consistent_reads`).
"""

from functools import cached_property

from django.db import connection
from django.db.models import prefetch_related_objects

from campaigns.models import OutOfAction
from campaigns.terms import Terms
from rosters.models import Fighter, PriceList
from rosters.selectors.common import consistent_reads, kit_prefetches, release

__all__ = ["FighterCard", "consistent_reads", "fighter_card"]

# Everything the card shows, as one digest, and the other active fighters of its warband (each piece of
# Battlekit's "Give to" list, drawn once for the page rather than once per piece, as `holders_for` orders them).
# The game of an Injury, a skill or an Out of Action mark is shown by its number (and date), which a game's
# renumbering changes: so those are read with the rows.
CARD_DIGEST_SQL = """
SELECT md5(concat_ws('#',
           (SELECT f::text FROM rosters_fighter f WHERE f.id = %(fighter)s),
           (SELECT w::text FROM rosters_warband w WHERE w.id = %(warband)s),
           (SELECT c::text FROM campaigns_campaign c WHERE c.id = %(campaign)s),
           (SELECT string_agg(concat_ws(',', j::text, g.number), '|' ORDER BY j.id)
              FROM rosters_injury j LEFT JOIN campaigns_game g ON g.id = j.game_id WHERE j.fighter_id = %(fighter)s),
           (SELECT string_agg(concat_ws(',', k::text, g.number), '|' ORDER BY k.id)
              FROM rosters_skill k LEFT JOIN campaigns_game g ON g.id = k.game_id WHERE k.fighter_id = %(fighter)s),
           (SELECT string_agg(i::text, '|' ORDER BY i.id) FROM rosters_item i WHERE i.fighter_id = %(fighter)s),
           (SELECT string_agg(concat_ws(',', o.id, g.id, g.number, g.played_on), '|' ORDER BY o.id)
              FROM campaigns_outofaction o JOIN campaigns_gameplayer p ON p.id = o.player_id
              JOIN campaigns_game g ON g.id = p.game_id WHERE o.fighter_id = %(fighter)s),
           (SELECT p::text FROM rosters_pricelist p WHERE p.campaign_id = %(campaign)s AND p.kind = %(battlekit)s
             ORDER BY p.version DESC LIMIT 1),
           holders.ids::text, holders.names::text
       )),
       holders.ids, holders.names
  FROM (SELECT coalesce(array_agg(h.id ORDER BY h.name, h.id), '{}') AS ids,
               coalesce(array_agg(h.name ORDER BY h.name, h.id), '{}') AS names
          FROM rosters_fighter h
         WHERE h.warband_id = %(warband)s AND h.status = %(active)s AND h.id <> %(fighter)s) AS holders
"""


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
    params = {
        "fighter": fighter.pk,
        "warband": fighter.warband_id,
        "campaign": fighter.warband.campaign_id,
        "battlekit": PriceList.Kind.BATTLEKIT,
        "active": Fighter.Status.ACTIVE,
    }
    with connection.cursor() as cursor:
        cursor.execute(CARD_DIGEST_SQL, params)
        digest, ids, names = cursor.fetchone()
    return FighterCard(fighter=fighter, digest=digest, holders=list(zip(ids, names, strict=True)))
