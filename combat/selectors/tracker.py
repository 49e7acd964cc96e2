"""Reads of the in-game tracker's board.

The board of a game in progress: each crew's fighters with Harm, Injury boxes, Fatigue and status (a unit's
Health Pool), the step waiting to be settled, the open shooting engagement, the last action with its undo.
The target's page reads from `tracker_attack`; the engine's objects are built in `tracker_state`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from campaigns.models import GamePlayer
from combat import rules
from combat.models import TrackerAction, TrackerFighter, TrackerGame
from combat.models.tracker import FIGHTER_STATE_FIELDS
from combat.rules import board_rules
from combat.selectors.tracker_card import damage_choices, viewer_first
from combat.selectors.tracker_rows import FIGHTER_COLUMNS, board_rows, game_log
from combat.selectors.tracker_state import (
    confusion_from_json,
    engagement_from_json,
    is_tough,
    is_unit,
    rules_for,
)

# Status words on the board; a unit with no model left is "wiped out" rather than Incapacitated in words.
STATUS_WORDS = {
    "active": "Active",
    "incapacitated": "Incapacitated",
    "fled": "Fled",
    "out_of_action": "Out of Action",
}


@dataclass
class BoardFighter:
    tracked: TrackerFighter
    fighter: object
    unit: bool
    champion: bool
    boxes: list[bool] = field(default_factory=list)  # Injury Boxes, marked first
    links: dict[str, str] = field(
        default_factory=dict
    )  # its URLs on the board, filled in by the view (reverse)
    # Shown whole even at full strength: its player opened its card (or acted on it) on the page being drawn.
    opened: bool = False
    # Changed by the board's last action not undone (or no action yet): drawn whole on every phone, as its next
    # tap is the likeliest; a marked fighter the table has moved on from folds (`compact`).
    last_touched: bool = True
    picked: str = ""  # the quick Damage picked on this card and refused, shown again beside the reason
    folded_html: str = (
        ""  # its folded line as cached or drawn once for the page (combat/views/tracker_common.py)
    )

    @property
    def id(self) -> int:
        return self.fighter.pk

    @property
    def status(self) -> str:
        return self.tracked.status

    @property
    def status_words(self) -> str:
        if self.unit and self.tracked.status == TrackerFighter.Status.INCAPACITATED:
            return "Wiped out"
        return STATUS_WORDS[self.tracked.status]

    @property
    def in_play(self) -> bool:
        return self.tracked.status == TrackerFighter.Status.ACTIVE

    @property
    def out_of_action(self) -> bool:
        """Marked Out of Action on a board whose fighters have no Endurance (combat/rules/board_rules.py)."""
        return self.tracked.status == TrackerFighter.Status.OUT_OF_ACTION

    @property
    def tough(self) -> bool:
        """TOUGH, from the roster's keywords (TC_IN_GAME.md, "Tough")."""
        return is_tough(self.fighter) or self.tracked.tough_used

    @property
    def exhausted(self) -> bool:
        return not rules.can_take_fatigue(self.tracked)  # RULING D-7: 2 Fatigue

    @cached_property
    def damage_choices(self) -> list:
        """The card's "Damage N": what each N does (`tracker_card.damage_choices`), worked out once per card
        though the card reads it for its options, its outcome line and its list without JavaScript."""
        return damage_choices(self)

    @property
    def shown_choice(self):
        """The "Damage N" whose outcome the line under the form states: the one picked and refused, else the first."""
        choices = self.damage_choices
        return next((choice for choice in choices if str(choice.damage) == self.picked), None) or (
            choices[0] if choices else None
        )

    @property
    def full_strength(self) -> bool:
        """In play with nothing marked on it yet: no Harm, Injury, Fatigue, model or Health Point lost, no marker,
        not Down, Tough unused. Such a card is drawn compact, its actions one tap away (`compact`)."""
        tracked = self.tracked
        marked = (
            tracked.harm,
            tracked.injuries,
            tracked.fatigue,
            tracked.lost_hp,
            tracked.blood,
            tracked.blessings,
            tracked.down,
            tracked.tough_used,
        )
        whole = not self.unit or tracked.models_left >= self.fighter.unit_size
        return self.in_play and whole and not any(marked)

    @property
    def compact(self) -> bool:
        """Drawn as one short line (name, profile, track and marks) with its actions fetched when opened: a crew
        of 15 fits a phone's screen or two instead of ten, at full strength or marked all over. A fighter in play
        is drawn whole when its player opened its card (or acted on it), or while it is marked and the board's
        last action changed it (the next tap is most likely on it, on every phone at the table)."""
        if not self.in_play or self.opened:
            return False
        return self.full_strength or not self.last_touched

    @property
    def folded_key(self) -> str:
        """A digest of everything its folded line shows (tracker.html's `compact-card`: its row on the board and
        its roster row, as read), under which that line's HTML is cached with the board's own terms
        (`folded_card_keys`). A tap that changes the fighter changes the digest, so its line is drawn anew."""
        tracked, fighter = self.tracked, self.fighter
        parts = (
            self.id,
            *(getattr(tracked, name) for name in FIGHTER_STATE_FIELDS),
            *(getattr(fighter, name) for name in FIGHTER_COLUMNS),
        )
        return hashlib.blake2b(repr(parts).encode(), digest_size=16).hexdigest()

    @property
    def status_tone(self) -> str:
        """The status badge's colour: out of play by Damage or a mark, fled, or in play."""
        if self.tracked.status in (TrackerFighter.Status.INCAPACITATED, TrackerFighter.Status.OUT_OF_ACTION):
            return "danger"
        return "warn" if self.tracked.status == TrackerFighter.Status.FLED else "ok"


