"""The post-game of one warband in one game, put together from the steps' reads: everything the wizard's pages
show, and everything the Apply writes (`post_game_state`)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Q

from campaigns.models import Game, GamePlayer
from combat import rules
from combat.models import DiceRoll, PostGame, PostGameFighter, PostGameRoll
from combat.selectors.campaign_data import CampaignData, current_campaign_data
from combat.selectors.post_game import advancement as advancement_step
from combat.selectors.post_game import changes as changes_step
from combat.selectors.post_game import dismiss as dismiss_step
from combat.selectors.post_game import exploration as exploration_step
from combat.selectors.post_game import glory as glory_step
from combat.selectors.post_game import promotions as promotions_step
from combat.selectors.post_game import reinforcements as reinforcements_step
from combat.selectors.post_game import trade as trade_step
from combat.selectors.post_game.changes import FighterChange
from combat.selectors.post_game.experience import XpLine, experience
from combat.selectors.post_game.out_of_action import (
    PostGameProblem,
    applied_fighters,
    post_game_casualty,
    post_game_fighters,
    post_game_trauma_table,
)
from combat.selectors.post_game.ransom import StrongboxChange
from combat.selectors.post_game.rolls import (
    TRAUMA_STEP_PURPOSES,
    FighterRolls,
    applied_rolls,
    attach_people,
    logged_rolls,
)
from combat.selectors.post_game.trauma import CasualtyState, odds, resolve
from rosters.models import Fighter, Warband

# The wizard's steps, in order (the pages, the forms' hidden `step`).
POST_GAME_STEPS = (
    "out-of-action",
    "troops",
    "elites",
    "experience",
    "advancement",
    "promotions",
    "dismiss",
    "reinforcements",
    "exploration",
    "trade",
    "glory",
    "review",
)
# The steps after Experience (issue 12), each a module of its own with `read` and `done`, in the order they come.
LATER_STEPS = {
    "advancement": advancement_step,
    "promotions": promotions_step,
    "dismiss": dismiss_step,
    # Issue 13, item 4: CAMPAIGN_PHASE.md's steps 4 (Reinforcements, which skips 5), 6 (Hire & Trade) and 7 (Use
    # Glory).
    "reinforcements": reinforcements_step,
    "exploration": exploration_step,
    "trade": trade_step,
    "glory": glory_step,
}


@dataclass
class PostGameState:
    """Everything the wizard's pages show, and everything the Apply writes."""

    player: GamePlayer
    game: Game
    campaign: object
    warband: Warband
    terms: object
    post_game: PostGame | None  # the live attempt (open or applied), None before the first write
    attempts: list[PostGame]
    fighters: list[Fighter]  # the warband's active fighters and those marked Out of Action
    out_of_action: list[Fighter]
    casualties: list[CasualtyState] = field(default_factory=list)
    xp: list[XpLine] = field(default_factory=list)
    _opponents: list[Warband] | None = None
    changes: list[FighterChange] = field(default_factory=list)
    strongboxes: list[StrongboxChange] = field(default_factory=list)
    blockers: list[str] = field(default_factory=list)
    problem: str | None = None
    table: rules.TraumaTable | None = None
    revert_refusal: str | None = None  # once applied, why it can no longer be reverted (`post_game_overview`)
    applied_dice: list[FighterRolls] = field(default_factory=list)  # once applied, the rolls (issue 11 fixes)
    # The campaign's data the post-game reads while it is open (skill charts, fighter types...; issue 12).
    campaign_data: CampaignData | None = None
    # The steps after Experience (issue 12): each step's own read, filled by its selector module.
    advancement: object | None = None
    promotions: object | None = None
    dismiss: object | None = None
    exploration: object | None = None
    reinforcements: object | None = None
    trade: object | None = None
    glory: object | None = None
    # The money steps' reads (issue 13), each made once: the trades planned and the warband's Battlekit.
    trades: list | None = None
    items: list | None = None
    record: tuple | None = None  # the battles fought and the Locations found before (exploration.record)
    promotion_dice: list = field(default_factory=list)  # once applied, the Promotion Dice (issue 11 fixes)
    # The warband's own stored rolls, no fighter's (the Exploration Dice), read with the fighters' (`_stored`).
    warband_rolls: list[PostGameRoll] = field(default_factory=list)
    # Every roll of the live attempt that counts, whatever its step, read once (`_stored`, `counted_rolls`).
    counted_rolls: list[PostGameRoll] = field(default_factory=list)

    @property
    def applied(self) -> bool:
        return self.post_game is not None and self.post_game.is_applied

    @property
    def opponents(self) -> list[Warband]:
        """The other warbands of the game (a Captured fighter's captor is one of them), read when first asked."""
        if self._opponents is None:
            entries = (
                GamePlayer.objects.filter(game=self.game).exclude(pk=self.player.pk).select_related("warband")
            )
            self._opponents = [entry.warband for entry in entries.order_by("id")]
        return self._opponents

    @property
    def status(self) -> str:
        """pending (nothing done yet), in_progress, or applied."""
        if self.post_game is None:
            return "pending"
        return "applied" if self.post_game.is_applied else "in_progress"

    @property
    def troops(self) -> list[CasualtyState]:
        return [state for state in self.casualties if not state.elite]

    @property
    def elites(self) -> list[CasualtyState]:
        return [state for state in self.casualties if state.elite]

    @property
    def troops_done(self) -> bool:
        return all(state.trauma_rolled and not state.problem for state in self.troops)

    @property
    def elites_done(self) -> bool:
        return all(
            state.trauma_rolled and not state.problem and not state.waiting_for_ransom
            for state in self.elites
        )

    @property
    def ready(self) -> bool:
        return not self.applied and not self.blockers and self.problem is None

    @property
    def current_step(self) -> str:
        """Where the owner picks up the wizard: the first step with something left to do."""
        if self.post_game is None:
            return "out-of-action"
        if not self.troops_done:
            return "troops"
        if not self.elites_done:
            return "elites"
        if any(state.waiting_for == "d3" for state in self.casualties):
            return "experience"
        return next((key for key, step in LATER_STEPS.items() if not step.done(self)), "review")

    @property
    def roll_groups(self) -> list:
        """Each fighter's rolls that count (a casualty, or once applied a `FighterRolls`), for the fix forms."""
        return self.applied_dice if self.applied else [c for c in self.casualties if c.rolls]

    @property
    def reopened_count(self) -> int:
        return sum(1 for group in self.applied_dice if group.reopened)

    @property
    def roll_ids(self) -> list[int]:
        return [roll.dice.pk for state in self.casualties for roll in state.rolls]

    @property
    def rolls_made(self) -> int:
        return sum(len(state.rolls) for state in self.casualties)

    @property
    def removed(self) -> list[FighterChange]:
        return [change for change in self.changes if change.status != Fighter.Status.ACTIVE]

    @property
    def reverted(self) -> list[PostGame]:
        return [attempt for attempt in self.attempts if attempt.status == PostGame.Status.REVERTED]


