"""A ransom by agreement through the pages (TRAUMA_TABLE.md 12): the owner offers on the ELITE step, the captor's
player answers from their dashboard or the post-game's page; who may answer; an answered offer is not editable."""

import pytest
from django.urls import reverse

from combat.models import PostGameFighter
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom_offer, post_game_offer_ransom
from combat.tests.post_game_helpers import enter, record_game

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


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


def url(after, name):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


def offered(after, player, ducats=30):
    return post_game_offer_ransom(
        player=after.player, fighter_id=after.marcus.pk, paid=True, ransom=ducats, by=player
    )


def stored(after) -> PostGameFighter:
    return PostGameFighter.objects.get(post_game__player=after.player, fighter=after.marcus)


def test_the_owner_offers_from_the_elite_step_and_the_card_says_it_waits(client, after, player, player2):
    client.force_login(player)
    response = client.post(
        url(after, "post_game_ransom"), {"fighter": after.marcus.pk, "paid": "yes", "ransom": "30"}
    )
    assert response.status_code == 302
    assert stored(after).ransom_offer == 30

    page = client.get(url(after, "post_game_elites")).content.decode()
    assert "Ransom offered:" in page
    assert f"waiting for {player2.username}&#x27;s answer" in page
    assert "Withdraw the offer" in page
    assert 'class="ransom-answer-form"' not in page  # the captive's owner does not answer their own offer


def test_the_captor_accepts_from_the_dashboard_without_javascript(client, after, player, player2):
    offered(after, player)
    client.force_login(player2)
    board = client.get(reverse("dashboard")).content.decode()
    assert "Iron Sepulchre offers 30 ducats for Brother Marcus (Game 1), held by Heretic Legion." in board
    assert 'name="answer" value="accept"' in board

    response = client.post(
        url(after, "post_game_ransom_answer"),
        {"fighter": after.marcus.pk, "answer": "accept", "back": "dashboard"},
    )

    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    answer = stored(after)
    assert (answer.ransom_paid, answer.ransom, answer.ransom_answered_by_id) == (True, 30, player2.pk)
    board = client.get(reverse("dashboard")).content.decode()
    assert "Ransom offer accepted." in board
    assert "offers 30 ducats" not in board


def test_the_captor_refuses_from_the_post_game_page_with_htmx(client, after, player, player2):
    offered(after, player)
    client.force_login(player2)
    page = client.get(url(after, "post_game_elites")).content.decode()
    assert 'class="ransom-answer-form"' in page
    assert 'class="ransom-form"' not in page  # the captor answers; they do not write the owner's offer

    response = client.post(
        url(after, "post_game_ransom_answer"), {"fighter": after.marcus.pk, "answer": "refuse"}, **HTMX
    )

    assert response.status_code == 200
    assert "refused 30 ducats for Brother Marcus: it is executed" in response.content.decode()
    assert stored(after).ransom_paid is False


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_the_captives_owner_and_spectators_may_not_answer(request, client, after, player, who):
    offered(after, player)
    client.force_login(request.getfixturevalue(who))
    response = client.post(
        url(after, "post_game_ransom_answer"), {"fighter": after.marcus.pk, "answer": "accept"}
    )
    assert response.status_code == 403
    assert stored(after).ransom_paid is None


def test_outsiders_get_404_and_the_captor_may_not_make_the_offer(client, after, player, player2, outsider):
    offered(after, player)
    client.force_login(outsider)
    answer = {"fighter": after.marcus.pk, "answer": "accept"}
    assert client.post(url(after, "post_game_ransom_answer"), answer).status_code == 404
    client.force_login(player2)
    offer = {"fighter": after.marcus.pk, "paid": "yes", "ransom": "1"}
    assert client.post(url(after, "post_game_ransom"), offer).status_code == 403
    assert (
        client.post(url(after, "post_game_ransom_withdraw"), {"fighter": after.marcus.pk}).status_code == 403
    )
    assert stored(after).ransom_offer == 30


def test_bad_answers_get_a_reason_and_change_nothing(client, after, player, player2):
    client.force_login(player2)
    response = client.post(
        url(after, "post_game_ransom_answer"), {"fighter": after.marcus.pk, "answer": "accept"}
    )
    assert response.status_code == 422
    assert "There is no ransom offer for Brother Marcus to answer." in response.content.decode()
    offered(after, player)
    response = client.post(
        url(after, "post_game_ransom_answer"), {"fighter": after.marcus.pk, "answer": "maybe"}
    )
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert stored(after).ransom_paid is None


def test_an_answered_offer_shows_who_answered_and_no_form(client, after, player, player2):
    offered(after, player)
    post_game_answer_ransom_offer(player=after.player, fighter_id=after.marcus.pk, accept=True, by=player2)
    client.force_login(player)

    page = client.get(url(after, "post_game_elites")).content.decode()
    assert "Heretic Legion accepted 30 ducats for Brother Marcus" in page
    assert f"answered by {player2.username}" in page
    assert "The answer stands." in page
    assert 'class="ransom-form"' not in page
    assert 'class="ransom-withdraw-form"' not in page
    response = client.post(
        url(after, "post_game_ransom"), {"fighter": after.marcus.pk, "paid": "no"}
    )  # posted anyway: refused, nothing changed
    assert response.status_code == 422
    assert "Brother Marcus&#x27; ransom offer was accepted by" in response.content.decode()
    assert stored(after).ransom_paid is True


def test_the_organiser_sees_a_reopen_form_on_an_answered_offer_and_uses_it(
    client, after, player, player2, organiser
):
    offered(after, player)
    post_game_answer_ransom_offer(player=after.player, fighter_id=after.marcus.pk, accept=True, by=player2)
    client.force_login(player)
    assert 'class="ransom-reopen-form"' not in client.get(url(after, "post_game_elites")).content.decode()

    client.force_login(organiser)
    assert 'class="ransom-reopen-form"' in client.get(url(after, "post_game_elites")).content.decode()
    refused = client.post(url(after, "post_game_ransom_reopen"), {"fighter": after.marcus.pk, "reason": ""})
    assert refused.status_code == 422
    assert stored(after).ransom_paid is True
    response = client.post(
        url(after, "post_game_ransom_reopen"), {"fighter": after.marcus.pk, "reason": "Bob meant Refuse"}
    )
    assert response.status_code == 302
    assert stored(after).ransom_paid is None
