"""A fighter's card."""

from dataclasses import dataclass

from campaigns.models import OutOfAction
from campaigns.terms import Terms
from rosters.models import Fighter
from rosters.selectors.common import fighters_with_kit
from rosters.selectors.roster import holders_for


@dataclass
class FighterCard:
    fighter: Fighter
    terms: Terms
    out_of_action: list[OutOfAction]
    holders: list[Fighter]


def fighter_card(*, fighter: Fighter) -> FighterCard:
    fighter = fighters_with_kit().select_related("warband__campaign", "warband__owner").get(pk=fighter.pk)
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
