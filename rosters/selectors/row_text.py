"""What a roster row shows, written once in Python rather than worked out per row by its template: its addresses
(each URL pattern reversed once for all the rows drawn together), its stat lines and its tags.

Drawing a row for real (a cache miss) was mostly the template engine's cost per variable and per loop: a row of
templates/rosters/warband.html drew some forty variables, three `{% url %}` and five loops. What is written here
is the same text, byte for byte: rosters/tests/selectors/test_roster.py draws each piece both ways and compares.
"""

from collections.abc import Callable
from typing import NamedTuple

from django.utils.html import conditional_escape, escape
from django.utils.safestring import mark_safe

from campaigns.profiles import Profile, profile_of
from rosters.models import Fighter
from rosters.row_urls import url_for_ids


class RowLinks(NamedTuple):
    """Where a roster row links to (its fighter's card, XP and edit addresses), each pattern reversed once for
    all the rows drawn together (rosters/row_urls.py): three `reverse()` per row were a good part of a row's cost."""

    card: Callable[[int], str]
    xp: Callable[[int], str]
    edit: Callable[[int], str]


def row_links() -> RowLinks:
    return RowLinks(url_for_ids("fighter_detail"), url_for_ids("fighter_xp"), url_for_ids("fighter_edit"))


# The S.P.E.C.I.A.L. line of a row of the games with Endurance, letter and field in the order the row shows them.
SPECIAL_LINE = (
    ("S", "strength"),
    ("P", "perception"),
    ("E", "endurance"),
    ("C", "charisma"),
    ("I", "intelligence"),
    ("A", "agility"),
    ("L", "luck"),
)


def stat_lines(fighter: Fighter, profile: Profile) -> None:
    """The stat lines of a row, as text, in its campaign's profile: one template variable each, where the row
    drew ten to twenty and their `if`s and loops (templates/rosters/warband.html, the fighter-row part).

    With Endurance, `stat_line` (move, Health times its models, Harm Limit) and `special_line` (S.P.E.C.I.A.L.):
    whole numbers and fixed words, nothing to escape. Without, `profile_line` (each stat of the profile, its name
    in an <abbr>, escaped as the template escapes a variable) and `models_line` (a unit's models and Health)."""
    if profile.has_endurance:
        models = f" ×{fighter.unit_size}" if fighter.unit_size > 1 else ""
        harm_limit = "none" if fighter.harm_limit is None else fighter.harm_limit
        fighter.stat_line = (
            f"M {fighter.movement}″ · Health {fighter.health}{models} · Harm Limit {harm_limit}"
        )
        fighter.special_line = " ".join(
            f"{letter}{getattr(fighter, field)}" for letter, field in SPECIAL_LINE
        )
        return
    fighter.profile_line = mark_safe(  # noqa: S308 -- every piece of text escaped here
        " · ".join(
            f'<abbr title="{escape(stat.label)}">{escape(stat.short)}</abbr> {escape(stat.value)}'
            for stat in profile_of(fighter, profile)
        )
    )
    health = fighter.health
    fighter.models_line = (
        f"{fighter.unit_size} models · {health} Health Point{'' if health == 1 else 's'} each"
    )


def _tag(name, title=None) -> str:
    """One <span class="tag">, its `title` only when it has one, each value escaped as a template variable is."""
    title = f' title="{conditional_escape(title)}"' if title else ""
    return f'<span class="tag"{title}>{name}</span>'


def tag_lines(fighter: Fighter) -> None:
    """A row's Injuries, Battlekit and skills as HTML (`injuries_html`, `kit_html`, `skills_html`), each value
    escaped as the template escapes a variable: three loops of the row's template, with a context each per tag,
    were a good part of the cost of drawing a row. The empty ones read "—" (the Injuries and the Battlekit) or
    nothing (the skills), as the row drew them."""
    none = '<span class="muted">—</span>'
    fighter.injuries_html = mark_safe(  # noqa: S308 -- every value escaped
        "".join(
            f'<span class="tag" title="{conditional_escape(injury.effect)}">{conditional_escape(injury.name)}</span>'
            for injury in fighter.injury_list
        )
        or none
    )
    fighter.kit_html = mark_safe(  # noqa: S308 -- every value escaped
        "".join(
            _tag(
                conditional_escape(item.name)
                + "".join(f" <small>{conditional_escape(keyword)}</small>" for keyword in item.keywords),
                item.notes,
            )
            for item in fighter.kit
        )
        or none
    )
    skills = "".join(_tag(conditional_escape(skill.name), skill.chart) for skill in fighter.skill_list)
    fighter.skills_html = mark_safe(  # noqa: S308 -- every value escaped
        f'<span class="fighter-skills small">Skills: {skills}</span>' if fighter.skill_list else ""
    )
