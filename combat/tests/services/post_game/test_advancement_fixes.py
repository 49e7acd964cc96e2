"""combat/services/post_game/fixes.py for the Advancement step : a typed Skill Advancement
2D6 corrected works out the skill found again, clears a pick no longer found, and after Apply gives exactly the
Skill rows a post-game typed right from the start gives."""

import pytest

from combat.models import DiceRoll, PostGameAdvancement, PostGameRoll
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.fixes import post_game_correct_roll
from combat.tests.advancement_helpers import advancement_game, card, settle
from rosters.models import Skill

pytestmark = pytest.mark.django_db


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


def _ranged_die(agnes):
    return PostGameRoll.objects.get(fighter=agnes, purpose="advancement", sequence=1).dice_roll


def test_a_corrected_die_finds_its_skill_again_and_clears_a_pick_no_longer_found(after, agnes, player):
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3), skill="long_shadow_shot")
    old = _ranged_die(agnes)

    fix = post_game_correct_roll(
        player=after.player, roll_id=old.pk, faces=[1, 1], reason="misread", by=player
    )

    old.refresh_from_db()
    assert old.status == DiceRoll.Status.CORRECTED
    assert fix.reopened
    assert "Skill Advancement 2D6 2 (1+1)" in fix.new.label
    shown = card(after, agnes)
    assert shown.charts[0].found.code == "steady_breath"  # Ranged 2
    assert shown.waiting_for == "pick"
    assert PostGameAdvancement.objects.get(fighter=agnes).skill_code == ""
    # The Trauma Step's chain is untouched: no roll was set aside.
    assert not DiceRoll.objects.filter(status=DiceRoll.Status.UNDONE).exists()


def test_a_corrected_die_that_still_finds_the_pick_keeps_it(after, agnes, player):
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3), skill="quiet_boots")

    fix = post_game_correct_roll(
        player=after.player, roll_id=_ranged_die(agnes).pk, faces=[6, 6], reason="misread", by=player
    )

    assert not fix.reopened
    assert card(after, agnes).picked.code == "quiet_boots"


def test_a_correction_after_apply_gives_the_skill_rows_typed_right_from_the_start(after, agnes, player):
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3), skill="quiet_boots")
    post_game_apply(player=after.player, by=player)
    assert Skill.objects.get(fighter=agnes).chart == "Stealth & Speed 6"

    fix = post_game_correct_roll(
        player=after.refresh().player,
        roll_id=_ranged_die(agnes).pk,
        faces=[6, 6],
        reason="misread",
        by=player,
    )

    assert fix.applied_again
    [skill] = Skill.objects.filter(fighter=agnes)
    assert (skill.code, skill.chart, skill.game_id) == ("quiet_boots", "Stealth & Speed 6", after.game.pk)


def test_a_correction_after_apply_that_loses_the_pick_reopens_the_step(after, agnes, player):
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3), skill="long_shadow_shot")
    post_game_apply(player=after.player, by=player)

    fix = post_game_correct_roll(
        player=after.refresh().player,
        roll_id=_ranged_die(agnes).pk,
        faces=[1, 1],
        reason="misread",
        by=player,
    )

    assert not fix.applied_again
    assert fix.reopened
    assert not Skill.objects.filter(fighter=agnes).exists()
    assert after.state().current_step == "advancement"
