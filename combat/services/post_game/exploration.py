"""The post-game's Exploration step (CAMPAIGN_PHASE.md "Looting and Exploration"; RULINGS E-1 to E-4): its writes,
and its part of the Apply and the Revert.

- `post_game_exploration_modifier`: the warband's exploration skills and items (E-3), before the roll;
- `post_game_exploration_roll`: the Exploration Dice, one roll of N D6 (E-1), by the server or typed in;
- `post_game_exploration_reroll` / `post_game_exploration_decline`: the winner's one reroll of one die (E-2);
- `post_game_choose_location`: the Location taken when the score finds one on each of two tables (E-4).

Every roll is stored in the dice log before it is shown; asked again (a double click, a second tab) the stored
roll is given back, never rolled again. The Apply adds the loot to the Strongbox (through `state.strongboxes`,
applied by `apply_strongboxes`) and records the Location found (`rosters.FoundLocation`); the Revert deletes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameRoll
from combat.models.postgame import MAX_EXPLORATION_MODIFIER
from combat.rules.campaign_exploration import check_reroll_die
from combat.rules.words import possessive
from combat.selectors.post_game.exploration import Exploration
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.attempt import PostGameError, live_attempt, lock, open_attempt, step_context
from combat.services.post_game.bulk import NewRows
from combat.services.post_game.rolls import RollMade, store_needed
from rosters.models import FoundLocation, Warband

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState

ROLL, REROLL = PostGameRoll.Purpose.EXPLORATION, PostGameRoll.Purpose.EXPLORATION_REROLL


# -- reading and refusing ------------------------------------------------------------------------------------------


def _exploration(player: GamePlayer) -> Exploration:
    """The step as it stands, refused when the post-game cannot take it (a game still played, applied...)."""
    state = post_game_state(player=player)
    if state.applied:
        raise PostGameError(
            f"{possessive(player.warband.name)} post-game of Game {player.game.number} is already applied: "
            "revert it first to change it."
        )
    if state.problem:
        raise PostGameError(state.problem)
    if state.exploration.skipped:
        raise PostGameError(f"There is no Exploration in this post-game: {state.exploration.skipped}.")
    return state.exploration


def _stored(live: PostGame | None, purpose: str) -> PostGameRoll | None:
    if live is None or live.is_applied:
        return None
    return (
        PostGameRoll.objects.filter(post_game=live, fighter__isnull=True, purpose=purpose, sequence=1)
        .select_related("dice_roll")
        .first()
    )


def _check_modifier(modifier: object) -> int:
    if type(modifier) is not int or abs(modifier) > MAX_EXPLORATION_MODIFIER:
        raise PostGameError(
            f"The Exploration modifier must be a whole number from -{MAX_EXPLORATION_MODIFIER} to "
            f"+{MAX_EXPLORATION_MODIFIER} (the warband's exploration skills and items, RULING E-3)."
        )
    return modifier


def _store(player: GamePlayer, live: PostGame, needed: RollNeeded, faces, *, by) -> PostGameRoll:
    """The dice log's row, then the post-game's, before anything is shown (the warband's roll: no fighter)."""
    dice_roll = store_needed(
        player=player, fighter_id=None, name=player.warband.name, needed=needed, faces=faces, by=by
    )
    return PostGameRoll.objects.create(
        post_game=live, fighter=None, purpose=needed.purpose, sequence=1, dice_roll=dice_roll
    )


def _write(player: GamePlayer, *, action: str, by, reason: str):
    """The history context of one of the step's writes."""
    return step_context(action=action, player=player, by=by, step="exploration", reason=reason)


# -- the writes ----------------------------------------------------------------------------------------------------


@transaction.atomic
def post_game_exploration_modifier(*, player: GamePlayer, modifier: int, by) -> PostGame:
    """RULING E-3: the warband's exploration skills and items, entered before the Exploration Dice are rolled."""
    modifier = _check_modifier(modifier)
    player = lock(player)
    exploration = _exploration(player)
    if exploration.rolled:
        raise PostGameError(
            "The Exploration Dice are rolled: the modifier is entered before the roll (RULING E-3)."
        )
    reason = f"Post-game of Game {player.game.number}: Exploration modifier {modifier:+d}"
    with _write(player, action="post_game.exploration", by=by, reason=reason):
        live = open_attempt(player, by=by, action="post_game.exploration", step="exploration", reason=reason)
        if live.exploration_modifier != modifier:
            live.exploration_modifier = modifier
            live.save(update_fields=["exploration_modifier"])
    return live


@transaction.atomic
def post_game_exploration_roll(
    *, player: GamePlayer, by, faces: Sequence[int] | None = None, modifier: int | None = None
) -> RollMade:
    """The Exploration Dice: one roll of as many D6 as the battles fought give (RULING E-1), by the server's dice
    (`faces` None) or typed in from the table, with the modifier (E-3) set first when given. Stored before it is
    shown; a roll already made is given back (`created=False`), never rolled again."""
    if modifier is not None:
        modifier = _check_modifier(modifier)
    player = lock(player)
    made = _stored(live_attempt(player), ROLL)
    if made is not None and made.dice_roll.counts:
        return RollMade(made, created=False)
    exploration = _exploration(player)
    if faces is not None and len(faces) != exploration.dice:
        raise PostGameError(
            f"{len(faces)} dice entered: after {exploration.battles_fought} battle"
            f"{'s' if exploration.battles_fought != 1 else ''} the Exploration takes {exploration.dice} D6 "
            "(RULING E-1)."
        )
    reason = f"Post-game of Game {player.game.number}: the Exploration Dice of {player.warband.name}"
    with _write(player, action="post_game.exploration_roll", by=by, reason=reason):
        live = open_attempt(player, by=by, action="post_game.exploration", step="exploration", reason=reason)
        if modifier is not None and modifier != live.exploration_modifier:
            live.exploration_modifier = modifier
            live.save(update_fields=["exploration_modifier"])
        roll = _store(player, live, RollNeeded(ROLL, 1, 6, exploration.dice), faces, by=by)
    return RollMade(roll, created=True)


def _refuse_reroll(player: GamePlayer, exploration: Exploration, die: object) -> int:
    if not exploration.rolled:
        raise PostGameError("Roll the Exploration Dice first.")
    if not exploration.winner:
        result = {"loss": "lost", "draw": "drew"}.get(player.result, "has no win recorded")
        raise PostGameError(
            f"Only the winner of the battle may reroll an Exploration Die (RULING E-2): {player.warband.name} "
            f"{result}."
        )
    if exploration.declined:
        raise PostGameError("The reroll was declined: the Exploration Dice stand (RULING E-2).")
    try:
        return check_reroll_die(die, dice=exploration.dice)
    except ValueError:
        raise PostGameError(
            f"Pick one of the {exploration.dice} Exploration Dice to reroll (1 to {exploration.dice})."
        ) from None


@transaction.atomic
def post_game_exploration_reroll(
    *, player: GamePlayer, die: int, by, faces: Sequence[int] | None = None
) -> RollMade:
    """RULING E-2: the winner rerolls one Exploration Die of its choice (`die`, 1 for the first), once; the new
    face stands. Asked again, the stored reroll is given back, never rolled again."""
    player = lock(player)
    live = live_attempt(player)
    made = _stored(live, REROLL)
    if made is not None and made.dice_roll.counts:
        if die != live.exploration_reroll_die:
            raise PostGameError(
                f"Exploration Die {live.exploration_reroll_die} is rerolled already: the reroll is made once, "
                "and the new face stands (RULING E-2)."
            )
        return RollMade(made, created=False)  # a double click, a second tab: the same reroll, shown again
    exploration = _exploration(player)
    die = _refuse_reroll(player, exploration, die)
    if faces is not None and len(faces) != 1:
        raise PostGameError(f"{len(faces)} dice entered: the reroll is one D6.")
    reason = f"Post-game of Game {player.game.number}: {player.warband.name} rerolled Exploration Die {die}"
    with _write(player, action="post_game.exploration_roll", by=by, reason=reason):
        roll = _store(player, live, RollNeeded(REROLL, 1, 6, 1), faces, by=by)
        live.exploration_reroll_die = die
        live.save(update_fields=["exploration_reroll_die"])
    return RollMade(roll, created=True)


@transaction.atomic
def post_game_exploration_decline(*, player: GamePlayer, by) -> PostGame:
    """RULING E-2: the winner keeps its Exploration Dice as they are."""
    player = lock(player)
    exploration = _exploration(player)
    if exploration.reroll is not None:
        raise PostGameError(
            f"Exploration Die {exploration.reroll_die} is rerolled already: the new face stands (RULING E-2)."
        )
    if not exploration.reroll_open:
        if not exploration.winner:
            raise PostGameError("Only the winner of the battle has a reroll to decline (RULING E-2).")
        if not exploration.rolled:
            raise PostGameError("Roll the Exploration Dice first.")
        return live_attempt(player)
    reason = f"Post-game of Game {player.game.number}: {player.warband.name} kept its Exploration Dice"
    with _write(player, action="post_game.exploration", by=by, reason=reason):
        live = live_attempt(player)
        live.exploration_reroll_declined = True
        live.save(update_fields=["exploration_reroll_declined"])
    return live


@transaction.atomic
def post_game_choose_location(*, player: GamePlayer, code: str, by) -> PostGame:
    """RULING E-4: of the Locations the score finds on two tables, the one the warband takes."""
    player = lock(player)
    exploration = _exploration(player)
    if not exploration.rolled:
        raise PostGameError("Roll the Exploration Dice first.")
    codes = [location.code for location in exploration.found]
    if code not in codes:
        found = ", ".join(location.name for location in exploration.found) or "none"
        raise PostGameError(f"That Location is not among those the Exploration found (found: {found}).")
    reason = f"Post-game of Game {player.game.number}: {player.warband.name} chose a Location"
    with _write(player, action="post_game.exploration", by=by, reason=reason):
        live = live_attempt(player)
        if live.location_code != code:
            live.location_code = code
            live.save(update_fields=["location_code"])
    return live


# -- the Apply and the Revert ------------------------------------------------------------------------------------


def summary_part(state: PostGameState) -> dict[str, Any]:
    """The step's sentence in the Apply's summary (the overview and the history read it)."""
    exploration = state.exploration
    sentence = exploration.sentence if exploration is not None else None
    if exploration is not None and sentence is None:
        sentence = DECLINED
    return {"exploration": sentence} if sentence else {}


# The Exploration ends one of three ways, rolled,
# skipped for Reinforcements (CAMPAIGN_PHASE.md "instead of Exploring"), or declined. Applying before the dice
# are rolled declines it (the Review says so first), and the summary records it in those words.
DECLINED = "Exploration declined: the Exploration Dice were not rolled, so no Location and no loot."


def _record(state: PostGameState, exploration: Exploration) -> NewRows | None:
    """The Location found kept on the warband's record, written with the Apply's other new rows (its id kept for
    the Revert); refused when it found it in another game meanwhile."""
    location = exploration.location
    if location is None:
        return None
    row = FoundLocation(
        warband=state.warband,
        code=location.code,
        name=location.name,
        table=location.table,
        score=exploration.score,
        game=state.game,
    )
    row.full_clean(exclude=["warband", "game"], validate_unique=False, validate_constraints=False)
    # No savepoint of its own (two statements more in every Apply): a refusal (E-4's unique constraint) ends the
    # whole Apply, whose transaction is rolled back as the error leaves it, and no write runs after it.
    refusal = PostGameError(
        f"{state.warband.name} has found {location.name} already (RULING E-4): roll the post-game again."
    )
    return NewRows(FoundLocation, [row], single=True, refused={"location_found_once": refusal})


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The Location found (`FoundLocation`); the loot is in `state.strongboxes`, moved by `apply_strongboxes`."""
    exploration = state.exploration
    if exploration is None or exploration.skipped or not exploration.rolled:
        return {}
    own = next((box for box in state.strongboxes if box.warband.pk == state.warband.pk), None)
    return {
        "exploration": {
            "warband_id": state.warband.pk,
            "location_id": _record(state, exploration),
            "loot": exploration.loot,
            "strongbox_delta": own.delta if own is not None else 0,
        }
    }


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The Location found struck off the warband's record; refused when the loot is spent since (the Strongbox
    would fall below 0), before anything else is taken back."""
    part = (snapshot or {}).get("exploration")
    if not part:
        return
    warband = Warband.objects.select_for_update().filter(pk=part["warband_id"]).first()
    if warband is not None and part.get("loot") and warband.strongbox - part["strongbox_delta"] < 0:
        raise PostGameError(
            f"{warband.name} has spent the Exploration's loot ({part['loot']}) since: its Strongbox holds only "
            f"{warband.strongbox}, so this post-game can no longer be reverted or corrected."
        )
    if part.get("location_id") is not None:
        FoundLocation.objects.filter(pk=part["location_id"]).delete()
