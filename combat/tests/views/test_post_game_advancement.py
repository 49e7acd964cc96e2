"""combat/views/post_game/advancement.py: the Advancement step's page, its writes through plain forms and htmx,
bad input answered 422 with nothing changed, and a query count that does not grow with the fighters."""

import pytest
from django.urls import reverse

from combat.models import DiceRoll, PostGameAdvancement
from combat.tests.advancement_helpers import advancement_game, settle
from combat.tests.post_game_helpers import game_with

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def agnes(warband, make_fighter):
    return make_fighter(warband, "Sister Agnes", elite=True, xp=1)


@pytest.fixture
def after(campaign, warband, rival_warband, organiser, player, agnes):
    return advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={agnes: 1},
    )


def url(after):
    return reverse("post_game_advancement", args=[after.game.pk, after.player.warband_id])


def post(client, after, agnes, **data):
    return client.post(url(after), {"fighter": agnes.pk, "number": 1, **data})


def test_the_page_shows_the_card_with_the_charts_and_their_odds(client, after, agnes, player):
    client.force_login(player)
    response = client.get(url(after))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Sister Agnes: Skill Advancement Roll 1" in page
    assert "(reached 2 XP)" in page
    assert 'name="first_chart"' in page
    # Ranged before the roll: 12 holds Wind Reader, 1/36 (RULING X-3 gives 10 and 11 to Long Shadow Shot).
    assert 'Wind Reader</td><td class="num">1/36 (3%)' in page


def test_the_player_picks_rolls_and_takes_a_skill_without_javascript(client, after, agnes, player):
    client.force_login(player)
    assert (
        post(
            client, after, agnes, do="charts", first_chart="ranged", second_chart="stealth_speed"
        ).status_code
        == 302
    )
    assert post(client, after, agnes, do="roll", die=1, mode="enter", first=4, second=5).status_code == 302
    response = post(client, after, agnes, do="roll", die=2, mode="roll")
    assert response.status_code == 302
    page = client.get(url(after)).content.decode()
    assert "9 is Long Shadow Shot." in page
    assert "Knows no skill yet." in page
    assert 'value="long_shadow_shot"' in page

    response = post(client, after, agnes, do="pick", skill="long_shadow_shot")
    assert response.status_code == 302
    assert PostGameAdvancement.objects.get(fighter=agnes).skill_name == "Long Shadow Shot"
    review = client.get(reverse("post_game_review", args=[after.game.pk, after.player.warband_id]))
    assert (
        "Sister Agnes reached 2 XP: Skill Advancement — Ranged 9, Long Shadow Shot."
        in review.content.decode()
    )


def test_htmx_swaps_the_step_and_a_second_roll_is_shown_again_not_rolled(client, after, agnes, player):
    client.force_login(player)
    post(client, after, agnes, do="charts", first_chart="ranged", second_chart="wildcard")
    first = client.post(
        url(after), {"fighter": agnes.pk, "number": 1, "do": "roll", "die": 1, "mode": "roll"}, **HTMX
    )
    again = client.post(
        url(after),
        {"fighter": agnes.pk, "number": 1, "do": "roll", "die": 1, "mode": "enter", "first": 6, "second": 6},
        **HTMX,
    )
    assert first.status_code == 200
    # The step's section alone, for htmx to swap in place (no page around it).
    assert first.content.decode().lstrip().startswith('<section id="post-game-step"')
    assert "Shown again, not rolled twice" in again.content.decode()
    assert DiceRoll.objects.filter(fighter=agnes).count() == 1


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (
            {"do": "charts", "first_chart": "ranged", "second_chart": "ranged"},
            "Pick two different skill charts.",
        ),
        ({"do": "charts", "first_chart": "cooking", "second_chart": "ranged"}, "is not one of the campaign"),
        ({"do": "charts", "first_chart": "ranged"}, "Pick two skill charts."),
        ({"do": "roll", "die": 1, "mode": "roll"}, "two skill charts before rolling"),
        ({"do": "pick", "skill": "wind_reader"}, "before picking a skill"),
    ],
)
def test_bad_input_is_refused_on_the_card_with_422_and_nothing_changed(
    client, after, agnes, player, data, reason
):
    client.force_login(player)
    response = post(client, after, agnes, **data)
    assert response.status_code == 422
    assert reason in response.content.decode()
    assert not PostGameAdvancement.objects.exists()
    assert not DiceRoll.objects.exists()


