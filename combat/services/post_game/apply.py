"""Step 5 of the post-game, Apply: every change to the roster in one transaction, each part keeping the
before-image of the rows it changes (the snapshot `post_game_revert` reads).

The parts, in the order they write: the fighters' rows, the Injuries the Trauma Table gave, the Battlekit sent to
the Arsenal or lost, the Strongboxes a paid ransom moves, then each later step's part. The rows the parts create
(Injuries, skills, the Location, recruits, Battlekit, the ledger's entries) are written together at the end, in one
statement (`bulk.py`), their ids filled into the snapshot then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.module_loading import import_string

from campaigns.models import GamePlayer
from combat.models import PostGame
from combat.rules.words import possessive
from combat.selectors.post_game.ransom import StrongboxChange
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.selectors.post_game.steps import steps_for
from combat.services.post_game.attempt import (
    PostGameError,
    lock,
    mark,
    open_attempt,
    refuse_while_played,
    step_context,
)
from combat.services.post_game.bulk import NewRows, new_rows_in, settle, update_rows
from combat.services.post_game.images import APPLY_FIELDS, image
from combat.services.post_game.money import HeldWarbands, ledger_moves_in, write_ledger_moves
from rosters.models import Fighter, Injury, Item, LedgerCause, Warband
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import ledger_rows


def apply_fighters(state: PostGameState) -> list[dict]:
    """Fighters: status, Battle Scars, XP, whether they can gain XP, whether they miss the next game. Returns
    their before- and after-images."""
    changed = [change for change in state.changes if change.changes_row]
    # Only the columns some fighter's value changes in: each one is an array of the rows' values in the statement.
    fields = [
        name for name in APPLY_FIELDS if any(getattr(c, name) != getattr(c.fighter, name) for c in changed)
    ]
    images = []
    for change in changed:
        before = image(change.fighter)
        for name in fields:
            setattr(change.fighter, name, getattr(change, name))
        # Fields checked here; the constraints (XP not negative, Scars in range...) by PostgreSQL in the one UPDATE
        # of every fighter, which rolls the whole Apply back if one fails (one query, not one per constraint).
        change.fighter.full_clean(exclude=["warband"], validate_unique=False, validate_constraints=False)
        images.append({"before": before, "after": image(change.fighter)})
    update_rows(Fighter, [change.fighter for change in changed], fields)
    return images


def apply_injuries(state: PostGameState) -> NewRows:
    """The Injuries the Trauma Table gave (003 "Recording Injuries & Battle Scars"), written with the Apply's other
    new rows (`write_new_rows`), which fills in their ids."""
    injuries = [
        Injury(fighter=change.fighter, game=state.game, **injury)
        for change in state.changes
        for injury in change.new_injuries
    ]
    for injury in injuries:
        injury.full_clean(exclude=["fighter", "game"], validate_unique=False, validate_constraints=False)
    return NewRows(Injury, injuries)


def apply_battlekit(state: PostGameState) -> dict[str, list]:
    """Battlekit to the Arsenal (RULING T-4) or lost (RULING T-6, Robbed, Muscle Damage), as `rules.battlekit_fate`
    decided. Returns the before-images of both."""
    moved = [item for change in state.changes for item in change.to_arsenal]
    images_moved = [{"before": image(item)} for item in moved]
    Item.objects.filter(pk__in=[item.pk for item in moved]).update(fighter=None)
    lost = [item for change in state.changes for item in change.lost]
    images_lost = [image(item) for item in lost]
    Item.objects.filter(pk__in=[item.pk for item in lost]).delete()
    return {"items_moved": images_moved, "items_lost": images_lost}


def _moves(change: StrongboxChange) -> list[tuple[str, int, str]]:
    """The ledger's entries of one Strongbox change, each with its cause: the ransom (TRAUMA_TABLE.md 12), paid in
    the Trauma Step, then the Exploration's loot (RULING E-3), which one change may carry together."""
    if not change.loot:
        return [(LedgerCause.RANSOM, change.delta, change.reason)]
    moves = [(LedgerCause.LOOT, change.loot, change.loot_reason or change.reason)]
    if change.delta != change.loot:
        moves.insert(
            0, (LedgerCause.RANSOM, change.delta - change.loot, change.ransom_reason or change.reason)
        )
    return moves


