"""Experience and Advancement (CAMPAIGN_PHASE.md, "Experience and Advancement"; RULINGS X-1 to X-3).

"Reaching 2, 4, 7, 10, 14 and 18 XP each gives one Skill Advancement Roll." (`ADVANCEMENT_XP`, `gain_xp`), for an
ELITE model: "Troops gain no XP" (RULING X-4), so a Troop's XP makes no roll due.
"Limited Potential models gain at most 3 Skill Advancements (that is, up to 7 XP)." (RULING X-2, `xp_limit_problem`
for an XP total typed on the roster)
"If the model already has the skill a roll shows, use the next lower number on that chart that holds a skill it
lacks; if there is none lower, the next higher one." (`skill_for`, RULING X-3)

The skills themselves are campaign data (`SkillChart.from_rows`); the numbers are the rules, here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .campaign_checks import TableSpec, raise_problems, table_problems
from .stat_tests import check_count

__all__ = [
    "ADVANCEMENT_XP",
    "LIMITED_POTENTIAL_XP",
    "NO_PATRON_LIST",
    "PATRON_SKILL",
    "SKILL_ROLLS",
    "SkillChart",
    "SkillEntry",
    "XpGain",
    "advancement_marks",
    "check_starting_xp",
    "late_joiner_xp",
    "explain_skill_roll",
    "gain_xp",
    "offers_patron_skill",
    "skill_for",
    "skill_odds",
    "skill_roll_known",
    "xp_limit_problem",
]

# CAMPAIGN_PHASE.md: "Reaching 2, 4, 7, 10, 14 and 18 XP each gives one Skill Advancement Roll."
ADVANCEMENT_XP = (2, 4, 7, 10, 14, 18)
# RULING X-2: "A Limited Potential model never goes past 7 XP ... and so gets at most 3 Skill Advancement Rolls."
LIMITED_POTENTIAL_XP = ADVANCEMENT_XP[2]
# A Skill Advancement Roll is 2D6: the numbers of a skill chart.
SKILL_ROLLS = range(2, 13)


@dataclass(frozen=True, slots=True)
class XpGain:
    """The model's new XP total and how many Skill Advancement Rolls this gain makes due (RULING X-1)."""

    xp: int
    advancements: int


def gain_xp(xp: int, gained: int, *, limited_potential: bool = False, elite: bool = True) -> XpGain:
    """Add `gained` XP to a model's `xp` (RULINGS X-1, X-2, X-4).

    RULING X-1: "Skill Advancement Rolls are due for each of 2, 4, 7, 10, 14, 18 that the XP total reaches in this
    post-battle (from below it to it or past it); several can be due at once."
    RULING X-2: "A Limited Potential model never goes past 7 XP (XP beyond it is not recorded)". A Limited
    Potential model recorded above 7 XP is bad input. Negative `xp` or `gained` raises `ValueError`.
    RULING X-4: "Only an ELITE model gains XP from a battle"; CAMPAIGN_PHASE.md, "Troops gain no XP": XP that a
    Troop holds all the same (the organiser's adjustment) makes no Skill Advancement Roll due (`elite=False`).
    """
    check_count(xp, name="xp")
    check_count(gained, name="gained")
    if type(limited_potential) is not bool:
        raise ValueError(f"limited_potential must be True or False, got {limited_potential!r}")
    if type(elite) is not bool:
        raise ValueError(f"elite must be True or False, got {elite!r}")
    total = xp + gained
    if limited_potential:
        if xp > LIMITED_POTENTIAL_XP:
            raise ValueError(
                f"xp {xp} is past {LIMITED_POTENTIAL_XP}, which a Limited Potential model never goes (RULING X-2)"
            )
        total = min(total, LIMITED_POTENTIAL_XP)
    due = sum(1 for mark in ADVANCEMENT_XP if xp < mark <= total) if elite else 0
    return XpGain(total, due)


