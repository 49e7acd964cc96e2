"""Post-game Experience: the XP one fighter earns from a game, worked out once its Trauma Step is settled.

No seed rule text covers it; the rule is CAMPAIGN_PHASE.md, step 2 ("Experience and Advancement"), read by
RULING X-4 with TRAUMA_TABLE.md and RULING T-9 (docs/rules.md):

RULING X-4: "only an ELITE model gains XP from a battle: 1 XP if it took part and survived (even if taken Out of
Action), and 1 more if it performed at least one Glorious Deed, however many it performed. A Troop gains no XP;
its Glorious Deeds count only in the Promotion Pool (P-1). Bitter Lessons' D3 (T-9) and the organiser's
adjustment are added as before."
TRAUMA_TABLE.md, 22 Head Wound: "can no longer gain XP"; 65 Bitter Lessons: "gains D3 extra XP".
RULING T-9: "A fighter that can no longer gain XP (Head Wound) gains nothing from Bitter Lessons."

How the parts combine:

- A fighter removed from the roster by its Trauma Step gains nothing, the organiser's adjustment included: there
  is no one left to give it to.
- Until its Trauma Step is settled (`survived=None`), and for a fighter that did not take part, only the
  organiser's adjustment counts.
- A fighter that cannot gain XP (a Head Wound, also one suffered in this very game) gains neither the +1, nor the
  +1 of its Glorious Deeds, nor the D3 (RULING T-9); the organiser's adjustment still counts.
- Otherwise (RULING X-4): an ELITE fighter gains +1, +1 more for one Glorious Deed or more, + the D3 of Bitter
  Lessons; a Troop gains nothing from the game (its Deeds feed the Promotion Pool, P-1, which is
  `promotion_pool`'s to count); both + the organiser's adjustment (which may be negative).

Whether the fighter's XP may fall below 0 is the roster's question, not this rule's: `total` can be negative only
when the adjustment is.
"""

from __future__ import annotations

from dataclasses import dataclass

from .stat_tests import check_count

__all__ = [
    "EXPERIENCE_REASONS",
    "XP_FOR_DEEDS_WORDS",
    "XP_FOR_TAKING_PART_WORDS",
    "TROOP_DEEDS_WORDS",
    "ExperienceAward",
    "post_game_experience",
]

# What decided the award, in the order the rule asks (the first that applies wins).
EXPERIENCE_REASONS = ("removed", "pending", "did_not_take_part", "cannot_gain_xp", "earned")
# RULING X-4: "1 XP if it took part and survived", and "1 more if it performed at least one Glorious Deed".
ELITE_XP = 1
GLORIOUS_DEEDS_XP = 1
# TRAUMA_TABLE.md 65, Bitter Lessons: "gains D3 extra XP".
BITTER_LESSONS_MAX = 3
# RULING X-4 in the words every page says it with (the wizard's Experience step, the Review, the history and the
# printed card): once, here, so no page words the rule its own way.
XP_FOR_TAKING_PART_WORDS = "+1 for taking part and surviving"
XP_FOR_DEEDS_WORDS = "+1 for at least one Glorious Deed"
TROOP_DEEDS_WORDS = "Glorious Deeds feed Promotions (the Promotion Pool, RULING P-1), not XP (RULING X-4)"


@dataclass(frozen=True, slots=True)
class ExperienceAward:
    """The XP a fighter earns from one game, part by part.

    `base` is the +1 of an ELITE fighter that took part and survived; `glorious_deeds` the +1 such a fighter gains
    for one Glorious Deed or more (RULING X-4: never more than 1, and 0 for a Troop); `bitter_lessons` the D3 of
    Bitter Lessons counted (0 when the rule does not count it); `adjustment` the organiser's change as counted;
    `total` their sum. `reason` is one of `EXPERIENCE_REASONS`: "removed" (off the roster, nothing counts),
    "pending" (its Trauma Step is not settled: only the adjustment counts), "did_not_take_part" (only the
    adjustment), "cannot_gain_xp" (Head Wound, RULING T-9: only the adjustment) or "earned" (every part counted,
    which may still come to 0: a Troop always earns 0, RULING X-4). `rulings` lists the RULINGS.md ids that
    decided it.
    """

    base: int
    glorious_deeds: int
    bitter_lessons: int
    adjustment: int
    total: int
    reason: str
    rulings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.reason not in EXPERIENCE_REASONS:
            raise ValueError(f"reason must be one of {', '.join(EXPERIENCE_REASONS)}, got {self.reason!r}")
        parts = self.base + self.glorious_deeds + self.bitter_lessons + self.adjustment
        if self.total != parts:
            raise ValueError(f"total must be the sum of the parts ({parts}), got {self.total!r}")

    @property
    def earned(self) -> int:
        """What the game itself gave, before the organiser's adjustment (never negative)."""
        return self.base + self.glorious_deeds + self.bitter_lessons


