"""The Promotions and Dismiss the wounded pages (combat/views/post_game/promotions.py, dismiss.py): who reads and
writes, the refusals (422, the reason beside the field, nothing changed), a die asked twice rolled once, and the
query count the same with two fighters or ten."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGameFighter
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import assign, promotion_die
from rosters.models import Fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def played(campaign, warband, rival_warband, make_fighter):
    tom = make_fighter(warband, "Brother Tom")
    kell = make_fighter(warband, "Yeoman Kell")
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
    after.refresh()
    after.fighters = {"tom": tom, "kell": kell, "ada": ada}
    return after


def url(after, name="post_game_promotions"):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


def roll_data(after, fighter, *, sequence=1, face=None):
    data = {"action": "roll", "fighter": fighter.pk, "sequence": sequence, "mode": "roll"}
    if face is not None:
        data.update(mode="enter", first=face)
    return data


# -- who reads and who writes -----------------------------------------------------------------------------------


def test_the_page_shows_the_pool_the_tally_and_the_models(client, played, player):
    client.force_login(player)
    response = client.get(url(played))
    assert response.status_code == 200
    text = response.content.decode()
    assert "Promotion Pool: 1 + 1 for the win = 2 dice" in text
    assert "Failed Promotion Dice in a row: 0 of 5" in text
    assert 'id="promotion-' + str(played.fighters["tom"].pk) + '"' in text
    assert 'id="promotion-' + str(played.fighters["ada"].pk) + '"' not in text  # ELITE, can gain XP


@pytest.mark.parametrize("who", ["spectator", "player2"])
def test_other_members_read_but_cannot_assign(client, played, request, who):
    client.force_login(request.getfixturevalue(who))
    assert client.get(url(played)).status_code == 200
    response = client.post(
        url(played), {"action": "assign", "extra": 0, f"dice_{played.fighters['tom'].pk}": 1}
    )
    assert response.status_code == 403
    assert not PostGameFighter.objects.filter(promotion_dice__gt=0).exists()


def test_an_outsider_gets_404(client, played, outsider):
    client.force_login(outsider)
    assert client.get(url(played)).status_code == 404
    assert client.get(url(played, "post_game_dismiss")).status_code == 404


# -- the assignment ----------------------------------------------------------------------------------------------


def test_assigning_dice_goes_on_to_the_dice(client, played, player):
    client.force_login(player)
    tom = played.fighters["tom"]
    response = client.post(url(played), {"action": "assign", "extra": 0, f"dice_{tom.pk}": 2})
    assert response.status_code == 302
    assert response.url.endswith("#promotion-dice")
    assert PostGameFighter.objects.get(fighter=tom).promotion_dice == 2


def test_the_step_can_be_passed_without_rolling_by_a_button_that_says_so(client, played, player):
    """'Go on without any' was said and no button did it: the button assigns no die, which passes the step
    (RULING P-2: "Dice need not all be assigned"), and the wizard goes on to Dismiss the wounded."""
    client.force_login(player)
    page = client.get(url(played)).content.decode()
    start = page.index('<form method="post" action="' + url(played) + '" id="promotion-pass"')
    button = page[start : page.index("</form>", start)]
    assert '<input type="hidden" name="action" value="assign">' in button
    assert ">Go on without Promotion Dice</button>" in button
    response = client.post(url(played), {"action": "assign", "extra": "0"})
    assert response.status_code == 302
    assert response.url == url(played, "post_game_dismiss")
    assert not PostGameFighter.objects.filter(promotion_dice__gt=0).exists()
    assert not DiceRoll.objects.exists()  # nothing rolled


def test_once_dice_are_rolled_the_step_is_not_passed_by_that_button(client, played, player):
    tom = played.fighters["tom"]
    assign(played, player, {tom: 1})
    promotion_die(played, tom, 3, by=player)
    client.force_login(player)
    assert 'id="promotion-pass"' not in client.get(url(played)).content.decode()


def test_a_reader_has_no_button_to_pass_the_step(client, played, spectator):
    client.force_login(spectator)
    assert 'id="promotion-pass"' not in client.get(url(played)).content.decode()


def test_more_dice_than_the_pool_is_refused_with_422_and_nothing_changes(client, played, player):
    client.force_login(player)
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    response = client.post(
        url(played), {"action": "assign", "extra": 0, f"dice_{tom.pk}": 2, f"dice_{kell.pk}": 1}
    )
    assert response.status_code == 422
    assert "3 Promotion Dice are assigned but the pool has 2" in response.content.decode()
    assert not PostGameFighter.objects.filter(promotion_dice__gt=0).exists()


def test_a_p_2_breach_is_shown_beside_the_models_field(client, played, player):
    client.force_login(player)
    tom = played.fighters["tom"]
    response = client.post(url(played), {"action": "assign", "extra": 1, f"dice_{tom.pk}": 3}, **HTMX)
    assert response.status_code == 422
    text = response.content.decode()
    row = text[text.index(f'id="promotion-{tom.pk}"') :]
    row = row[: row.index("</tr>")]
    assert "Brother Tom has 3 Promotion Dice but may have 2 without a Glorious Deed" in row
    assert not PostGameFighter.objects.filter(promotion_dice__gt=0).exists()


def test_dice_for_a_fighter_that_cannot_be_promoted_are_refused(client, played, player):
    client.force_login(player)
    ada = played.fighters["ada"]
    response = client.post(url(played), {"action": "assign", "extra": 0, f"dice_{ada.pk}": 1})
    assert response.status_code == 422
    assert "Sister Ada may not be promoted, so it cannot be given Promotion Dice" in response.content.decode()
    assert not PostGameFighter.objects.filter(promotion_dice__gt=0).exists()


# -- the dice ----------------------------------------------------------------------------------------------------


def test_a_typed_six_is_stored_and_shown_with_its_rule(client, played, player):
    client.force_login(player)
    tom = played.fighters["tom"]
    assign(played, player, {tom: 1})
    response = client.post(url(played), roll_data(played, tom, face=6), **HTMX)
    assert response.status_code == 200
    assert "Brother Tom rolled a 6" in response.content.decode()
    assert DiceRoll.objects.get(purpose="promotion").source == DiceRoll.Source.ENTERED


def test_a_face_out_of_range_is_refused_with_422(client, played, player):
    client.force_login(player)
    tom = played.fighters["tom"]
    assign(played, player, {tom: 1})
    response = client.post(url(played), roll_data(played, tom, face=7))
    assert response.status_code == 422
    assert "That roll cannot be right" in response.content.decode()
    assert not DiceRoll.objects.filter(purpose="promotion").exists()


def test_a_die_after_the_success_is_refused_with_422(client, played, player):
    client.force_login(player)
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 6, by=player)
    response = client.post(url(played), roll_data(played, kell, sequence=2, face=3))
    assert response.status_code == 422
    assert "no more Promotion Dice are rolled" in response.content.decode()
    assert DiceRoll.objects.filter(purpose="promotion").count() == 1


def test_a_die_for_a_model_without_dice_left_is_refused_with_422(client, played, player):
    client.force_login(player)
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    response = client.post(url(played), roll_data(played, tom, sequence=2, face=3))
    assert response.status_code == 422
    assert "Brother Tom has no Promotion Dice left to roll" in response.content.decode()


def test_the_same_die_posted_twice_is_rolled_once(client, played, player):
    client.force_login(player)
    tom = played.fighters["tom"]
    assign(played, player, {tom: 2})
    first = client.post(url(played), roll_data(played, tom))
    again = client.post(url(played), roll_data(played, tom))
    assert first.status_code == again.status_code == 302
    assert DiceRoll.objects.filter(purpose="promotion").count() == 1


# -- Dismiss the wounded -----------------------------------------------------------------------------------------


def test_dismissing_a_fighter_without_two_scars_is_refused_with_422(client, played, player):
    client.force_login(player)
    assign(played, player, {})
    response = client.post(url(played, "post_game_dismiss"), {"fighters": [played.fighters["tom"].pk]})
    assert response.status_code == 422
    assert not PostGameFighter.objects.filter(dismissed=True).exists()


def test_a_dismissal_that_is_not_a_fighter_id_is_refused_beside_the_form_with_422(client, played, player):
    # The view sends only whole numbers to the service; anything else is the form's refusal, nothing written.
    client.force_login(player)
    assign(played, player, {})
    response = client.post(url(played, "post_game_dismiss"), {"fighters": ["ada"]})
    assert response.status_code == 422
    assert "Select a valid choice" in response.content.decode()
    assert not PostGameFighter.objects.filter(dismissed=True).exists()


def test_dismissing_goes_on_to_the_next_step(client, played, player):
    client.force_login(player)
    assign(played, player, {})
    ada = played.fighters["ada"]
    response = client.post(url(played, "post_game_dismiss"), {"fighters": [ada.pk]})
    assert response.status_code == 302
    assert PostGameFighter.objects.get(fighter=ada).dismissed
    review = client.get(url(played, "post_game_review")).content.decode()
    assert "Dismissed with 2 Battle Scars" in review


# -- query counts ------------------------------------------------------------------------------------------------


def _queries(client, path) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path).status_code == 200
    return len(captured.captured_queries)


def test_the_pages_take_the_same_queries_with_two_fighters_or_ten(
    client, played, player, warband, make_fighter
):
    client.force_login(player)
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    few = (_queries(client, url(played)), _queries(client, url(played, "post_game_dismiss")))
    for number in range(8):
        make_fighter(warband, f"Recruit {number}", battle_scars=2 if number % 2 else 0)
    Fighter.objects.filter(name__startswith="Recruit").update(created_at=played.game.created_at)
    many = (_queries(client, url(played)), _queries(client, url(played, "post_game_dismiss")))
    assert many == few


# -- corrections --------------------------------------------------------------------------------------


def test_a_typed_promotion_die_can_be_corrected_from_the_page_and_after_apply(client, played, player):
    client.force_login(player)
    tom, kell = played.fighters["tom"], played.fighters["kell"]
    assign(played, player, {tom: 1, kell: 1})
    promotion_die(played, tom, 2, by=player)
    promotion_die(played, kell, 6, by=player)
    assert "Correct this die" in client.get(url(played)).content.decode()
    assert client.post(url(played, "post_game_apply")).status_code == 302

    overview = client.get(url(played, "post_game")).content.decode()
    first = DiceRoll.objects.get(purpose="promotion", faces=[2])
    assert f'id="roll-{first.pk}"' in overview
    assert "Promotion Die 1 (D6)" in overview
    fix_url = reverse("post_game_correct", args=[played.game.pk, played.player.warband_id, first.pk])
    assert client.post(fix_url, {"first": 6, "reason": "typo"}).status_code == 302
    assert Fighter.objects.get(pk=tom.pk).keywords == ["ELITE"]
    assert Fighter.objects.get(pk=kell.pk).keywords == []
