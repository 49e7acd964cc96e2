"""Steps 2 and 3 of the post-game: each fighter taken Out of Action worked out again by the engine from its
stored faces (`rules.trauma_step` with `ScriptedDice`), the roll it still needs, and an ELITE model's odds."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

from combat import rules
from combat.models import PostGameFighter, PostGameRoll
from combat.selectors.post_game.rolls import LoggedRoll, RollNeeded, needed_after
from combat.selectors.post_game.survival import survival_headline
from rosters.models import Fighter


@dataclass(frozen=True)
class OddsLine:
    label: str
    chance: Fraction
    words: str


@dataclass
class CasualtyState:
    """One fighter taken Out of Action, as the Troops and ELITE steps show it."""

    fighter: Fighter
    elite: bool
    casualty: rules.Casualty | None
    rolls: list[LoggedRoll]
    answer: PostGameFighter | None
    outcome: rules.TraumaOutcome | None = None
    needed: RollNeeded | None = None
    problem: str | None = None
    # The table its odds are worked out on (`odds`), None when the page shows no odds for it.
    odds_table: rules.TraumaTable | None = field(default=None, repr=False, compare=False)
    explanation: str | None = None
    rulings: list[tuple[str, str]] = field(default_factory=list)
    blocked_by_troops: bool = False
    # The result it already has, when the next roll is a reroll (RULING T-5).
    reroll_because: str | None = None
    card_error: str | None = None  # a refused roll or answer, shown on the fighter's card
    entered: dict | None = None  # what was typed in a refused form, shown again

    @property
    def id(self) -> int:
        return self.fighter.pk

    @cached_property
    def _odds(self) -> tuple[str | None, list[OddsLine]]:
        # Worked out when a page first shows them (the Troops and ELITE pages, the overview), once.
        if self.odds_table is None:
            return None, []
        return _odds_words(self.casualty, self.elite, self.odds_table)

    @property
    def headline_odds(self) -> str | None:
        """The odds before the roll in one line (None when it is not waiting for its roll)."""
        return self._odds[0]

    @property
    def odds(self) -> list[OddsLine]:
        """An ELITE model's chance of each entry of the Trauma Table, likeliest first."""
        return self._odds[1]

    @property
    def injury_names(self) -> list[str]:
        return [injury.name for injury in self.fighter.injuries.all()]

    @property
    def name(self) -> str:
        return self.fighter.name

    @property
    def waiting_for_ransom(self) -> bool:
        return self.outcome is not None and self.outcome.pending == "ransom"

    @property
    def waiting_for(self) -> str | None:
        """What this fighter still needs before the Apply: a roll, the D3, the ransom answer; None when done."""
        if self.problem:
            return "problem"
        if self.needed is not None:
            return "d3" if self.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS else "roll"
        if self.waiting_for_ransom:
            return "ransom"
        return None

    @property
    def done(self) -> bool:
        return self.waiting_for is None and self.outcome is not None

    @property
    def trauma_rolled(self) -> bool:
        """Whether its Survival Roll or Trauma roll is made (a D3 may still be needed: see the Experience step)."""
        return self.outcome is not None or (
            self.needed is not None and self.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS
        )

    @property
    def reopened_after(self) -> str | None:
        """The struck roll whose correction (or void) reopened this fighter's step, while it waits."""
        if self.waiting_for is None or self.waiting_for == "problem":
            return None
        struck = [roll.struck for roll in self.rolls if roll.struck is not None]
        return struck[-1].label if struck else None

    @property
    def final_roll(self) -> LoggedRoll | None:
        decisive = [roll for roll in self.rolls if roll.roll.purpose != PostGameRoll.Purpose.BITTER_LESSONS]
        return decisive[-1] if decisive else None


def _stale(state: CasualtyState) -> str:
    return (
        f"The dice stored for {state.name} no longer fit its record (its Injuries or Scars changed after the "
        "roll): put them back as they were on the roster to go on."
    )


