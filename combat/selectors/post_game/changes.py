"""Step 5 of the post-game, Review: every change the Apply makes to the roster, one sentence each (docs/architecture.md:
show the rule), and what still stops the Apply."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from combat import rules
from combat.models import PostGameFighter
from combat.rules.words import possessive
from combat.selectors.post_game.ransom import ransom_changes
from rosters.history.lookups import display_name
from rosters.models import Fighter, Item

if TYPE_CHECKING:
    from combat.selectors.post_game.base import PostGameState
    from combat.selectors.post_game.experience import XpLine
    from combat.selectors.post_game.trauma import CasualtyState

__all__ = [
    "REMOVAL_STATUS",
    "FighterChange",
    "battlekit_fate",
    "blockers",
    "changes",
    "fighter_change",
    "is_reopened",
    "with_change",
]

# Fighter statuses for the engine's removal reasons (TraumaOutcome.reason).
REMOVAL_STATUS = {
    "dead": Fighter.Status.DEAD,
    "unfit_for_duty": Fighter.Status.UNFIT_FOR_DUTY,
    "blinded": Fighter.Status.BLINDED,
    "executed": Fighter.Status.EXECUTED,
}


@dataclass
class FighterChange:
    """What the Apply does to one fighter's row, its Injuries and its Battlekit."""

    fighter: Fighter
    status: str
    battle_scars: int
    can_gain_xp: bool
    misses_next_game: bool
    xp: int
    new_injuries: list[dict] = field(default_factory=list)  # code, name, effect, d66
    to_arsenal: list[Item] = field(default_factory=list)
    lost: list[Item] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)
    explanation: str | None = None
    rulings: list[tuple[str, str]] = field(default_factory=list)
    xp_words: str = ""  # why its XP changes (RULING X-4, in the Experience step's words), for the history

    @property
    def changes_row(self) -> bool:
        fighter = self.fighter
        return (self.status, self.battle_scars, self.can_gain_xp, self.misses_next_game, self.xp) != (
            fighter.status,
            fighter.battle_scars,
            fighter.can_gain_xp,
            fighter.misses_next_game,
            fighter.xp,
        )


def battlekit_fate(outcome: rules.TraumaOutcome, items: list[Item]) -> tuple[list[Item], list[Item]]:
    """Its Battlekit to the Arsenal and lost, as the engine decides for the outcome (`rules.battlekit_fate`)."""
    pieces = [rules.KitPiece(item.name, tuple(item.keywords), item.removable) for item in items]
    fates = rules.battlekit_fate(
        outcome.battlekit, pieces, removed=outcome.removed, heavy_battlekit_lost=outcome.heavy_battlekit_lost
    )
    to_arsenal = [item for item, fate in zip(items, fates, strict=True) if fate == rules.ARSENAL]
    lost = [item for item, fate in zip(items, fates, strict=True) if fate == rules.LOST]
    return to_arsenal, lost


def _status(change: FighterChange, outcome: rules.TraumaOutcome) -> None:
    """Removed (with no XP), or misses the next game; its Battle Scars and whether it can gain XP."""
    fighter = change.fighter
    change.battle_scars = outcome.scars
    change.can_gain_xp = outcome.can_gain_xp
    if outcome.removed:
        change.status = REMOVAL_STATUS[outcome.reason]
        change.xp = fighter.xp
        change.sentences.append(f"Removed from the roster: {Fighter.Status(change.status).label}.")
    elif outcome.misses_next_game:
        change.misses_next_game = True
        change.sentences.append("Misses the next game (Minor Wound).")
    if outcome.scars != fighter.battle_scars:
        change.sentences.append(
            f"Battle Scars {fighter.battle_scars} → {outcome.scars} of {outcome.scar_limit}."
        )


def _injuries(state: PostGameState, change: FighterChange, casualty: CasualtyState) -> None:
    """The Injuries the final result gives (003 "Recording Injuries & Battle Scars"), with the D66 that gave them."""
    outcome = casualty.outcome
    final = casualty.final_roll
    for code in sorted(outcome.injuries - casualty.casualty.injuries):
        entry = next(entry for entry in state.table.entries if entry.code == code)
        change.new_injuries.append(
            {"code": code, "name": entry.name, "effect": entry.effect, "d66": final.value if final else None}
        )
        change.sentences.append(f"New Injury: {entry.name} — {entry.effect}.")


def _battlekit(state: PostGameState, change: FighterChange, outcome: rules.TraumaOutcome) -> None:
    terms = state.terms
    change.to_arsenal, change.lost = battlekit_fate(outcome, list(change.fighter.battlekit.all()))
    if change.to_arsenal:
        names = ", ".join(item.name for item in change.to_arsenal)
        change.sentences.append(f"{terms.battlekit} to the {terms.arsenal}: {names}.")
    if change.lost:
        names = ", ".join(item.name for item in change.lost)
        change.sentences.append(f"{terms.battlekit} lost: {names}.")


