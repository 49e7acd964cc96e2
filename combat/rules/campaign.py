"""The rest of the post-battle sequence (CAMPAIGN_PHASE.md; RULINGS C-, P-, X-, E-, W-).

After the Trauma Step (`trauma.py`, seed 003) come Experience and Advancement, Promotions, the Threshold Value,
Reinforcements, Looting and Exploration, trade, and the campaign's stages and standings. CAMPAIGN_PHASE.md: "Tables
of names (skills, locations, warband lists) are campaign data that a group keeps and edits, never code; the numbers
below are rules and belong in the engine." So this module holds the numbers and takes the names as rows.

It gathers one module per concern:

- `campaign_advancement.py`: XP and Skill Advancement Rolls (X-1 to X-3), skill charts (the XP a battle gives,
  X-4, is `experience.py`'s);
- `campaign_promotion.py`: the Promotion Pool, its assignment and its rolls (P-1 to P-6), with their odds;
- `campaign_limits.py`: Threshold Value and Field Strength, selling, Reinforcements (C-1 to C-4), stages and
  standings (W-1, W-2);
- `campaign_exploration.py`: Exploration Dice, tables, score, loot, Locations (E-1 to E-4), with their odds;
- `campaign_sequence.py`: what one step decides for another: who may be dismissed, Reinforcements instead of
  Exploring;
- `campaign_checks.py`: what makes rows a skill chart or a Location table, in plain words.

`CAMPAIGN_RULINGS` gives each of these rulings in one plain sentence for the pages, as `rulings.RULINGS` does for
the others (`campaign_ruling(id)`).
"""

from __future__ import annotations

from types import MappingProxyType

from .campaign_advancement import (
    ADVANCEMENT_XP,
    LIMITED_POTENTIAL_XP,
    NO_PATRON_LIST,
    PATRON_SKILL,
    SkillChart,
    SkillEntry,
    XpGain,
    advancement_marks,
    check_starting_xp,
    explain_skill_roll,
    gain_xp,
    late_joiner_xp,
    offers_patron_skill,
    skill_for,
    skill_odds,
    skill_roll_known,
    xp_limit_problem,
)
from .campaign_checks import CampaignTableError
from .campaign_exploration import (
    Location,
    LocationTable,
    exploration_dice,
    exploration_score,
    exploration_tables,
    find_locations,
    location_odds,
    loot,
    score_odds,
)
from .campaign_limits import (
    CampaignLimits,
    Purchase,
    PurchaseOrder,
    RosterFighter,
    Standing,
    campaign_limits,
    campaign_stage,
    glory_left,
    is_papal_states,
    late_joiner_threshold,
    may_call_reinforcements,
    purchase_order,
    rank_standings,
    reinforcement_budget,
    reinforcement_glory,
    sale_value,
    warband_value,
)
from .campaign_promotion import (
    AUTOMATIC_AFTER,
    MAX_ELITE,
    MERCENARY,
    PROMOTION_DIE,
    Promotion,
    PromotionResult,
    check_promotion_dice,
    dice_until_automatic,
    hired_not_promoted,
    promote,
    promotion_chance,
    promotion_dice_problems,
    promotion_odds,
    promotion_pool,
    roll_promotions,
)
from .campaign_sequence import DISMISS_FROM_SCARS, explain_dismissal, exploration_skipped, may_dismiss

