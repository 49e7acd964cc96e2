"""Step 3 of the post-game, Captured (TRAUMA_TABLE.md 12): a ransom by agreement, or the fighter is executed.

"The players may agree a ransom": the captive's owner (or the organiser) offers ducats to the captor, one of the
game's other warbands (`post_game_offer_ransom`), or declares that no ransom is offered (RULING T-6: executed).
The captor's player (or the organiser, for an absent player) accepts or refuses the offer
(`post_game_answer_ransom_offer`): accepted, the ransom is paid and counts as Full Recovery (RULING T-8), the
Apply moving the ducats; refused, the fighter is executed (RULING T-6). The owner may change or withdraw an offer
until it is answered (`post_game_withdraw_ransom`); an answered offer stands.

Every write locks the game, then the captive's warband's entry in it (`attempt.lock`): the post-game belongs to
the captive's warband, so the captor's answer and the owner's offer are served one after the other.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone

from campaigns.access import is_organiser, membership_of
from campaigns.models import GamePlayer
from combat.models import PostGame, PostGameFighter
from combat.rules.words import possessive
from combat.selectors.post_game.state import PostGameState, post_game_state
from combat.services.post_game.attempt import PostGameError, fighter_name, lock, open_attempt, step_context
from rosters.access import can_change_warband
from rosters.history.lookups import display_name


def _refuse_unless_captured(state: PostGameState, fighter_id: int, name: str) -> None:
    casualty = next((casualty for casualty in state.casualties if casualty.id == fighter_id), None)
    if casualty is None or casualty.outcome is None or casualty.outcome.entry is None:
        raise PostGameError(f"{name} has no Trauma result yet.")
    if casualty.outcome.entry.code != "captured":
        raise PostGameError(f"{name} was not Captured: there is no ransom to agree.")


def _refuse_unpayable(state: PostGameState, live: PostGame, fighter_id: int, ransom: int) -> None:
    """The ransom is a whole number the warband's Strongbox can pay, with the other ransoms of this post-game
    (those paid and those offered and waiting for an answer)."""
    terms = state.terms
    if type(ransom) is not int or ransom < 0:
        raise PostGameError(f"The ransom must be a whole number of {terms.currency}, 0 or more.")
    others = 0
    for answer in PostGameFighter.objects.filter(post_game=live).exclude(fighter_id=fighter_id):
        if answer.ransom_paid:
            others += answer.ransom
        elif answer.ransom_paid is None and answer.ransom_offer is not None:
            others += answer.ransom_offer
    if ransom + others > state.warband.strongbox:
        left = state.warband.strongbox - others
        raise PostGameError(
            f"{possessive(state.warband.name)} {terms.strongbox} holds only {left} {terms.currency}"
            + (f" after the other ransoms ({others})" if others else "")
            + f": a ransom of {ransom} cannot be paid."
        )


def _captor(state: PostGameState, *, captor_id: int | None, name: str) -> int | None:
    """The warband holding the fighter: one of the game's others; the only one when the game had two."""
    opponents = {warband.pk for warband in state.opponents}
    if not opponents:
        # Nobody could answer an offer: the owner can only declare that no ransom is offered.
        raise PostGameError(
            f"No other {state.terms.warband} played Game {state.game.number}: nobody can accept a ransom for {name}."
        )
    if captor_id is None and len(opponents) == 1:
        captor_id = next(iter(opponents))
    if captor_id is None and opponents:
        raise PostGameError(f"Choose the {state.terms.warband} that holds {name} captive.")
    if captor_id is not None and captor_id not in opponents:
        raise PostGameError(f"That {state.terms.warband} did not take part in Game {state.game.number}.")
    return captor_id


def settled_words(answer: PostGameFighter, name: str) -> str:
    """Why an answered ransom can no longer be changed, in a player's words."""
    who = display_name(answer.ransom_answered_by)
    if answer.ransom_paid:
        return f"{possessive(name)} ransom offer was accepted by {who}: it stands."
    return f"{possessive(name)} ransom offer was refused by {who}: it stands."


