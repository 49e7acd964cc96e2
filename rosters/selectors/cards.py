"""Fighter cards to print: one card per fighter, for the table.

A card carries what a player looks up during a game and the boxes ticked with a pencil on it: the profile, the
keywords, the Injuries with their effects, the Battlekit, the XP track (combat.rules.xp_track), the Battle Scars,
and tick boxes for Harm (up to the Harm Limit) and Injuries (up to Health). The page costs the same queries for
one fighter as for a full roster (rosters/tests/selectors/test_cards.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from campaigns.profiles import ShownStat, profile_of
from campaigns.terms import Terms
from combat.rules.experience import TROOP_DEEDS_WORDS, XP_FOR_DEEDS_WORDS, XP_FOR_TAKING_PART_WORDS
from combat.rules.xp_track import XpBox, xp_track
from rosters.models import Fighter, Warband
from rosters.selectors.common import fighters_with_kit, roster_order

PAPERS = {"a4": "A4", "letter": "Letter"}
DEFAULT_PAPER = "a4"
# A unit's Health Pool can be large (seed 004: each model's Health Points, pooled); past this many boxes the
# card prints the number and a shorter row, so one card never runs over a page.
MOST_TICK_BOXES = 30


@dataclass
class PrintCard:
    fighter: Fighter
    profile: list[ShownStat]  # the campaign's profile (campaigns/profiles.py)
    xp_boxes: tuple[XpBox, ...]
    harm_boxes: int  # Harm Limit: 0 when the fighter has none (RULING D-4)
    injury_boxes: int  # Health: the Injuries that Incapacitate it (or the unit's Health Pool)
    health_pool: bool
    elite: bool

    @property
    def xp_rule(self) -> str:
        """How this fighter gains XP after a game, in RULING X-4's words: only an ELITE fighter does; a Troop's
        Glorious Deeds feed the Promotion Pool (P-1) instead."""
        if self.elite:
            return f"{XP_FOR_TAKING_PART_WORDS}, {XP_FOR_DEEDS_WORDS} (RULING X-4)"
        return TROOP_DEEDS_WORDS

    @property
    def harm_range(self) -> range:
        return range(self.harm_boxes)

    @property
    def injury_range(self) -> range:
        return range(self.injury_boxes)

    @property
    def injuries(self):
        return list(self.fighter.injuries.all())

    @property
    def skills(self):
        return list(self.fighter.skills.all())

    @property
    def battlekit(self):
        return list(self.fighter.battlekit.all())


@dataclass
class CardSheet:
    warband: Warband
    terms: Terms
    cards: list[PrintCard]
    paper: str  # a key of PAPERS


def _card(fighter: Fighter, terms: Terms) -> PrintCard:
    pool = fighter.unit_size > 1
    injury_boxes = fighter.health * fighter.unit_size if pool else fighter.health
    return PrintCard(
        fighter=fighter,
        profile=profile_of(fighter, terms.profile),
        xp_boxes=xp_track(max(fighter.xp, 0)),
        harm_boxes=min(fighter.harm_limit or 0, MOST_TICK_BOXES),
        injury_boxes=min(injury_boxes, MOST_TICK_BOXES),
        health_pool=pool,
        elite=fighter.counts_as_elite,
    )


def paper_of(value: str | None) -> str:
    """The paper a request asks for; anything unknown is the default (a GET never refuses a bad choice)."""
    return value if value in PAPERS else DEFAULT_PAPER


def warband_cards(*, warband: Warband, paper: str = DEFAULT_PAPER) -> CardSheet:
    """A card for every active fighter of the warband, in the roster's order."""
    fighters = list(fighters_with_kit().filter(warband=warband, status=Fighter.Status.ACTIVE))
    fighters.sort(key=roster_order)
    terms = warband.campaign.terms
    return CardSheet(
        warband=warband,
        terms=terms,
        cards=[_card(f, terms) for f in fighters],
        paper=paper_of(paper),
    )


def fighter_cards(*, fighter: Fighter, paper: str = DEFAULT_PAPER) -> CardSheet:
    """One fighter's card (a removed fighter's too: its owner may want the record)."""
    fighter = fighters_with_kit().select_related("warband__campaign", "warband__owner").get(pk=fighter.pk)
    return CardSheet(
        warband=fighter.warband,
        terms=fighter.warband.campaign.terms,
        cards=[_card(fighter, fighter.warband.campaign.terms)],
        paper=paper_of(paper),
    )
