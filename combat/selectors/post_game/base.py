"""The post-game's state as the pages, the services and the Apply read it: the shared base every step reads (the
player, the game, the fighters, the casualties, the counted rolls...), and each step's part, read once by the
step (`combat.selectors.post_game.steps`) and never changed after.

This module imports no other module of the package (not even for type hints: the casualties are
`trauma.CasualtyState`s, the Experience `experience.XpLine`s, the changes `changes.FighterChange`s and
`ransom.StrongboxChange`s): each step module imports `PostGameState` and `StepRead` from here, and the
registry (`steps`) imports the step modules, so the package has no import circle (tests/test_architecture.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from campaigns.models import Game, GamePlayer
from combat import rules
from combat.models import PostGame, PostGameFighter, PostGameRoll, PostGameTrade
from rosters.models import Fighter, Item, Warband

if TYPE_CHECKING:
    from combat.selectors.campaign_data import CampaignData

NO_PARTS: Mapping[str, object] = MappingProxyType({})
# The fields `post_game_state` works out only when first read (after the base: the chain of the steps' reads).
LAZY_FIELDS = ("casualties", "warband_rolls", "xp", "changes", "strongboxes", "blockers")


@dataclass(frozen=True)
class StepRead:
    """One step's part of the post-game, returned by its `read`: what its page shows (`part`), what still stops
    the Apply (`blockers`, added to the earlier steps'), and, when the step changes them, every fighter's change
    and every Strongbox's after it (a new tuple: the earlier steps' objects are never changed)."""

    part: object = None
    blockers: tuple[str, ...] = ()
    changes: tuple[object, ...] | None = None
    strongboxes: tuple[object, ...] | None = None


@dataclass(frozen=True)
class PostGameState:
    """Everything the wizard's pages show, and everything the Apply writes. Built once per request by
    `combat.selectors.post_game.state.post_game_state`; a step's part is read as `state.<key>` (`state.glory`),
    None when the step was not read (a problem, or the post-game applied)."""

    player: GamePlayer
    game: Game
    campaign: object
    warband: Warband
    terms: object
    post_game: PostGame | None  # the live attempt (open or applied), None before the first write
    attempts: tuple[PostGame, ...]
    fighters: tuple[Fighter, ...]  # the warband's active fighters and those marked Out of Action
    out_of_action: tuple[Fighter, ...]
    casualties: tuple[object, ...] = ()
    xp: tuple[object, ...] = ()
    changes: tuple[object, ...] = ()
    strongboxes: tuple[object, ...] = ()
    blockers: tuple[str, ...] = ()
    problem: str | None = None
    table: rules.TraumaTable | None = None
    revert_refusal: str | None = None  # once applied, why it can no longer be reverted (`post_game_overview`)
    applied_dice: tuple[object, ...] = ()  # once applied, the rolls the corrections may fix
    # Read once for every step that needs them: the answers stored for each fighter and the warband's Battlekit
    # (the campaign's data, the trades planned and the warband's record are read when first asked: `shared`).
    answers: Mapping[int, PostGameFighter] = field(default_factory=lambda: NO_PARTS)
    items: tuple[Item, ...] = ()
    promotion_dice: tuple = ()  # once applied, the Promotion Dice the corrections may fix
    # The warband's own stored rolls, no fighter's (the Exploration Dice), read with the fighters'.
    warband_rolls: tuple[PostGameRoll, ...] = ()
    # Every roll of the live attempt that counts, whatever its step, read once.
    counted_rolls: tuple[PostGameRoll, ...] = ()
    # Each step's part by its key (`StepRead.part`), and where the owner picks up the wizard.
    parts: Mapping[str, object] = field(default_factory=lambda: NO_PARTS)
    current_step: str = "out-of-action"
    # Reads made only when first asked (the opponents, `shared`'s), kept for this state and the ones built from
    # it; a cache, never part of what the state says.
    memo: dict = field(default_factory=dict, compare=False, repr=False)

    def defer(self, **readers: Callable[[PostGameState], object]) -> PostGameState:
        """This state with the named fields read when first asked, each by its reader, once (then kept as a field
        is): `post_game_state`'s way to leave the steps a page does not show unread. Returns the state."""
        for name in readers:
            self.__dict__.pop(name)
        object.__setattr__(self, "_readers", dict(readers))
        return self

    def __getattr__(self, name: str) -> object:
        # Only called when no field has the name: a deferred field read now (`defer`), or a step's part by its
        # key (`state.glory`; a key's hyphens read as underscores, `state.harsh_lessons`).
        readers = self.__dict__.get("_readers")
        if readers and name in readers:
            value = readers[name](self)
            object.__setattr__(self, name, value)
            del readers[name]
            return value
        parts = self.__dict__.get("parts", NO_PARTS)
        for key in (name, name.replace("_", "-")):
            if key in parts:
                return parts[key]
        raise AttributeError(name)

    def shared(self, name: str, default: object = None) -> object:
        """A read of the base that only some steps need, made when first asked by the reader `post_game_state`
        left in `memo["readers"]`, once for this state and every state built from it; `default` without one
        (the post-game applied, or stopped by a problem)."""
        if name not in self.memo:
            reader = self.memo.get("readers", {}).get(name)
            self.memo[name] = reader(self) if reader is not None else default
        return self.memo[name]

    @property
    def campaign_data(self) -> CampaignData | None:
        """The campaign's data the post-game reads while it is open (skill charts, fighter types...)."""
        return self.shared("campaign_data")

    @property
    def trades(self) -> tuple[PostGameTrade, ...]:
        """The purchases and sales planned in the attempt, in the order they were added."""
        return self.shared("trades", ())

    @property
    def record(self) -> tuple[int, frozenset[str]] | None:
        """The warband's battles fought and the Locations found before (RULINGS C-1, E-1, E-4)."""
        return self.shared("record")

    @property
    def applied(self) -> bool:
        return self.post_game is not None and self.post_game.is_applied

    @property
    def opponents(self) -> list[Warband]:
        """The other warbands of the game (a Captured fighter's captor is one of them), read when first asked."""
        if "opponents" not in self.memo:
            entries = (
                GamePlayer.objects.filter(game=self.game).exclude(pk=self.player.pk).select_related("warband")
            )
            self.memo["opponents"] = [entry.warband for entry in entries.order_by("id")]
        return self.memo["opponents"]

    @property
    def status(self) -> str:
        """pending (nothing done yet), in_progress, or applied."""
        if self.post_game is None:
            return "pending"
        return "applied" if self.post_game.is_applied else "in_progress"

    @property
    def troops(self) -> list:
        return [state for state in self.casualties if not state.elite]

    @property
    def elites(self) -> list:
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
    def roll_groups(self) -> list:
        """Each fighter's rolls that count (a casualty, or once applied a `FighterRolls`), for the fix forms."""
        return list(self.applied_dice) if self.applied else [c for c in self.casualties if c.rolls]

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
    def removed(self) -> list:
        return [change for change in self.changes if change.status != Fighter.Status.ACTIVE]

    @property
    def reverted(self) -> list[PostGame]:
        return [attempt for attempt in self.attempts if attempt.status == PostGame.Status.REVERTED]