def _answer(live: PostGame, fighter_id: int) -> PostGameFighter | None:
    return (
        PostGameFighter.objects.select_for_update(of=("self",))
        .select_related("captor__owner", "ransom_answered_by")
        .filter(post_game=live, fighter_id=fighter_id)
        .first()
    )


def _refuse_if_answered(answer: PostGameFighter | None, name: str) -> None:
    # An offer the captor answered stands; a "no ransom" the owner declared alone may be taken back.
    if answer is not None and answer.ransom_paid is not None and answer.ransom_offer is not None:
        raise PostGameError(settled_words(answer, name))


@transaction.atomic
def post_game_offer_ransom(
    *,
    player: GamePlayer,
    fighter_id: int,
    paid: bool,
    by,
    ransom: int = 0,
    captor_id: int | None = None,
) -> PostGameFighter:
    """Captured (TRAUMA_TABLE.md 12): the captive's owner offers `ransom` ducats to the captor, to be accepted or
    refused by the captor's player; or (`paid` False) declares no ransom, and the fighter is executed (RULING
    T-6). An offer can be changed until it is answered; nothing reaches the roster before the Apply."""
    player = lock(player)
    name = fighter_name(player, fighter_id)
    if type(paid) is not bool:
        raise PostGameError("Say whether a ransom is offered: yes or no.")
    words = f"offered a ransom of {ransom}" if paid else "declared no ransom"
    reason = f"Post-game of Game {player.game.number}: {name}: {words}"
    action = "post_game.ransom_offer"
    with step_context(action=action, player=player, by=by, step="elites", reason=reason, fighter=fighter_id):
        live = open_attempt(player, by=by, action=action, step="elites", reason=reason)
        state = post_game_state(player=player)
        _refuse_unless_captured(state, fighter_id, name)
        _refuse_if_answered(_answer(live, fighter_id), name)
        if paid:
            _refuse_unpayable(state, live, fighter_id, ransom)
        captor_id = _captor(state, captor_id=captor_id, name=name) if paid or captor_id else None
        now = timezone.now()
        defaults = {
            "ransom_paid": None if paid else False,
            "ransom": 0,
            "captor_id": captor_id,
            "ransom_offer": ransom if paid else None,
            "ransom_offered_by": by,
            "ransom_offered_at": now,
            # No ransom needs nobody's agreement: the owner's declaration is the answer.
            "ransom_answered_by": None if paid else by,
            "ransom_answered_at": None if paid else now,
        }
        answer, _ = PostGameFighter.objects.update_or_create(
            post_game=live, fighter_id=fighter_id, defaults=defaults
        )
    return answer


@transaction.atomic
def post_game_withdraw_ransom(*, player: GamePlayer, fighter_id: int, by) -> PostGameFighter:
    """The owner takes back an offer not yet answered (or a "no ransom" they declared): the ransom waits again."""
    player = lock(player)
    name = fighter_name(player, fighter_id)
    reason = f"Post-game of Game {player.game.number}: {name}: ransom offer withdrawn"
    action = "post_game.ransom_withdraw"
    with step_context(action=action, player=player, by=by, step="elites", reason=reason, fighter=fighter_id):
        live = open_attempt(player, by=by, action=action, step="elites", reason=reason)
        answer = _answer(live, fighter_id)
        _refuse_if_answered(answer, name)
        if answer is None or (answer.ransom_offer is None and answer.ransom_paid is None):
            raise PostGameError(f"There is no ransom offer for {name} to withdraw.")
        for field in ("ransom_paid", "captor", "ransom_offer", "ransom_offered_by", "ransom_offered_at"):
            setattr(answer, field, None)
        answer.ransom_answered_by = answer.ransom_answered_at = None
        answer.ransom = 0
        answer.save()
    return answer


def _refuse_unless_captor(player: GamePlayer, answer: PostGameFighter, by) -> None:
    """The captor's owner, or the campaign's organiser for an absent player, answers; nobody else."""
    membership = membership_of(by, player.game.campaign)
    if not can_change_warband(membership, answer.captor):
        raise PermissionDenied(
            f"Only {possessive(answer.captor.name)} player or the campaign's organiser can answer this offer."
        )


