"""combat/services/post_game/ransom.py: a ransom by agreement (TRAUMA_TABLE.md 12; RULINGS T-6, T-8). The captive's
owner offers, the captor's player (or the organiser) accepts or refuses; the Apply waits for the answer."""

import pytest
from django.core.exceptions import PermissionDenied

from campaigns.tests.history import last_context
from combat.models import PostGameFighter
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import (
    post_game_answer_ransom_offer,
    post_game_offer_ransom,
    post_game_reopen_ransom,
    post_game_withdraw_ransom,
)
from combat.tests.post_game_helpers import casualty, enter
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def captured(after, fighters, player):
    """Brother Marcus taken Out of Action and Captured (D66 12)."""
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    return marcus


def offer(after, fighter, ducats, by):
    return post_game_offer_ransom(player=after.player, fighter_id=fighter.pk, paid=True, ransom=ducats, by=by)


def answer(after, fighter, accept, by):
    return post_game_answer_ransom_offer(player=after.player, fighter_id=fighter.pk, accept=accept, by=by)


def row(after, fighter) -> PostGameFighter:
    return PostGameFighter.objects.get(post_game__player=after.player, fighter=fighter)


def test_an_offer_waits_for_the_captor_and_the_apply_says_whose_answer_it_waits_for(
    after, captured, player, player2, rival_warband
):
    offer(after, captured, 30, player)

    stored = row(after, captured)
    assert (stored.ransom_paid, stored.ransom, stored.ransom_offer) == (None, 0, 30)
    assert (stored.captor_id, stored.ransom_offered_by_id) == (rival_warband.pk, player.pk)
    assert stored.ransom_offered_at is not None
    assert stored.ransom_answered_at is None
    assert casualty(after, captured).waiting_for == "ransom"
    blockers = list(after.state().blockers)
    assert blockers == [
        f"Waiting for {player2.first_name or player2.username}'s answer to the ransom offer for Brother Marcus "
        "(30 offered to Heretic Legion)."
    ]
    with pytest.raises(PostGameError, match="answer to the ransom offer"):
        post_game_apply(player=after.player, by=player)


def test_accepted_the_apply_moves_the_ducats_and_it_counts_as_full_recovery(
    after, captured, player, player2, warband, rival_warband
):
    offer(after, captured, 30, player)
    answer(after, captured, True, player2)

    stored = row(after, captured)
    assert (stored.ransom_paid, stored.ransom, stored.ransom_answered_by_id) == (True, 30, player2.pk)
    assert stored.ransom_answered_at is not None
    assert last_context(stored)["action"] == "post_game.ransom_answer"
    post_game_apply(player=after.player, by=player)
    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    captured.refresh_from_db()
    assert (warband.strongbox, rival_warband.strongbox) == (20, 60)
    assert captured.status == Fighter.Status.ACTIVE  # RULING T-8


def test_refused_the_fighter_is_executed_and_no_ducats_move(
    after, captured, player, player2, warband, rival_warband
):
    offer(after, captured, 30, player)
    answer(after, captured, False, player2)

    assert (row(after, captured).ransom_paid, row(after, captured).ransom) == (False, 0)
    post_game_apply(player=after.player, by=player)
    captured.refresh_from_db()
    warband.refresh_from_db()
    rival_warband.refresh_from_db()
    assert captured.status == Fighter.Status.EXECUTED  # RULING T-6
    assert (warband.strongbox, rival_warband.strongbox) == (50, 30)


def test_declaring_no_ransom_settles_it_at_once_and_can_be_taken_back_before_the_apply(
    after, captured, player
):
    post_game_offer_ransom(player=after.player, fighter_id=captured.pk, paid=False, by=player)
    stored = row(after, captured)
    assert (stored.ransom_paid, stored.ransom_offer, stored.ransom_answered_by_id) == (False, None, player.pk)
    assert casualty(after, captured).waiting_for is None

    post_game_withdraw_ransom(player=after.player, fighter_id=captured.pk, by=player)
    assert casualty(after, captured).waiting_for == "ransom"


def test_the_owner_can_change_and_withdraw_an_offer_until_it_is_answered(after, captured, player):
    offer(after, captured, 30, player)
    offer(after, captured, 10, player)
    assert row(after, captured).ransom_offer == 10

    post_game_withdraw_ransom(player=after.player, fighter_id=captured.pk, by=player)
    stored = row(after, captured)
    assert (stored.ransom_paid, stored.ransom_offer, stored.captor_id, stored.ransom_offered_by_id) == (
        None,
        None,
        None,
        None,
    )
    assert list(after.state().blockers) == [
        "Offer a ransom for Brother Marcus, or declare that none is offered."
    ]


