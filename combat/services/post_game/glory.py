"""The post-game's Use Glory step (CAMPAIGN_PHASE.md step 7, "Use Glory"; "Buying, selling, Glory"): its writes,
and its part of the Apply and the Revert.

- `post_game_glory_add`: a Glory Item (for a fighter or the Arsenal), a mercenary or another benefit, planned;
  refused, nothing stored, when the warband's Glory (counting what this post-game already planned) cannot pay;
- `post_game_glory_remove`: a planned spend taken back;
- `post_game_glory_pass`: the page passed, with or without spends.

The warband's row is locked before the Glory is read, so two tabs planning at once are served one after the other
and the second sees what the first planned. The Apply writes each spend (the Glory Item created, the mercenary
recruited at no ducats, the benefit in the ledger's words) with one ledger entry each moving Glory (cause "Use
Glory"); the Revert answers each entry with one of the opposite sign and deletes what the Apply created.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from campaigns.models import GamePlayer
from combat import rules
from combat.models import PostGame, PostGameGlory
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game import money
from combat.services.post_game.attempt import PostGameError, lock, open_attempt, step_context
from combat.services.post_game.bulk import NewRows
from rosters.models import Fighter, Item, LedgerCause, Warband
from rosters.services.common import clean_keywords

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


def _write(player: GamePlayer, *, by, reason: str):
    return step_context(action="post_game.glory", player=player, by=by, step="glory", reason=reason)


def _locked_state(player: GamePlayer):
    """The game, the player and the warband's row locked (the Glory is the warband's, whatever the game)."""
    player = lock(player)
    Warband.objects.select_for_update().filter(pk=player.warband_id).first()
    state = post_game_state(player=player)
    if state.problem:
        raise PostGameError(state.problem)
    if state.applied:
        raise PostGameError("This post-game is applied: revert it first to change it.")
    return player, state


def _checked(spend: PostGameGlory) -> PostGameGlory:
    """The model's own limits in plain words, before it is stored; only a Glory Item keeps its holder."""
    spend.name = " ".join((spend.name or "").split())
    spend.fighter_type = " ".join((spend.fighter_type or "").split())
    spend.benefit = " ".join((spend.benefit or "").split())
    if spend.kind != PostGameGlory.Kind.ITEM:
        spend.holder, spend.removable = None, True
    if spend.kind == PostGameGlory.Kind.BENEFIT and not spend.benefit:
        raise PostGameError("Say what the benefit is: the ledger keeps it.")
    try:
        spend.keywords = clean_keywords(spend.keywords)
        spend.full_clean(exclude=["post_game", "holder"], validate_constraints=False)
    except ValidationError as error:
        raise PostGameError(" ".join(error.messages)) from error
    return spend


@transaction.atomic
def post_game_glory_add(*, player: GamePlayer, by, spend: PostGameGlory) -> PostGameGlory:
    """One spend of Glory planned; refused, nothing stored, when the Glory cannot pay for it in full."""
    player, state = _locked_state(player)
    spend = _checked(spend)
    step = state.glory
    if spend.holder_id is not None and spend.holder_id not in {f.pk for f in step.holders}:
        raise PostGameError("That fighter is not on the roster after this post-game: it cannot carry it.")
    if step.glory_after - spend.glory < 0:
        raise PostGameError(
            f"{spend.name} costs {spend.glory} {step.glory_word}: {step.shortfall_words(spend.glory)}."
        )
    reason = (
        f"Post-game of Game {player.game.number}: {player.warband.name} plans to spend Glory on {spend.name}"
    )
    with _write(player, by=by, reason=reason):
        spend.post_game = open_attempt(player, by=by, action="post_game.glory", step="glory", reason=reason)
        spend.save()
    return spend


@transaction.atomic
def post_game_glory_remove(*, player: GamePlayer, by, spend_id: int) -> PostGame:
    """A planned spend taken back; refused once applied."""
    player, state = _locked_state(player)
    line = next((line for line in state.glory.lines if line.id == spend_id), None)
    if line is None:
        raise PostGameError("That spend of Glory is not planned in this post-game (taken back already?).")
    reason = f"Post-game of Game {player.game.number}: {line.spend.name} taken back for {player.warband.name}"
    with _write(player, by=by, reason=reason):
        PostGameGlory.objects.filter(pk=spend_id).delete()
    return state.post_game


@transaction.atomic
def post_game_glory_pass(*, player: GamePlayer, by) -> PostGame:
    """The Use Glory page passed (spending Glory is optional)."""
    player, _state = _locked_state(player)
    reason = f"Post-game of Game {player.game.number}: Use Glory done for {player.warband.name}"
    with _write(player, by=by, reason=reason):
        live = open_attempt(player, by=by, action="post_game.glory", step="glory", reason=reason)
        if not live.glory_passed:
            live.glory_passed = True
            live.save(update_fields=["glory_passed"])
    return live


def summary_part(state: PostGameState) -> dict[str, Any]:
    """The sentence for the applied summary, and each spend's words for the history (one line each)."""
    step = state.glory
    if step is None or not step.lines:
        return {}
    return {"glory": step.sentence, "glory_spends": [line.words for line in step.lines]}


def _created(state: PostGameState, lines) -> dict[str, NewRows]:
    """The Glory Items and the mercenaries, created with the Apply's other new rows (no ducats: they were paid
    in Glory)."""
    items = [
        Item(
            warband=state.warband,
            fighter_id=line.spend.holder_id,
            name=line.spend.name,
            keywords=list(line.spend.keywords),
            removable=line.spend.removable,
            notes=f"Glory Item: {line.glory} {state.terms.glory}",
        )
        for line in lines
        if line.spend.kind == PostGameGlory.Kind.ITEM
    ]
    hired = [
        Fighter(
            warband=state.warband,
            name=line.spend.name,
            fighter_type=line.spend.fighter_type,
            # Marked as a mercenary, so never promoted ("nor can allies and mercenaries", hired_not_promoted).
            keywords=clean_keywords([*line.spend.keywords, rules.MERCENARY]),
        )
        for line in lines
        if line.spend.kind == PostGameGlory.Kind.MERCENARY
    ]
    for row in (*items, *hired):
        row.full_clean(exclude=["warband", "fighter"], validate_unique=False, validate_constraints=False)
    return {"items_created": NewRows(Item, items), "fighters_created": NewRows(Fighter, hired)}


def apply_part(state: PostGameState) -> dict[str, Any]:
    """Each spend written, one ledger entry each moving Glory (cause "Use Glory")."""
    step = state.glory
    if step is None or not step.lines:
        return {}
    part: dict[str, Any] = {"warband_id": state.warband.pk}
    part.update(_created(state, step.lines))
    moves = [(LedgerCause.GLORY, -line.glory, line.words) for line in step.lines]
    part["glory_entries"] = money.post_moves(state, moves, glory=True)
    return {"glory_part": part}


def revert_part(snapshot: Mapping[str, Any]) -> None:
    """The spends taken back: the Glory returned by entries of the opposite sign, what they bought struck off."""
    part = (snapshot or {}).get("glory_part")
    if part:
        money.take_back(part, refusal="The Glory has moved since: this post-game can no longer be reverted.")
