"""A fighter's card."""

from dataclasses import dataclass

from campaigns.models import OutOfAction
from campaigns.terms import Terms
from rosters.models import Fighter
from rosters.selectors.common import fighters_with_kit


@dataclass
class FighterCard:
    fighter: Fighter
    terms: Terms
    out_of_action: list[OutOfAction]
    # ("arsenal", "the Arsenal") and (id, name) of each other active fighter: each piece of Battlekit's "Give to"
    # list, drawn once for the page rather than once per piece.
    holder_choices: list[tuple[str, str]]


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
        holder_choices=[
            ("arsenal", f"the {fighter.warband.campaign.terms.arsenal}"),
            *_other_holders(fighter),
        ],
    )


def _other_holders(fighter: Fighter) -> list[tuple[str, str]]:
    """Who else in the warband can be given Battlekit (its active fighters, as `holders_for` orders them): only
    their ids and names, not every column of every fighter."""
    others = (
        Fighter.objects.filter(warband_id=fighter.warband_id, status=Fighter.Status.ACTIVE)
        .exclude(pk=fighter.pk)
        .order_by("name", "id")
        .values_list("id", "name")
    )
    return [(str(pk), name) for pk, name in others]
