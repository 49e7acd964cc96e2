"""combat/services/post_game/harsh_lessons.py, and the Fallout: Factions post-game it belongs to: Out of Action,
the crew's Harsh Lessons XP (000 "Experience: Harsh Lessons", RULING D-11) recorded per crew and per game, the
Injuries carried on the roster, the Review; Apply and Revert."""

import pytest

from campaigns.models import Campaign
from combat.models import PostGame, TrackerGame
from combat.selectors.post_game.steps import FALLOUT_FACTIONS, steps_for
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.revert import post_game_revert
from combat.services.post_game_switches import campaign_set_post_game_switches
from combat.tests.post_game_helpers import game_with, roster_snapshot
from rosters.models import Fighter, Injury, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def crew(campaign, warband, make_fighter):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    Warband.objects.filter(pk=warband.pk).update(crew_xp=4)
    mags = make_fighter(warband, "Mags", champion=True, health=3)
    boone = make_fighter(warband, "Boone", champion=True, health=2)
    grunt = make_fighter(warband, "Dusty", health=1)
    Injury.objects.create(fighter=boone, code="injury", name="Injury")
    return {"mags": mags, "boone": boone, "grunt": grunt}


def crew_xp(warband) -> int:
    return Warband.objects.get(pk=warband.pk).crew_xp


def test_a_fallout_factions_post_game_takes_its_own_steps(campaign, warband, rival_warband, crew):
    after = game_with([crew["mags"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    state = after.state()
    assert [entry.key for entry in steps_for(campaign)] == [
        "out-of-action",
        "harsh-lessons",
        "injuries",
        "review",
    ]
    assert steps_for(campaign) == FALLOUT_FACTIONS
    # No Trauma Step: nobody waits for a roll, nothing blocks the Apply.
    assert state.casualties == ()
    assert state.xp == ()
    assert state.blockers == ()
    assert state.harsh_lessons.award.xp == 1
    assert state.injuries is not None
    assert state.exploration is None


def test_ruling_D_11_the_apply_adds_1_crew_xp_and_the_revert_takes_it_back(
    campaign, warband, rival_warband, crew, player
):
    after = game_with(
        [crew["mags"], crew["boone"], crew["grunt"]],
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
    )
    before = roster_snapshot(warband, rival_warband)
    post_game_set_out_of_action(
        player=after.player, fighter_ids=[crew["mags"].pk, crew["boone"].pk, crew["grunt"].pk], by=player
    )
    live = post_game_apply(player=after.refresh().player, by=player)
    # Two Champions fell: 1 XP, once per crew per game; recorded in the attempt, per crew.
    assert crew_xp(warband) == 5
    assert live.snapshot["harsh_lessons"] == {"warband_id": warband.pk, "xp": 1}
    assert live.summary["harsh_lessons"].startswith("Mags and Boone were Incapacitated")
    # No Trauma Table: every fighter stays on the roster as it was, its Injuries carried.
    assert set(Fighter.objects.filter(warband=warband).values_list("status", flat=True)) == {"active"}
    assert list(Injury.objects.filter(fighter=crew["boone"]).values_list("name", flat=True)) == ["Injury"]
    post_game_revert(player=after.refresh().player, by=player)
    assert roster_snapshot(warband, rival_warband) == before
    assert PostGame.objects.get(pk=live.pk).status == PostGame.Status.OPEN


def test_a_second_apply_after_a_revert_adds_the_xp_once_more_only(
    campaign, warband, rival_warband, crew, player
):
    after = game_with([crew["mags"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_set_out_of_action(player=after.player, fighter_ids=[crew["mags"].pk], by=player)
    post_game_apply(player=after.refresh().player, by=player)
    post_game_revert(player=after.refresh().player, by=player)
    post_game_apply(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 5


def test_no_champion_out_of_action_adds_nothing(campaign, warband, rival_warband, crew, player):
    after = game_with([crew["grunt"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_set_out_of_action(player=after.player, fighter_ids=[crew["grunt"].pk], by=player)
    live = post_game_apply(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 4
    assert "harsh_lessons" not in live.snapshot
    assert live.summary["harsh_lessons"] == (
        "None of Iron Sepulchre's Champions was Incapacitated: no Harsh Lessons XP (RULING D-11)."
    )


def test_a_game_whose_board_gave_the_xp_adds_nothing_more(campaign, warband, rival_warband, crew, player):
    after = game_with([crew["mags"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    TrackerGame.objects.create(game=after.game, harsh_lessons=[warband.pk])
    post_game_set_out_of_action(player=after.player, fighter_ids=[crew["mags"].pk], by=player)
    live = post_game_apply(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 4
    assert "on the board this game" in live.summary["harsh_lessons"]


def test_the_revert_refuses_when_the_crew_spent_the_xp_since(campaign, warband, rival_warband, crew, player):
    after = game_with([crew["mags"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_set_out_of_action(player=after.player, fighter_ids=[crew["mags"].pk], by=player)
    post_game_apply(player=after.refresh().player, by=player)
    Warband.objects.filter(pk=warband.pk).update(crew_xp=0)
    with pytest.raises(PostGameError, match="spent its crew XP since"):
        post_game_revert(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 0


def test_a_switch_changed_mid_way_leaves_a_started_post_game_its_steps(
    campaign, warband, rival_warband, crew, player, organiser
):
    after = game_with([crew["mags"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    live = post_game_set_out_of_action(player=after.player, fighter_ids=[crew["mags"].pk], by=player)
    assert live.steps == ["out-of-action", "harsh-lessons", "injuries", "review"]
    campaign_set_post_game_switches(campaign=campaign, on=["trauma", "injuries"], by=organiser)
    state = after.state()
    # Started before the switch: no Trauma Step, and Harsh Lessons still applies and reverts.
    assert state.casualties == ()
    assert state.harsh_lessons.award.xp == 1
    post_game_apply(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 5
    campaign.refresh_from_db()
    assert [entry.key for entry in steps_for(campaign)] == [
        "out-of-action",
        "troops",
        "elites",
        "injuries",
        "review",
    ]
    post_game_revert(player=after.refresh().player, by=player)
    assert crew_xp(warband) == 4


def test_the_trauma_step_switched_on_rolls_for_a_fallout_factions_crew(
    campaign, warband, rival_warband, crew, player, organiser
):
    campaign_set_post_game_switches(
        campaign=campaign, on=["trauma", "harsh-lessons", "injuries"], by=organiser
    )
    after = game_with([crew["grunt"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    state = after.state()
    assert [casualty.id for casualty in state.casualties] == [crew["grunt"].pk]
    assert state.blockers  # its Survival Roll is waited for
