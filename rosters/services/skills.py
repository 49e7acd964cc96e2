"""Writes for skills a fighter has learnt by hand: one added or struck off on the fighter page.

The post-game's Advancement step creates its skills at the Apply (combat/services/post_game/advancement.py); these
are for a mistake, a skill from an ability, or a warband's past entered later.
"""

from django.db import transaction

from rosters.models import SKILL_CODE_LENGTH, Fighter, Skill
from rosters.services.common import change_context
from rosters.services.errors import RosterRefused


def skill_code_for(name: str) -> str:
    """The code of a skill typed by hand, from its name ("Quick Reflexes" -> "quick_reflexes")."""
    return "_".join(name.lower().split())[:SKILL_CODE_LENGTH]


@transaction.atomic
def skill_add(*, fighter: Fighter, by, name: str, chart: str = "", code: str = "", reason: str = "") -> Skill:
    """Record a skill the fighter has. Refused when it has it already (RULING X-3: a fighter never learns a skill
    twice), by code or by name."""
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    name = (name or "").strip()
    code = (code or "").strip() or skill_code_for(name)
    skill = Skill(fighter=fighter, code=code, name=name, chart=(chart or "").strip())
    skill.full_clean(exclude=["fighter", "game"], validate_unique=False, validate_constraints=False)
    known = Skill.objects.filter(fighter=fighter)
    if known.filter(code=code).exists() or known.filter(name__iexact=name).exists():
        raise RosterRefused(f"{fighter.name} already has {name}.")
    with change_context(
        action="skill.add",
        reason=reason or f"{by} recorded {name} on {fighter.name} by hand",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        skill.save()
    return skill


@transaction.atomic
def skill_remove(*, skill: Skill, by, reason: str = "") -> None:
    """Strike a skill off (a mistake)."""
    skill = Skill.objects.select_related("fighter__warband").get(pk=skill.pk)
    fighter = skill.fighter
    with change_context(
        action="skill.remove",
        reason=reason or f"{by} struck {skill.name} off {fighter.name}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        skill.delete()
