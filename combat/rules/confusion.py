"""Confusion: the Confusion Tests an Incapacitation makes due, one at a time, each fully before the next.

Implements 000_57a9b0f426546aa5.txt (Fallout: Factions), headings "Confusion" and "Errata", read as RULINGS.md
D-6, D-7, D-9 and D-10 say:

"that model's player must make a Confusion Test (2I) for each Friendly model that was within 3" of the
Incapacitated model before the model is removed from play. These Tests are made one model at a time, in an order
of the controlling player's choosing. [...] its controller must choose to have the model either Flee or Take
Fatigue. [...] Models that cannot Take Fatigue must choose Flee."

`FriendlyModel`, `confusion_tests_due(...)`, `ConfusionSequence`, `ConfusionResult`, `confusion_test`, and
`explain_confusion(result)` for the in-game tracker. Whether a model can Take Fatigue (RULING D-7) is
`damage.can_take_fatigue`, shared with the Damage side.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .damage import EXHAUSTED_AT, can_take_fatigue
from .dice import Dice
from .stat_tests import StatTestResult, check_count, check_stat, roll_test
from .words import possessive

__all__ = [
    "CONFUSION_CHOICES",
    "ConfusionResult",
    "ConfusionSequence",
    "FriendlyModel",
    "confusion_test",
    "confusion_tests_due",
    "explain_confusion",
]

# 000 "Confusion": "a Confusion Test (2I)".
CONFUSION_TEST_DICE = 2
CONFUSION_CHOICES = ("flee", "fatigue")


def confusion_test(dice: Dice, *, intelligence: int) -> StatTestResult:
    """The Confusion Test (2I): two D10s against Intelligence, passed with one Hit (seed 000 "Confusion",
    RULING D-6)."""
    check_stat(intelligence, name="intelligence")
    return roll_test(dice, dice_count=CONFUSION_TEST_DICE, stat=intelligence)


# --- Confusion Tests, one Incapacitation at a time (seed 000 "Confusion" and "Errata", RULING D-10) ----------


@dataclass(frozen=True, slots=True)
class FriendlyModel:
    """A Friendly model that was within 3" of the Incapacitated model: what its Confusion Test needs."""

    id: str
    intelligence: int
    fatigue: int = 0
    name: str | None = None

    def __post_init__(self) -> None:
        check_stat(self.intelligence, name="intelligence")
        check_count(self.fatigue, name="fatigue")
        if self.fatigue > EXHAUSTED_AT:
            raise ValueError(f"fatigue must be 0 to {EXHAUSTED_AT}, got {self.fatigue}")


@dataclass(frozen=True, slots=True)
class ConfusionResult:
    """One Confusion Test, fully resolved (or waiting for the Flee / Take Fatigue choice).

    `choice` is `None` when the Test was passed, else `"flee"` or `"fatigue"`; `forced` is True when the model
    had to Flee because it could not Take Fatigue (RULING D-7); `fatigue_after` is its Fatigue afterwards.
    A model that Flees is removed from play but is not Incapacitated (RULING D-9).
    """

    friend: FriendlyModel
    test: StatTestResult
    choice: str | None = None
    fatigue_after: int = 0
    forced: bool = False

    @property
    def passed(self) -> bool:
        return self.test.passed

    @property
    def confused(self) -> bool:
        return not self.test.passed

    @property
    def fled(self) -> bool:
        return self.choice == "flee"

    @property
    def took_fatigue(self) -> bool:
        return self.choice == "fatigue"