@dataclass
class BoardCrew:
    player: object
    warband: object
    fighters: list[BoardFighter]
    harsh_lessons: bool

    @property
    def in_play(self) -> int:
        return sum(1 for fighter in self.fighters if fighter.in_play)

    @property
    def playing(self) -> list[BoardFighter]:
        return [fighter for fighter in self.fighters if fighter.in_play]

    @property
    def fallen(self) -> list[BoardFighter]:
        """Out of play (Incapacitated, Fled, a unit wiped out): folded away on the board."""
        return [fighter for fighter in self.fighters if not fighter.in_play]


@dataclass
class PendingStep:
    """The step that must be settled before any other action, in the page's words."""

    kind: str  # "friends", "test", "choice" (Confusion, RULING D-10) or "tie" (RULING A-2)
    incapacitated: BoardFighter | None = None
    candidates: list[BoardFighter] = field(default_factory=list)  # friends that may be within 3"
    remaining: list[BoardFighter] = field(default_factory=list)  # friends still to test
    awaiting: BoardFighter | None = None  # the Confused friend choosing Flee or Take Fatigue
    choices: tuple[str, ...] = ()
    results: list[str] = field(default_factory=list)  # sentences of the Tests made so far
    tests: list[tuple[BoardFighter, str]] = field(default_factory=list)  # friends to test, chance to pass
    target: BoardFighter | None = None  # the unit whose equally close models are to be ordered
    ties: list[list[dict]] = field(default_factory=list)
    damage: int = 0


@dataclass
class ShootingStep:
    """The open shooting engagement (RULING A-5): the unit under fire, its shots so far, the models assigned
    damage that are removed when the players end it, and the Sustained Damage pool it carries."""

    target: BoardFighter | None
    shots: int
    due: tuple[str, ...]
    sustained: int


@dataclass
class Board:
    tracker: TrackerGame
    game: object
    crews: list[BoardCrew]
    last_action: TrackerAction | None
    recent: list[TrackerAction]
    pending: PendingStep | None
    shooting: ShootingStep | None = None
    log: list[TrackerAction] = field(default_factory=list)  # every action of the game, oldest first
    # What the board offers its campaign's fighters: Fallout: Factions' single-model Damage, or Out of Action marks.
    rules: board_rules.BoardRules = field(default_factory=lambda: board_rules.board_rules(has_endurance=True))

    @property
    def version(self) -> int:
        return self.tracker.version

    @property
    def by_id(self) -> dict[int, BoardFighter]:
        return {fighter.id: fighter for crew in self.crews for fighter in crew.fighters}

    def open_cards(self, fighter_ids: Iterable[int], *, picked: dict[int, str] | None = None) -> None:
        """Draw these fighters' cards whole (opened on the page, or just acted on), and on each card of `picked`
        the quick Damage picked there."""
        fighters = self.by_id
        for fighter_id in fighter_ids:
            if fighter_id in fighters:
                fighters[fighter_id].opened = True
        for fighter_id, damage in (picked or {}).items():
            if fighter_id in fighters:
                fighters[fighter_id].opened = True
                fighters[fighter_id].picked = damage

    def folded_card_keys(self, *, markup: str) -> dict[str, BoardFighter]:
        """The cache key of each card drawn folded, with its fighter: the line's own digest (`folded_key`) and
        what the line reads of the board (the game in its URLs, the preset's words and profile, whether the game
        is over, whether its fighters take Damage), under `markup`, the digest of the template that draws it."""
        board = (markup, self.game.pk, self.game.campaign.preset, self.tracker.ended, self.rules)
        prefix = hashlib.blake2b(repr(board).encode(), digest_size=8).hexdigest()
        return {
            f"tracker-card:{prefix}:{fighter.folded_key}": fighter
            for crew in self.crews
            for fighter in crew.fighters
            if fighter.compact
        }

    @property
    def layout(self) -> str:
        """What the page's poll sends back, so a changed poll can answer with the changed cards alone
        (`board_layout`; combat/selectors/tracker_poll.py)."""
        fighters = [fighter for crew in self.crews for fighter in crew.fighters]
        return board_layout(len(fighters), (f.id for f in fighters if not f.in_play))


