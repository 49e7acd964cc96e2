"""The post-game of one warband in one game, put together once per request (`post_game_state`): the shared base
first (the fighters, the stored rolls and answers), then, as far as the caller reads, the casualties worked out
from their stored rolls, the Experience, the Trauma Step's changes and each step of the registry
(`combat.selectors.post_game.steps`) in order, each returning its part (`_Chain`). The result is immutable: a page,
a service and the Apply read the same object, and nothing changes it; what it says is the same whatever is read
first."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from types import MappingProxyType

from django.db.models import Q

from campaigns.models import Game, GamePlayer
from combat import rules
from combat.models import PostGame, PostGameFighter, PostGameRoll
from combat.selectors.campaign_data import current_campaign_data
from combat.selectors.post_game import changes as changes_step
from combat.selectors.post_game import exploration as exploration_step
from combat.selectors.post_game import money, rows
from combat.selectors.post_game import promotions as promotions_step
from combat.selectors.post_game.base import LAZY_FIELDS, PostGameState, PostGameStep, StepRead
from combat.selectors.post_game.experience import experience
from combat.selectors.post_game.out_of_action import (
    PostGameProblem,
    applied_fighters,
    post_game_casualty,
    post_game_fighters,
    post_game_trauma_table,
)
from combat.selectors.post_game.rolls import TRAUMA_STEP_PURPOSES, applied_rolls, attach_people, logged_rolls
from combat.selectors.post_game.steps import POST_GAME_STEPS, first_open, steps_for
from combat.selectors.post_game.trauma import CasualtyState, odds, resolve
from rosters.models import Fighter

__all__ = ["PostGameState", "StepRead", "post_game_overview", "post_game_revert_refusal", "post_game_state"]

# The warband's own rolls (no fighter's), read with the Trauma Step's: the Exploration Dice and their reroll.
WARBAND_PURPOSES = (PostGameRoll.Purpose.EXPLORATION, PostGameRoll.Purpose.EXPLORATION_REROLL)


def _stored(live: PostGame | None) -> tuple[tuple[PostGameRoll, ...], dict[int, PostGameFighter]]:
    """The attempt's stored rolls that count and its answers (three queries, the people they name among them; none
    before the first write). Every roll that counts is read here once, for every step (`state.counted_rolls`);
    the later steps pick theirs by purpose (a Skill Advancement 2D6 is no Trauma roll)."""
    if live is None:
        return (), {}
    # Only the rolls that count: one no longer needed after a correction is kept, undone, and counts again when
    # the chain needs it once more (never a new roll for a roll that is stored).
    # Statements written once per process (`rows`), as every request of the wizard reads them.
    stored = tuple(rows.roll_rows(live))
    answers = rows.answer_rows(live)
    attach_people(stored, answers)
    return stored, {answer.fighter_id: answer for answer in answers}


def _casualty_state(
    state: PostGameState, fighter: Fighter, rolls: list[PostGameRoll], answer: PostGameFighter | None
) -> CasualtyState:
    """One fighter taken Out of Action, worked out by the engine from its stored faces, with its odds."""
    casualty_state = CasualtyState(fighter, fighter.counts_as_elite, None, logged_rolls(rolls), answer)
    if not fighter.is_active:
        casualty_state.problem = (
            f"{fighter.name} is no longer on the roster ({fighter.get_status_display()}): take it off the "
            "Out of Action list."
        )
        return casualty_state
    injuries = frozenset(injury.code for injury in fighter.injuries.all())
    try:
        casualty_state.casualty = post_game_casualty(fighter, campaign=state.campaign, injuries=injuries)
    except ValueError as error:
        casualty_state.problem = f"{fighter.name} cannot go through the Trauma Step: {error}."
        return casualty_state
    resolve(casualty_state, state.table)
    needed = casualty_state.needed
    if needed is not None and needed.purpose != PostGameRoll.Purpose.BITTER_LESSONS:
        odds(casualty_state, state.table)
    return casualty_state


def _with_casualties(state: PostGameState) -> PostGameState:
    """The state with every casualty in the order they roll, and the warband's own rolls (the Exploration Dice)."""
    rolls: dict[int | None, list[PostGameRoll]] = defaultdict(list)
    trauma_step = {*TRAUMA_STEP_PURPOSES, *WARBAND_PURPOSES}
    for roll in state.counted_rolls:
        if roll.purpose in trauma_step:
            rolls[roll.fighter_id].append(roll)
    casualties = [
        _casualty_state(state, fighter, rolls[fighter.pk], state.answers.get(fighter.pk))
        for fighter in state.out_of_action
    ]
    # RULING T-1: every Troop rolls before any ELITE model; each group in the order the game recorded them.
    state = replace(state, casualties=tuple(rules.trauma_order(casualties)), warband_rolls=tuple(rolls[None]))
    if not state.troops_done:
        for casualty_state in state.elites:
            casualty_state.blocked_by_troops = True
    return state


