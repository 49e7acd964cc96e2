"""The campaign data page's post-game steps (combat/views/campaign_data.py, `post_game_steps`): every member reads
which steps the post-game takes; only the organiser switches them (others 403, an outsider 404); a refused set
answers 422 with the reason beside the boxes and changes nothing."""

import re

import pytest

from campaigns.models import Campaign

pytestmark = pytest.mark.django_db

TC_ON = [
    "trauma",
    "experience",
    "advancement",
    "promotions",
    "dismiss",
    "reinforcements",
    "exploration",
    "trade",
]


def url(campaign):
    return f"/campaigns/{campaign.pk}/data/"


def switches(campaign):
    return Campaign.objects.get(pk=campaign.pk).post_game_switches


def test_the_organiser_switches_a_step_off(client, campaign, organiser):
    client.force_login(organiser)
    response = client.post(url(campaign), {"action": "post_game_steps", "on": TC_ON})
    assert response.status_code == 302
    assert switches(campaign) == {"glory": False}
    html = client.get(url(campaign)).content.decode()
    assert 'id="switch-glory"' in html
    assert 'value="glory" id="switch-glory">' in html  # unticked now
    assert 'value="trade" id="switch-trade" checked>' in html


@pytest.mark.parametrize("who", ["player", "spectator"])
def test_a_member_who_is_not_the_organiser_reads_but_cannot_switch(client, campaign, who, request):
    client.force_login(request.getfixturevalue(who))
    html = client.get(url(campaign)).content.decode()
    assert "The post-game&#x27;s steps" in html or "The post-game's steps" in html
    assert 'name="on"' not in html
    assert client.post(url(campaign), {"action": "post_game_steps", "on": TC_ON}).status_code == 403
    assert switches(campaign) == {}


def test_an_outsider_gets_404(client, campaign, outsider):
    client.force_login(outsider)
    assert client.post(url(campaign), {"action": "post_game_steps", "on": TC_ON}).status_code == 404
    assert switches(campaign) == {}


@pytest.mark.parametrize(
    ("on", "reason"),
    [
        (["experience"], "reads what"),
        (["bogus"], "Select a valid choice"),
    ],
)
def test_bad_input_answers_422_with_the_reason_beside_the_boxes(client, campaign, organiser, on, reason):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    client.force_login(organiser)
    response = client.post(url(campaign), {"action": "post_game_steps", "on": on})
    assert response.status_code == 422
    html = response.content.decode()
    assert 'id="post-game-steps-error"' in html
    assert reason in html
    assert switches(campaign) == {}


def test_an_unknown_action_is_a_400(client, campaign, organiser):
    client.force_login(organiser)
    assert client.post(url(campaign), {"action": "bogus"}).status_code == 400


@pytest.mark.parametrize(
    ("preset", "game"), [("fallout_factions", "Fallout: Factions"), ("trench_crusade", None)]
)
def test_each_step_cites_the_rules_by_their_names_not_the_projects_files(
    client, campaign, organiser, preset, game
):
    """A player reads the game and the heading a step comes from, never the project's files of rules ("003",
    "CAMPAIGN_PHASE.md"), and a game whose name ends in s is not given "'s" ("Fallout: Factions's own")."""
    Campaign.objects.filter(pk=campaign.pk).update(preset=preset)
    client.force_login(organiser)
    html = client.get(url(campaign)).content.decode()
    steps = html[html.index('id="post-game-steps"') :]
    assert "Trench Crusade, &quot;Trauma Step&quot;" in steps
    assert "CAMPAIGN_PHASE" not in steps
    assert re.search(r"\b00\d\b", steps) is None
    assert "s&#x27;s " not in steps
    assert "s's " not in steps
    if game:
        assert f"on by the rules of {game})" in steps
