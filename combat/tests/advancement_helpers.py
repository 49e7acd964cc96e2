"""A post-game where fighters reach Skill Advancement thresholds, for the Advancement step's tests.

The campaign keeps the demo set's made-up charts (combat/demo_campaign_data.py): Ranged 9 is Long Shadow Shot, 7
Rapid Reload; Stealth & Speed 6 Quiet Boots; Wildcard 2 a Patron Skill result; every demo Patron offers Candle of
Vigil, Ashen Blessing and Oath of the Lantern.
"""

from combat.services.campaign_data import campaign_data_copy_demo
from combat.services.post_game.advancement import (
    post_game_advancement_charts,
    post_game_advancement_pick,
    post_game_advancement_roll,
)
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.tests.post_game_helpers import game_with


def advancement_game(
    *,
    campaign,
    warband,
    rival_warband,
    organiser,
    player,
    deeds: dict,
    number: int = 1,
    adjustments: dict | None = None,
):
    """Game `number` with nobody Out of Action, the demo campaign data, and `deeds` (fighter -> Glorious Deeds).

    `adjustments` (fighter -> XP) are the organiser's: under RULING X-4 a game gives an ELITE fighter at most 2 XP,
    so a test that needs more (two thresholds at once) asks the organiser for the rest.
    """
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={fighter.pk: ExperienceAnswer(glorious_deeds=count) for fighter, count in deeds.items()},
    )
    if adjustments:
        post_game_record_experience(
            player=after.player,
            by=organiser,
            adjust=True,
            answers={
                fighter.pk: ExperienceAnswer(glorious_deeds=deeds.get(fighter, 0), xp_adjustment=xp)
                for fighter, xp in adjustments.items()
            },
        )
    return after


def settle(
    after,
    fighter,
    *,
    by,
    charts=("ranged", "stealth_speed"),
    first=(4, 5),
    second=(3, 3),
    skill=None,
    number=1,
):
    """One card through: the charts, both 2D6 typed, and the skill taken (`skill` None: nothing picked)."""
    common = {"player": after.player, "fighter_id": fighter.pk, "number": number, "by": by}
    post_game_advancement_charts(first_chart=charts[0], second_chart=charts[1], **common)
    post_game_advancement_roll(die=1, faces=list(first), **common)
    post_game_advancement_roll(die=2, faces=list(second), **common)
    if skill is not None:
        post_game_advancement_pick(skill_code=skill, **common)


def card(after, fighter, number=1):
    return after.state().advancement.card(fighter.pk, number)
