"""Reads of a target's page on the tracker: the Attack Test's Dice Pool, the odds before the roll, what each
amount of Damage would do, the target and who may attack it.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

from campaigns.access import membership_columns
from combat import rules
from combat.models import TrackerFighter
from combat.selectors.tracker_state import is_unit, tracker_combatant, tracker_health_pool

# The Damage table's rows, in the words the pages use (000 "Damage Resolution").
ROW_WORDS = {
    "incapacitated": "Incapacitated",
    "injury": "an Injury and 1 Harm",
    "harm": "1 Harm",
    "none": "nothing (no Hit)",
}
ODDS_ROWS = ("incapacitated", "injury", "harm", "none")
# A Test's dice pools above this are refused: no table holds more, and the odds are enumerated per Hit.
MAX_POOL = 30


@dataclass(frozen=True)
class AttackTest:
    """What the players say about an Attack Test before it is rolled.

    `dice` and `stat` are the weapon's Test (`3A` with Agility 6 is dice=3, stat=6); a Makeshift Weapon is 2S
    (RULING D-12), the attacker's Strength. `brawl` adds the Brawl Bonus Dice (charged this turn, supporting
    friends); any attack gains one Bonus Die per Harm on the Target (000 "Harm"). `bonus` holds Bonus Dice from
    other rules (a Trait, a Perk), added as they are.
    """

    dice: int = 2
    stat: int = 5
    makeshift: bool = False
    brawl: bool = False
    charged: bool = False
    supporting_friends: int = 0
    bonus: int = 0
    attacker: TrackerFighter | None = None


@dataclass(frozen=True)
class AttackPool:
    dice: int
    bonus_dice: int
    pool: int
    stat: int
    words: str  # "2S (Makeshift Weapon) + 1 Bonus Die for the Harm on Fidus: 3 D10s against 6"


def attack_dice_pool(target: TrackerFighter, attack: AttackTest) -> AttackPool:
    """The whole Dice Pool of an Attack Test on `target` and the stat it is rolled against.

    Raises ValueError (with the engine's message) for a pool or stat the rules refuse.
    """
    unit = is_unit(target.fighter)
    harm = 0 if unit else target.harm  # for the words only: the engine counts the Bonus Dice
    dice, stat, weapon = attack.dice, attack.stat, None
    if attack.makeshift:
        # 002 "Makeshift Weapons": "Test 2S, no Traits, no Critical Effect" — the attacker's Strength.
        weapon = rules.MAKESHIFT_WEAPON
        dice = weapon.dice
        if attack.attacker is not None:
            stat = attack.attacker.fighter.strength
    bonus = rules.attack_bonus_dice(
        None if unit else tracker_combatant(target),
        brawl=attack.makeshift or attack.brawl,
        charged=attack.charged,
        supporting_friends=attack.supporting_friends,
    )
    bonus += attack.bonus
    pool = rules.dice_pool(base=dice, bonus_dice=bonus)
    if pool > MAX_POOL:
        raise ValueError(f"a pool of {pool} dice is more than the {MAX_POOL} the tracker rolls")
    if not 1 <= stat <= 10:
        raise ValueError(f"stat must be 1 to 10, got {stat}")
    test = f"Makeshift Weapon {dice}S" if weapon else f"{dice} dice"
    if bonus:
        parts = _bonus_words(target, attack, harm)
        test += f" + {bonus} Bonus {'Die' if bonus == 1 else 'Dice'} ({', '.join(parts)})"
    words = f"{test}: {pool} D10s, a Hit on {stat} or less"
    return AttackPool(dice=dice, bonus_dice=bonus, pool=pool, stat=stat, words=words)


def _bonus_words(target: TrackerFighter, attack: AttackTest, harm: int) -> list[str]:
    """Where the Bonus Dice come from, in words (the engine counted them: `rules.attack_bonus_dice`)."""
    brawl = attack.makeshift or attack.brawl
    parts = []
    if brawl and attack.charged:
        parts.append("1 for charging")
    if harm:
        parts.append(f"{harm} for the Harm on {target.fighter.name}")
    if brawl and attack.supporting_friends:
        parts.append(f"{attack.supporting_friends} for supporting friends")
    if attack.bonus:
        parts.append(f"{attack.bonus} from other rules")
    return parts


@dataclass(frozen=True)
class OddsRow:
    key: str
    label: str
    chance: Fraction
    words: str  # "1 in 3", "14%"
    # What the row does to this target now when it is more than the row's words (Excess Harm, Incapacitated).
    detail: str = ""
    end_state: bool = (
        False  # the chance of the end state ("Incapacitated either way"), not a row of the table
    )

    @property
    def percent(self) -> int:
        return round(self.chance * 100)


def tracker_attack_odds(target: TrackerFighter, pool: AttackPool) -> list[OddsRow]:
    """The chance of each outcome before the roll (docs/architecture.md: show the odds, exactly, in plain words).

    A single model: each row of the Damage table (`damage_odds`). A unit: how many models the Hits remove from
    its Health Pool, from the chance of each number of Hits run through `lose_health_points`.
    """
    if is_unit(target.fighter):
        removed: dict[int, Fraction] = defaultdict(Fraction)
        health_pool = tracker_health_pool(target)
        for hits, chance in rules.hit_distribution(dice_count=pool.pool, stat=pool.stat).items():
            removed[rules.lose_health_points(health_pool, hits).removed] += chance
        return [
            OddsRow(
                f"removed-{count}",
                "no model removed" if count == 0 else f"{count} model{'s' if count != 1 else ''} removed",
                chance,
                rules.format_odds(chance),
            )
            for count, chance in sorted(removed.items())
            if chance
        ]
    combatant = tracker_combatant(target)
    odds = rules.damage_odds(combatant, dice_count=pool.pool, stat=pool.stat)
    rows = [
        OddsRow(key, label, odds[key], rules.format_odds(odds[key]), detail)
        for key, label, detail in _row_labels(combatant)
    ]
    # The end state is not a row: a row below "Incapacitated outright" can still end in Incapacitation (Excess
    # Harm becomes an Injury, RULING D-2; Injuries reaching Health, RULING D-8), so it is shown apart.
    rows.append(
        OddsRow(
            "incapacitated_after",
            "Incapacitated either way",
            odds["incapacitated_after"],
            rules.format_odds(odds["incapacitated_after"]),
            "the end state after this attack, whichever row the Damage reaches",
            end_state=True,
        )
    )
    return rows


def _row_labels(combatant) -> list[tuple[str, str, str]]:
    """Each row of the Damage table: its key, its words with the Damage that reaches it (RULING D-1, compared
    with Endurance), and what it does to this target now when that is more than the row's words."""
    endurance = combatant.endurance
    top = rules.incapacitating_damage(combatant)
    reach = {
        "incapacitated": (f"Incapacitated outright (Damage {top} or more)", top),
        "injury": (f"an Injury and 1 Harm (Damage {endurance}–{top - 1})", endurance),
        "harm": (
            f"1 Harm (Damage 1–{endurance - 1})" if endurance > 1 else "1 Harm (no Damage reaches it)",
            1,
        ),
        "none": (ROW_WORDS["none"], 0),
    }
    labels = []
    for key in ODDS_ROWS:
        label, damage = reach[key]
        detail = ""
        if key in ("injury", "harm") and (key == "injury" or endurance > 1):
            words = outcome_words(rules.inflict_damage(combatant, damage))
            detail = "" if words == ROW_WORDS[key] else f"for {combatant.name} now: {words}"
        labels.append((key, label, detail))
    return labels


def outcome_words(outcome) -> str:
    """What one Damage did, in words: its row of the Damage table, then the Excess Harm and the end state."""
    words = ROW_WORDS[outcome.row]
    if outcome.excess_harm and outcome.row == "injury":
        words = "an Injury, and the Excess Harm is a second Injury (RULING D-2)"
    elif outcome.excess_harm:
        words = "1 Harm, which is Excess Harm: an Injury (RULING D-2)"
    if outcome.incapacitated and outcome.row != "incapacitated":
        words += ": Incapacitated (RULING D-8)"
    return words


@dataclass(frozen=True)
class LadderStep:
    low: int
    high: int | None  # None: "or more"
    words: str


def tracker_damage_ladder(target: TrackerFighter) -> list[LadderStep]:
    """What each amount of Damage would do to `target` now, grouped ("Damage 1-2: 1 Harm"), asked of the engine
    for every amount up to the first that Incapacitates outright (RULING D-1: at least double the Endurance)."""
    if is_unit(target.fighter) or target.status != TrackerFighter.Status.ACTIVE:
        return []
    combatant = tracker_combatant(target)
    steps: list[LadderStep] = []
    top = rules.incapacitating_damage(combatant)
    for damage in range(1, top + 1):
        words = outcome_words(rules.inflict_damage(combatant, damage))
        if steps and steps[-1].words == words:
            steps[-1] = LadderStep(steps[-1].low, damage, words)
        else:
            steps.append(LadderStep(damage, damage, words))
    last = steps[-1]
    steps[-1] = LadderStep(last.low, None, last.words)
    return steps


def tracker_target(*, game, fighter_id: int) -> TrackerFighter | None:
    """One fighter on the game's board (None when it is not in this game)."""
    return (
        TrackerFighter.objects.filter(tracker__game=game, fighter_id=fighter_id)
        .select_related("fighter", "player__warband", "tracker")
        .first()
    )


def tracker_target_with_game(*, game_id: int, fighter_id: int, viewer) -> TrackerFighter | None:
    """One fighter on a game's board, read with its board, the game, the campaign and the `viewer`'s membership
    of it (`campaigns.access.membership_columns`) in one query: a tap on a fighter checks access on that game, so
    the reads are one (None when it is not on this game's board)."""
    return (
        TrackerFighter.objects.filter(tracker__game_id=game_id, fighter_id=fighter_id)
        .select_related("fighter", "player__warband__owner", "tracker__game__campaign")
        .annotate(**membership_columns(viewer, game="tracker__game"))
        .first()
    )


def tracker_attackers(*, target: TrackerFighter) -> list[TrackerFighter]:
    """Fighters in play that may attack `target`: those of the other crews in the game."""
    return list(
        TrackerFighter.objects.filter(tracker_id=target.tracker_id, status=TrackerFighter.Status.ACTIVE)
        .exclude(player_id=target.player_id)
        .select_related("fighter", "player__warband")
        .order_by("player_id", "fighter_id")
    )
