"""Speed of the rules engine: `python bench/bench_rules.py` prints eight figures with their aims, one per line:
the damage and Trauma Step rules, the odds the post-battle pages show before a roll (under 1 ms), and the odds of
the biggest Trench Crusade Injury Roll a player can build (under 5 ms).

Standalone and pure: it imports `combat.rules` only (no Django), times with `timeit` (best of several repeats,
as `timeit` advises) and exits 0 whatever the figures, so `make bench` always shows them.
"""

from __future__ import annotations

import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from combat.rules import (  # noqa: E402  (the path above makes the package importable from a checkout)
    Casualty,
    Combatant,
    InjuryRoll,
    LocationTable,
    RandomDice,
    SkillChart,
    TcModel,
    damage_odds,
    inflict_damage,
    injury_odds,
    location_odds,
    promotion_odds,
    skill_odds,
    trauma_odds,
    trauma_step,
)
from combat.rules import campaign_exploration as exploration_module  # noqa: E402
from combat.rules import kept_dice as kept_dice_module  # noqa: E402
from combat.rules import odds as odds_module  # noqa: E402

REPEATS = 5


def best(statement, number: int) -> float:
    """Seconds per call of `statement`, the best of REPEATS runs of `number` calls."""
    return min(timeit.repeat(statement, number=number, repeat=REPEATS)) / number


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def bench_inflict_damage() -> str:
    # One call per table row and both Excess Harm cases, so the figure is not one lucky path.
    cases = [
        (Combatant(endurance=3, health=1), 4),  # Fidus: Injury, Incapacitated
        (Combatant(endurance=6, health=2), 2),  # Brick: 1 Harm
        (Combatant(endurance=4, health=3, harm=3), 2),  # Excess Harm: an Injury
        (Combatant(endurance=4, health=3, harm=3), 5),  # two Injuries (RULING D-2)
        (Combatant(endurance=3, health=2), 6),  # double: Incapacitated
        (Combatant(endurance=3, health=2), 0),  # no Damage
    ]

    def run() -> None:
        for target, damage in cases:
            inflict_damage(target, damage)

    per_call = best(run, number=20_000) / len(cases)
    rate = 1 / per_call
    return f"inflict_damage: {rate:,.0f} calls/s (aim > 200,000) {verdict(rate > 200_000)}"


def bench_trauma_step() -> str:
    casualties = [
        *(Casualty(f"troop-{index}", elite=False) for index in range(4)),
        Casualty("hero", elite=True),
        Casualty("sergeant", elite=True, scars=1, injuries={"hand_wound"}),
        Casualty("priest", elite=True, scars=2, injuries={"lost_an_eye", "leg_wound"}),
        Casualty("sniper", elite=True, full_recovery_instead={"lost_an_eye"}),
        Casualty("veteran", elite=True, scars=1, injuries={"chest_wound", "insomniac", "paranoid"}),
        Casualty("novice", elite=True, can_gain_xp=False),
    ]

    def run() -> None:
        trauma_step(casualties, RandomDice())  # the server's dice, a fresh log per Trauma Step

    micros = best(run, number=2_000) * 1e6
    return f"trauma_step, ten casualties (4 Troops, 6 ELITE): {micros:.0f} µs (aim < 100 µs) {verdict(micros < 100)}"


def bench_trauma_odds() -> str:
    casualty = Casualty(
        "veteran",
        elite=True,
        scars=2,
        injuries={"hand_wound", "chest_wound", "insomniac", "leg_wound", "lost_an_eye"},
    )

    def cold() -> None:
        odds_module._elite_odds.cache_clear()  # the full enumeration every time
        trauma_odds(casualty)

    cold_ms = best(cold, number=500) * 1e3
    warm_us = best(lambda: trauma_odds(casualty), number=20_000) * 1e6
    return (
        f"trauma_odds, ELITE with five Injuries: {cold_ms:.3f} ms computed, {warm_us:.1f} µs cached "
        f"(aim < 1 ms) {verdict(cold_ms < 1)}"
    )


def bench_damage_odds() -> str:
    target = Combatant(endurance=4, health=2, harm=1)

    def cold() -> None:
        odds_module._damage_odds.cache_clear()
        odds_module._hits.cache_clear()
        damage_odds(target, dice_count=10, stat=6)

    cold_ms = best(cold, number=500) * 1e3
    warm_us = best(lambda: damage_odds(target, dice_count=10, stat=6), number=20_000) * 1e6
    return (
        f"damage_odds, 10-dice attack: {cold_ms:.3f} ms computed, {warm_us:.1f} µs cached "
        f"(aim < 1 ms) {verdict(cold_ms < 1)}"
    )


def _ms(label: str, cold_ms: float) -> str:
    return f"{label}: {cold_ms:.3f} ms (aim < 1 ms) {verdict(cold_ms < 1)}"


def bench_skill_odds() -> str:
    """The Advancement card's odds: every skill of an 11-row chart, RULING X-3's stepping, four skills known."""
    chart = SkillChart.from_rows(
        [{"roll": roll, "code": f"skill_{roll}", "name": f"Skill {roll}"} for roll in range(2, 13)]
    )
    known = frozenset({"skill_6", "skill_7", "skill_8", "skill_9"})
    return _ms(
        "skill_odds, an 11-skill chart with 4 known",
        best(lambda: skill_odds(chart, known=known), 2_000) * 1e3,
    )


def bench_promotion_odds() -> str:
    """The Promotions page's odds: six dice over three models, the tally at 2 (RULINGS P-3, P-4)."""
    order = ["tom", "tom", "kell", "kell", "will", "will"]
    return _ms(
        "promotion_odds, 6 dice over 3 models",
        best(lambda: promotion_odds(order, failed_before=2), 2_000) * 1e3,
    )


def bench_location_odds() -> str:
    """The Exploration page's odds, computed afresh: 6 dice on the Rare and Legendary tables (10+ battles)."""
    tables = {
        name: LocationTable.from_rows(
            [{"score": score, "code": f"{name}_{score}", "name": f"{name} {score}"} for score in scores]
        )
        for name, scores in (("rare", range(14, 24)), ("legendary", range(25, 33)))
    }

    def cold() -> None:
        exploration_module._sums.cache_clear()
        exploration_module._score_odds.cache_clear()
        location_odds(dice=6, tables=tables, allowed=("rare", "legendary"), modifier=1)

    return _ms("location_odds, 6 dice on two tables, computed", best(cold, 500) * 1e3)


def bench_injury_odds() -> str:
    """The board's odds before an Injury Roll, computed afresh for the biggest pool the engine accepts: a Bloodbath
    on a Down model with 3 more Blood Markers spent, +20 INJURY DICE, a Critical and a melee attack (31 dice)."""
    target = TcModel(blood=6, down=True)
    roll = InjuryRoll(
        bloodbath=True, blood_spent=3, injury_dice=20, critical=True, melee=True, armour="standard"
    )

    def cold() -> None:
        kept_dice_module._highest_sum_counts.cache_clear()
        injury_odds(target, roll)

    cold_ms = best(cold, 500) * 1e3
    return f"injury_odds, a 31-dice Bloodbath, computed: {cold_ms:.3f} ms (aim < 5 ms) {verdict(cold_ms < 5)}"


def main() -> None:
    for bench in (
        bench_inflict_damage,
        bench_trauma_step,
        bench_trauma_odds,
        bench_damage_odds,
        bench_skill_odds,
        bench_promotion_odds,
        bench_location_odds,
        bench_injury_odds,
    ):
        print(bench(), flush=True)


if __name__ == "__main__":
    main()