# The warband's own rolls (no fighter's), read with the Trauma Step's: the Exploration Dice and their reroll.
WARBAND_PURPOSES = (PostGameRoll.Purpose.EXPLORATION, PostGameRoll.Purpose.EXPLORATION_REROLL)


def _stored(
    state: PostGameState, live: PostGame | None
) -> tuple[dict[int, list[PostGameRoll]], dict[int, PostGameFighter]]:
    """The attempt's stored rolls and answers (three queries, the people they name among them; none before the
    first write). Every roll that counts is read here once, for every step (`state.counted_rolls`); returned are
    the Trauma Step's by fighter, the warband's own under None. The later steps pick theirs by purpose (a Skill
    Advancement 2D6 is no Trauma roll)."""
    rolls: dict[int, list[PostGameRoll]] = defaultdict(list)
    if live is None:
        return rolls, {}
    # Only the rolls that count: one no longer needed after a correction is kept, undone, and counts again when
    # the chain needs it once more (issue 11: never a new roll for a roll that is stored).
    stored = (
        PostGameRoll.objects.filter(post_game=live, dice_roll__status=DiceRoll.Status.COUNTED)
        .select_related("dice_roll__replaces")
        .order_by("id")
    )
    state.counted_rolls = list(stored)
    trauma_step = {*TRAUMA_STEP_PURPOSES, *WARBAND_PURPOSES}
    for roll in state.counted_rolls:
        if roll.purpose in trauma_step:
            rolls[roll.fighter_id].append(roll)
    answers = list(PostGameFighter.objects.filter(post_game=live).select_related("captor"))
    attach_people(state.counted_rolls, answers)
    return rolls, {answer.fighter_id: answer for answer in answers}


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