def test_a_face_out_of_range_and_a_skill_not_found_are_refused(client, after, agnes, player):
    client.force_login(player)
    settle(after, agnes, by=player)
    response = post(client, after, agnes, do="pick", skill="wind_reader")
    assert response.status_code == 422
    assert "not among the skills found (Long Shadow Shot, Quiet Boots)" in response.content.decode()

    post(
        client, after, agnes, do="charts", first_chart="ranged", second_chart="wildcard"
    )  # refused: rolled already
    assert PostGameAdvancement.objects.get(fighter=agnes).second_chart == "stealth_speed"


def test_a_face_out_of_range_is_refused(client, after, agnes, player):
    client.force_login(player)
    post(client, after, agnes, do="charts", first_chart="ranged", second_chart="wildcard")
    response = post(client, after, agnes, do="roll", die=1, mode="enter", first=7, second=2)
    assert response.status_code == 422
    assert "That roll cannot be right" in response.content.decode()
    assert not DiceRoll.objects.exists()


def test_spectators_read_and_cannot_write(client, after, agnes, spectator, outsider):
    client.force_login(spectator)
    assert client.get(url(after)).status_code == 200
    assert (
        post(client, after, agnes, do="charts", first_chart="ranged", second_chart="wildcard").status_code
        == 403
    )
    client.force_login(outsider)
    assert client.get(url(after)).status_code == 404
    assert not PostGameAdvancement.objects.exists()


@pytest.mark.parametrize("count", [1, 10])
def test_the_page_takes_the_same_queries_for_one_fighter_as_for_ten(
    client,
    campaign,
    warband,
    rival_warband,
    organiser,
    player,
    make_fighter,
    count,
    django_assert_num_queries,
):
    fighters = [make_fighter(warband, f"Sister {n}", elite=True, xp=1) for n in range(count)]
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds=dict.fromkeys(fighters, 1),
    )
    for fighter in fighters:
        settle(after, fighter, by=player)
    client.force_login(player)
    with django_assert_num_queries(QUERIES):
        response = client.get(url(after))
    assert response.content.decode().count("Take this skill") == count


# Measured: 13 for 1 fighter and for 10 (the session and the user, the player with its membership, the post-game
# read: attempts, fighters with the game's marks, their Injuries, the warband's Battlekit (Arsenal included, read
# once for the fighters and the money steps), every roll that counts (one read for every step), answers, the people
# they name, campaign data, the step's picks and known skills). The Exploration's record, the trades planned and
# Use Glory's spends are not read: the page reads the steps up to its own, and the wizard stops there.
QUERIES = 13


def test_once_applied_the_overview_lists_the_typed_2d6_and_corrects_it(client, after, agnes, player):
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3), skill="quiet_boots")
    client.force_login(player)
    client.post(reverse("post_game_apply", args=[after.game.pk, after.player.warband_id]))
    overview = client.get(reverse("post_game", args=[after.game.pk, after.player.warband_id]))
    page = overview.content.decode()
    assert overview.status_code == 200
    assert "Skill Advancement 1, chart 1 (2D6)" in page
    assert "Correct this die" in page

    dice = DiceRoll.objects.filter(fighter=agnes).order_by("pk").first()
    response = client.post(
        reverse("post_game_correct", args=[after.game.pk, after.player.warband_id, dice.pk]),
        {"first": 6, "second": 6, "reason": "misread"},
    )
    assert response.status_code == 302
    dice.refresh_from_db()
    assert dice.status == DiceRoll.Status.CORRECTED
    assert agnes.skills.get().code == "quiet_boots"  # still found on Stealth & Speed: applied again


def test_with_nothing_due_the_page_sends_on_to_the_next_step(
    client, campaign, warband, rival_warband, player
):
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    client.force_login(player)
    response = client.get(url(after))
    assert response.status_code == 302
    assert response.url == reverse("post_game_promotions", args=[after.game.pk, after.player.warband_id])


def test_without_skill_charts_the_review_says_which_rolls_to_make_on_paper(
    client, campaign, warband, rival_warband, player, make_fighter
):
    make_fighter(warband, "Brother Tobias", elite=True, xp=1)  # 1 -> 2 XP, and the campaign keeps no charts
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    client.force_login(player)
    assert client.get(url(after)).status_code == 302
    review = client.get(reverse("post_game_review", args=[after.game.pk, after.player.warband_id]))
    page = review.content.decode()
    assert "Skill Advancement Rolls to make on paper" in page
    assert "Brother Tobias reached 2 XP" in page