@pytest.mark.parametrize("accept", [True, False])
def test_an_answered_offer_stands_the_owner_can_neither_change_nor_withdraw_it(
    after, captured, player, player2, accept
):
    offer(after, captured, 30, player)
    answer(after, captured, accept, player2)
    before = row(after, captured)
    words = "accepted" if accept else "refused"

    with pytest.raises(PostGameError, match=f"Brother Marcus' ransom offer was {words} by"):
        offer(after, captured, 5, player)
    with pytest.raises(PostGameError, match=f"was {words}"):
        post_game_withdraw_ransom(player=after.player, fighter_id=captured.pk, by=player)
    with pytest.raises(PostGameError, match=f"was {words}"):
        answer(after, captured, not accept, player2)
    after_refusals = row(after, captured)
    assert (after_refusals.ransom_paid, after_refusals.ransom, after_refusals.ransom_offer) == (
        before.ransom_paid,
        before.ransom,
        before.ransom_offer,
    )


def test_the_organiser_answers_for_an_absent_captor(after, captured, player, organiser):
    offer(after, captured, 30, player)
    answer(after, captured, True, organiser)
    assert (row(after, captured).ransom_paid, row(after, captured).ransom_answered_by_id) == (
        True,
        organiser.pk,
    )


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_only_the_captor_or_the_organiser_may_answer(request, after, captured, player, who):
    offer(after, captured, 30, player)
    with pytest.raises(PermissionDenied, match="Heretic Legion's player or the campaign's organiser"):
        answer(after, captured, True, request.getfixturevalue(who))
    assert row(after, captured).ransom_paid is None


def test_there_is_nothing_to_answer_without_an_offer(after, captured, player2):
    with pytest.raises(PostGameError, match="no ransom offer for Brother Marcus to answer"):
        answer(after, captured, True, player2)
    assert not PostGameFighter.objects.filter(fighter=captured).exists()


def test_an_offer_the_strongbox_cannot_pay_with_the_other_offers_is_refused(after, fighters, player):
    marcus, ada = fighters["marcus"], fighters["ada"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk, ada.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    enter(after, ada, 1, 2, by=player)
    offer(after, marcus, 40, player)  # waiting: it still counts against the Strongbox's 50

    with pytest.raises(PostGameError, match=r"holds only 10 ducats after the other ransoms \(40\)"):
        offer(after, ada, 11, player)
    assert not PostGameFighter.objects.filter(fighter=ada, ransom_offer__isnull=False).exists()


def test_accepting_is_refused_when_the_strongbox_no_longer_pays_it(after, captured, player, player2, warband):
    offer(after, captured, 30, player)
    type(warband).objects.filter(pk=warband.pk).update(strongbox=20)  # spent elsewhere since the offer

    with pytest.raises(PostGameError, match="holds only 20 ducats"):
        answer(after, captured, True, player2)
    assert row(after, captured).ransom_paid is None


def test_there_is_no_ransom_for_a_fighter_not_captured(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 4, by=player)  # Hand Wound
    with pytest.raises(PostGameError, match="was not Captured"):
        offer(after, marcus, 10, player)


def test_the_organiser_reopens_an_answer_with_a_reason_and_the_captor_answers_again(
    after, captured, player, player2, organiser
):
    offer(after, captured, 30, player)
    answer(after, captured, True, player2)

    post_game_reopen_ransom(
        player=after.player, fighter_id=captured.pk, by=organiser, reason="Bob meant Refuse"
    )

    stored = row(after, captured)
    assert (stored.ransom_paid, stored.ransom, stored.ransom_offer, stored.ransom_answered_by_id) == (
        None,
        0,
        30,
        None,
    )
    assert last_context(stored)["reason"] == "Bob meant Refuse"
    answer(after, captured, False, player2)
    assert row(after, captured).ransom_paid is False


@pytest.mark.parametrize("who", ["player", "player2"])
def test_only_the_organiser_reopens_and_only_with_a_reason(
    request, after, captured, player, player2, organiser, who
):
    offer(after, captured, 30, player)
    answer(after, captured, True, player2)
    with pytest.raises(PermissionDenied, match="Only the campaign's organiser"):
        post_game_reopen_ransom(
            player=after.player, fighter_id=captured.pk, by=request.getfixturevalue(who), reason="oops"
        )
    with pytest.raises(PostGameError, match="Say why Brother Marcus' ransom answer is reopened"):
        post_game_reopen_ransom(player=after.player, fighter_id=captured.pk, by=organiser, reason="  ")
    assert row(after, captured).ransom_paid is True


def test_there_is_nothing_to_reopen_before_an_answer_or_after_the_apply(
    after, captured, player, player2, organiser
):
    offer(after, captured, 30, player)
    with pytest.raises(PostGameError, match="has no answer to reopen"):
        post_game_reopen_ransom(player=after.player, fighter_id=captured.pk, by=organiser, reason="why not")
    answer(after, captured, True, player2)
    post_game_apply(player=after.player, by=player)
    with pytest.raises(PostGameError, match="already applied"):
        post_game_reopen_ransom(player=after.player, fighter_id=captured.pk, by=organiser, reason="too late")
    assert row(after, captured).ransom_paid is True


def test_an_offer_nobody_could_answer_is_refused(after, captured, player):
    after.rival.delete()  # the game had no other warband: no captor to accept
    with pytest.raises(PostGameError, match="No other warband played Game 1: nobody can accept a ransom"):
        offer(after, captured, 10, player)
    post_game_offer_ransom(player=after.player, fighter_id=captured.pk, paid=False, by=player)
    assert row(after, captured).ransom_paid is False