def advancement_marks(
    xp: int, gained: int, *, limited_potential: bool = False, elite: bool = True
) -> tuple[int, ...]:
    """The thresholds of `ADVANCEMENT_XP` this gain reaches, lowest first: one Skill Advancement Roll each
    (RULING X-1: "for each of 2, 4, 7, 10, 14, 18 that the XP total reaches in this post-battle (from below it to
    it or past it)"), after RULING X-2's limit; none for a Troop (RULING X-4). As many as
    `gain_xp(...).advancements`."""
    total = gain_xp(xp, gained, limited_potential=limited_potential, elite=elite).xp
    return tuple(mark for mark in ADVANCEMENT_XP if xp < mark <= total) if elite else ()


def skill_roll_total(faces: Sequence[int]) -> int:
    """The number a Skill Advancement Roll finds on a chart from its dice (CAMPAIGN_PHASE.md, "Experience and
    Advancement": the roll is 2D6, added): two faces of 1 to 6, or `ValueError`."""
    faces = tuple(faces)
    if len(faces) != 2:
        raise ValueError(f"a Skill Advancement Roll is 2D6: two faces, got {len(faces)}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"a die's face is 1 to 6, got {face!r}")
    return faces[0] + faces[1]


def xp_limit_problem(xp: int, *, limited_potential: bool) -> str | None:
    """Why a model may not hold `xp` XP, in words, or None when it may: RULING X-2, "A Limited Potential model
    never goes past 7 XP"; and XP is never below 0. For an XP total changed by hand on the roster, which the next
    post-game then counts from (`gain_xp` refuses a Limited Potential model recorded past 7)."""
    if type(xp) is not int:
        raise ValueError(f"xp must be a whole number, got {xp!r}")
    if type(limited_potential) is not bool:
        raise ValueError(f"limited_potential must be True or False, got {limited_potential!r}")
    if xp < 0:
        return "XP cannot go below 0"
    if limited_potential and xp > LIMITED_POTENTIAL_XP:
        return f"Limited Potential: never past {LIMITED_POTENTIAL_XP} XP (RULING X-2)"
    return None


@dataclass(frozen=True, slots=True)
class SkillEntry:
    """A skill on a chart: the 2D6 `roll` that finds it, its stable `code`, its `name`."""

    roll: int
    code: str
    name: str


def _roll_problem(roll: Any) -> tuple[str, str] | None:
    if type(roll) is not int or roll not in SKILL_ROLLS:
        return (f": roll {roll!r} is not a 2D6 result (2 to 12).", f": roll must be 2 to 12, got {roll!r}")
    return None


SKILL_CHART = TableSpec(title="skill chart", key="roll", thing="skill", key_problem=_roll_problem)


class SkillChart:
    """One of a campaign's skill charts (Melee & Strength, Ranged, Stealth & Speed, Wildcard, or a house chart):
    at most one skill per 2D6 result 2..12, a number may hold none. Immutable and hashable."""

    __slots__ = ("name", "entries", "_by_roll", "_hash")

    def __init__(self, entries: Iterable[SkillEntry], *, name: str = "") -> None:
        entries = tuple(entries)
        if not all(isinstance(entry, SkillEntry) for entry in entries):
            raise ValueError(f"a SkillChart is made of SkillEntry values, got {entries!r}")
        self.entries = tuple(sorted(entries, key=lambda entry: entry.roll))
        raise_problems(
            table_problems(
                SKILL_CHART, [{"roll": e.roll, "code": e.code, "name": e.name} for e in self.entries]
            )
        )
        self.name = name
        self._by_roll = {entry.roll: entry for entry in self.entries}
        self._hash = hash((name, self.entries))

    @classmethod
    def problems(cls, rows: Any) -> tuple[str, ...]:
        """Every reason `rows` are not a skill chart, in plain words (empty when they are one): a row that is not
        a mapping, a missing or unknown field, a roll outside 2..12, a repeated roll or code, a bad code, no name."""
        return tuple(problem.words for problem in table_problems(SKILL_CHART, rows))

    @classmethod
    def from_rows(cls, rows: Iterable[Mapping[str, Any]], *, name: str = "") -> SkillChart:
        """A chart from rows with `roll`, `code`, `name`; bad rows raise `CampaignTableError` (a `ValueError`)
        with every problem in `.problems`."""
        rows = (
            list(rows) if isinstance(rows, Iterable) and not isinstance(rows, (str, bytes, Mapping)) else rows
        )
        raise_problems(table_problems(SKILL_CHART, rows))
        return cls((SkillEntry(row["roll"], row["code"], row["name"]) for row in rows), name=name)

    def at(self, roll: int) -> SkillEntry | None:
        """The skill a 2D6 result holds on this chart, or None."""
        return self._by_roll.get(roll)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SkillChart):
            return NotImplemented
        return (self.name, self.entries) == (other.name, other.entries)

    def __hash__(self) -> int:
        return self._hash

    def __repr__(self) -> str:
        return f"SkillChart(name={self.name!r}, skills={len(self.entries)})"