def _with_trauma_changes(state: PostGameState, keys: frozenset[str]) -> PostGameState:
    """The Experience (when the post-game takes it), then every change the Trauma Step and the Experience make,
    with what still stops them."""
    xp, xp_blockers = experience(state) if "experience" in keys else ((), ())
    state = replace(state, xp=xp, blockers=(*state.blockers, *xp_blockers, *changes_step.blockers(state)))
    found, strongboxes, ransom_blockers = changes_step.changes(state)
    return replace(
        state, changes=found, strongboxes=strongboxes, blockers=(*state.blockers, *ransom_blockers)
    )


def _with_step(state: PostGameState, *, entry: PostGameStep, parts: dict[str, object]) -> PostGameState:
    """The state with one step's read: its part, its blockers after the earlier ones, its changes if it made any."""
    read: StepRead = entry.read(state)
    parts[entry.key] = read.part
    return replace(
        state,
        parts=MappingProxyType(dict(parts)),
        blockers=(*state.blockers, *read.blockers),
        changes=state.changes if read.changes is None else read.changes,
        strongboxes=state.strongboxes if read.strongboxes is None else read.strongboxes,
    )


def _base(player: GamePlayer, live: PostGame | None, attempts, *, for_update: bool) -> PostGameState:
    """What every step reads: the fighters, the stored rolls and answers, the trades planned, the campaign's data
    and the warband's record, read once; a problem that stops the post-game."""
    game, campaign = player.game, player.game.campaign
    fighters, items = post_game_fighters(player, for_update=for_update)
    # In the order the game recorded them.
    marked = (fighter for fighter in fighters if fighter.out_of_action_mark is not None)
    out = sorted(marked, key=lambda fighter: fighter.out_of_action_mark)
    problem = None
    if game.status == Game.Status.IN_PROGRESS:
        problem = f"Game {game.number} is still being played: its post-game opens when it is recorded."
    state = PostGameState(
        player, game, campaign, player.warband, campaign.terms, live, attempts, tuple(fighters), tuple(out)
    )
    try:
        table = post_game_trauma_table(campaign)
    except PostGameProblem as error:
        return replace(state, items=tuple(items), problem=str(error))
    counted, answers = _stored(live)
    state = replace(
        state,
        items=tuple(items),
        problem=problem,
        table=table,
        counted_rolls=counted,
        answers=MappingProxyType(answers),
    )
    # Read when a step first asks (`PostGameState.shared`): the Trauma Step's pages and writes need none of them.
    readers = {"campaign_data": lambda state: current_campaign_data(campaign=campaign)}
    if problem is None:
        readers.update(trades=lambda state: money.read_trades(live), record=exploration_step.read_record)
    state.memo["readers"] = readers
    return state


class _Chain:
    """The post-game's reads after the base, in the wizard's order, each run once and only when first asked: the
    casualties, then the Experience and the Trauma Step's changes, then each step's read. A step reads the state
    of the steps before it, so asking for one step's part runs every earlier one first; the blockers, the changes
    and the Strongboxes wait for the last step. A page asks only for what it shows (a Trauma Step page never
    reads the Hire & Trade's part), and what each read gives is the same whatever asks first."""

    def __init__(self, state: PostGameState, steps: tuple[PostGameStep, ...], keys: frozenset[str]):
        self.state = state
        self.keys = keys
        self.parts: dict[str, object] = dict(state.parts)
        # Without the Trauma Step (Fallout: Factions' own post-game) nobody rolls: the Out of Action list is kept,
        # and no casualty waits for a roll.
        casualties = [_with_casualties] if "troops" in keys else []
        self.stages = [*casualties, lambda state: _with_trauma_changes(state, keys)]
        self.stages += [partial(_with_step, entry=entry, parts=self.parts) for entry in steps if entry.read]
        self.done = 0
        # The stage after which each lazy field holds its final value.
        self.step_stage = {
            entry.key: len(casualties) + 2 + number
            for number, entry in enumerate(entry for entry in steps if entry.read is not None)
        }
        self.field_stage = {
            "casualties": len(casualties),
            "warband_rolls": len(casualties),
            "xp": len(casualties) + 1,
        }

    def run(self, stages: int) -> PostGameState:
        """The state after the first `stages` reads (each run once)."""
        while self.done < min(stages, len(self.stages)):
            self.state = self.stages[self.done](self.state)
            self.done += 1
        return self.state

    def field(self, name: str) -> object:
        return getattr(self.run(self.field_stage.get(name, len(self.stages))), name)

    def part(self, key: str) -> object:
        if key in self.step_stage:
            self.run(self.step_stage[key])
        return self.parts.get(key)


