"""The post-game wizard's pages: who may read and write each step, the flow through plain forms and htmx, bad input.

The five people of every permission test (conftest.py): the organiser, the player who owns the warband, the second
player (the opponent), a spectator, and an outsider; plus an anonymous visitor.
"""

import pytest
from django.urls import reverse

from campaigns.models import GamePlayer, OutOfAction
from combat.models import DiceRoll, PostGame, PostGameRoll
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter):
    troop = make_fighter(warband, "Yeoman Kell")
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop, marcus, ada]
    )
    after.fighters = {"troop": troop, "marcus": marcus, "ada": ada}
    return after


def url(after, name="post_game", **params):
    path = reverse(name, args=[after.game.pk, after.player.warband_id])
    if params:
        path += "?" + "&".join(f"{key}={value}" for key, value in params.items())
    return path


GET_PAGES = [
    "post_game",
    "post_game_status",
    "post_game_out_of_action",
    "post_game_troops",
    "post_game_elites",
    "post_game_experience",
    "post_game_review",
]
POST_ACTIONS = [
    "post_game_out_of_action",
    "post_game_roll",
    "post_game_ransom",
    "post_game_experience",
    "post_game_apply",
    "post_game_revert",
]


def roll_data(after, fighter="troop", **extra):
    data = {
        "fighter": after.fighters[fighter].pk,
        "purpose": "survival",
        "sequence": 1,
        "step": "troops",
        "mode": "roll",
    }
    return {**data, **extra}


def post_data(after, name):
    """A valid-looking body for each POST, so a refusal can only come from the permission check."""
    return {
        "post_game_out_of_action": {"fighters": [fighter.pk for fighter in after.fighters.values()]},
        "post_game_roll": roll_data(after),
        "post_game_ransom": {"fighter": after.fighters["marcus"].pk, "paid": "no"},
        "post_game_experience": {},
        "post_game_apply": {},
        "post_game_revert": {},
    }[name]


