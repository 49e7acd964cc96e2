"""The Advancement step in the history: the Apply's skill told as the fighter's (rosters' SkillSource), with its
chart and game; the Revert's deletion told too."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.revert import post_game_revert
from combat.tests.advancement_helpers import advancement_game, settle
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_the_skill_an_apply_gives_is_told_with_its_chart_and_game(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    agnes = make_fighter(warband, "Sister Agnes", elite=True, xp=1)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={},
    )
    settle(after, agnes, by=player, skill="long_shadow_shot")
    post_game_apply(player=after.player, by=player)

    told = sentences(campaign, fighter_id=agnes.pk)
    assert any(s.startswith("Sister Agnes learnt Long Shadow Shot (Ranged 9, Game 1)") for s in told), told

    post_game_revert(player=after.refresh().player, by=player)
    told = sentences(campaign, fighter_id=agnes.pk)
    assert any(s.startswith("Long Shadow Shot was struck off Sister Agnes") for s in told), told
