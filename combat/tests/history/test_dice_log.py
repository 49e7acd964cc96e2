"""The dice log's rolls in the feed's sentences (combat/history/dice_log.py): who rolled, and when a roll no longer
counts, that it was later voided, corrected or undone, by whom and why."""

import pghistory
import pytest

from combat.models import DiceRoll
from combat.tests.dice_helpers import in_post_game, strike
from combat.tests.post_game_helpers import AfterGame
from rosters.models import Injury
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def trauma(campaign, warband, marcus, game3, player):
    """Brother Marcus's Trauma roll of Game 3, and the Hand Wound the post-game's Apply gave him for it."""
    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=game3,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        source="entered",
        sides=6,
        faces=[1, 4],
        purpose="trauma",
        label="D66 14",
    )
    with pghistory.context(
        action="post_game.apply",
        reason=f"Post-game of Game 3 applied to {warband.name}",
        game=game3.pk,
        warband=warband.pk,
        roll=[roll.pk],
        user=player.pk,
        step="apply",
    ):
        Injury.objects.create(fighter=marcus, code="14", name="Hand Wound", game=game3, d66=14)
    return roll


HAND_WOUND = (
    "Brother Marcus suffered Hand Wound (D66 14) — post-game of Game 3, entered by Pat from the table"
)


def injuries(campaign) -> list[str]:
    return sentences(campaign, kind="injuries")


def test_a_roll_that_counts_reads_as_before(campaign, trauma):
    assert HAND_WOUND in injuries(campaign)


def test_a_corrected_roll_says_the_right_faces_who_and_why(campaign, trauma, player):
    strike(trauma, "corrected", by=player, reason="typo", faces=[4, 1])
    assert f"{HAND_WOUND}, later corrected to 4, 1 by Pat (typo)" in injuries(campaign)


def test_a_voided_roll_says_who_voided_it_and_why(campaign, trauma, organiser):
    strike(trauma, "voided", by=organiser, reason="rolled for the wrong fighter")
    assert f"{HAND_WOUND}, later voided by Olga (rolled for the wrong fighter)" in injuries(campaign)


def test_an_undone_post_game_roll_says_its_post_game_was_reverted(
    campaign, trauma, organiser, warband, rival_warband, game3
):
    from campaigns.models import GamePlayer

    after = AfterGame(game3, GamePlayer.objects.get(game=game3, warband=warband), None)
    in_post_game(trauma, after)
    strike(trauma, "undone", by=organiser, reason="Its post-game was reverted (before rolls were kept)")
    assert f"{HAND_WOUND}, later undone by Olga (post-game reverted)" in injuries(campaign)


def test_a_mark_without_who_still_reads(campaign, trauma):
    strike(trauma, "undone", by=None, reason="Undo of: something")
    assert f"{HAND_WOUND}, later undone (tracker Undo)" in injuries(campaign)