@dataclass(frozen=True, slots=True)
class ConfusionSequence:
    """The Confusion Tests one Incapacitation makes due, resolved one model at a time (RULING D-10).

    Immutable: `test` and `choose` return the next state, so a page can keep it between requests. The
    controlling player picks the order (`test(dice, friend=...)`); a Failed Test must be settled with
    `choose("flee" | "fatigue")` before the next Test. A Confused model that cannot Take Fatigue Flees at once
    (`forced`, RULING D-7).
    """

    incapacitated: str
    due: tuple[FriendlyModel, ...]
    results: tuple[ConfusionResult, ...] = ()
    awaiting: ConfusionResult | None = None

    @property
    def remaining(self) -> tuple[FriendlyModel, ...]:
        """Friends still to test, in the order given."""
        done = {result.friend.id for result in self.results}
        if self.awaiting is not None:
            done.add(self.awaiting.friend.id)
        return tuple(friend for friend in self.due if friend.id not in done)

    @property
    def next(self) -> FriendlyModel | None:
        """The friend tested next by default, or None when a choice is awaited or all are done."""
        if self.awaiting is not None:
            return None
        remaining = self.remaining
        return remaining[0] if remaining else None

    @property
    def choices(self) -> tuple[str, ...]:
        """The choices open for the Confused model awaiting one (empty when none is awaited)."""
        if self.awaiting is None:
            return ()
        return CONFUSION_CHOICES if can_take_fatigue(self.awaiting.friend) else ("flee",)

    @property
    def done(self) -> bool:
        return self.awaiting is None and not self.remaining

    @property
    def fled(self) -> tuple[str, ...]:
        """Ids of the friends that Fled (removed from play, not Incapacitated: RULING D-9)."""
        return tuple(result.friend.id for result in self.results if result.fled)

    @property
    def fatigued(self) -> tuple[str, ...]:
        """Ids of the friends that Took Fatigue."""
        return tuple(result.friend.id for result in self.results if result.took_fatigue)

    def test(self, dice: Dice, *, friend: str | None = None) -> ConfusionSequence:
        """Make the Confusion Test (2I) of `friend` (default: the next in order) and return the new state."""
        if self.awaiting is not None:
            # RULING D-10: "each fully before the next".
            raise ValueError(
                f"{self.awaiting.friend.id!r} is Confused: choose flee or fatigue before the next Confusion Test"
            )
        remaining = self.remaining
        if friend is None:
            if not remaining:
                raise ValueError(
                    f"no Confusion Test is left for the Incapacitation of {self.incapacitated!r}"
                )
            model = remaining[0]
        else:
            model = next((candidate for candidate in remaining if candidate.id == friend), None)
            if model is None:
                raise ValueError(f"{friend!r} has no Confusion Test left to make")
        result = ConfusionResult(
            model, confusion_test(dice, intelligence=model.intelligence), None, model.fatigue
        )
        if result.passed:
            # 000 "Confusion": "If the model Passes the Test, nothing happens."
            return ConfusionSequence(self.incapacitated, self.due, (*self.results, result))
        if not can_take_fatigue(model):
            # RULING D-7: "Models that cannot Take Fatigue must choose Flee."
            fled = ConfusionResult(model, result.test, "flee", model.fatigue, True)
            return ConfusionSequence(self.incapacitated, self.due, (*self.results, fled))
        return ConfusionSequence(self.incapacitated, self.due, self.results, result)

    def choose(self, choice: str) -> ConfusionSequence:
        """Settle the awaited Confused model: `"flee"` (removed from play) or `"fatigue"` (+1 Fatigue)."""
        if self.awaiting is None:
            raise ValueError(f"no Confused model is waiting for a choice, got {choice!r}")
        if choice not in CONFUSION_CHOICES:
            raise ValueError(f"choice must be 'flee' or 'fatigue', got {choice!r}")
        friend = self.awaiting.friend
        if choice == "fatigue" and not can_take_fatigue(friend):
            raise ValueError(
                f"{friend.id!r} has {friend.fatigue} Fatigue and cannot Take Fatigue (RULING D-7)"
            )
        fatigue = friend.fatigue + 1 if choice == "fatigue" else friend.fatigue
        settled = ConfusionResult(friend, self.awaiting.test, choice, fatigue)
        return ConfusionSequence(self.incapacitated, self.due, (*self.results, settled))


def confusion_tests_due(
    *, incapacitated: str, friends_within_3: Iterable[FriendlyModel]
) -> ConfusionSequence:
    """The Confusion Tests an Incapacitation makes due: one per Friendly model the player marks as within 3"
    (seed 000 "Confusion"), in the order given (the player may test them in another order)."""
    friends = tuple(friends_within_3)
    seen: set[str] = set()
    for friend in friends:
        if not isinstance(friend, FriendlyModel):
            raise ValueError(f"friends_within_3 must hold FriendlyModel values, got {friend!r}")
        if friend.id == incapacitated:
            raise ValueError(
                f"the Incapacitated model {incapacitated!r} does not test for its own Incapacitation"
            )
        if friend.id in seen:
            raise ValueError(f"friend {friend.id!r} is listed twice")
        seen.add(friend.id)
    return ConfusionSequence(incapacitated, friends)


# --- Plain sentences for the pages ("Show the rule") ----------------------------------------------------------


def explain_confusion(result: ConfusionResult, *, name: str | None = None) -> str:
    """One plain sentence for a Confusion Test, e.g. "Confusion Test (2I against Intelligence 4): 7, 9 — no Hit,
    Confused: Flees, removed from play (it cannot Take Fatigue, RULING D-7)."."""
    friend = result.friend
    who = name or friend.name or friend.id
    faces = ", ".join(str(face) for face in result.test.faces)
    head = f"{possessive(who)} Confusion Test (2I against Intelligence {friend.intelligence}): {faces}"
    if result.passed:
        hits = "1 Hit" if result.test.hits == 1 else f"{result.test.hits} Hits"
        return f"{head} — {hits}, passed: nothing happens (RULING D-6)."
    if result.choice is None:
        return f"{head} — no Hit, Confused: Flee or Take Fatigue."
    if result.choice == "fatigue":
        return f"{head} — no Hit, Confused: Takes Fatigue ({result.fatigue_after} now)."
    why = (
        f" ({friend.fatigue} Fatigue: it cannot Take Fatigue, RULING D-7)"
        if result.forced
        else " (not Incapacitated: no Confusion and no Trauma Step, RULING D-9)"
    )
    return f"{head} — no Hit, Confused: Flees and is removed from play{why}."
