"""The post-game's Advancement step: the Skill Advancement Rolls the XP reached (CAMPAIGN_PHASE.md, RULINGS X-1 to X-3).

Three writes per card, each refused with a reason and nothing changed when it does not fit where the card stands
(`combat/selectors/post_game/advancement.py` works that out): the two charts picked, each chart's 2D6 (stored in
the dice log before it is shown, never rolled twice), the skill taken. The Apply creates the `rosters.Skill` rows
(`apply_part`) and the Revert deletes them (`revert_part`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.db import transaction

from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameAdvancement, PostGameRoll
from combat.selectors.post_game.advancement import AdvancementCard
from combat.selectors.post_game.rolls import RollNeeded
from combat.selectors.post_game.state import post_game_state
from combat.services import advancement as shared
from combat.services.post_game.attempt import (
    PostGameError,
    fighter_name,
    live_attempt,
    lock,
    open_with_state,
    step_context,
)
from combat.services.post_game.bulk import NewRows
from combat.services.post_game.rolls import RollMade, count_again, refused
from rosters.models import Skill

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState

ADVANCEMENT = PostGameRoll.Purpose.ADVANCEMENT


def _card(player: GamePlayer, fighter_id: int, number: int) -> tuple[PostGameState, AdvancementCard]:
    """The post-game read again under the locks, and the card asked for; refused when there is no such card or an
    earlier one of the fighter is not settled."""
    state = post_game_state(player=player)
    if state.problem:
        raise PostGameError(state.problem)
    step = state.advancement
    if step is not None and step.problem:
        raise PostGameError(step.problem)
    card = step.card(fighter_id, number) if step is not None else None
    if card is None:
        raise PostGameError(
            f"No Skill Advancement Roll {number} is due for {fighter_name(player, fighter_id)} in this post-game."
        )
    shared.refuse_unsettled_earlier(card, number, error=PostGameError)
    return state, card


def _context(player: GamePlayer, by, what: str, fighter_id: int):
    reason = f"Post-game of Game {player.game.number}: {what}"
    return reason, step_context(
        action="post_game.advancement",
        player=player,
        by=by,
        step="advancement",
        reason=reason,
        fighter=fighter_id,
    )


@transaction.atomic
def post_game_advancement_charts(
    *, player: GamePlayer, fighter_id: int, number: int, first_chart: str, second_chart: str, by
) -> PostGameAdvancement:
    """The two skill charts picked for a Skill Advancement Roll (CAMPAIGN_PHASE.md: "the player picks 2 of the 4
    skill charts"). They can change until a die is rolled on them; then they stand."""
    player = lock(player)
    state, card = _card(player, fighter_id, number)
    shared.check_charts(card, state.advancement.charts, first_chart, second_chart, error=PostGameError)
    reason, context = _context(player, by, f"{card.name} picks two skill charts", fighter_id)
    with context:
        live, state = open_with_state(
            player, by=by, action="post_game.advancement", step="advancement", reason=reason, state=state
        )
        record, _ = PostGameAdvancement.objects.update_or_create(
            post_game=live,
            fighter_id=fighter_id,
            number=number,
            defaults=shared.chart_defaults(first_chart, second_chart),
        )
    return record


def _made_already(live: PostGame | None, fighter_id: int, sequence: int) -> PostGameRoll | None:
    if live is None or live.is_applied:
        return None
    return (
        PostGameRoll.objects.filter(
            post_game=live, fighter_id=fighter_id, purpose=ADVANCEMENT, sequence=sequence
        )
        .select_related("dice_roll")
        .first()
    )


@transaction.atomic
def post_game_advancement_roll(
    *, player: GamePlayer, fighter_id: int, number: int, die: int, by, faces: Sequence[int] | None = None
) -> RollMade:
    """The 2D6 of one picked chart (`die` 1 or 2), rolled by the server (`faces` None) or typed from the table (two
    faces), stored in the dice log before it is shown. Asked again (a double click, a second tab), the stored
    roll is given back, never rolled again."""
    sequence = shared.roll_sequence(number, die, error=PostGameError)
    player = lock(player)
    made = _made_already(live_attempt(player), fighter_id, sequence)
    if made is not None and made.dice_roll.counts:
        return RollMade(made, created=False)
    state, card = _card(player, fighter_id, number)
    chart = shared.chart_to_roll(card, die, error=PostGameError)
    if faces is not None and len(faces) != 2:
        raise PostGameError(f"{len(faces)} dice entered: a Skill Advancement Roll is 2D6, enter both dice.")
    reason, context = _context(
        player, by, f"{card.name}'s Skill Advancement 2D6 on {chart.words}", fighter_id
    )
    with context:
        live, state = open_with_state(
            player, by=by, action="post_game.advancement", step="advancement", reason=reason, state=state
        )
        if made is not None:  # stored, set aside, needed again: it counts again, it is not rolled again
            return RollMade(count_again(made), created=False)
        dice_roll = shared.store_chart_roll(
            card=card,
            chart=chart,
            faces=faces,
            refused=refused(RollNeeded(ADVANCEMENT, sequence, 6, 2)),
            by=by,
            campaign_id=player.game.campaign_id,
            game_id=player.game_id,
            warband_id=player.warband_id,
        )
        roll = PostGameRoll.objects.create(
            post_game=live, fighter_id=fighter_id, purpose=ADVANCEMENT, sequence=sequence, dice_roll=dice_roll
        )
    return RollMade(roll, created=True)


@transaction.atomic
def post_game_advancement_pick(
    *, player: GamePlayer, fighter_id: int, number: int, skill_code: str, by
) -> PostGameAdvancement:
    """The skill taken: one of the two found (CAMPAIGN_PHASE.md: "the model takes one of the two skills so
    found"), or on a Patron Skill result one of the Patron's skills it lacks."""
    player = lock(player)
    _state, card = _card(player, fighter_id, number)
    option = shared.option_to_take(card, skill_code, error=PostGameError)
    _reason, context = _context(player, by, f"{card.name} takes {option.name}", fighter_id)
    with context:
        return shared.take(card.record, option, exclude=["post_game", "fighter"])


def clear_lost_picks(player: GamePlayer) -> bool:
    """After a correction or a void of a Skill Advancement 2D6: a pick no longer among the skills found
    is cleared (`shared.clear_lost_picks`). Whether one was cleared. The caller holds the locks and the history
    context."""
    step = post_game_state(player=player).advancement
    return shared.clear_lost_picks(step.cards if step is not None else [])


def apply_part(state: PostGameState) -> dict[str, Any]:
    """The skills taken, as `rosters.Skill` rows of the fighters (with the game and where they came from),
    written with the Apply's other new rows; their ids are kept for the Revert."""
    step = state.advancement
    if step is None:
        return {}
    skills = [
        Skill(
            fighter=card.fighter,
            code=card.picked.code,
            name=card.picked.name,
            chart=card.picked.chart,
            game=state.game,
        )
        for card in step.cards
        if card.picked is not None
    ]
    for skill in skills:
        skill.full_clean(exclude=["fighter", "game"], validate_unique=False, validate_constraints=False)
    return {"skills_created": NewRows(Skill, skills)}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The skills the Apply created, deleted (absent in older snapshots: nothing to do)."""
    ids = snapshot.get("skills_created") or []
    if ids:
        Skill.objects.filter(pk__in=ids).delete()
