"""Promotions: Troops becoming ELITE (CAMPAIGN_PHASE.md, "Promotions (Troops becoming ELITE)"; RULINGS P-1 to P-6).

"The Promotion Pool starts with 1 die; +1 if the warband won the battle; +1 per Glorious Deed the warband performed
in it; some abilities add dice." (`promotion_pool`, P-1)
"Dice are assigned to the Troops that may be promoted: at most 2 per model, 3 for a model that performed a Glorious
Deed. Only when every eligible model already has 2 may further dice be assigned, and then so that no model has 2 or
more dice more than another." (`check_promotion_dice`, P-2)
"Roll the dice one at a time in any order. A 6 promotes that model ... Only one model is promoted per post-battle
sequence: after a promotion, stop rolling." (`roll_promotions`, P-3)
"Failed Promotion Dice are tallied across the whole campaign: after 5 failed in a row, the 6th always succeeds,
and the tally starts again." (P-4)
"A warband has at most 6 ELITE models: at 6 it rolls no Promotion Dice." (`MAX_ELITE`, P-5; the models counted,
`promotion_pool_inputs`)
"Some fighter types can never be promoted (campaign data: a flag on the fighter type), nor can allies and
mercenaries." (`hired_not_promoted`, by the ALLY and MERCENARY keywords; who may take dice, `may_take_promotion_dice`)

`promotion_chance` and `promotion_odds` give the exact chances a page shows before the dice are rolled.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .dice import Dice
from .roles import ELITE, has_elite_keyword
from .stat_tests import check_count

__all__ = [
    "MAX_ELITE",
    "MERCENARY",
    "PROMOTION_DIE",
    "PROMOTES_ON",
    "AUTOMATIC_AFTER",
    "PoolInputs",
    "PoolModel",
    "Promotion",
    "PromotionResult",
    "check_promotion_dice",
    "dice_until_automatic",
    "hired_not_promoted",
    "may_take_promotion_dice",
    "promote",
    "promotion_chance",
    "promotion_dice_problems",
    "promotion_odds",
    "promotion_pool",
    "promotion_pool_inputs",
    "roll_promotions",
]

# CAMPAIGN_PHASE.md: "A warband has at most 6 ELITE models: at 6 it rolls no Promotion Dice." (RULING P-5)
MAX_ELITE = 6
PROMOTION_DIE = 6
PROMOTES_ON = 6  # "A 6 promotes that model"
# RULING P-4: "A die rolled when the tally is 5 is an automatic success".
AUTOMATIC_AFTER = 5
# CAMPAIGN_PHASE.md, Promotions: "... nor can allies and mercenaries": the keywords that mark them on a roster.
MERCENARY = "MERCENARY"  # the keyword a fighter hired with Glory carries (the post-game's Use Glory)
HIRED_KEYWORDS = frozenset({"ALLY", MERCENARY})


def hired_not_promoted(keywords: Iterable[str]) -> bool:
    """Whether a model with these keywords is an ally or a mercenary, which can never be promoted."""
    return any(keyword.strip().upper() in HIRED_KEYWORDS for keyword in keywords)


# RULING P-2: "at most 2 dice (3 if it performed a Glorious Deed) until every eligible model has 2".
DICE_PER_MODEL = 2
DICE_WITH_GLORIOUS_DEED = 3


def _check_bool(value: object, *, name: str) -> bool:
    if type(value) is not bool:
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return value


def may_take_promotion_dice(
    *,
    elite: bool,
    can_gain_xp: bool,
    keywords: Iterable[str] = (),
    never_promoted: bool = False,
    dismissed: bool = False,
) -> bool:
    """Whether a model on the roster after the Trauma Step may be given Promotion Dice: "Dice are assigned to the
    Troops that may be promoted", and RULING P-6's Head-Wounded ELITE model (`elite` and not `can_gain_xp`); not a
    fighter type that "can never be promoted" (`never_promoted`, the campaign data's flag), "nor ... allies and
    mercenaries" (`hired_not_promoted`), nor a model its player dismisses this post-game (it leaves the warband)."""
    for value, name in (
        (elite, "elite"),
        (can_gain_xp, "can_gain_xp"),
        (never_promoted, "never_promoted"),
        (dismissed, "dismissed"),
    ):
        _check_bool(value, name=name)
    if dismissed or never_promoted or (elite and can_gain_xp):
        return False
    return not hired_not_promoted(keywords)


@dataclass(frozen=True, slots=True)
class PoolModel:
    """A model of the warband as the Promotion Pool counts it: ELITE or not, its Glorious Deeds in this battle,
    and whether it leaves the roster in this post-game (`removed` by its Trauma Step, or `dismissed`)."""

    elite: bool
    glorious_deeds: int = 0
    removed: bool = False
    dismissed: bool = False

    def __post_init__(self) -> None:
        for name in ("elite", "removed", "dismissed"):
            _check_bool(getattr(self, name), name=name)
        check_count(self.glorious_deeds, name="glorious_deeds")


@dataclass(frozen=True, slots=True)
class PoolInputs:
    """What `promotion_pool` counts of a warband: its Glorious Deeds and its ELITE models that stay."""

    glorious_deeds: int
    elite_count: int


def promotion_pool_inputs(models: Iterable[PoolModel]) -> PoolInputs:
    """The Promotion Pool's inputs from the warband's models: "+1 per Glorious Deed the warband performed in it"
    (every model's, also one lost or dismissed since: the Deed was performed), and the ELITE models RULING P-5
    counts, those still on the roster: a model removed by the Trauma Step or dismissed after it is no longer one
    of the warband's "at most 6 ELITE models"."""
    models = tuple(models)
    if not all(isinstance(model, PoolModel) for model in models):
        raise ValueError(f"the Promotion Pool counts PoolModel values, got {models!r}")
    deeds = sum(model.glorious_deeds for model in models)
    elite = sum(1 for model in models if model.elite and not (model.removed or model.dismissed))
    return PoolInputs(deeds, elite)


def promotion_pool(*, won: bool, glorious_deeds: int, elite_count: int, extra: int = 0) -> int:
    """The number of Promotion Dice the warband rolls after a battle.

    RULING P-1: "Promotion Pool = 1 + 1 if won + 1 per Glorious Deed of the warband + extra dice from abilities."
    RULING P-5: "With 6 ELITE models on the roster no Promotion Dice are rolled: the pool is 0".
    Negative counts raise `ValueError`.
    """
    _check_bool(won, name="won")
    check_count(glorious_deeds, name="glorious_deeds")
    check_count(elite_count, name="elite_count")
    check_count(extra, name="extra")
    if elite_count >= MAX_ELITE:
        return 0
    return 1 + int(won) + glorious_deeds + extra


def promotion_dice_problems(
    assignment: Mapping[str, int], *, pool: int, eligible: Mapping[str, bool]
) -> tuple[str, ...]:
    """Every breach of RULING P-2 (and of the pool) in an assignment of Promotion Dice, each naming the model or
    the pool; empty when the assignment may be rolled."""
    if type(pool) is not int or pool < 0:
        return (f"pool must be 0 or more, got {pool!r}",)
    problems = []
    counts: dict[str, int] = {}
    for model, count in assignment.items():
        if type(count) is not int or count < 0:
            problems.append(f"{model!r} must be given 0 dice or more, got {count!r}")
        elif count and model not in eligible:
            problems.append(
                f"{model!r} may not be promoted, so it cannot be given Promotion Dice (RULING P-2)"
            )
        elif model in eligible:
            counts[model] = count
    total = sum(counts.values())
    if total > pool:
        problems.append(f"{total} Promotion Dice are assigned but the pool has {pool}")
    return tuple(problems) + _share_problems(counts, eligible)


def _share_problems(counts: Mapping[str, int], eligible: Mapping[str, bool]) -> tuple[str, ...]:
    """RULING P-2: the cap of 2 (3 with a Glorious Deed) holds until every eligible model has 2; beyond that, no
    model may have 2 or more dice more than another."""
    dice = {model: counts.get(model, 0) for model in eligible}
    if not dice:
        return ()
    if all(count >= DICE_PER_MODEL for count in dice.values()):
        fewest = min(dice.values())
        return tuple(
            f"{model!r} has {count} Promotion Dice, 2 or more than another model's {fewest} (RULING P-2)"
            for model, count in dice.items()
            if count - fewest >= 2
        )
    problems = []
    for model, count in dice.items():
        cap = DICE_WITH_GLORIOUS_DEED if eligible[model] else DICE_PER_MODEL
        if count > cap:
            why = "with its Glorious Deed" if eligible[model] else "without a Glorious Deed"
            problems.append(
                f"{model!r} has {count} Promotion Dice but may have {cap} {why} until every eligible model "
                "has 2 (RULING P-2)"
            )
    return tuple(problems)


def check_promotion_dice(assignment: Mapping[str, int], *, pool: int, eligible: Mapping[str, bool]) -> None:
    """Refuse an assignment of Promotion Dice that breaks RULING P-2 or the pool.

    RULING P-2: "every eligible model takes at most 2 dice (3 if it performed a Glorious Deed) until every eligible
    model has 2; dice beyond that may go to any eligible models as long as no model then has 2 or more dice more
    than another. Dice need not all be assigned. Assigning to a model that is not eligible is an error."
    `eligible` maps each model that may be promoted to whether it performed a Glorious Deed. Raises `ValueError`
    naming every model (or the pool) in breach.
    """
    if not isinstance(assignment, Mapping) or not isinstance(eligible, Mapping):
        raise ValueError(
            f"assignment and eligible must be mappings of model ids, got {type(assignment).__name__} and "
            f"{type(eligible).__name__}"
        )
    for model, deed in eligible.items():
        _check_bool(deed, name=f"eligible[{model!r}]")
    problems = promotion_dice_problems(assignment, pool=pool, eligible=eligible)
    if problems:
        raise ValueError("; ".join(problems))


@dataclass(frozen=True, slots=True)
class PromotionResult:
    """The model promoted (or None), each die as `(model, face)` in rolling order with the automatic success as
    `(model, None)` (RULING P-4), and the warband's tally of failed Promotion Dice afterwards."""

    promoted: str | None
    rolls: tuple[tuple[str, int | None], ...]
    failed_after: int


def _check_tally(failed_before: object) -> int:
    if type(failed_before) is not int or not 0 <= failed_before <= AUTOMATIC_AFTER:
        raise ValueError(f"failed_before must be 0 to {AUTOMATIC_AFTER}, got {failed_before!r}")
    return failed_before


def roll_promotions(order: Sequence[str], dice: Dice, *, failed_before: int) -> PromotionResult:
    """Roll the Promotion Dice one at a time, one model id per die in `order` (RULINGS P-3, P-4).

    RULING P-3: "The first 6 promotes its model and ends the rolling; dice not yet rolled are not rolled."
    RULING P-4: "The tally of failed Promotion Dice is the warband's, across games. A die rolled when the tally is
    5 is an automatic success: it is not rolled, it promotes, and the tally returns to 0. Any success resets the
    tally." Whether the success promotes or restores XP gain (P-6) is the caller's to apply.
    """
    tally = _check_tally(failed_before)
    if isinstance(order, str) or not all(isinstance(model, str) and model for model in order):
        raise ValueError(f"order must be a sequence of model ids, one per die, got {order!r}")
    rolls: list[tuple[str, int | None]] = []
    for model in order:
        if tally == AUTOMATIC_AFTER:
            rolls.append((model, None))
            return PromotionResult(model, tuple(rolls), 0)
        face = dice.roll(PROMOTION_DIE)
        rolls.append((model, face))
        if face >= PROMOTES_ON:
            return PromotionResult(model, tuple(rolls), 0)
        tally += 1
    return PromotionResult(None, tuple(rolls), tally)


def _die_chances(dice: int, failed_before: int) -> tuple[Fraction, ...]:
    """The chance that die i (0-based, in rolling order) is the one that promotes (RULINGS P-3, P-4)."""
    fail = Fraction(PROMOTION_DIE - 1, PROMOTION_DIE)
    success = 1 - fail
    automatic = AUTOMATIC_AFTER - failed_before  # the index of the die rolled at a tally of 5
    return tuple(
        fail**index * (1 if index == automatic else success) for index in range(min(dice, automatic + 1))
    ) + (Fraction(0),) * max(0, dice - automatic - 1)


def dice_until_automatic(*, failed_before: int) -> int:
    """Which Promotion Die from now (1 = the next one) is the automatic success, given the warband's tally.

    RULING P-4: "A die rolled when the tally is 5 is an automatic success", so with 4 failed in a row the 2nd die
    from now promotes whatever is rolled first, and with 5 the next one does, without a roll.
    """
    return AUTOMATIC_AFTER - _check_tally(failed_before) + 1


def promotion_chance(*, dice: int, failed_before: int) -> Fraction:
    """The exact chance that `dice` Promotion Dice promote a model, given the warband's tally of failures
    (RULING P-3: the first 6 promotes; RULING P-4: after 5 failures in a row the next die always succeeds)."""
    check_count(dice, name="dice")
    return sum(_die_chances(dice, _check_tally(failed_before)), Fraction(0))


def promotion_odds(order: Sequence[str], *, failed_before: int) -> dict[str, Fraction]:
    """The exact chance each model is the one promoted, for the dice rolled in `order` (one model id per die,
    as `roll_promotions` takes it). The chances add up to `promotion_chance`; only one model is promoted (P-3)."""
    if isinstance(order, str) or not all(isinstance(model, str) and model for model in order):
        raise ValueError(f"order must be a sequence of model ids, one per die, got {order!r}")
    odds = dict.fromkeys(order, Fraction(0))
    for model, chance in zip(order, _die_chances(len(order), _check_tally(failed_before)), strict=True):
        odds[model] += chance
    return odds


@dataclass(frozen=True, slots=True)
class Promotion:
    """What a promotion changes: the fighter's keywords, ELITE added, and its XP, 0 (RULING P-7)."""

    keywords: frozenset[str]
    xp: int


def promote(*, keywords: Iterable[str]) -> Promotion:
    """A promoted Troop: CAMPAIGN_PHASE.md, "A 6 promotes that model: it gains the ELITE keyword and starts at 0
    XP"; RULING P-7, "A promoted model is ELITE from the next battle on, with 0 XP, and keeps its Battlekit and
    Injuries" (which this does not touch: only the keywords and the XP change). A model already ELITE is not
    promoted (RULING P-6: its success restores its XP gain instead), so it raises `ValueError`."""
    if isinstance(keywords, (str, bytes)) or not isinstance(keywords, Iterable):
        raise ValueError(f"keywords must be a collection of keywords, got {keywords!r}")
    keywords = frozenset(keywords)
    if has_elite_keyword(keywords):  # keywords are compared without case (roles.py)
        raise ValueError(
            f"a model with the {ELITE} keyword is not promoted (RULING P-6), got {sorted(keywords)}"
        )
    return Promotion(keywords | {ELITE}, 0)
