"""combat/views/post_game/fixes.py: "Correct this die" and "Void" on the post-game pages, through plain
POST forms: who may, what a refusal says (422, nothing changed), and that the pages show the struck roll."""

import pytest
from django.urls import reverse

from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.tests.post_game_helpers import enter, record_game, roll
from combat.tests.services.post_game.fix_helpers import dice_of
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter, player):
    troop = make_fighter(warband, "Yeoman Kell")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop, marcus]
    )
    after.fighters = {"troop": troop, "marcus": marcus}
    return after


def fix_url(after, name, dice):
    return reverse(name, args=[after.game.pk, after.player.warband_id, dice.pk])


def page(after, name="post_game"):
    return reverse(name, args=[after.game.pk, after.player.warband_id]) + "?watch=1"


@pytest.fixture
def typed(after, player):
    enter(after, after.fighters["troop"], 3, by=player)
    enter(after, after.fighters["marcus"], 1, 4, by=player)
    return dice_of(after.fighters["marcus"], "trauma")


def test_the_owner_corrects_a_typed_die_after_apply_and_the_roster_shows_it(client, after, player, typed):
    post_game_apply(player=after.player, by=player)
    client.force_login(player)
    overview = client.get(page(after)).content.decode()
    assert "Correct this die" in overview
    assert "Void" not in overview  # a player never voids

    response = client.post(
        fix_url(after, "post_game_correct", typed), {"first": 1, "second": 1, "reason": "typo"}
    )

    assert response.status_code == 302
    marcus = Fighter.objects.get(pk=after.fighters["marcus"].pk)
    assert marcus.status == "dead"
    assert PostGame.objects.get(player=after.player).status == PostGame.Status.APPLIED
    shown = client.get(response["Location"]).content.decode()
    assert "corrected by pat_player" in shown
    assert "<s>Brother Marcus: Trauma D66 14</s>" in shown


def test_the_review_offers_correction_and_no_roll_for_me_for_a_made_roll(client, after, player, typed):
    client.force_login(player)

    review = client.get(page(after, "post_game_review")).content.decode()

    assert "Correct this die" in review
    assert "Roll for me" not in review


@pytest.mark.parametrize("who", ["spectator", "player2"])
def test_a_spectator_or_the_opponent_cannot_correct(client, after, request, typed, who):
    client.force_login(request.getfixturevalue(who))

    response = client.post(
        fix_url(after, "post_game_correct", typed), {"first": 1, "second": 1, "reason": "typo"}
    )

    assert response.status_code == 403
    typed.refresh_from_db()
    assert typed.counts
    assert "Correct this die" not in client.get(page(after)).content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"first": 7, "second": 1, "reason": "typo"}, "cannot be right"),
        ({"first": 1, "second": 1, "reason": ""}, "Say why"),
        ({"first": 1, "second": 1, "reason": "x" * 201}, "at most 200"),
        ({"reason": "typo"}, "Enter the faces"),
        ({"first": "a", "second": 1, "reason": "typo"}, "whole number"),
    ],
)
def test_bad_input_is_refused_with_its_reason_and_nothing_changes(
    client, after, player, typed, data, message
):
    client.force_login(player)

    response = client.post(fix_url(after, "post_game_correct", typed), data)

    assert response.status_code == 422
    assert message in response.content.decode()
    typed.refresh_from_db()
    assert typed.counts
    assert DiceRoll.objects.count() == 2


def test_a_corrected_roll_posted_again_says_who_corrected_it(client, after, player, organiser, typed):
    client.force_login(organiser)
    client.post(fix_url(after, "post_game_correct", typed), {"first": 1, "second": 1, "reason": "typo"})
    client.force_login(player)

    response = client.post(
        fix_url(after, "post_game_correct", typed), {"first": 2, "second": 2, "reason": "me"}
    )

    assert response.status_code == 422
    assert "corrected by olga_organiser" in response.content.decode()


def test_the_organiser_voids_a_server_roll_and_the_owner_may_not(client, after, player, organiser):
    made = roll(after, after.fighters["troop"], by=player).roll.dice_roll
    client.force_login(player)
    assert client.post(fix_url(after, "post_game_void", made), {"reason": "no"}).status_code == 403

    client.force_login(organiser)
    assert "Void" in client.get(page(after)).content.decode()
    response = client.post(fix_url(after, "post_game_void", made), {"reason": "fell off the table"})

    assert response.status_code == 302
    made.refresh_from_db()
    assert made.status == DiceRoll.Status.VOIDED
    assert made.replaced_by.source == DiceRoll.Source.SERVER


def test_reopen_take_off_the_list_and_settle_one_fighter_through_plain_forms(client, after, player, typed):
    post_game_apply(player=after.player, by=player)
    marcus = after.fighters["marcus"]
    client.force_login(player)
    base = reverse("post_game_reopen", args=[after.game.pk, after.player.warband_id, marcus.pk])
    assert f"Reopen {marcus.name}" in client.get(page(after)).content.decode()

    assert client.post(base).status_code == 302
    shown = client.get(page(after)).content.decode()
    assert "1 fighter reopened" in shown
    assert Fighter.objects.get(pk=marcus.pk).battle_scars == 0  # left out while reopened
    mark = reverse("post_game_reopened_mark", args=[after.game.pk, after.player.warband_id, marcus.pk])
    assert client.post(mark, {"out": "no"}).status_code == 302
    assert "off the Out of Action list" in client.get(page(after)).content.decode()
    settle = reverse("post_game_settle", args=[after.game.pk, after.player.warband_id, marcus.pk])
    assert client.post(settle).status_code == 302

    assert Fighter.objects.get(pk=marcus.pk).battle_scars == 0  # never taken Out of Action after all
    assert DiceRoll.objects.get(pk=typed.pk).status == DiceRoll.Status.UNDONE


def test_reopen_by_a_spectator_is_403_and_twice_is_422(client, after, player, spectator, typed):
    post_game_apply(player=after.player, by=player)
    url = reverse(
        "post_game_reopen", args=[after.game.pk, after.player.warband_id, after.fighters["marcus"].pk]
    )
    client.force_login(spectator)
    assert client.post(url).status_code == 403
    client.force_login(player)
    client.post(url)

    response = client.post(url)

    assert response.status_code == 422
    assert "already reopened" in response.content.decode()