def _casualties(state: PostGameState, live: PostGame | None) -> dict[int, PostGameFighter]:
    """Every casualty in the order they roll; returns the stored answers for the later steps."""
    rolls, answers = _stored(state, live)
    state.warband_rolls = rolls.get(None, [])
    casualties = [
        _casualty_state(state, fighter, rolls[fighter.pk], answers.get(fighter.pk))
        for fighter in state.out_of_action
    ]
    # RULING T-1: every Troop rolls before any ELITE model; each group in the order the game recorded them.
    state.casualties = list(rules.trauma_order(casualties))
    if not state.troops_done:
        for casualty_state in state.elites:
            casualty_state.blocked_by_troops = True
    return answers


def post_game_state(*, player: GamePlayer, for_update: bool = False) -> PostGameState:
    """The post-game of one warband in one game, worked out from its rows and the rules engine.

    `player` should come with `game__campaign` and `warband` loaded (one query). About ten queries whatever the
    number of fighters; `for_update` locks the fighters and their Battlekit (the Apply).
    """
    game = player.game
    campaign = game.campaign
    attempts = list(PostGame.objects.filter(player=player).order_by("-attempt"))
    live = next((attempt for attempt in attempts if attempt.status != PostGame.Status.REVERTED), None)
    if live is not None and live.is_applied:
        # The roster already holds the result: the pages show what the Apply stored, not a recomputation.
        fighters = applied_fighters(player)
        return PostGameState(
            player, game, campaign, player.warband, campaign.terms, live, attempts, fighters, fighters
        )
    fighters, items = post_game_fighters(player, for_update=for_update)
    # In the order the game recorded them.
    marked = (fighter for fighter in fighters if fighter.out_of_action_mark is not None)
    out = sorted(marked, key=lambda fighter: fighter.out_of_action_mark)
    state = PostGameState(
        player, game, campaign, player.warband, campaign.terms, live, attempts, fighters, out
    )
    state.items = items
    if game.status == Game.Status.IN_PROGRESS:
        state.problem = f"Game {game.number} is still being played: its post-game opens when it is recorded."
    try:
        state.table = post_game_trauma_table(campaign)
    except PostGameProblem as problem:
        state.problem = str(problem)
        return state
    answers = _casualties(state, live)
    state.campaign_data = current_campaign_data(campaign=campaign)
    experience(state, answers)
    changes_step.blockers(state)
    changes_step.changes(state, answers)
    for step in LATER_STEPS.values():
        step.read(state, answers)
    return state


def post_game_overview(*, player: GamePlayer) -> PostGameState:
    """The overview page's read: the post-game, and once applied why it can no longer be reverted (if so)."""
    state = post_game_state(player=player)
    if state.applied:
        state.revert_refusal = post_game_revert_refusal(player, state.post_game)
        state.applied_dice = applied_rolls(state.post_game)
        state.promotion_dice = promotions_step.applied_dice(state.post_game)
        exploration_step.read_applied(state)
    return state


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
