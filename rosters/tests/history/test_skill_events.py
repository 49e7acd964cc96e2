"""A Skill row told as history (rosters/history/kit_events.py `SkillSource`), and skills in the as-of roster
and in what a game changed (rosters/history/snapshot.py, game_changes.py)."""

import pghistory
import pytest

from campaigns.models import Game
from rosters.history.game_changes import game_changes
from rosters.history.moment import AsOfMoment
from rosters.history.snapshot import roster_snapshot, roster_state
from rosters.models import Skill
from rosters.services.skills import skill_add, skill_remove
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def agnes(warband, make_fighter):
    return make_fighter(warband, "Sister Agnes", elite=True, xp=4)


def test_a_skill_learnt_in_a_post_game_names_its_chart_and_game(campaign, agnes, player):
    game = Game.objects.create(campaign=campaign, number=3, played_on="2026-11-28", created_by=player)
    with pghistory.context(
        action="post_game.apply", game=game.pk, warband=agnes.warband_id, campaign=campaign.pk
    ):
        Skill.objects.create(fighter=agnes, code="deadeye", name="Deadeye", chart="Ranged 9", game=game)
    assert "Sister Agnes learnt Deadeye (Ranged 9, Game 3)" in sentences(campaign, kind="xp")


def test_a_skill_added_and_struck_off_by_hand_is_told(campaign, agnes, player):
    skill = skill_add(fighter=agnes, by=player, name="Dodge")
    skill_remove(skill=skill, by=player)
    told = sentences(campaign, fighter_id=agnes.pk)
    assert any(sentence.startswith("Sister Agnes learnt Dodge") for sentence in told)
    assert any(sentence.startswith("Dodge was struck off Sister Agnes") for sentence in told)


def test_the_as_of_roster_holds_the_skills_it_had_then(campaign, warband, agnes, player):
    skill_add(fighter=agnes, by=player, name="Dodge")
    snapshot = roster_snapshot(warband_id=warband.pk, at=Skill.objects.get().created_at)
    assert snapshot.state() == roster_state(warband)
    [fighter] = snapshot.fighters
    assert [skill.name for skill in fighter.skills_then] == ["Dodge"]


def test_what_a_game_changed_lists_the_skills_its_post_game_gave(campaign, warband, agnes, player):
    game = Game.objects.create(campaign=campaign, number=1, played_on="2026-11-28", created_by=player)
    with pghistory.context(action="post_game.apply", game=game.pk, warband=warband.pk, campaign=campaign.pk):
        skill = Skill.objects.create(
            fighter=agnes, code="deadeye", name="Deadeye", chart="Ranged 9", game=game
        )
    changes = game_changes(
        warband=warband,
        game=game,
        moment=AsOfMoment(at=skill.created_at, applied=True, reverted=False, played=True),
    )
    assert [(c.name, c.after) for c in changes.skills_added] == [("Sister Agnes", "Deadeye")]
    assert not changes.is_empty