def _check_roll(roll: object) -> int:
    if type(roll) is not int or roll not in SKILL_ROLLS:
        raise ValueError(f"a Skill Advancement Roll is 2D6, 2 to 12, got {roll!r}")
    return roll


def _check_known(known: object) -> frozenset[str]:
    if isinstance(known, str) or not isinstance(known, (set, frozenset)):
        raise ValueError(f"known must be a set of skill codes, got {known!r}")
    return frozenset(known)


def _search_order(roll: int) -> Callable[[SkillEntry], tuple[bool, int]]:
    """RULING X-3's order of the chart's skills for `roll`: the roll's own, then lower numbers nearest first, then
    higher numbers nearest first."""
    return lambda entry: (entry.roll > roll, abs(entry.roll - roll))


def _stepped(chart: SkillChart, roll: int, known: frozenset[str]) -> SkillEntry | None:
    """RULING X-3: the roll's own skill, else the next lower number holding one it lacks, else the next higher.
    Only the numbers that hold a skill are searched: "a result that holds no skill in a house chart is treated
    like a known skill"."""
    for entry in sorted(chart.entries, key=_search_order(roll)):
        if entry.code not in known:
            return entry
    return None


def skill_for(chart: SkillChart, roll: int, *, known: frozenset[str] = frozenset()) -> SkillEntry | None:
    """The skill a Skill Advancement Roll of `roll` gives on `chart` to a model that knows the `known` codes.

    RULING X-3: "On a skill chart, a 2D6 result whose skill the model already has moves to the next lower number
    holding a skill the model lacks, then, if none, to the next higher one; with every skill of the chart known,
    the roll finds nothing on that chart. A result that holds no skill in a house chart is treated like a known
    skill." None when it finds nothing. A roll outside 2..12 raises `ValueError`.
    """
    if not isinstance(chart, SkillChart):
        raise ValueError(f"chart must be a SkillChart, got {chart!r}")
    return _stepped(chart, _check_roll(roll), _check_known(known))


NO_PATRON_LIST = "the warband's Patron has no skill list"


def _what(entry: SkillEntry | None, roll: int, known: frozenset[str], patron: frozenset[str] | None) -> str:
    if entry is None:
        return f"{roll} holds no skill on this chart"
    if entry.code in known and patron is not None and offers_patron_skill(entry):
        # CAMPAIGN_PHASE.md: a Patron Skill result picks from the Patron's list; stepped past (`skill_roll_known`)
        # because there is no list, or none of it left, not because the model "knows" the result.
        why = NO_PATRON_LIST if not patron else "it already knows every skill of its Patron"
        return f"{roll} is {entry.name}, but {why}"
    return f"{roll} is {entry.name}" + (", already known" if entry.code in known else "")


