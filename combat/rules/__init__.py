"""The pure rules engine of Warband Ledger (shared/docs/ENGINE.md).

Frozen dataclasses and functions, standard library only: no Django, no I/O but reading its own Trauma Table
files, randomness only through a `Dice` object passed in. Everything else in the project imports these names
from `combat.rules`. Each module implements one seed rule text of shared/rules/ and quotes it; docs/rules.md maps
every rule and ruling to its function and tests.
"""

from .allocation import Allocation, ShootingEngagement, UnitModel, allocate_damage, explain_allocation
from .brawl import (
    MAKESHIFT_WEAPON,
    BrawlResult,
    MeleeWeapon,
    attack_bonus_dice,
    brawl,
    brawl_bonus_dice,
    brawl_dice_pool,
)
from .confusion import (
    CONFUSION_CHOICES,
    CONFUSION_TEST_DICE,
    ConfusionResult,
    ConfusionSequence,
    FriendlyModel,
    confusion_test,
    confusion_tests_due,
    explain_confusion,
)
from .damage import (
    Combatant,
    DamageOutcome,
    HarshLessons,
    can_take_fatigue,
    explain_damage,
    harm_bonus_dice,
    incapacitating_damage,
    inflict_damage,
    recover_harm,
)
from .dice import Dice, DiceExhausted, RandomDice, Roll, ScriptedDice, d3, d66, is_d66
from .experience import EXPERIENCE_REASONS, ExperienceAward, post_game_experience
from .health_pools import (
    Formation,
    HealthPool,
    PoolLoss,
    explain_pool_loss,
    lose_health_points,
    remove_casualties,
)
from .odds import (
    damage_odds,
    format_odds,
    hit_distribution,
    pass_odds,
    trauma_fate_odds,
    trauma_odds,
)
from .roles import ELITE, counts_as_elite, has_elite_keyword
from .rulings import RULINGS, ruling
from .stat_tests import StatTestResult, dice_pool, roll_test
from .trauma import (
    Casualty,
    TraumaEntry,
    TraumaOutcome,
    TraumaTable,
    explain_trauma,
    explain_trauma_entry,
    settle_capture,
    trauma_step,
)

__all__ = [
    # ENGINE.md
    "Allocation",
    "Casualty",
    "Combatant",
    "DamageOutcome",
    "Dice",
    "DiceExhausted",
    "Formation",
    "HarshLessons",
    "HealthPool",
    "MAKESHIFT_WEAPON",
    "PoolLoss",
    "RandomDice",
    "Roll",
    "ScriptedDice",
    "StatTestResult",
    "TraumaEntry",
    "TraumaOutcome",
    "TraumaTable",
    "UnitModel",
    "allocate_damage",
    "brawl_bonus_dice",
    "can_take_fatigue",
    "confusion_test",
    "d3",
    "d66",
    "damage_odds",
    "hit_distribution",
    "inflict_damage",
    "lose_health_points",
    "remove_casualties",
    "roll_test",
    "settle_capture",
    "trauma_odds",
    "trauma_step",
    # helpers for the tracker and the post-game wizard
    "BrawlResult",
    "CONFUSION_CHOICES",
    "CONFUSION_TEST_DICE",
    "ConfusionResult",
    "EXPERIENCE_REASONS",
    "ExperienceAward",
    "ConfusionSequence",
    "FriendlyModel",
    "MeleeWeapon",
    "RULINGS",
    "ShootingEngagement",
    "attack_bonus_dice",
    "brawl",
    "brawl_dice_pool",
    "confusion_tests_due",
    "dice_pool",
    "explain_allocation",
    "explain_confusion",
    "explain_damage",
    "explain_pool_loss",
    "explain_trauma",
    "explain_trauma_entry",
    "format_odds",
    "harm_bonus_dice",
    "incapacitating_damage",
    "is_d66",
    "pass_odds",
    "post_game_experience",
    "recover_harm",
    "ruling",
    "trauma_fate_odds",
    # who plays the ELITE part (RULING T-1)
    "ELITE",
    "counts_as_elite",
    "has_elite_keyword",
]
