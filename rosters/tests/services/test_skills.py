"""rosters/services/skills.py: a skill added by hand (refused when the fighter has it already) and struck off."""

import pytest
from django.core.exceptions import ValidationError

from rosters.models import Skill
from rosters.services.errors import RosterRefused
from rosters.services.skills import skill_add, skill_code_for, skill_remove

pytestmark = pytest.mark.django_db


@pytest.fixture
def agnes(warband, make_fighter):
    return make_fighter(warband, "Sister Agnes", elite=True, xp=4)


def test_a_skill_added_by_hand_gets_a_code_from_its_name(agnes, player):
    skill = skill_add(fighter=agnes, by=player, name="  Quick Reflexes ", chart="Stealth & Speed 8")
    assert (skill.code, skill.name, skill.chart, skill.game_id) == (
        "quick_reflexes",
        "Quick Reflexes",
        "Stealth & Speed 8",
        None,
    )
    assert skill_code_for("Sure-footed Climber") == "sure-footed_climber"


def test_a_skill_it_already_has_is_refused_by_code_or_by_name(agnes, player):
    Skill.objects.create(fighter=agnes, code="deadeye", name="Deadeye")
    with pytest.raises(RosterRefused, match="Sister Agnes already has Deadeye"):
        skill_add(fighter=agnes, by=player, name="Deadeye")
    with pytest.raises(RosterRefused, match="already has DEADEYE"):
        skill_add(fighter=agnes, by=player, name="DEADEYE", code="other_code")
    assert Skill.objects.filter(fighter=agnes).count() == 1


def test_a_blank_name_is_refused(agnes, player):
    with pytest.raises(ValidationError, match="blank"):
        skill_add(fighter=agnes, by=player, name="   ")
    assert not Skill.objects.exists()


def test_a_skill_struck_off_is_gone(agnes, player):
    skill = skill_add(fighter=agnes, by=player, name="Deadeye")
    skill_remove(skill=skill, by=player)
    assert not Skill.objects.exists()
