"""A late joiner with ELITE fighters, for the starting XP's tests (CAMPAIGN_PHASE.md, late joiners).

Iron Sepulchre and Heretic Legion have played 3 games, so Grey Wardens, founded after them, may tick 3 XP. The
campaign keeps the demo set's made-up charts (combat/demo_campaign_data.py): Ranged 9 is Long Shadow Shot, Stealth
& Speed 6 Quiet Boots; Wildcard 2 a Patron Skill result.
"""

from datetime import date

from campaigns.models import Game, GamePlayer
from combat.services.campaign_data import campaign_data_copy_demo
from combat.services.starting_xp import starting_xp_charts, starting_xp_pick, starting_xp_roll
from rosters.services.warbands import warband_create


def late_joiner(*, campaign, warband, rival_warband, organiser, owner, battles: int = 3):
    for number in range(1, battles + 1):
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=date(2026, 11, number),
            status=Game.Status.RECORDED,
            created_by=organiser,
        )
        GamePlayer.objects.create(game=game, warband=warband)
        GamePlayer.objects.create(game=game, warband=rival_warband)
    band = warband_create(campaign=campaign, owner=owner, by=owner, name="Grey Wardens")
    campaign_data_copy_demo(
        campaign=campaign, by=organiser
    )  # after it, so its Patron's skills are copied too
    return band


def settle(
    band,
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
    common = {"warband": band, "fighter_id": fighter.pk, "number": number, "by": by}
    starting_xp_charts(first_chart=charts[0], second_chart=charts[1], **common)
    starting_xp_roll(die=1, faces=list(first), **common)
    starting_xp_roll(die=2, faces=list(second), **common)
    if skill is not None:
        starting_xp_pick(skill_code=skill, **common)
