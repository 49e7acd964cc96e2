"""The roster's events told as history (rosters/history/roster_events.py): one sentence per kind of change, with
who and why.

Events are made the way the app makes them: the roster services (which set the history context), and for the
post-game, writes under `pghistory.context(action="post_game.apply", game=..., warband=..., roll=...)` exactly as
`combat.services.post_game.post_game_apply` sets it.
"""

import pghistory
import pytest

from campaigns.models import Campaign
from combat.models import DiceRoll
from rosters.models import Fighter, Injury
from rosters.services.battlekit import item_create, item_delete, item_move
from rosters.services.fighters import (
    fighter_adjust_xp,
    fighter_create,
    fighter_remove,
    fighter_restore,
    fighter_update,
)
from rosters.services.injuries import injury_add
from rosters.services.warbands import warband_adjust
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_adding_a_fighter_says_who_added_whom_to_which_warband(campaign, warband, player):
    fighter_create(warband=warband, by=player, name="Sister Ama", fighter_type="Trench Pilgrim")
    assert "Pat added Sister Ama (Trench Pilgrim) to Iron Sepulchre" in sentences(campaign)


def test_xp_says_how_much_and_the_new_total_and_who(campaign, marcus, player):
    fighter_adjust_xp(fighter=marcus, delta=2, by=player)
    # The service's own reason only repeats the change, so it is not repeated in the sentence.
    assert "Brother Marcus gained 2 XP (now 7) — by Pat" in sentences(campaign, kind="xp")


def test_a_reason_the_player_gave_is_part_of_the_sentence(campaign, marcus, player):
    fighter_adjust_xp(fighter=marcus, delta=-1, by=player, reason="mistyped after Game 1")
    assert "Brother Marcus lost 1 XP (now 4; mistyped after Game 1) — by Pat" in sentences(
        campaign, kind="xp"
    )


def test_an_injury_from_the_post_game_names_the_game_the_roll_and_who_rolled(
    campaign, warband, marcus, game3, player
):
    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=game3,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        source="server",
        sides=6,
        faces=[1, 4],
        purpose="trauma",
        label="D66 14",
    )
    with pghistory.context(
        action="post_game.apply",
        reason=f"Post-game of Game 3 applied to {warband.name}",
        game=game3.pk,
        warband=warband.pk,
        roll=[roll.pk],
        user=player.pk,
        step="apply",
    ):
        Injury.objects.create(fighter=marcus, code="14", name="Hand Wound", game=game3, d66=14)
    assert (
        "Brother Marcus suffered Hand Wound (D66 14) — post-game of Game 3, rolled by Pat on the server"
        in sentences(campaign, kind="injuries")
    )


def test_dice_typed_in_from_the_table_and_an_applier_who_did_not_roll(
    campaign, warband, marcus, game3, player, organiser
):
    roll = DiceRoll.objects.create(
        campaign=campaign,
        game=game3,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        source="entered",
        sides=6,
        faces=[4, 1],
        purpose="trauma",
        label="D66 41",
    )
    with pghistory.context(
        action="post_game.apply", game=game3.pk, warband=warband.pk, roll=[roll.pk], user=organiser.pk
    ):
        Fighter.objects.filter(pk=marcus.pk).update(battle_scars=1)
    assert (
        "Brother Marcus gained a Battle Scar (now 1) — post-game of Game 3 by Olga, entered by Pat from the table"
        in sentences(campaign, kind="scars")
    )


def test_battlekit_moving_to_the_arsenal(campaign, warband, marcus, player):
    lance = item_create(warband=warband, fighter=marcus, name="Lance", by=player)
    item_move(item=lance, to_fighter=None, by=player)
    found = sentences(campaign, kind="battlekit")
    assert "Lance moved from Brother Marcus to the Arsenal — by Pat" in found
    assert "Pat gave Lance to Brother Marcus" in found


def test_battlekit_added_to_and_lost_from_the_arsenal(campaign, warband, player):
    relic = item_create(warband=warband, fighter=None, name="Holy Relic", by=player)
    item_delete(item=relic, by=player)
    found = sentences(campaign, kind="battlekit")
    assert "Pat added Holy Relic to Iron Sepulchre's Arsenal" in found
    assert "Pat removed Holy Relic from Iron Sepulchre's Arsenal" in found