class _LazyParts(Mapping):
    """Each step's part by its key, read (with the steps before it) when first asked."""

    def __init__(self, chain: _Chain, keys):
        self.chain, self.keys_ = chain, tuple(keys)

    def __getitem__(self, key: str) -> object:
        if key not in self.keys_:
            raise KeyError(key)
        return self.chain.part(key)

    def __iter__(self):
        return iter(self.keys_)

    def __len__(self) -> int:
        return len(self.keys_)


def post_game_state(*, player: GamePlayer, for_update: bool = False) -> PostGameState:
    """The post-game of one warband in one game, worked out from its rows and the rules engine: the base at once,
    then each of the campaign's steps (`steps_for`) in order, each reading the parts before it, as far as the
    caller reads (`_Chain`: a step's part, the casualties, the Experience, the blockers, `current_step`).

    `player` should come with `game__campaign` and `warband` loaded (one query). About ten queries whatever the
    number of fighters, fewer for a page that reads only the first steps; `for_update` locks the fighters and
    their Battlekit (the Apply).
    """
    attempts = tuple(rows.attempt_rows(player))
    live = next((attempt for attempt in attempts if attempt.status != PostGame.Status.REVERTED), None)
    steps = steps_for(player.game.campaign, live)
    keys = frozenset(entry.key for entry in steps)
    # Every registered step's part, None for the steps this post-game does not take (a later step may ask).
    parts: dict[str, object] = {entry.key: None for entry in POST_GAME_STEPS if entry.read is not None}
    if live is not None and live.is_applied:
        # The roster already holds the result: the pages show what the Apply stored, not a recomputation.
        fighters = tuple(applied_fighters(player))
        game, campaign = player.game, player.game.campaign
        state = PostGameState(
            player, game, campaign, player.warband, campaign.terms, live, attempts, fighters, fighters
        )
        state = replace(state, parts=MappingProxyType(parts))
        return replace(state, current_step=first_open(state, steps))
    state = replace(_base(player, live, attempts, for_update=for_update), parts=MappingProxyType(dict(parts)))
    if state.table is None:
        return replace(state, current_step=first_open(state, steps))
    chain = _Chain(state, steps, keys)
    lazy = replace(state, parts=_LazyParts(chain, parts))
    readers = {name: partial(_chain_field, chain, name) for name in LAZY_FIELDS}
    return lazy.defer(current_step=lambda lazy: first_open(lazy, steps), **readers)


def _chain_field(chain: _Chain, name: str, state: PostGameState) -> object:
    return chain.field(name)


def post_game_overview(*, player: GamePlayer) -> PostGameState:
    """The overview page's read: the post-game, and once applied why it can no longer be reverted (if so)."""
    state = post_game_state(player=player)
    if not state.applied:
        return state
    return replace(
        state,
        revert_refusal=post_game_revert_refusal(player, state.post_game),
        applied_dice=tuple(applied_rolls(state.post_game)),
        promotion_dice=tuple(promotions_step.applied_dice(state.post_game)),
        parts=MappingProxyType({**state.parts, "exploration": exploration_step.read_applied(state)}),
    )


def post_game_revert_refusal(player: GamePlayer, post_game: PostGame) -> str | None:
    """Why this applied post-game can no longer be reverted (None when it can): the warband's next game is
    recorded, and the roster has moved on from it."""
    game = player.game
    later = (
        GamePlayer.objects.filter(warband_id=player.warband_id)
        .exclude(game_id=game.pk)
        .filter(Q(game__number__gt=game.number) | Q(game__created_at__gt=post_game.applied_at))
        .select_related("game")
        .order_by("game__number")
        .first()
    )
    if later is not None:
        return (
            f"{player.warband.name} has played Game {later.game.number} since: the post-game of Game "
            f"{game.number} can no longer be reverted."
        )
    return None