def apply_strongboxes(state: PostGameState) -> tuple[list[dict], list[dict], HeldWarbands]:
    """Strongboxes: a paid ransom moves from this warband's to the captor's (TRAUMA_TABLE.md 12); loot comes in
    (E-3). Each change is an entry of the warband's ledger, written with the Strongbox in this transaction, with
    the moves of the steps after (`write_ledger_moves`: the rows locked here are not locked again). Returns the
    before- and after-images (their entries' ids filled in when written), the lines of the summary, and the rows
    held."""
    held = HeldWarbands()
    if not state.strongboxes:
        return [], [], held
    changes: dict[int, list[StrongboxChange]] = {}
    for change in state.strongboxes:
        changes.setdefault(change.warband.pk, []).append(change)
    warbands = list(Warband.objects.select_for_update().filter(pk__in=changes).order_by("pk"))
    images, lines = [], []
    for warband in warbands:
        before = image(warband)
        moves = [move for change in changes[warband.pk] for move in _moves(change)]
        try:
            entries = ledger_rows(warband=warband, moves=moves, game=state.game)
        except RosterRefused:
            raise PostGameError(
                f"{possessive(warband.name)} {state.terms.strongbox} holds only {before['strongbox']} "
                f"{state.terms.currency}: the ransom cannot be paid."
            ) from None
        warband.strongbox += sum(change.delta for change in changes[warband.pk])
        written: list[dict] = []
        held.hold(warband, entries, written, "strongbox")
        images.append({"before": before, "after": image(warband), "entries": written})
        lines.append(
            {
                "warband": warband.name,
                "before": before["strongbox"],
                "after": warband.strongbox,
                "reason": "; ".join(change.reason for change in changes[warband.pk]),
            }
        )
    return images, lines, held


def _summary(state: PostGameState, strongboxes: list[dict]) -> dict:
    return {
        "fighters": [
            {
                "id": change.fighter.pk,
                "name": change.fighter.name,
                "explanation": change.explanation,
                "rulings": [list(pair) for pair in change.rulings],
                "sentences": change.sentences,
                # Why its XP changed, as the history tells it beside the XP (RULING X-4); an older summary has none.
                **({"xp": change.xp_words} if change.xp_words else {}),
            }
            for change in state.changes
        ],
        "strongboxes": strongboxes,
        # Each step's words, in the registry's order.
        **{
            key: words
            for part in step_hooks(state.campaign, "summary", state.post_game)
            for key, words in part(state).items()
        },
    }