def explain_skill_roll(
    chart: SkillChart, roll: int, *, known: frozenset[str] = frozenset(), patron: frozenset[str] | None = None
) -> str:
    """One plain sentence for a Skill Advancement Roll on `chart`, with RULING X-3's step when it applies:
    "8 is Quick Reflexes, already known → 7, Sure-footed (RULING X-3)." `patron`, when given, is the warband's
    Patron's skill codes: a Patron Skill result stepped past then says why (no list, or none of it left) instead
    of "already known"."""
    found = skill_for(chart, roll, known=known)
    known = frozenset(known)
    if patron is not None:
        patron = _check_known(patron)
    head = _what(chart.at(roll), roll, known, patron)
    if found is None:
        return f"{head}, and it knows every skill of this chart: the roll finds nothing here (RULING X-3)."
    if found.roll < roll:
        how = "" if found.roll == roll - 1 else " (the next lower number holding a skill it lacks)"
    elif found.roll > roll:
        how = " (nothing lower holds a skill it lacks, so the next higher)"
    else:
        return f"{head}."
    return f"{head} → {found.roll}, {found.name}{how} (RULING X-3)."


# CAMPAIGN_PHASE.md: 'A "Patron Skill" result lets the player pick any one skill of the warband's Patron, never one
# the model already has.' The charts are campaign data: a row whose code starts so is such a result
# (`patron_skill`, `patron_skill_again`).
PATRON_SKILL = "patron_skill"


def offers_patron_skill(entry: SkillEntry | None) -> bool:
    """Whether a chart's result is a Patron Skill result (the player picks from the warband's Patron's list)."""
    return entry is not None and entry.code.startswith(PATRON_SKILL)


def skill_roll_known(
    chart: SkillChart, *, known: frozenset[str], patron: frozenset[str] = frozenset()
) -> frozenset[str]:
    """What counts as known on `chart` for RULING X-3: the model's skill codes, and the chart's Patron Skill
    results when no Patron skill is left that the model lacks (CAMPAIGN_PHASE.md: "never one the model already
    has": such a result would give nothing, so the roll steps past it like a known skill)."""
    known, patron = _check_known(known), _check_known(patron)
    if patron - known:
        return known
    return known | {entry.code for entry in chart.entries if offers_patron_skill(entry)}


# 2D6: the chance of each total 2..12 is (6 - |total - 7|) / 36.
_TWO_D6 = {total: Fraction(6 - abs(total - 7), 36) for total in SKILL_ROLLS}


def skill_odds(chart: SkillChart, *, known: frozenset[str] = frozenset()) -> dict[str | None, Fraction]:
    """The exact chance that a Skill Advancement Roll (2D6) on `chart` finds each skill, by code, for a model
    that knows `known`, RULING X-3's stepping applied; under None the chance it finds nothing. Only outcomes
    with a chance are listed; the chances add up to 1."""
    if not isinstance(chart, SkillChart):
        raise ValueError(f"chart must be a SkillChart, got {chart!r}")
    known = _check_known(known)
    odds: dict[str | None, Fraction] = {}
    for total, chance in _TWO_D6.items():
        found = _stepped(chart, total, known)
        code = found.code if found is not None else None
        odds[code] = odds.get(code, Fraction(0)) + chance
    return odds


# CAMPAIGN_PHASE.md, late joiners: "may tick 1 XP per battle played by the warband that has played most, shared
# among its ELITE models as its player likes, with the Skill Advancements those XP reach."
def late_joiner_xp(*, battles_played: Iterable[int]) -> int:
    """The starting XP a late joiner may tick: 1 per battle of the warband that has played most (0 when none has
    played). Each count is a warband's battles played; a negative one raises `ValueError`."""
    counts = [check_count(count, name="battles played") for count in battles_played]
    return max(counts, default=0)


def check_starting_xp(shares: Mapping[str, int], *, allowance: int, elite: Iterable[str]) -> None:
    """A late joiner's starting XP shared among its models: only ELITE models (`elite`, model ids) take any, none a
    negative share, and no more in all than `allowance` (need not be all of it: "as its player likes"). Raises
    `ValueError` naming the model, or the total."""
    check_count(allowance, name="allowance")
    elite = frozenset(elite)
    for model, share in shares.items():
        check_count(share, name=f"the starting XP of {model}")
        if share and model not in elite:
            raise ValueError(f"{model} is not ELITE: the starting XP is shared among ELITE models only")
    total = sum(shares.values())
    if total > allowance:
        raise ValueError(f"{total} starting XP shared, but only {allowance} may be ticked (1 per battle)")
