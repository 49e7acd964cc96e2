"""The post-game pages and writes keep their query budgets: the same number of queries for a warband with three
fighters taken Out of Action as for one with nine, and no GET writes anything."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import GamePlayer, OutOfAction
from combat.models import DiceRoll, PostGame, PostGameFighter, PostGameRoll
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Fighter, Injury, Item

pytestmark = pytest.mark.django_db

GET_PAGES = [
    "post_game",
    "post_game_status",
    "post_game_out_of_action",
    "post_game_troops",
    "post_game_elites",
    "post_game_experience",
    "post_game_exploration",
    "post_game_review",
]
# What each page reads, whatever the number of fighters: the session, the user, the post-game's entry with the
# membership (one query), then the post-game's base (attempts, fighters, Injuries, Battlekit, rolls, answers, the
# people they name) and the steps' reads as far as the page goes; the live status and the Review show every change and blocker,
# so they read every step. The overview sends the owner on to the step where the wizard stands.
PAGE_BUDGET = {
    "post_game": 10,
    "post_game_status": 14,
    "post_game_out_of_action": 10,
    "post_game_troops": 10,
    "post_game_elites": 10,
    "post_game_experience": 11,
    "post_game_exploration": 13,
    "post_game_review": 14,
}
WRITE_BUDGET = 40


def _game(campaign, warband, rival_warband, make_fighter, *, count: int, number: int):
    fighters = []
    for index in range(count):
        elite = index % 3 != 0
        fighter = make_fighter(warband, f"Fighter {number}-{index}", elite=elite, xp=index)
        Item.objects.create(
            warband=warband, fighter=fighter, name=f"Kit {number}-{index}", keywords=["HEAVY"]
        )
        fighters.append(fighter)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=fighters, number=number
    )
    after.fighters = fighters
    return after


def _url(after, name):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


def _count(client, method, url, data=None):
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, data) if method == "POST" else client.get(url)
    assert response.status_code in (200, 302), (url, response.status_code)
    return len(queries)


@pytest.fixture
def small_and_large(campaign, warband, rival_warband, make_fighter, player):
    small = _game(campaign, warband, rival_warband, make_fighter, count=3, number=1)
    large = _game(campaign, warband, rival_warband, make_fighter, count=9, number=2)
    for after in (small, large):
        enter(after, after.fighters[0], 4, by=player)  # the attempt is open, one Troop rolled
    return small, large


@pytest.mark.parametrize("name", GET_PAGES)
def test_every_page_takes_as_many_queries_for_nine_casualties_as_for_three(
    client, player, small_and_large, name
):
    client.force_login(player)
    small, large = small_and_large
    _count(client, "GET", _url(small, name))  # warm the session and the caches alike
    few = _count(client, "GET", _url(small, name))
    many = _count(client, "GET", _url(large, name))
    assert few == many <= PAGE_BUDGET[name]


def test_a_typed_in_roll_takes_as_many_queries_for_nine_casualties_as_for_three(
    client, player, small_and_large
):
    client.force_login(player)
    small, large = small_and_large
    for troop in large.fighters[3::3]:  # every Troop rolls before any ELITE fighter (RULING T-1)
        enter(large, troop, 4, by=player)
    counts = []
    for after in (small, large):
        hero = after.fighters[1]  # an ELITE fighter's D66
        data = {"fighter": hero.pk, "purpose": "trauma", "sequence": 1, "step": "elites", "mode": "enter"}
        counts.append(
            _count(client, "POST", _url(after, "post_game_roll"), {**data, "first": 6, "second": 3})
        )
    assert counts[0] == counts[1] <= WRITE_BUDGET
    assert DiceRoll.objects.filter(fighter__in=[small.fighters[1], large.fighters[1]]).count() == 2


def _rows():
    models = (
        PostGame,
        PostGameRoll,
        PostGameFighter,
        DiceRoll,
        OutOfAction,
        GamePlayer,
        Fighter,
        Item,
        Injury,
    )
    return {model.__name__: list(model.objects.order_by("pk").values()) for model in models}


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
def test_no_get_writes_anything(client, request, small_and_large, who):
    client.force_login(request.getfixturevalue(who))
    small, _ = small_and_large
    before = _rows()
    for name in GET_PAGES:
        client.get(_url(small, name))
        client.get(_url(small, name) + "?watch=1")
    assert _rows() == before


# The Experience form is read against the post-game worked out under the write's locks: the post-game is read once
# (its base, the casualties and the Experience), not once for the form and again for the write. Measured: 17.
EXPERIENCE_WRITE_BUDGET = 17


def test_the_experience_form_reads_the_post_game_once(client, player, small_and_large):
    client.force_login(player)
    counts = []
    for after in small_and_large:
        deeds = {f"deeds_{after.fighters[1].pk}": 1}
        counts.append(_count(client, "POST", _url(after, "post_game_experience"), deeds))
    assert counts[0] == counts[1] <= EXPERIENCE_WRITE_BUDGET, counts
    for after in small_and_large:
        stored = PostGameFighter.objects.get(post_game__player=after.player, fighter=after.fighters[1])
        assert stored.glorious_deeds == 1