def _check_bool(value: object, *, name: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def post_game_experience(
    *,
    elite: bool,
    took_part: bool,
    survived: bool | None,
    can_gain_xp: bool,
    glorious_deeds: int = 0,
    bitter_lessons: int = 0,
    adjustment: int = 0,
) -> ExperienceAward:
    """The XP a fighter earns from a game (CAMPAIGN_PHASE.md step 2; RULINGS X-4 and T-9).

    `survived` is False when its Trauma Step removed it from the roster, None while that step is not settled
    (a roll or a ransom still to come), True otherwise (also for a fighter never taken Out of Action).
    `can_gain_xp` is the fighter's state after its Trauma Step (a Head Wound suffered in this game counts).
    `glorious_deeds` is the number the players recorded (0 or more; any number above 0 gives an ELITE fighter the
    same +1, and a Troop nothing, RULING X-4); `bitter_lessons` the D3 of a Bitter Lessons
    result (0 to 3; only an ELITE fighter that took part and survived rolls it); `adjustment` the organiser's
    change, any whole number. Bad input raises `ValueError` naming the value.
    """
    _check_bool(elite, name="elite")
    _check_bool(took_part, name="took_part")
    _check_bool(can_gain_xp, name="can_gain_xp")
    if survived is not None:
        _check_bool(survived, name="survived")
    check_count(glorious_deeds, name="glorious_deeds")
    if type(bitter_lessons) is not int or not 0 <= bitter_lessons <= BITTER_LESSONS_MAX:
        raise ValueError(
            f"bitter_lessons must be a D3 result, 0 to {BITTER_LESSONS_MAX}, got {bitter_lessons!r}"
        )
    if type(adjustment) is not int:
        raise ValueError(f"adjustment must be a whole number, got {adjustment!r}")
    if bitter_lessons and not (elite and took_part and survived is True):
        # The D3 comes from an ELITE fighter's Trauma roll (RULING T-3) that it survived (TRAUMA_TABLE.md 65).
        raise ValueError(
            f"bitter_lessons {bitter_lessons} needs an ELITE fighter that took part and survived "
            f"(elite={elite}, took_part={took_part}, survived={survived})"
        )

    def only_adjustment(reason: str, rulings: tuple[str, ...] = ()) -> ExperienceAward:
        return ExperienceAward(0, 0, 0, adjustment, adjustment, reason, rulings)

    if survived is False:
        return ExperienceAward(0, 0, 0, 0, 0, "removed")
    if survived is None:
        return only_adjustment("pending")
    if not took_part:
        return only_adjustment("did_not_take_part")
    if not can_gain_xp:
        # TRAUMA_TABLE.md 22, Head Wound: "can no longer gain XP"; RULING T-9: not even from Bitter Lessons.
        return only_adjustment("cannot_gain_xp", ("T-9",))
    if not elite:
        # RULING X-4: "A Troop gains no XP; its Glorious Deeds count only in the Promotion Pool (P-1)." (No D3:
        # only an ELITE fighter rolls Bitter Lessons, checked above.)
        return ExperienceAward(0, 0, 0, adjustment, adjustment, "earned", ("X-4",))
    # RULING X-4: 1 for taking part and surviving, 1 more for "at least one Glorious Deed, however many".
    deeds = GLORIOUS_DEEDS_XP if glorious_deeds > 0 else 0
    total = ELITE_XP + deeds + bitter_lessons + adjustment
    return ExperienceAward(ELITE_XP, deeds, bitter_lessons, adjustment, total, "earned", ("X-4",))