# -- the permission matrix ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", GET_PAGES + POST_ACTIONS)
def test_anonymous_visitors_are_sent_to_log_in(client, after, name):
    response = client.post(url(after, name)) if name in POST_ACTIONS else client.get(url(after, name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("name", GET_PAGES + POST_ACTIONS)
def test_outsiders_get_404(client, after, outsider, name):
    client.force_login(outsider)
    response = (
        client.post(url(after, name), post_data(after, name))
        if name in POST_ACTIONS
        else client.get(url(after, name))
    )
    assert response.status_code == 404


# `demoted`: the warband's owner, made spectator since: they read their post-game and roll nothing.
@pytest.mark.parametrize("who", ["spectator", "player2", "demoted"])
@pytest.mark.parametrize("name", GET_PAGES)
def test_members_read_every_step(client, after, request, who, name):
    client.force_login(request.getfixturevalue(who))
    response = client.get(url(after, name))
    assert response.status_code == 200
    assert b"Roll for me" not in response.content


@pytest.mark.parametrize("who", ["spectator", "player2", "demoted"])
@pytest.mark.parametrize("name", POST_ACTIONS)
def test_members_cannot_write(client, after, request, who, name):
    client.force_login(request.getfixturevalue(who))
    response = client.post(url(after, name), post_data(after, name))
    assert response.status_code == 403
    assert not DiceRoll.objects.exists()
    assert not PostGame.objects.exists()
    assert OutOfAction.objects.filter(player=after.player).count() == 3


@pytest.mark.parametrize("who", ["player", "organiser"])
@pytest.mark.parametrize("name", GET_PAGES)
def test_the_owner_and_the_organiser_open_every_step(client, after, request, who, name):
    client.force_login(request.getfixturevalue(who))
    response = client.get(url(after, name))
    if name == "post_game":
        assert response.status_code == 302  # straight on to where they left off
        assert response["Location"] == url(after, "post_game_out_of_action")
    else:
        assert response.status_code == 200


@pytest.mark.parametrize("who", ["player", "organiser"])
def test_the_owner_and_the_organiser_roll(client, after, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.post(url(after, "post_game_roll"), roll_data(after))
    assert response.status_code == 302
    assert DiceRoll.objects.get().rolled_by == request.getfixturevalue(who)


def test_a_warband_that_did_not_play_is_404(client, campaign, organiser, after, make_user):
    from rosters.models import Warband

    other = Warband.objects.create(campaign=campaign, owner=organiser, name="Bystanders")
    client.force_login(organiser)
    response = client.get(reverse("post_game", args=[after.game.pk, other.pk]))
    assert response.status_code == 404


# -- the flow -----------------------------------------------------------------------------------------------------------


def test_step_one_confirms_the_list_and_goes_on_to_the_troops(client, after, player):
    client.force_login(player)
    response = client.get(url(after, "post_game_out_of_action"))
    assert b"Yeoman Kell" in response.content

    response = client.post(
        url(after, "post_game_out_of_action"),
        {"fighters": [after.fighters["troop"].pk, after.fighters["marcus"].pk]},
    )

    assert response.status_code == 302
    assert response["Location"] == url(after, "post_game_troops")
    assert set(OutOfAction.objects.filter(player=after.player).values_list("fighter_id", flat=True)) == {
        after.fighters["troop"].pk,
        after.fighters["marcus"].pk,
    }
    after.refresh()
    assert after.player.post_game == GamePlayer.PostGame.IN_PROGRESS


def test_the_troops_step_shows_the_odds_and_both_ways_to_roll(client, after, player):
    client.force_login(player)
    response = client.get(url(after, "post_game_troops"))
    content = response.content.decode()
    assert "1 in 3 this fighter is lost" in content
    assert "Roll for me" in content
    assert "Enter dice" in content
    # The ruling by name, linked to the rules page, never by its id.
    assert 'href="/rules/#ruling-T-2"' in content
    assert "RULING T-2" not in content


def test_entered_dice_show_the_result_and_the_rule(client, after, player):
    client.force_login(player)
    response = client.post(
        url(after, "post_game_roll"), roll_data(after, mode="enter", first="2"), follow=True
    )
    content = response.content.decode()
    assert "Survival Roll 2 (1-2)" in content
    assert "entered from the table by pat_player" in content


def test_htmx_swaps_the_step_section(client, after, player):
    client.force_login(player)
    response = client.post(url(after, "post_game_roll"), roll_data(after, mode="enter", first="5"), **HTMX)
    content = response.content.decode()
    assert response.status_code == 200
    assert content.lstrip().startswith('<section id="post-game-step"')
    assert "survived and fights on" in content


@pytest.mark.parametrize(
    ("first", "message"),
    [("7", "a D6 shows 1 to 6, got 7"), ("abc", "Enter a whole number"), ("", "Enter the die you rolled")],
)
def test_bad_dice_get_a_message_and_nothing_changes(client, after, player, first, message):
    client.force_login(player)
    response = client.post(url(after, "post_game_roll"), roll_data(after, mode="enter", first=first))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not DiceRoll.objects.exists()
    assert not PostGameRoll.objects.exists()


def test_a_double_click_rolls_once(client, after, player):
    client.force_login(player)
    client.post(url(after, "post_game_roll"), roll_data(after))
    response = client.post(url(after, "post_game_roll"), roll_data(after), follow=True)
    assert DiceRoll.objects.count() == 1
    assert "Already rolled" in response.content.decode()


def test_elite_fighters_wait_for_the_troops_on_the_page(client, after, player):
    client.force_login(player)
    response = client.get(url(after, "post_game_elites"))
    assert 'href="/rules/#ruling-T-1"' in response.content.decode()
    assert "RULING T-1" not in response.content.decode()
    response = client.post(
        url(after, "post_game_roll"),
        roll_data(
            after, fighter="marcus", purpose="trauma", step="elites", mode="enter", first="1", second="4"
        ),
    )
    assert response.status_code == 422
    assert not DiceRoll.objects.exists()


def test_a_ransom_larger_than_the_strongbox_is_refused_with_a_message(client, after, player, warband):
    enter(after, after.fighters["troop"], 4, by=player)
    enter(after, after.fighters["marcus"], 1, 2, by=player)
    client.force_login(player)

    response = client.post(
        url(after, "post_game_ransom"),
        {"fighter": after.fighters["marcus"].pk, "paid": "yes", "ransom": "80"},
    )

    assert response.status_code == 422
    content = response.content.decode()
    assert "holds only 50 ducats" in content
    assert 'value="80"' in content  # what was typed stays, to be corrected
    warband.refresh_from_db()
    assert warband.strongbox == 50


def test_the_whole_post_game_through_the_pages(client, after, player, warband):
    client.force_login(player)
    roll = url(after, "post_game_roll")
    client.post(url(after, "post_game_out_of_action"), {"fighters": [f.pk for f in after.fighters.values()]})
    client.post(roll, roll_data(after, mode="enter", first="1"))
    client.post(
        roll,
        roll_data(
            after, fighter="marcus", purpose="trauma", step="elites", mode="enter", first="1", second="4"
        ),
    )
    client.post(
        roll,
        roll_data(after, fighter="ada", purpose="trauma", step="elites", mode="enter", first="2", second="5"),
    )
    experience = client.get(url(after, "post_game_experience")).content.decode()
    assert "Brother Marcus" in experience
    response = client.post(
        url(after, "post_game_experience"),
        {f"deeds_{after.fighters['marcus'].pk}": "1", f"deeds_{after.fighters['ada'].pk}": "0"},
    )
    assert response.status_code == 302
    review = client.get(url(after, "post_game_review")).content.decode()
    assert "Removed from the roster: Dead." in review
    assert "Battle Scars 2 → 3 of 3." in review
    assert "Unfit For Duty" in review
    assert "XP 3 → 5." in review

    response = client.post(url(after, "post_game_apply"), follow=True)

    content = response.content.decode()
    assert "applied to Iron Sepulchre" in content
    assert "Revert this post-game" in content
    statuses = dict(Fighter.objects.filter(warband=warband).values_list("name", "status"))
    assert statuses == {"Yeoman Kell": "dead", "Brother Marcus": "active", "Sister Ada": "unfit_for_duty"}

    response = client.post(url(after, "post_game_apply"), follow=True)
    assert "already applied" in response.content.decode()

    response = client.post(url(after, "post_game_revert"), follow=True)
    assert "reverted" in response.content.decode()
    statuses = dict(Fighter.objects.filter(warband=warband).values_list("name", "status"))
    assert set(statuses.values()) == {"active"}


def test_watchers_poll_until_it_is_applied(client, after, player, spectator):
    client.force_login(spectator)
    response = client.get(url(after, "post_game"))
    assert 'hx-trigger="every 3s"' in response.content.decode()

    enter(after, after.fighters["troop"], 6, by=player)
    response = client.get(url(after, "post_game_status"), **HTMX)
    content = response.content.decode()
    assert "Survival Roll 6" in content
    assert 'hx-trigger="every 3s"' in content

    enter(after, after.fighters["marcus"], 4, 1, by=player)
    enter(after, after.fighters["ada"], 5, 5, by=player)
    from combat.services.post_game.apply import post_game_apply

    post_game_apply(player=after.player, by=player)
    response = client.get(url(after, "post_game_status"), **HTMX)
    content = response.content.decode()
    assert "hx-trigger" not in content  # done: the page stops asking
    assert "What the post-game changed" in content
    assert "Revert this post-game" not in content  # a spectator reads, cannot revert


def test_an_organiser_adjusts_xp_a_player_cannot(client, after, player, organiser):
    for fighter, faces in (("troop", [3]), ("marcus", [4, 1]), ("ada", [5, 5])):
        enter(after, after.fighters[fighter], *faces, by=player)
    marcus = after.fighters["marcus"]
    client.force_login(player)
    page = client.get(url(after, "post_game_experience")).content.decode()
    assert f"adjust_{marcus.pk}" not in page

    client.force_login(organiser)
    page = client.get(url(after, "post_game_experience")).content.decode()
    assert f"adjust_{marcus.pk}" in page
    response = client.post(
        url(after, "post_game_experience"), {f"deeds_{marcus.pk}": "0", f"adjust_{marcus.pk}": "2"}
    )
    assert response.status_code == 302
    review = client.get(url(after, "post_game_review")).content.decode()
    # The Review says why the XP moves (RULING X-4's +1, and the organiser's adjustment).
    assert "XP 3 → 6. +1 for taking part and surviving as ELITE. The organiser adjusted it by +2." in review


def test_ruling_X_4_the_experience_step_says_a_troops_deeds_feed_promotions_an_elites_give_one_xp(
    client, after, player
):
    client.force_login(player)
    page = client.get(url(after, "post_game_experience")).content.decode()
    rows = {
        name: page.split(f'id="xp-{after.fighters[name].pk}"')[1].split("</tr>")[0] for name in after.fighters
    }
    assert "Glorious Deeds feed Promotions (the Promotion Pool" in rows["troop"]
    assert "+1 for at least one Glorious Deed" not in rows["troop"]
    assert "+1 for at least one Glorious Deed" in rows["marcus"]
    assert "Only an ELITE fighter gains XP" in page


def test_experience_refuses_a_non_number(client, after, player):
    client.force_login(player)
    marcus = after.fighters["marcus"]
    response = client.post(url(after, "post_game_experience"), {f"deeds_{marcus.pk}": "lots"})
    assert response.status_code == 422
    assert "Enter a whole number" in response.content.decode()
    assert not PostGame.objects.exists()


def test_the_overview_says_why_it_can_no_longer_be_reverted(
    client, after, player, campaign, warband, rival_warband
):
    from combat.services.post_game.apply import post_game_apply

    for fighter, faces in (("troop", [3]), ("marcus", [4, 1]), ("ada", [5, 5])):
        enter(after, after.fighters[fighter], *faces, by=player)
    post_game_apply(player=after.player, by=player)
    client.force_login(player)
    assert "Revert this post-game" in client.get(url(after, "post_game")).content.decode()

    record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=2)
    content = client.get(url(after, "post_game")).content.decode()
    assert "Iron Sepulchre has played Game 2 since" in content
    assert "Revert this post-game" not in content


@pytest.fixture
def builds(monkeypatch):
    """How many times the request builds the post-game's state (its base, read once per build)."""
    from combat.selectors.post_game import state as state_module

    counted = []
    base = state_module._base

    def counting(*args, **kwargs):
        counted.append(1)
        return base(*args, **kwargs)

    monkeypatch.setattr(state_module, "_base", counting)
    return counted


def test_a_step_page_builds_the_state_once(client, after, player, builds):
    client.force_login(player)
    client.get(url(after, "post_game_troops"))
    assert len(builds) == 1


def test_a_typed_die_builds_the_state_once_for_the_checks_and_once_for_the_page(
    client, after, player, builds
):
    client.force_login(player)
    response = client.post(url(after, "post_game_roll"), roll_data(after, mode="enter", first="5"), **HTMX)
    assert response.status_code == 200
    assert len(builds) <= 2
