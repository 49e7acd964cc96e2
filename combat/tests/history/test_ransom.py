"""combat/history/ransom.py: a ransom by agreement told in the campaign feed (TRAUMA_TABLE.md 12)."""

import pytest

from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import (
    post_game_answer_ransom_offer,
    post_game_offer_ransom,
    post_game_reopen_ransom,
    post_game_withdraw_ransom,
)
from combat.tests.post_game_helpers import enter, record_game
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def captured(campaign, warband, rival_warband, marcus, player):
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[marcus]
    )
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)  # D66 12: Captured
    return after


def ransom_sentences(campaign) -> list[str]:
    return [sentence for sentence in sentences(campaign) if "ransom" in sentence.lower()]


def test_the_offer_its_withdrawal_and_the_captors_acceptance_are_told(
    campaign, captured, marcus, player, player2
):
    offer = {"player": captured.player, "fighter_id": marcus.pk, "paid": True}
    post_game_offer_ransom(**offer, ransom=40, by=player)
    post_game_withdraw_ransom(player=captured.player, fighter_id=marcus.pk, by=player)
    post_game_offer_ransom(**offer, ransom=30, by=player)
    post_game_answer_ransom_offer(player=captured.player, fighter_id=marcus.pk, accept=True, by=player2)

    assert ransom_sentences(campaign) == [
        "Heretic Legion accepted 30 ducats as Brother Marcus' ransom: Full Recovery at the Apply (RULING T-8) "
        "— Game 1 by Bob",
        "30 ducats offered to Heretic Legion as Brother Marcus' ransom — Game 1 by Pat",
        "The ransom offer for Brother Marcus was withdrawn — Game 1 by Pat",
        "40 ducats offered to Heretic Legion as Brother Marcus' ransom — Game 1 by Pat",
    ]


def test_a_refusal_and_a_declared_no_ransom_are_told(campaign, captured, marcus, player, player2, organiser):
    post_game_offer_ransom(player=captured.player, fighter_id=marcus.pk, paid=False, by=player)
    post_game_withdraw_ransom(player=captured.player, fighter_id=marcus.pk, by=player)
    post_game_offer_ransom(player=captured.player, fighter_id=marcus.pk, paid=True, ransom=10, by=player)
    post_game_answer_ransom_offer(player=captured.player, fighter_id=marcus.pk, accept=False, by=organiser)

    found = ransom_sentences(campaign)
    assert found[0] == (
        "Heretic Legion refused 10 ducats as Brother Marcus' ransom: executed at the Apply (RULING T-6) "
        "— Game 1 by Olga"
    )
    assert (
        found[-1]
        == "No ransom offered for Brother Marcus: executed at the Apply (RULING T-6) — Game 1 by Pat"
    )


def test_the_other_post_game_answers_are_not_told_as_ransoms(campaign, captured, marcus, player):
    post_game_offer_ransom(player=captured.player, fighter_id=marcus.pk, paid=True, ransom=5, by=player)
    assert len(ransom_sentences(campaign)) == 1
    assert sentences(campaign, fighter_id=marcus.pk)[0] == (
        "5 ducats offered to Heretic Legion as Brother Marcus' ransom — Game 1 by Pat"
    )


def test_an_answer_the_organiser_reopened_is_told_with_its_reason(
    campaign, captured, marcus, player, player2, organiser
):
    post_game_offer_ransom(player=captured.player, fighter_id=marcus.pk, paid=True, ransom=10, by=player)
    post_game_answer_ransom_offer(player=captured.player, fighter_id=marcus.pk, accept=True, by=player2)
    post_game_reopen_ransom(
        player=captured.player, fighter_id=marcus.pk, by=organiser, reason="a wrong click"
    )

    assert ransom_sentences(campaign)[0] == (
        "The answer to the ransom offer for Brother Marcus was reopened: it waits for Heretic Legion again "
        "(a wrong click) — Game 1 by Olga"
    )
