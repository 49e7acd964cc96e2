"""combat/selectors/post_game/offers.py: the ransom offers waiting on each player's dashboard (TRAUMA_TABLE.md 12),
read in one query whatever their number."""

import pytest

from campaigns.models import Membership
from campaigns.services.members import membership_set_role
from combat.selectors.post_game.offers import ransom_items
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_offer_ransom
from combat.tests.post_game_helpers import enter, record_game
from rosters.selectors.dashboard import dashboard_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter, player):
    """Brother Marcus Captured (D66 12) in Game 1; Iron Sepulchre's post-game is open."""
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[marcus]
    )
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 1, 2, by=player)
    after.marcus = marcus
    return after


def offered(after, player, ducats=30):
    return post_game_offer_ransom(
        player=after.player, fighter_id=after.marcus.pk, paid=True, ransom=ducats, by=player
    )


def test_the_owner_sees_on_the_dashboard_whose_answer_the_offer_waits_for(after, player, player2):
    offered(after, player)
    (item,) = ransom_items(user=player)
    assert item.text == (
        f"Brother Marcus' ransom (Game 1): 30 ducats offered to Heretic Legion, waiting for "
        f"{player2.username}'s answer."
    )
    assert item.actions == ()
    (to_answer,) = ransom_items(user=player2)
    assert [action.label for action in to_answer.actions] == ["Accept", "Refuse"]


def test_a_captor_made_spectator_is_not_asked_to_answer(after, campaign, organiser, player, player2):
    offered(after, player)
    membership = Membership.objects.get(campaign=campaign, user=player2)
    membership_set_role(membership=membership, role=Membership.Role.SPECTATOR, by=organiser)

    assert ransom_items(user=player2) == []
    assert dashboard_for(user=player2).items == []
    # The captive's owner still sees the offer waiting.
    assert len(ransom_items(user=player)) == 1


def test_the_dashboard_reads_offers_in_a_constant_number_of_queries(
    after, campaign, warband, rival_warband, make_fighter, player, player2, django_assert_num_queries
):
    offered(after, player)
    with django_assert_num_queries(2):
        assert len(dashboard_for(user=player2).items) == 1
    for number in (2, 3):
        fighter = make_fighter(warband, f"Brother {number}", elite=True)
        game = record_game(
            campaign=campaign,
            warband=warband,
            rival_warband=rival_warband,
            out_of_action=[fighter],
            number=number,
        )
        post_game_set_out_of_action(player=game.player, fighter_ids=[fighter.pk], by=player)
        enter(game, fighter, 1, 2, by=player)
        post_game_offer_ransom(player=game.player, fighter_id=fighter.pk, paid=True, ransom=5, by=player)
    with django_assert_num_queries(2):
        assert len(dashboard_for(user=player2).items) == 3