def test_strongbox_with_the_reason_for_the_ducats(campaign, warband, marcus, player):
    warband_adjust(warband=warband, by=player, strongbox=-15, reason="ransom for Brother Marcus")
    assert "Iron Sepulchre: Strongbox 50 → 35 ducats (ransom for Brother Marcus) — by Pat" in sentences(
        campaign, kind="strongbox"
    )


def test_fallout_campaigns_use_their_own_words(campaign, warband, marcus, player):
    Campaign.objects.filter(pk=campaign.pk).update(preset="fallout_factions")
    campaign.refresh_from_db()
    warband_adjust(warband=warband, by=player, strongbox=5, reason="scavenged")
    pistol = item_create(warband=warband, fighter=marcus, name="Pipe Pistol", by=player)
    item_move(item=pistol, to_fighter=None, by=player)
    found = sentences(campaign)
    assert "Iron Sepulchre: Stash 50 → 55 caps (scavenged) — by Pat" in found
    assert "Pipe Pistol moved from Brother Marcus to the Stash — by Pat" in found


def test_a_fighter_lost_and_restored(campaign, marcus, player):
    fighter_remove(fighter=marcus, status="dead", by=player)
    fighter_restore(fighter=marcus, by=player, reason="the Trauma roll was entered wrongly")
    found = sentences(campaign, kind="roster")
    assert "Brother Marcus died — by Pat" in found
    assert (
        "Brother Marcus is back on the active roster (the Trauma roll was entered wrongly) — by Pat" in found
    )


def test_profile_changes_list_each_stat(campaign, marcus, player):
    fighter_update(fighter=marcus, by=player, changes={"movement": 5, "harm_limit": None})
    assert "Brother Marcus: Harm Limit 3 → none, Movement 6 → 5 — by Pat" in sentences(
        campaign, kind="profile"
    )


@pytest.mark.django_db(transaction=True)
def test_a_change_without_context_still_reads(campaign, marcus):
    # Transactional: pghistory's context lasts until the end of a transaction, and a test's transaction would
    # lend the fixtures' context to this write.
    Fighter.objects.filter(pk=marcus.pk).update(xp=9)
    assert "Brother Marcus gained 4 XP (now 9)" in sentences(campaign, kind="xp")


def test_one_update_of_several_kinds_gives_one_sentence_per_kind(campaign, marcus, player):
    with pghistory.context(user=player.pk, action="post_game.apply"):
        Fighter.objects.filter(pk=marcus.pk).update(xp=6, battle_scars=3, status="unfit_for_duty")
    found = sentences(campaign)
    for sentence in (
        "Brother Marcus gained 1 XP (now 6)",
        "gained 3 Battle Scars (now 3)",
        "is Unfit For Duty",
    ):
        assert any(sentence in s for s in found), sentence
    # Filtered by one kind, only that kind's sentence is told.
    assert [s for s in sentences(campaign, kind="scars") if "Brother Marcus" in s] == [
        "Brother Marcus gained 3 Battle Scars (now 3) — by Pat"
    ]


# -- filters ----------------------------------------------------------------------------------------------------


def test_a_deleted_fighter_keeps_its_name_in_the_history(campaign, warband, marcus, player):
    injury_add(fighter=marcus, by=player, code="14", name="Hand Wound")
    Fighter.objects.filter(pk=marcus.pk).delete()
    found = sentences(campaign)
    assert "Brother Marcus suffered Hand Wound — by Pat" in found
    assert "Pat removed Brother Marcus from Iron Sepulchre" in found


# -- the in-game tracker: a battle report, one sentence per action ---------------------------------------------
#
# The board is played through combat's own tracker functions (its public names), so the events are exactly the
# ones the tracker writes. The crews are the seed's (000 "Damage Examples"): Pat's Brick, a Champion with
# Endurance 6; Bob's Fidus (Endurance 3, Health 1), Double-Joe (Intelligence 5), Mags (a Champion) and Kit.