# A deferred field is read through `__getattr__`, which Python calls only when neither the instance nor its class
# has the name: the defaults stay in `__init__`, the class keeps no attribute that would answer first.
for _name in (*LAZY_FIELDS, "current_step"):
    delattr(PostGameState, _name)


@dataclass(frozen=True)
class PostGameStep:
    """One step of the post-game wizard."""

    key: str
    title: str  # in the campaign's words: "{troops}" and "{elite}" are its terms
    url_name: str  # its page, at `<post-game>/<key>/` (combat/urls.py makes one URL per registered step)
    done: Callable[[PostGameState], bool]
    read: Callable[[PostGameState], StepRead] | None = None  # None: the step's part is in the shared base
    form: str | None = None  # the dotted path of the form its page posts, where it has one
    apply: str | None = None  # the dotted path of `apply_part(state) -> snapshot part`, where it writes
    revert: str | None = None  # the dotted path of `revert_part(snapshot)`, where the Apply wrote
    summary: str | None = (
        None  # the dotted path of `summary_part(state) -> dict`: its words in the Apply's summary
    )
    gate: bool = False  # the Trauma Step's pages: done in the bar once started and their rolls are in
    # The dotted path of the view that serves its page (a selector may not import a view: combat/urls.py
    # resolves it).
    view: str | None = None

    def heading(self, terms) -> str:
        return self.title.format(troops=f"{terms.troop}s", elite=terms.elite)
