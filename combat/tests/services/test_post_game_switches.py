"""Tests for combat/services/post_game_switches.py: the organiser switches the post-game's steps on or off (house
rules); only what differs from the preset is stored, the history tells it, and a refusal changes nothing."""

import pytest

from campaigns.models import Campaign
from combat.selectors.post_game.steps import campaign_step_keys
from combat.services.post_game_switches import PostGameSwitchError, campaign_set_post_game_switches
from rosters.history.entries import HistoryFilter
from rosters.history.selectors import feed

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


def told(campaign) -> list[str]:
    page = feed(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk), url="/", query="").page
    return [change.text for entry in page.entries for change in entry.changes]


def test_only_the_switches_that_differ_from_the_preset_are_stored(campaign, organiser):
    campaign_set_post_game_switches(campaign=campaign, on=TC_ON, by=organiser)  # Use Glory off
    campaign.refresh_from_db()
    assert campaign.post_game_switches == {"glory": False}
    assert "glory" not in campaign_step_keys(campaign)


def test_the_history_tells_the_house_rule(campaign, organiser):
    campaign_set_post_game_switches(campaign=campaign, on=[*TC_ON, "harsh-lessons"], by=organiser)
    assert (
        "Post-game steps (house rules): Use Glory switched off; Harsh Lessons: the crew's XP switched on"
    ) in told(campaign)
    campaign_set_post_game_switches(campaign=campaign, on=[*TC_ON, "glory"], by=organiser)
    assert (
        "Post-game steps (house rules): Use Glory back to the game's own steps; Harsh Lessons: the crew's XP back "
        "to the game's own steps"
    ) in told(campaign)


def test_the_history_tells_the_house_rule_once_without_the_projects_words(campaign, organiser):
    """The sentence says the switch once (the write's reason repeated it in brackets), and a switch dropped goes
    back to the game's own steps: a player does not know what a "preset" is."""
    campaign_set_post_game_switches(campaign=campaign, on=TC_ON, by=organiser)
    campaign_set_post_game_switches(campaign=campaign, on=[*TC_ON, "glory"], by=organiser)
    page = feed(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk), url="/", query="").page
    sentences = [
        change.sentence for entry in page.entries for change in entry.changes if "house rules" in change.text
    ]
    assert sentences == [
        "Post-game steps (house rules): Use Glory back to the game's own steps — by olga_organiser",
        "Post-game steps (house rules): Use Glory switched off — by olga_organiser",
    ]


def test_the_same_switches_again_write_nothing(campaign, organiser):
    campaign_set_post_game_switches(campaign=campaign, on=TC_ON, by=organiser)
    events = Campaign.pgh_event_model.objects.count()
    campaign_set_post_game_switches(campaign=campaign, on=TC_ON, by=organiser)
    assert Campaign.pgh_event_model.objects.count() == events


@pytest.mark.parametrize(
    ("on", "reason"),
    [
        (["experience"], "“Experience” reads what “The Trauma Step"),
        (["bogus"], "'bogus' is not a post-game step"),
        (["review"], "'review' is not a post-game step"),
    ],
)
def test_a_refused_set_changes_nothing_and_says_why(campaign, organiser, on, reason):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    with pytest.raises(PostGameSwitchError, match=reason):
        campaign_set_post_game_switches(campaign=campaign, on=on, by=organiser)
    campaign.refresh_from_db()
    assert campaign.post_game_switches == {}
