"""Step 1 of the post-game: the warband's entry in the game, its fighters taken Out of Action, and the engine's
view of each (`rules.Casualty`) on the campaign's Trauma Table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import OuterRef, Prefetch, Q, Subquery

from campaigns.models import GamePlayer, OutOfAction
from combat import rules
from rosters.models import Fighter, Injury, Item

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


class PostGameProblem(ValueError):
    """Something in the records stops the post-game (a house table the engine refuses, a game still played)."""


def post_game_player(*, game_id: int, warband_id: int) -> GamePlayer | None:
    """A warband's entry in a game, with what the wizard's pages need of it."""
    return (
        GamePlayer.objects.filter(game_id=game_id, warband_id=warband_id)
        .select_related("game__campaign", "warband__owner")
        .first()
    )


def post_game_full_recovery_instead(fighter) -> frozenset[str]:
    """The results this fighter treats as Full Recovery, by its type and keywords (`rules.full_recovery_instead`:
    a Sniper Priest's Lost an Eye, TRAUMA_TABLE.md 15)."""
    return rules.full_recovery_instead(fighter_type=fighter.fighter_type or "", keywords=fighter.keywords)


def post_game_trauma_table(campaign) -> rules.TraumaTable:
    """The campaign's Trauma Table: its house table when it has one (RULING T-3), else the shipped default."""
    rows = campaign.house_trauma_table
    if not rows:
        return rules.TraumaTable.default()
    try:
        if isinstance(rows, dict):
            return rules.TraumaTable.from_document(rows)
        return rules.TraumaTable.from_rows(rows, name=f"campaign-{campaign.pk}")
    except ValueError as error:
        raise PostGameProblem(
            f"The campaign's house Trauma Table cannot be used ({error}); the organiser can fix it in the "
            "campaign's settings."
        ) from error


def post_game_casualty(fighter, *, campaign, injuries: frozenset[str]) -> rules.Casualty:
    """The engine's view of a fighter taken Out of Action (`ValueError` when its record cannot be one).
    ELITE or Troop by the one mapping (RULING T-1: the ELITE keyword, or a Fallout: Factions Champion)."""
    return rules.Casualty(
        str(fighter.pk),
        elite=fighter.counts_as_elite,
        scars=fighter.battle_scars,
        injuries=injuries,
        scar_limit=campaign.scar_limit,
        can_gain_xp=fighter.can_gain_xp,
        full_recovery_instead=post_game_full_recovery_instead(fighter),
        name=fighter.name,
    )


def post_game_fighters(player: GamePlayer, *, for_update: bool) -> list[Fighter]:
    """The warband's active fighters and those marked Out of Action (`out_of_action_mark`, the mark's id, else
    None), with Injuries and Battlekit, in one query and two prefetches."""
    items = Item.objects.order_by("id")
    mark = OutOfAction.objects.filter(player=player, fighter=OuterRef("pk")).values("pk")[:1]
    fighters = (
        Fighter.objects.filter(warband_id=player.warband_id)
        .annotate(out_of_action_mark=Subquery(mark))
        .filter(Q(status=Fighter.Status.ACTIVE) | Q(out_of_action_mark__isnull=False))
    )
    if for_update:
        # The Apply changes these rows: lock them so a roster edit cannot slip in between read and write.
        fighters = fighters.select_for_update(of=("self",))
        items = items.select_for_update()
    return list(
        fighters.prefetch_related(
            Prefetch("injuries", queryset=Injury.objects.order_by("id")),
            Prefetch("battlekit", queryset=items),
        ).order_by("id")
    )


def applied_fighters(player: GamePlayer) -> list[Fighter]:
    """Once applied, the fighters taken Out of Action, in the order the game recorded them."""
    return list(Fighter.objects.filter(out_of_action__player=player).order_by("out_of_action__id"))


@dataclass(frozen=True)
class OutOfActionChoices:
    """What step 1's form offers: the fighters that can be ticked, those ticked now, those with dice rolled (they
    stay on the list)."""

    fighters: list[Fighter]
    initial: list[int]
    rolled: frozenset[int]


def out_of_action_choices(state: PostGameState) -> OutOfActionChoices:
    """Step 1's choices: the active roster and whoever the game marked Out of Action."""
    marked = state.out_of_action
    return OutOfActionChoices(
        fighters=[fighter for fighter in state.fighters if fighter.is_active or fighter in marked],
        initial=[fighter.pk for fighter in marked],
        rolled=frozenset(casualty.id for casualty in state.casualties if casualty.rolls),
    )


def first_rolls_step(state: PostGameState, chosen: set[int]) -> str:
    """Where the wizard goes after step 1: the Troops when one was chosen, as they roll first (RULING T-1)."""
    troops = [f for f in state.fighters if f.pk in chosen and not f.counts_as_elite]
    return "troops" if troops else "elites"