@transaction.atomic
def post_game_answer_ransom_offer(
    *, player: GamePlayer, fighter_id: int, accept: bool, by
) -> PostGameFighter:
    """The captor's player accepts the ransom offered for a Captured fighter (paid: Full Recovery, RULING T-8; the
    Apply moves the ducats) or refuses it (executed, RULING T-6). `player` is the captive's warband's entry."""
    player = lock(player)
    name = fighter_name(player, fighter_id)
    if type(accept) is not bool:
        raise PostGameError("Say whether the ransom offer is accepted or refused.")
    reason = f"Post-game of Game {player.game.number}: {possessive(name)} ransom {'accepted' if accept else 'refused'}"
    action = "post_game.ransom_answer"
    with step_context(action=action, player=player, by=by, step="elites", reason=reason, fighter=fighter_id):
        live = open_attempt(player, by=by, action=action, step="elites", reason=reason)
        answer = _answer(live, fighter_id)
        if answer is None or answer.ransom_offer is None or answer.captor is None:
            raise PostGameError(f"There is no ransom offer for {name} to answer.")
        _refuse_unless_captor(player, answer, by)
        _refuse_if_answered(answer, name)
        state = post_game_state(player=player)
        _refuse_unless_captured(state, fighter_id, name)
        if accept:
            # The Strongbox may have moved since the offer: it must still pay this one with the others.
            _refuse_unpayable(state, live, fighter_id, answer.ransom_offer)
        answer.ransom_paid = accept
        answer.ransom = answer.ransom_offer if accept else 0
        answer.ransom_answered_by = by
        answer.ransom_answered_at = timezone.now()
        answer.save()
    return answer


@transaction.atomic
def post_game_answer_ransom(
    *, player: GamePlayer, fighter_id: int, paid: bool, by, ransom: int = 0, captor_id: int | None = None
) -> PostGameFighter:
    """A ransom both players agreed at the table, recorded at once: the offer and its acceptance (or no ransom).
    No page calls it (a player's offer waits for the captor's answer, `post_game_answer_ransom_offer`); the demo
    loader and the tests' fixtures do, for a post-game typed in after the fact."""
    answer = post_game_offer_ransom(
        player=player, fighter_id=fighter_id, paid=paid, by=by, ransom=ransom, captor_id=captor_id
    )
    if not paid:
        return answer
    with step_context(
        action="post_game.ransom_answer",
        player=player,
        by=by,
        step="elites",
        reason=f"Post-game of Game {player.game.number}: ransom agreed",
        fighter=fighter_id,
    ):
        answer.ransom_paid, answer.ransom = True, answer.ransom_offer
        answer.ransom_answered_by, answer.ransom_answered_at = by, timezone.now()
        answer.save()
    return answer


@transaction.atomic
def post_game_reopen_ransom(*, player: GamePlayer, fighter_id: int, by, reason: str) -> PostGameFighter:
    """The organiser reopens an answered offer before the Apply (a mistaken Accept, a player who answered for the
    wrong fighter), with a reason: the offer waits for the captor's answer again, and the history says why."""
    player = lock(player)
    name = fighter_name(player, fighter_id)
    if not is_organiser(membership_of(by, player.game.campaign)):
        raise PermissionDenied("Only the campaign's organiser can reopen an answered ransom offer.")
    reason = (reason or "").strip()
    if not reason:
        raise PostGameError(f"Say why {possessive(name)} ransom answer is reopened.")
    action = "post_game.ransom_reopen"
    with step_context(action=action, player=player, by=by, step="elites", reason=reason, fighter=fighter_id):
        live = open_attempt(player, by=by, action=action, step="elites", reason=reason)
        answer = _answer(live, fighter_id)
        if answer is None or answer.ransom_offer is None or answer.ransom_paid is None:
            raise PostGameError(f"{possessive(name)} ransom offer has no answer to reopen.")
        answer.ransom_paid, answer.ransom = None, 0
        answer.ransom_answered_by = answer.ransom_answered_at = None
        answer.save()
    return answer