def _names(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _ransom_reason(state: PostGameState, change: StrongboxChange) -> str:
    """A paid ransom in a few words (TRAUMA_TABLE.md 12, Captured): "ransom for Brother Marcus" on the Strongbox
    that pays it, "ransom for Brother Marcus (from Iron Sepulchre)" on the captor's that receives it; the
    Exploration's loot with it or alone (RULING E-3): "ransom for Brother Marcus and loot from the Exploration"."""
    loot = "loot from the Exploration" if change.loot else ""
    if change.loot and change.delta == change.loot and not change.ransomed:
        return loot
    words = f"ransom for {_names(change.ransomed)}" if change.ransomed else "ransom"
    if change.warband.pk != state.warband.pk:
        return f"{words} (from {state.warband.name})"
    return f"{words} and {loot}" if loot else words


def _ready_state(player: GamePlayer) -> PostGameState:
    """The post-game worked out with its rows locked, refused when applied already or not ready. Its attempt is
    the state's own (read with it, not once more)."""
    refuse_while_played(player)
    state = post_game_state(player=player, for_update=True)
    live = state.post_game
    if live is not None and live.is_applied:
        raise PostGameError(
            f"{possessive(player.warband.name)} post-game of Game {player.game.number} is already applied "
            f"(by {live.applied_by or 'someone'} at {timezone.localtime(live.applied_at):%H:%M})."
        )
    if state.problem:
        raise PostGameError(state.problem)
    if state.blockers:
        raise PostGameError("Not ready to apply: " + " ".join(state.blockers))
    return state


def step_hooks(campaign, hook: str, post_game: PostGame | None = None) -> list:
    """The steps' Apply (or Revert) hooks, in the order of the post-game's steps (the registry names them): the
    steps its attempt opened with, so a house rule switched since changes neither its Apply nor its Revert."""
    steps = steps_for(campaign, post_game)
    return [import_string(getattr(step, hook)) for step in steps if getattr(step, hook)]


def _write_parts(state: PostGameState) -> tuple[dict[str, Any], list[dict]]:
    """Every part of the Apply, in order; the snapshot is their before-images put together."""
    snapshot: dict[str, Any] = {"fighters": apply_fighters(state)}
    snapshot["injuries_created"] = apply_injuries(state)
    snapshot.update(apply_battlekit(state))
    snapshot["warbands"], strongboxes, held = apply_strongboxes(state)
    # The steps after Experience, each with snapshot keys of its own, in the order the registry lists them.
    for apply_part in step_hooks(state.campaign, "apply", state.post_game):
        snapshot.update(apply_part(state))
    # The ledger's moves of the ransom, the loot and the parts, written together: each warband locked once, the
    # entries written with every part's new rows in one statement, each warband saved once.
    write_ledger_moves(state, ledger_moves_in(snapshot), held=held, new_rows=new_rows_in(snapshot))
    settle(snapshot)
    return snapshot, strongboxes


def ransom_context(state: PostGameState) -> dict[str, Any]:
    """Why each Strongbox moves, for the history feed (rosters.history): warband id -> "ransom for Brother Marcus"."""
    ransoms = {
        str(change.warband.pk): _ransom_reason(state, change) for change in state.strongboxes if change.delta
    }
    return {"ransoms": ransoms} if ransoms else {}


def write_apply(live: PostGame, state: PostGameState, *, by) -> None:
    """Every part of the Apply, and the attempt marked applied with its snapshot and summary; the caller holds the
    locks and the history context (the Apply's, or a correction's)."""
    snapshot, strongboxes = _write_parts(state)
    live.status = PostGame.Status.APPLIED
    live.applied_by = by
    live.applied_at = timezone.now()
    live.snapshot = snapshot
    earlier = live.summary.get("earlier") if isinstance(live.summary, dict) else None
    live.summary = {**_summary(state, strongboxes), **({"earlier": earlier} if earlier else {})}
    live.save(update_fields=["status", "applied_by", "applied_at", "snapshot", "summary"])


@transaction.atomic
def post_game_apply(*, player: GamePlayer, by) -> PostGame:
    """Step 5: write every change of the post-game to the roster in one transaction, with the before-image of
    every row it changes kept for `post_game_revert`. A second Apply is refused (the game is locked first, so of
    two at once one waits, then finds it applied)."""
    player = lock(player, with_others=True)
    state = _ready_state(player)
    live = state.post_game
    reason = f"Post-game of Game {player.game.number} applied to {player.warband.name}"
    context = ransom_context(state)
    with step_context(
        action="post_game.apply",
        player=player,
        by=by,
        step="apply",
        reason=reason,
        roll=state.roll_ids,
        **context,
    ):
        if live is None:
            live = open_attempt(player, by=by, action="post_game.apply", step="apply", reason=reason)
        write_apply(live, state, by=by)
        mark(
            player,
            GamePlayer.PostGame.DONE,
            by=by,
            action="post_game.apply",
            step="apply",
            reason=reason,
            locked=True,  # `lock` above, with the other warbands' post-game states
            others=player.others_post_game,
        )
    return live
