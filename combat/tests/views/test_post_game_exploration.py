"""combat/views/post_game/exploration.py: the page before and after the roll, every refusal a 422 with its reason
and nothing changed, a double post rolled once, the Review and the applied overview telling it, and the same
number of queries however many battles and Locations the campaign has."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import GamePlayer
from combat.models import DiceRoll, PostGame, PostGameRoll
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.exploration import post_game_exploration_roll
from combat.tests.exploration_helpers import save_tables
from combat.tests.post_game_helpers import record_game
from rosters.models import FoundLocation

pytestmark = pytest.mark.django_db


@pytest.fixture
def after(campaign, warband, rival_warband, organiser):
    save_tables(campaign, organiser)
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)


def _url(after, name="post_game_exploration", warband_id=None):
    return reverse(name, args=[after.game.pk, warband_id or after.player.warband_id])


def _rows():
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (PostGame, PostGameRoll, DiceRoll, FoundLocation)
    }


def test_before_the_roll_the_page_shows_the_dice_the_tables_and_the_odds(client, player, after):
    client.force_login(player)

    response = client.get(_url(after))

    assert response.status_code == 200
    page = response.content.decode()
    assert "has fought 1 battle, this one included: 3 Exploration Dice" in page
    assert "on the Common table only" in page
    assert "Field Shrine" in page
    assert "12%" in page
    assert 'name="die_3"' in page
    assert 'name="die_4"' not in page


def test_typed_dice_are_stored_then_shown_with_the_location_and_the_loot(client, player, after):
    client.force_login(player)
    data = {"action": "roll", "mode": "enter", "modifier": "1", "die_1": "3", "die_2": "4", "die_3": "1"}

    response = client.post(_url(after), data)

    assert response.status_code == 302
    roll = PostGameRoll.objects.get(purpose="exploration")
    assert roll.dice_roll.faces == [3, 4, 1]
    page = client.get(_url(after)).content.decode()
    assert "Score 9" in page
    assert "3 dice, 3+4+1 = 8, +1 = 9" in page
    assert "Found the Field Shrine (Common)" in page
    assert "90 ducats" in page
    again = client.post(_url(after), {**data, "die_1": "6"}, follow=True)
    assert "Already rolled" in again.content.decode()
    assert DiceRoll.objects.count() == 1


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"mode": "enter", "die_1": "3", "die_2": "4"}, "2 dice entered"),
        ({"mode": "enter", "die_1": "3", "die_2": "4", "die_3": "9"}, "cannot be right"),
        ({"mode": "enter"}, "Enter the Exploration Dice you rolled"),
        ({"mode": "roll", "modifier": "13"}, "less than or equal to 12"),
        ({"mode": "sideways"}, "Select a valid choice"),
    ],
)
def test_a_wrong_roll_is_refused_with_its_reason_and_nothing_changes(client, player, after, data, words):
    client.force_login(player)
    before = _rows()

    response = client.post(_url(after), {"action": "roll", **data})

    assert response.status_code == 422
    assert words in response.content.decode()
    assert _rows() == before


def test_the_loser_s_reroll_and_an_unknown_location_are_refused(client, player, after):
    client.force_login(player)
    post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)
    before = _rows()

    reroll = client.post(_url(after), {"action": "reroll", "mode": "enter", "die": "1", "face": "6"})
    choose = client.post(_url(after), {"action": "choose", "code": "bell_of_ash"})
    nonsense = client.post(_url(after), {"action": "apply-twice"})

    assert (reroll.status_code, choose.status_code, nonsense.status_code) == (422, 422, 422)
    assert "Only the winner of the battle may reroll" in reroll.content.decode()
    assert "not among those the Exploration found" in choose.content.decode()
    assert _rows() == before


def test_the_winner_rerolls_with_htmx_and_gets_the_section_back(client, player, after):
    GamePlayer.objects.filter(pk=after.player.pk).update(result=GamePlayer.Result.WIN)
    client.force_login(player)
    post_game_exploration_roll(player=after.player, faces=[1, 4, 2], by=player)
    assert "may reroll any one of its Exploration Dice" in client.get(_url(after)).content.decode()

    response = client.post(
        _url(after), {"action": "reroll", "mode": "enter", "die": "1", "face": "5"}, HTTP_HX_REQUEST="true"
    )

    assert response.status_code == 200
    page = response.content.decode()
    assert page.lstrip().startswith('<section id="exploration-step"')
    assert "(die 1 rerolled: 1 → 5) = 11" in page
    second = client.post(
        _url(after), {"action": "reroll", "mode": "enter", "die": "2", "face": "6"}, HTTP_HX_REQUEST="true"
    )
    assert second.status_code == 422
    assert "rerolled already" in second.content.decode()
    assert DiceRoll.objects.count() == 2


def test_spectators_read_and_cannot_roll(client, spectator, after):
    client.force_login(spectator)

    assert client.get(_url(after)).status_code == 200
    assert client.post(_url(after), {"action": "roll", "mode": "roll"}).status_code == 403
    assert not DiceRoll.objects.exists()


def test_the_review_and_the_applied_overview_tell_the_exploration(client, player, after):
    client.force_login(player)
    review = client.get(_url(after, "post_game_review")).content.decode()
    assert "The Exploration Dice are not rolled" in review

    post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)
    review = client.get(_url(after, "post_game_review")).content.decode()
    sentence = "Exploration: 3 dice, 3+4+2 = 9: found the Field Shrine (Common); loot 90 ducats."
    assert sentence in review
    assert "loot from the Exploration (90 ducats, score 9)" in review
    post_game_apply(player=after.player, by=player)

    overview = client.get(_url(after, "post_game") + "?watch=1").content.decode()
    assert sentence in overview
    assert "Correct these dice" in overview


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries)


def test_the_page_takes_as_many_queries_late_in_a_campaign_as_early(
    client, player, campaign, warband, rival_warband, after
):
    client.force_login(player)
    for number in range(2, 8):
        latest = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
    FoundLocation.objects.create(
        warband=warband, code="sunken_vault", name="Sunken Vault", table="rare", score=14
    )
    _count(client, _url(after))  # warm the session alike
    early, late = _count(client, _url(after)), _count(client, _url(latest))
    assert early == late <= 18
    # Game 7: 7 battles fought, 5 dice on the Rare table, the Sunken Vault found already (RULINGS E-1, E-4).
    page = client.get(_url(latest)).content.decode()
    assert "5 Exploration Dice" in page
    assert "Drowned Chapel" in page
    assert "Sunken Vault" not in page


def test_the_applied_exploration_dice_are_corrected_from_the_overview(client, player, after, warband):
    client.force_login(player)
    made = post_game_exploration_roll(player=after.player, faces=[3, 4, 2], by=player)
    post_game_apply(player=after.player, by=player)
    url = reverse("post_game_correct", args=[after.game.pk, warband.pk, made.roll.dice_roll.pk])

    response = client.post(
        url, {"first": "6", "second": "4", "third": "2", "reason": "misread the first die"}
    )

    assert response.status_code == 302
    assert list(FoundLocation.objects.values_list("code", flat=True)) == ["ration_cache"]  # 12, not 9
    warband.refresh_from_db()
    assert warband.strongbox == 50 + 120
    refused = client.post(url, {"first": "6", "reason": "again"})
    assert refused.status_code == 422
    assert "no longer counts" in refused.content.decode()


def test_the_location_is_picked_of_two_on_the_page(client, player, campaign, warband, rival_warband, after):
    client.force_login(player)
    record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=2)
    third = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=3)
    post_game_exploration_roll(player=third.player, faces=[5, 4, 3, 2], by=player)
    page = client.get(_url(third)).content.decode()
    assert "choose the one Iron Sepulchre takes" in page
    assert 'value="shell_crater"' in page
    assert 'value="sunken_vault"' in page

    response = client.post(_url(third), {"action": "choose", "code": "sunken_vault"})

    assert response.status_code == 302
    assert PostGame.objects.get(player=third.player).location_code == "sunken_vault"
    assert "found the Sunken Vault (Rare)" in client.get(_url(third, "post_game_review")).content.decode()