def board_layout(count: int, out_of_play: Iterable[int]) -> str:
    """What a changed fighter's card cannot bring by itself: how many fighters the board holds and which are out
    of play (folded under their crew and counted in its header). A page showing another layout needs the whole
    board. A short digest, as it travels in every poll's URL."""
    text = f"{count}:{','.join(str(fighter_id) for fighter_id in sorted(out_of_play))}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def tracker_players(*, game) -> list:
    """The game's players (GamePlayer) with their warbands, in the order they joined: the results to enter."""
    return list(GamePlayer.objects.filter(game=game).select_related("warband").order_by("id"))


def tracker_version(*, game_id: int) -> int | None:
    """The board's version, for a poll that answers "nothing changed" without loading the board."""
    return TrackerGame.objects.filter(game_id=game_id).values_list("version", flat=True).first()


def _board_fighter(tracked: TrackerFighter) -> BoardFighter:
    fighter = tracked.fighter
    unit = is_unit(fighter)
    boxes = [] if unit else [index < tracked.injuries for index in range(fighter.health)]
    return BoardFighter(tracked, fighter, unit, fighter.counts_as_elite, boxes)


def tracker_board(*, game, recent: int = 8, viewer=None, tracker=None, rows=None, log=None) -> Board | None:
    """Everything the board shows, in a fixed number of queries whatever the crews' size, the `viewer`'s first;
    `tracker`, `rows`: its row and its only fighters as an action just saved them (as a poll's), not read again;
    `log`: its game log as read with them (`tracker_rows.board_with_game`)."""
    if tracker is None or tracker.game_id != game.pk:
        tracker = TrackerGame.objects.filter(game=game).first()
    if tracker is None:
        return None
    rows = board_rows(tracker) if rows is None else rows
    log = game_log(tracker) if log is None else log
    board = board_of(tracker, game, rows, log, recent=recent, viewer=viewer)
    board.pending = _pending_step(tracker, board)
    board.shooting = _shooting_step(tracker, board)
    return board


def board_of(tracker: TrackerGame, game, rows, log, *, recent: int = 8, viewer=None) -> Board:
    """The board of these rows and this log, without its pending step and open shooting (the caller adds them)."""
    crews: dict[int, BoardCrew] = {}
    for row in rows:
        crew = crews.get(row.player_id)
        if crew is None:
            warband = row.player.warband
            crew = crews[row.player_id] = BoardCrew(
                row.player, warband, [], warband.pk in tracker.harsh_lessons
            )
        crew.fighters.append(_board_fighter(row))
    actions = log[::-1][:recent]
    last = next((action for action in reversed(log) if not action.undone), None)
    if last is not None:
        touched = set(last.touched)
        for crew in crews.values():
            for fighter in crew.fighters:
                fighter.last_touched = fighter.id in touched
    crews_in_order = viewer_first(list(crews.values()), viewer)
    return Board(tracker, game, crews_in_order, last, actions, None, log=log, rules=rules_for(game))


def _shooting_step(tracker: TrackerGame, board: Board) -> ShootingStep | None:
    if not tracker.shooting:
        return None
    engagement = engagement_from_json(tracker.shooting["engagement"])
    return ShootingStep(
        target=board.by_id.get(tracker.shooting["target"]),
        shots=len(engagement.allocations),
        due=engagement.to_remove,
        sustained=engagement.sustained,
    )


def _pending_step(tracker: TrackerGame, board: Board) -> PendingStep | None:
    pending = tracker.pending
    if not pending:
        return None
    fighters = board.by_id
    if pending["kind"] == "tie":
        return PendingStep(
            "tie", target=fighters.get(pending["target"]), ties=pending["ties"], damage=pending["damage"]
        )
    incapacitated = fighters.get(pending["incapacitated"])
    if pending["stage"] == "friends":
        crew = next(crew for crew in board.crews if crew.player.pk == incapacitated.tracked.player_id)
        candidates = [f for f in crew.fighters if f.in_play and f is not incapacitated]
        return PendingStep("friends", incapacitated, candidates=candidates)
    sequence = confusion_from_json(pending["sequence"])
    results = [
        rules.explain_confusion(result, name=fighters[int(result.friend.id)].fighter.name)
        for result in sequence.results
    ]
    if sequence.awaiting is not None:
        friend = fighters[int(sequence.awaiting.friend.id)]
        results.append(rules.explain_confusion(sequence.awaiting, name=friend.fighter.name))
        return PendingStep(
            "choice", incapacitated, awaiting=friend, choices=sequence.choices, results=results
        )
    remaining = [fighters[int(friend.id)] for friend in sequence.remaining]
    # The chance each Confusion Test (2I) passes, before it is rolled (RULING D-6: one Hit passes).
    tests = [
        (
            friend,
            rules.format_odds(
                rules.pass_odds(dice_count=rules.CONFUSION_TEST_DICE, stat=int(model.intelligence))
            ),
        )
        for friend, model in zip(remaining, sequence.remaining, strict=True)
    ]
    return PendingStep("test", incapacitated, remaining=remaining, results=results, tests=tests)