__all__ = [
    "ADVANCEMENT_XP",
    "AUTOMATIC_AFTER",
    "CAMPAIGN_RULINGS",
    "CampaignLimits",
    "CampaignTableError",
    "LIMITED_POTENTIAL_XP",
    "Location",
    "LocationTable",
    "MAX_ELITE",
    "MERCENARY",
    "PROMOTION_DIE",
    "Promotion",
    "PromotionResult",
    "Purchase",
    "PurchaseOrder",
    "RosterFighter",
    "SkillChart",
    "SkillEntry",
    "Standing",
    "XpGain",
    "campaign_limits",
    "late_joiner_threshold",
    "campaign_ruling",
    "campaign_stage",
    "glory_left",
    "is_papal_states",
    "check_promotion_dice",
    "dice_until_automatic",
    "hired_not_promoted",
    "explain_skill_roll",
    "exploration_dice",
    "exploration_score",
    "exploration_tables",
    "find_locations",
    "gain_xp",
    "advancement_marks",
    "check_starting_xp",
    "late_joiner_xp",
    "offers_patron_skill",
    "NO_PATRON_LIST",
    "PATRON_SKILL",
    "location_odds",
    "loot",
    "promote",
    "promotion_chance",
    "promotion_dice_problems",
    "promotion_odds",
    "promotion_pool",
    "purchase_order",
    "rank_standings",
    "reinforcement_budget",
    "reinforcement_glory",
    "roll_promotions",
    "sale_value",
    "score_odds",
    "skill_for",
    "skill_odds",
    "skill_roll_known",
    "warband_value",
    "may_call_reinforcements",
    "DISMISS_FROM_SCARS",
    "explain_dismissal",
    "exploration_skipped",
    "may_dismiss",
    "xp_limit_problem",
]

# RULINGS.md is the authority: a ruling changes only by editing that list, then this one (a test checks that
# every C-, P-, X-, E-, W- id of RULINGS.md is here).
CAMPAIGN_RULINGS = MappingProxyType(
    {
        "C-1": "The Threshold Value is the table's value for the next battle, shifted by the warband's starting "
        "value; the Field Strength is the table's; there is no battle 13.",
        "C-2": "A warband's value counts the fighters on its roster and the Battlekit they carry, not the Arsenal.",
        "C-3": "Selling gives half the base cost, rounded up.",
        "C-4": "Reinforcements only below the Threshold Value, spending up to the difference.",
        "P-1": "The Promotion Pool is 1 die, +1 for a win, +1 per Glorious Deed, + dice from abilities.",
        "P-2": "At most 2 dice a model (3 after a Glorious Deed) until each has 2; then no model 2 dice ahead of "
        "another.",
        "P-3": "Promotion Dice are rolled one at a time; the first 6 promotes and the rest are not rolled.",
        "P-4": "After 5 failed Promotion Dice in a row the next one succeeds without a roll, and the tally restarts.",
        "P-5": "A warband with 6 ELITE models rolls no Promotion Dice.",
        "P-6": "A Head-Wounded ELITE model may take Promotion Dice; a success restores its XP gain instead.",
        "P-7": "A promoted model is ELITE from the next battle, with 0 XP, keeping its Battlekit and Injuries.",
        "X-1": "A Skill Advancement Roll is due for each of 2, 4, 7, 10, 14 and 18 XP reached.",
        "X-2": "A Limited Potential model stops at 7 XP, so at most 3 Skill Advancement Rolls.",
        "X-4": "Only an ELITE model gains XP from a battle: 1 for taking part and surviving, 1 more for any Glorious "
        "Deeds; a Troop's Deeds count only in the Promotion Pool.",
        "X-3": "A skill it already knows moves the roll to the next lower skill it lacks, else the next higher.",
        "E-1": "Battles fought for Exploration include the battle just played.",
        "E-2": "The winner may reroll one Exploration Die once; the new face stands.",
        "E-3": "The Exploration Score counts its modifiers and is never below 0; loot is 10 ducats a point.",
        "E-4": "A score finds a Location on any allowed table (the player picks between two), never one found "
        "before.",
        "W-1": "Stages: Early 1-3, Mid 4-8, Endgame 9-11, Final 12.",
        "W-2": "Standings rank by Victory Points, then wins, then name; a disbanded warband keeps its row.",
    }
)


def campaign_ruling(ruling_id: str) -> str:
    """The plain sentence of a campaign ruling id such as `"P-4"` (`ValueError` for an unknown id)."""
    try:
        return CAMPAIGN_RULINGS[ruling_id]
    except KeyError:
        raise ValueError(f"no campaign ruling has the id {ruling_id!r}") from None
