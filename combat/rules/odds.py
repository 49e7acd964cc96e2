"""Exact odds, computed by enumeration, never by sampling: shown to players before they roll.

Each function enumerates the outcomes of the dice and runs them through the same rule functions the rolls use
(`damage.inflict_damage`, `trauma.resolve_entry`), so the odds cannot drift from the rules:

- Tests (RULINGS.md facts, RULING D-6): each D10 is a Hit with chance stat/10, so the Hits of a pool follow the
  binomial law, `hit_distribution`; a Test is passed with one Hit or more, `pass_odds`.
- Damage (000_57a9b0f426546aa5.txt "Damage Resolution"): Damage equals the Hits (002 "3. Inflict Damage"),
  `damage_odds` sums the chance of each Damage over the table row it reaches.
- Trauma (003_37ee4a105d59703a.txt "Elite Models", "Recording Injuries & Battle Scars", RULING T-5): rolling again
  until a usable result comes up makes every usable D66 result equally likely, so `trauma_odds` counts the usable
  results of each code. A Troop's Survival Roll survives on 3-6 of a D6 (RULING T-2).

`format_odds` writes a chance the way the pages show it ("1 in 3", "14%").
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb

from .damage import Combatant, inflict_damage
from .stat_tests import check_count, check_stat
from .trauma import D66_VALUES, SURVIVAL_DIE, SURVIVES_ON, Casualty, TraumaTable, is_rerolled, resolve_entry

__all__ = [
    "DAMAGE_ODDS_KEYS",
    "TRAUMA_FATES",
    "damage_odds",
    "format_odds",
    "hit_distribution",
    "pass_odds",
    "trauma_fate_odds",
    "trauma_odds",
]

DAMAGE_ODDS_KEYS = ("incapacitated", "injury", "harm", "none", "incapacitated_after")
TRAUMA_FATES = ("stays", "captured", "dead", "blinded", "unfit_for_duty")
_D10 = 10


@lru_cache(maxsize=2048)
def _hits(dice_count: int, stat: int) -> tuple[Fraction, ...]:
    total = _D10**dice_count
    duds = _D10 - stat
    return tuple(
        Fraction(comb(dice_count, hits) * stat**hits * duds ** (dice_count - hits), total)
        for hits in range(dice_count + 1)
    )


def hit_distribution(*, dice_count: int, stat: int) -> dict[int, Fraction]:
    """The chance of each number of Hits (0..dice_count) for a Test of `dice_count` D10s against `stat`."""
    check_count(dice_count, name="dice_count")
    check_stat(stat)
    return dict(enumerate(_hits(dice_count, stat)))


def pass_odds(*, dice_count: int, stat: int) -> Fraction:
    """The chance a Test passes, at least one Hit (RULING D-6); a Confusion Test is `dice_count=2`."""
    check_count(dice_count, name="dice_count")
    check_stat(stat)
    return 1 - _hits(dice_count, stat)[0]


@lru_cache(maxsize=4096)
def _damage_odds(
    endurance: int, health: int, harm: int, harm_limit: int | None, injuries: int, dice_count: int, stat: int
) -> tuple[tuple[str, Fraction], ...]:
    target = Combatant(
        endurance=endurance, health=health, harm=harm, harm_limit=harm_limit, injuries=injuries
    )
    odds = dict.fromkeys(DAMAGE_ODDS_KEYS, Fraction(0))
    for damage, chance in enumerate(_hits(dice_count, stat)):
        outcome = inflict_damage(target, damage)  # Damage equal to the Hits (002 "3. Inflict Damage")
        odds[outcome.row] += chance
        if outcome.incapacitated:
            odds["incapacitated_after"] += chance
    return tuple(odds.items())


def damage_odds(target: Combatant, *, dice_count: int, stat: int) -> dict[str, Fraction]:
    """The chance of each Damage table row (`"incapacitated"`, `"injury"`, `"harm"`, `"none"`) for an attack Test
    of `dice_count` D10s (the whole pool, Bonus Dice included) against `stat`, and under `"incapacitated_after"`
    the chance `target` ends Incapacitated either way (RULING D-8)."""
    check_count(dice_count, name="dice_count")
    check_stat(stat)
    if target.incapacitated:
        raise ValueError(f"{target.name or 'the target'} is already Incapacitated: no odds for Damage to it")
    key = (target.endurance, target.health, target.harm, target.harm_limit, target.injuries)
    return dict(_damage_odds(*key, dice_count, stat))


@lru_cache(maxsize=4096)
def _elite_odds(
    table: TraumaTable,
    scars: int,
    scar_limit: int,
    injuries: frozenset[str],
    full_recovery_instead: frozenset[str],
    can_gain_xp: bool,
) -> tuple[tuple[tuple[str, Fraction], ...], tuple[tuple[str, Fraction], ...]]:
    casualty = Casualty(
        "odds",
        elite=True,
        scars=scars,
        scar_limit=scar_limit,
        injuries=injuries,
        full_recovery_instead=full_recovery_instead,
        can_gain_xp=can_gain_xp,
    )
    codes = dict.fromkeys(table.codes, 0)
    fates = dict.fromkeys(TRAUMA_FATES, 0)
    usable = 0
    for roll in D66_VALUES:
        entry = table.lookup(roll)
        if is_rerolled(casualty, entry):
            continue  # RULING T-5: rolled again, so the usable results share its chance equally
        usable += 1
        codes[entry.code] += 1
        result = resolve_entry(casualty, entry)
        fates[result.reason if result.removed else ("captured" if result.pending else "stays")] += 1
    if not usable:
        raise ValueError("the casualty already has every result of the Trauma Table: no roll can be used")
    code_odds = tuple((code, Fraction(count, usable)) for code, count in codes.items())
    fate_odds = tuple((fate, Fraction(count, usable)) for fate, count in fates.items())
    return code_odds, fate_odds


def _elite(casualty: Casualty, table: TraumaTable | None):
    table = table if table is not None else TraumaTable.default()
    return _elite_odds(
        table,
        casualty.scars,
        casualty.scar_limit,
        casualty.injuries,
        casualty.full_recovery_instead,
        casualty.can_gain_xp,
    )


_TROOP_SURVIVES = Fraction(SURVIVAL_DIE - SURVIVES_ON + 1, SURVIVAL_DIE)


def trauma_odds(casualty: Casualty, *, table: TraumaTable | None = None) -> dict[str, Fraction]:
    """For an ELITE model, the chance of each result code of the table (0 for one it would reroll), with the
    reroll rule applied, and under `"removed"` the chance it leaves the roster whatever the players decide (Dead,
    a second Lost an Eye, Unfit For Duty; Captured is not counted there). For a Troop, `"survived"` and
    `"removed"` (RULING T-2)."""
    if not casualty.elite:
        return {"survived": _TROOP_SURVIVES, "removed": 1 - _TROOP_SURVIVES}
    code_odds, fate_odds = _elite(casualty, table)
    odds = dict(code_odds)
    fates = dict(fate_odds)
    odds["removed"] = fates["dead"] + fates["blinded"] + fates["unfit_for_duty"]
    return odds


def trauma_fate_odds(casualty: Casualty, *, table: TraumaTable | None = None) -> dict[str, Fraction]:
    """The chance of each fate, summing to 1: `"stays"` on the roster, `"captured"` (waiting for a ransom),
    removed as `"dead"`, `"blinded"` or `"unfit_for_duty"`. A Troop has only `"stays"` and `"dead"`."""
    if not casualty.elite:
        return {"stays": _TROOP_SURVIVES, "dead": 1 - _TROOP_SURVIVES}
    return dict(_elite(casualty, table)[1])


def format_odds(chance: Fraction | int, *, style: str = "auto") -> str:
    """A chance in plain words, as the pages show it before the roll.

    `style="auto"`: "1 in 3" when the chance is one in a whole number, else a rounded percentage ("14%", "under
    1%", "over 99%"); `"percent"` always a percentage; `"fraction"` the exact fraction ("17/36"). A chance of 0 is
    "no chance", of 1 "certain".
    """
    if isinstance(chance, bool) or not isinstance(chance, (Fraction, int)) or not 0 <= chance <= 1:
        raise ValueError(f"a chance must be a Fraction from 0 to 1, got {chance!r}")
    if style not in ("auto", "percent", "fraction"):
        raise ValueError(f"style must be 'auto', 'percent' or 'fraction', got {style!r}")
    chance = Fraction(chance)
    if chance == 0:
        return "no chance"
    if chance == 1:
        return "certain"
    if style == "fraction":
        return f"{chance.numerator}/{chance.denominator}"
    if style == "auto" and chance.numerator == 1:
        return f"1 in {chance.denominator}"
    percent = int(chance * 100 + Fraction(1, 2))  # rounded half up
    if percent == 0:
        return "under 1%"
    if percent == 100:
        return "over 99%"
    return f"{percent}%"