def _waiting(state: CasualtyState, table: rules.TraumaTable, sides: int) -> None:
    """The stored faces ran out: the roll the engine asked for, and why (a reroll, the D3 of Bitter Lessons)."""
    state.needed = needed_after(state.rolls, sides, elite=state.elite)
    if state.needed.purpose == PostGameRoll.Purpose.TRAUMA and state.needed.sequence > 1:
        state.reroll_because = table.lookup(state.rolls[-1].value).name
    elif state.needed.purpose == PostGameRoll.Purpose.BITTER_LESSONS:
        # The D66 is settled; only the D3 of its extra XP is missing (TRAUMA_TABLE.md 65).
        *earlier, final = [
            roll.value for roll in state.rolls if roll.roll.purpose == PostGameRoll.Purpose.TRAUMA
        ]
        sentence = rules.explain_trauma_entry(
            table.lookup(final),
            roll=final,
            name=state.name,
            rerolled=[(value, table.lookup(value)) for value in earlier],
        )
        state.explanation = f"{sentence} Roll the D3."


def resolve(state: CasualtyState, table: rules.TraumaTable) -> None:
    """Run the Trauma Step on this one fighter with its stored faces (ScriptedDice), in the engine's order."""
    faces: list[int] = []
    sides: list[int] = []
    for logged in state.rolls:
        faces.extend(logged.dice.faces)
        sides.extend([logged.dice.sides] * len(logged.dice.faces))
    dice = rules.ScriptedDice(faces)
    try:
        (outcome,) = rules.trauma_step([state.casualty], dice, table=table)
    except rules.DiceExhausted as exhausted:
        if [roll.sides for roll in dice.log] != sides:
            state.problem = _stale(state)
        else:
            _waiting(state, table, exhausted.sides)
        return
    except ValueError as error:
        state.problem = _stale(state) if state.rolls else f"{state.name} cannot be rolled for: {error}."
        return
    if dice.remaining or [roll.sides for roll in dice.log] != sides:
        state.problem = _stale(state)
        return
    if outcome.pending == "ransom" and state.answer is not None and state.answer.ransom_paid is not None:
        # TRAUMA_TABLE.md, Captured: unpaid, executed; paid, Full Recovery (RULING T-8).
        outcome = rules.settle_capture(outcome, ransom_paid=state.answer.ransom_paid)
    state.outcome = outcome
    state.explanation = rules.explain_trauma(outcome, name=state.name)
    state.rulings = [(ruling_id, rules.ruling(ruling_id)) for ruling_id in outcome.rulings]


def odds(state: CasualtyState, table: rules.TraumaTable) -> None:
    """The odds before the roll, from `combat.rules.odds`, in plain words (docs/architecture.md: show the odds):
    worked out on `table` when a page first reads them (`CasualtyState.headline_odds`, `.odds`)."""
    state.odds_table = table


def _odds_words(
    casualty: rules.Casualty, elite: bool, table: rules.TraumaTable
) -> tuple[str, list[OddsLine]]:
    if not elite:
        return survival_headline(casualty, table=table), []
    chances = rules.trauma_odds(casualty, table=table)
    fates = rules.trauma_fate_odds(casualty, table=table)
    parts = [f"{rules.format_odds(chances['removed'])} it leaves the roster"]
    if fates.get("captured"):
        parts.append(f"{rules.format_odds(fates['captured'])} it is Captured")
    if fates.get("unfit_for_duty"):
        parts.append(f"{rules.format_odds(fates['unfit_for_duty'])} it is Unfit For Duty (RULING T-4)")
    names: dict[str, str] = {}
    for entry in table.entries:
        names.setdefault(entry.code, entry.name)
    lines = []
    for code, name in names.items():
        chance = chances.get(code, Fraction(0))
        if chance:
            lines.append(OddsLine(name, chance, rules.format_odds(chance)))
    lines.sort(key=lambda line: -line.chance)
    return "; ".join(parts), lines
