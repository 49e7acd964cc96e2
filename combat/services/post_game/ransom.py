"""Step 3 of the post-game, Captured (TRAUMA_TABLE.md 12): the players agree a ransom, or the fighter is executed."""

from __future__ import annotations

from django.db import transaction

from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameFighter
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.services.post_game.attempt import PostGameError, fighter_name, lock, open_attempt, step_context


def _refuse_unless_captured(state: PostGameState, fighter_id: int, name: str) -> None:
    casualty = next((casualty for casualty in state.casualties if casualty.id == fighter_id), None)
    if casualty is None or casualty.outcome is None or casualty.outcome.entry is None:
        raise PostGameError(f"{name} has no Trauma result yet.")
    if casualty.outcome.entry.code != "captured":
        raise PostGameError(f"{name} was not Captured: there is no ransom to agree.")


def _refuse_unpayable(state: PostGameState, live: PostGame, fighter_id: int, ransom: int) -> None:
    """The ransom is a whole number the warband's Strongbox can pay, with the other ransoms of this post-game."""
    terms = state.terms
    if type(ransom) is not int or ransom < 0:
        raise PostGameError(f"The ransom must be a whole number of {terms.currency}, 0 or more.")
    paid = PostGameFighter.objects.filter(post_game=live, ransom_paid=True).exclude(fighter_id=fighter_id)
    others = sum(answer.ransom for answer in paid)
    if ransom + others > state.warband.strongbox:
        left = state.warband.strongbox - others
        raise PostGameError(
            f"{state.warband.name}'s {terms.strongbox} holds only {left} {terms.currency}"
            + (f" after the other ransoms ({others})" if others else "")
            + f": a ransom of {ransom} cannot be paid."
        )


def _captor(state: PostGameState, *, paid: bool, captor_id: int | None, name: str) -> int | None:
    """The warband holding the fighter: one of the game's others; the only one when the game had two."""
    opponents = {warband.pk for warband in state.opponents}
    if paid and captor_id is None and len(opponents) == 1:
        captor_id = next(iter(opponents))
    if paid and captor_id is None and opponents:
        raise PostGameError(f"Choose the {state.terms.warband} that holds {name} captive.")
    if captor_id is not None and captor_id not in opponents:
        raise PostGameError(f"That {state.terms.warband} did not take part in Game {state.game.number}.")
    return captor_id


@transaction.atomic
def post_game_answer_ransom(
    *,
    player: GamePlayer,
    fighter_id: int,
    paid: bool,
    by,
    ransom: int = 0,
    captor_id: int | None = None,
) -> PostGameFighter:
    """Step 3, Captured (TRAUMA_TABLE.md 12): the players agree a ransom or not. Paid, the ducats will move from
    this warband's Strongbox to the captor's and the result counts as Full Recovery (RULING T-8); unpaid, the
    fighter is executed (RULING T-6). Written to the roster only by the Apply; the answer can change until then."""
    player = lock(player)
    name = fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: {name}'s ransom {'paid' if paid else 'refused'}"
    action = "post_game.ransom"
    with step_context(action=action, player=player, by=by, step="elites", reason=reason, fighter=fighter_id):
        live = open_attempt(player, by=by, action=action, step="elites", reason=reason)
        state = post_game_state(player=player)
        _refuse_unless_captured(state, fighter_id, name)
        if type(paid) is not bool:
            raise PostGameError("Say whether the ransom is paid: yes or no.")
        if paid:
            _refuse_unpayable(state, live, fighter_id, ransom)
        else:
            ransom = 0
        captor_id = _captor(state, paid=paid, captor_id=captor_id, name=name)
        answer, _ = PostGameFighter.objects.update_or_create(
            post_game=live,
            fighter_id=fighter_id,
            defaults={"ransom_paid": paid, "ransom": ransom, "captor_id": captor_id},
        )
    return answer
