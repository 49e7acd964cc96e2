"""Combat's tables, one module per concern; each is imported here so Django finds it."""

from combat.models.campaign_data import CampaignDataSet
from combat.models.dice_log import DiceRoll
from combat.models.post_game_glory import PostGameGlory
from combat.models.post_game_trade import PostGameTrade
from combat.models.postgame import PostGame, PostGameAdvancement, PostGameFighter, PostGameRoll
from combat.models.scenario import GameScenario
from combat.models.starting_xp import StartingXp, StartingXpAdvancement, StartingXpFighter, StartingXpRoll
from combat.models.tracker import TrackerAction, TrackerActionKey, TrackerFighter, TrackerGame

__all__ = [
    "CampaignDataSet",
    "DiceRoll",
    "GameScenario",
    "PostGame",
    "PostGameAdvancement",
    "PostGameFighter",
    "PostGameGlory",
    "PostGameRoll",
    "PostGameTrade",
    "StartingXp",
    "StartingXpAdvancement",
    "StartingXpFighter",
    "StartingXpRoll",
    "TrackerAction",
    "TrackerActionKey",
    "TrackerFighter",
    "TrackerGame",
]
