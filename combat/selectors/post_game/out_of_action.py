"""Step 1 of the post-game: the warband's entry in the game, its fighters taken Out of Action, and the engine's
view of each (`rules.Casualty`) on the campaign's Trauma Table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from campaigns.models import GamePlayer
from combat import rules
from combat.selectors.post_game import rows
from rosters.models import Fighter, Injury, Item

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState


class PostGameProblem(ValueError):
    """Something in the records stops the post-game (a house table the engine refuses, a game still played)."""


def post_game_player(*, game_id: int, warband_id: int, user=None) -> GamePlayer | None:
    """A warband's entry in a game, with what the wizard's pages need of it (its game, campaign, warband and
    owner); given `user`, with their membership of the campaign (`member_id`, `member_role`: None for an
    outsider) joined in the same query (one membership per campaign and user, so one row). A statement written
    once per process (`rows.player_row`): every page and write of the wizard reads it first."""
    return rows.player_row(game_id=game_id, warband_id=warband_id, user=user)


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


def post_game_fighters(player: GamePlayer, *, for_update: bool) -> tuple[list[Fighter], list[Item]]:
    """The warband's active fighters and those marked Out of Action (`out_of_action_mark`, the mark's id, else
    None) with their Injuries and Battlekit, and every piece of the warband's Battlekit, carried or in the
    Arsenal (the money steps read it): three queries."""
    # Statements written once per process (`rows`): the ORM built them anew at each request, every page and
    # write of the wizard reading them first. `for_update`: the Apply changes these rows, locked so a roster
    # edit cannot slip in between read and write.
    fighters = rows.fighter_rows(player, for_update=for_update)
    items = rows.item_rows(player.warband_id, for_update=for_update)
    injuries: dict[int, list[Injury]] = {fighter.pk: [] for fighter in fighters}
    for injury in rows.injury_rows(list(injuries)) if fighters else ():
        injuries[injury.fighter_id].append(injury)
    by_id = {fighter.pk: fighter for fighter in fighters}
    # A piece carried by a fighter no longer on the roster names its holder too (rare: one query then).
    others = {item.fighter_id for item in items if item.fighter_id is not None} - set(by_id)
    holders = {**Fighter.objects.in_bulk(others), **by_id} if others else by_id
    # Each fighter's Battlekit is its share of the warband's, as a prefetch would have set it (one query, not two).
    carried: dict[int, list[Item]] = {pk: [] for pk in by_id}
    for item in items:
        if item.fighter_id is not None:
            item.fighter = holders[item.fighter_id]
        if item.fighter_id in carried:
            carried[item.fighter_id].append(item)
    for fighter in fighters:
        # Each fighter's Injuries and Battlekit, as a prefetch would have set them.
        for injury in injuries[fighter.pk]:
            Injury.fighter.field.set_cached_value(injury, fighter)
        _prefetched(fighter, "injuries", injuries[fighter.pk])
        _prefetched(fighter, "battlekit", carried[fighter.pk])
    return fighters, items


def _prefetched(fighter: Fighter, name: str, found: list) -> None:
    related = getattr(fighter, name).get_queryset()
    related._result_cache, related._prefetch_done = found, True  # noqa: SLF001
    fighter.__dict__.setdefault("_prefetched_objects_cache", {})[name] = related


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