def _fighter_change(
    state: PostGameState, fighter: Fighter, casualty: CasualtyState | None, line: XpLine | None
):
    """One fighter's change, or None while its Trauma Step is not settled."""
    outcome = casualty.outcome if casualty is not None else None
    if casualty is not None and (outcome is None or outcome.pending or casualty.waiting_for):
        return None
    change = FighterChange(
        fighter,
        status=fighter.status,
        battle_scars=fighter.battle_scars,
        can_gain_xp=fighter.can_gain_xp,
        misses_next_game=fighter.misses_next_game,
        xp=line.xp_after if line is not None else fighter.xp,
    )
    if outcome is not None:
        change.explanation = casualty.explanation
        change.rulings = casualty.rulings
        _status(change, outcome)
        _injuries(state, change, casualty)
        if fighter.can_gain_xp and not outcome.can_gain_xp:
            change.sentences.append("Can no longer gain XP.")
        _battlekit(state, change, outcome)
    if change.xp != fighter.xp:
        change.xp_words = line.words.rstrip(".") if line is not None else ""
        why = f" {line.words}" if line is not None and line.words else ""
        change.sentences.append(f"XP {fighter.xp} → {change.xp}.{why}")
    return change


def changes(state: PostGameState) -> tuple[tuple[FighterChange, ...], tuple, tuple[str, ...]]:
    """Every change the Apply makes after the Trauma Step and the Experience: each fighter's, then the Strongboxes'
    (paid ransoms), and what stops the Apply (a ransom the Strongbox cannot pay)."""
    xp_by_id = {line.id: line for line in state.xp}
    by_id = {casualty.id: casualty for casualty in state.casualties}
    found = []
    for fighter in state.fighters:
        casualty, line = by_id.get(fighter.pk), xp_by_id.get(fighter.pk)
        if casualty is None and line is None:
            continue
        if is_reopened(state.answers.get(fighter.pk)):
            continue  # reopened after Apply, its roster row stays as before the post-game until Settle
        change = _fighter_change(state, fighter, casualty, line)
        if change is not None and (change.sentences or change.changes_row):
            found.append(change)
    strongboxes, blockers = ransom_changes(state)
    return tuple(found), strongboxes, blockers


def is_reopened(answer: PostGameFighter | None) -> bool:
    """Reopened after Apply: its changes are left out while the rest of the post-game stands."""
    return answer is not None and answer.reopened


def fighter_change(changes: tuple[FighterChange, ...], fighter: Fighter) -> FighterChange:
    """A copy of the fighter's change so far (a later step adds to the copy, never to an earlier step's), or a new
    one that leaves its row as it is."""
    change = next((change for change in changes if change.fighter.pk == fighter.pk), None)
    if change is not None:
        return replace(
            change,
            sentences=list(change.sentences),
            to_arsenal=list(change.to_arsenal),
            lost=list(change.lost),
        )
    return FighterChange(
        fighter,
        status=fighter.status,
        battle_scars=fighter.battle_scars,
        can_gain_xp=fighter.can_gain_xp,
        misses_next_game=fighter.misses_next_game,
        xp=fighter.xp,
    )


def with_change(changes: tuple[FighterChange, ...], change: FighterChange) -> tuple[FighterChange, ...]:
    """The changes with this fighter's in place of its earlier one (or added after the others)."""
    at = next((i for i, old in enumerate(changes) if old.fighter.pk == change.fighter.pk), None)
    if at is None:
        return (*changes, change)
    return (*changes[:at], change, *changes[at + 1 :])


def blockers(state: PostGameState) -> tuple[str, ...]:
    """What each casualty still waits for, in the words the Review shows (a reopened fighter waits for Settle)."""
    found = []
    for casualty in state.casualties:
        if is_reopened(casualty.answer):
            continue
        waiting = casualty.waiting_for
        if waiting == "problem":
            found.append(casualty.problem)
        elif waiting == "roll":
            found.append(f"{casualty.name} still needs its {casualty.needed.words.split(':')[0]}.")
        elif waiting == "d3":
            found.append(f"{casualty.name} still needs the D3 of Bitter Lessons (Experience step).")
        elif waiting == "ransom":
            found.append(ransom_waits(casualty))
    return tuple(found)


def ransom_waits(casualty) -> str:
    """What a Captured fighter's ransom waits for (TRAUMA_TABLE.md 12): the owner's offer, or the captor's answer."""
    answer = casualty.answer
    if answer is not None and answer.ransom_offer is not None and answer.captor is not None:
        return (
            f"Waiting for {possessive(display_name(answer.captor.owner))} answer to the ransom offer for "
            f"{casualty.name} ({answer.ransom_offer} offered to {answer.captor.name})."
        )
    return f"Offer a ransom for {casualty.name}, or declare that none is offered."
