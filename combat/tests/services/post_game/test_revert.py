"""combat/services/post_game/revert.py: every field of every fighter, piece of Battlekit, Injury and both
Strongboxes after the Revert equal what they were before the Apply; the Revert is itself in the history; and it is
refused once the warband has played again."""

import pytest
from django.db.models import RestrictedError

from campaigns.models import GamePlayer
from campaigns.tests.history import events_of, last_context
from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.out_of_action import post_game_set_out_of_action
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.services.post_game.revert import post_game_revert
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import enter, full_game, game_with, record_game, roster_snapshot
from rosters.models import Fighter, Injury, Item

pytestmark = pytest.mark.django_db


@pytest.fixture
def busy_post_game(campaign, warband, rival_warband, make_fighter, player):
    """Every kind of change at once: a Troop dead, an Injury, Unfit For Duty, a ransom paid, Robbed, Muscle
    Damage, Bitter Lessons, a Minor Wound, Glorious Deeds for a fighter who was not taken Out of Action."""
    fighters = {
        "dead troop": make_fighter(warband, "Yeoman Kell"),
        "hand wound": make_fighter(warband, "Brother Marcus", elite=True, xp=3),
        "unfit": make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2),
        "captured": make_fighter(warband, "Deacon Vos", elite=True, xp=2),
        "robbed": make_fighter(warband, "Pilgrim Orrin", elite=True, xp=1, battle_scars=1),
        "muscle": make_fighter(warband, "Sergeant Hale", elite=True, xp=4),
        "bitter": make_fighter(warband, "Witness Ilse", elite=True, xp=0),
        "minor": make_fighter(warband, "Scout Tam", elite=True, xp=6),
    }
    hero = make_fighter(warband, "Standard Bearer", elite=True, xp=2)  # took part, not Out of Action
    Injury.objects.create(fighter=fighters["robbed"], code="leg_wound", name="Leg Wound", d66=31)
    for key, names in {
        "dead troop": ["Rifle", "Trench Knife"],
        "unfit": ["Heavy Flamer", "Shield"],
        "captured": ["Pistol"],
        "robbed": ["Sword", "Holy Relic"],
        "muscle": ["Machine Gun", "Armour"],
        "hand wound": ["Club"],
    }.items():
        for name in names:
            Item.objects.create(
                warband=warband,
                fighter=fighters[key],
                name=name,
                keywords=["HEAVY"] if name in ("Heavy Flamer", "Machine Gun") else [],
                removable=name != "Holy Relic",
                notes=f"{name} of {fighters[key].name}",
            )
    Item.objects.create(warband=warband, name="Spare Ammunition")  # already in the Arsenal
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=list(fighters.values())
    )
    enter(after, fighters["dead troop"], 2, by=player)
    for key, faces in {
        "hand wound": (1, 4),
        "unfit": (1, 6),
        "captured": (1, 2),
        "robbed": (3, 6),
        "muscle": (3, 4),
        "bitter": (6, 5),
        "minor": (3, 5),
    }.items():
        enter(after, fighters[key], *faces, by=player)
    enter(after, fighters["bitter"], 3, by=player)  # the D3 of Bitter Lessons
    post_game_answer_ransom(
        player=after.player, fighter_id=fighters["captured"].pk, paid=True, ransom=15, by=player
    )
    post_game_record_experience(
        player=after.player,
        by=player,
        answers={
            hero.pk: ExperienceAnswer(glorious_deeds=2),
            fighters["hand wound"].pk: ExperienceAnswer(glorious_deeds=1),
        },
    )
    after.fighters = {**fighters, "hero": hero}
    return after


def test_revert_restores_the_roster_exactly(busy_post_game, player, warband, rival_warband):
    after = busy_post_game
    before = roster_snapshot(warband, rival_warband)

    post_game_apply(player=after.player, by=player)
    applied = roster_snapshot(warband, rival_warband)
    assert applied != before
    # The Apply did all of it, so the Revert has everything to undo.
    fighters = {key: Fighter.objects.get(pk=fighter.pk) for key, fighter in after.fighters.items()}
    assert fighters["dead troop"].status == "dead"
    assert fighters["unfit"].status == "unfit_for_duty"
    assert fighters["hand wound"].battle_scars == 1
    assert fighters["minor"].misses_next_game
    assert fighters["bitter"].xp == 1 + 3
    assert fighters["hero"].xp == 2 + 1 + 1  # RULING X-4: its 2 Glorious Deeds give 1 XP
    assert applied["warbands"][warband.pk]["strongbox"] == 35
    assert applied["warbands"][rival_warband.pk]["strongbox"] == 45
    assert "Holy Relic" in [item["name"] for item in applied["items"].values()]
    assert "Sword" not in [item["name"] for item in applied["items"].values()]
    assert "Machine Gun" not in [item["name"] for item in applied["items"].values()]

    post_game_revert(player=after.player, by=player)

    assert roster_snapshot(warband, rival_warband) == before


def test_the_revert_is_in_the_history(busy_post_game, player):
    after = busy_post_game
    post_game_apply(player=after.player, by=player)
    post_game_revert(player=after.player, by=player)

    troop = after.fighters["dead troop"]
    contexts = [event.pgh_context.metadata for event in events_of(troop, "update")]
    assert [context["action"] for context in contexts][-2:] == ["post_game.apply", "post_game.revert"]
    revert = contexts[-1]
    assert revert["game"] == after.game.pk
    assert revert["warband"] == after.player.warband_id
    assert revert["user"] == player.pk
    assert revert["step"] == "revert"
    assert len(revert["roll"]) == 9  # 8 Survival and Trauma rolls and the D3 of Bitter Lessons
    rifle_events = (
        Item.pgh_event_model.objects.filter(name="Rifle", pgh_context__isnull=False)
        .select_related("pgh_context")
        .order_by("pgh_id")
    )
    labels = [(event.pgh_label, event.pgh_context.metadata["action"]) for event in rifle_events]
    # Lost with the dead Troop, then recreated exactly (its original created_at written back by an update).
    assert labels[0] == ("delete", "post_game.apply")
    assert set(labels[1:]) == {("insert", "post_game.revert"), ("update", "post_game.revert")}


def _without_injury_ids(snapshot: dict) -> dict:
    injuries = sorted(
        (row["fighter_id"], row["code"], row["d66"]) for row in snapshot.pop("injuries").values()
    )
    return {**snapshot, "injuries": injuries}


def test_apply_again_after_revert_gives_the_same_roster_from_the_same_rolls(
    busy_post_game, player, warband, rival_warband
):
    """The rolls are kept through the revert, so applying again gives what the first Apply gave (the
    old rule rolled everything again)."""
    after = busy_post_game
    post_game_apply(player=after.player, by=player)
    first = _without_injury_ids(roster_snapshot(warband, rival_warband))
    post_game_revert(player=after.player, by=player)

    post_game_apply(player=after.player, by=player)

    assert _without_injury_ids(roster_snapshot(warband, rival_warband)) == first
    assert Fighter.objects.get(pk=after.fighters["dead troop"].pk).status == "dead"


# -- Revert ---------------------------------------------------------------------------------------------------------


def test_revert_reopens_the_same_attempt_at_review_with_every_roll_kept(after, fighters, player):
    """A roll is final: the revert takes the roster changes back and the SAME attempt is open again with
    its rolls (still counting) and answers; no roll can be made again."""
    full_game(after, fighters, player)
    applied = post_game_apply(player=after.player, by=player)
    rolls_before = sorted(DiceRoll.objects.values_list("pk", "faces", "status"))

    post_game_revert(player=after.player, by=player)

    applied.refresh_from_db()
    after.refresh()
    assert applied.status == PostGame.Status.OPEN
    assert applied.snapshot is None
    assert applied.reverted_by == player
    assert applied.reverted_at is not None
    assert PostGame.objects.filter(player=after.player).count() == 1
    assert after.player.post_game == GamePlayer.PostGame.IN_PROGRESS
    assert sorted(DiceRoll.objects.values_list("pk", "faces", "status")) == rolls_before
    state = after.state()
    assert state.post_game == applied
    assert state.rolls_made == 3
    # Nothing left in the Trauma Step: the wizard goes on to Reinforcements (the warband, worth 0, is
    # under its Threshold Value), called or declined before the Exploration Dice, not rolled yet (RULING C-4).
    assert state.current_step == "reinforcements"
    assert state.ready
    with pytest.raises(AssertionError, match="needs no roll"):
        enter(after, fighters["troop"], 6, by=player)
    made = post_game_roll(
        player=after.player, fighter_id=fighters["troop"].pk, purpose="survival", sequence=1, by=player
    )
    assert not made.created
    assert made.roll.dice_roll.faces == [1]  # the stored roll, not a new one
    assert DiceRoll.objects.count() == 3
    assert last_context(fighters["marcus"])["action"] == "post_game.revert"


def test_revert_is_refused_once_the_warbands_next_game_is_recorded(after, fighters, player, warband):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)
    game_with([], campaign=after.game.campaign, warband=warband, rival_warband=after.rival.warband, number=2)

    with pytest.raises(PostGameError, match="played Game 2 since"):
        post_game_revert(player=after.player, by=player)


def test_revert_keeps_xp_spent_since_the_apply(after, fighters, player):
    marcus = fighters["marcus"]
    post_game_set_out_of_action(player=after.player, fighter_ids=[marcus.pk], by=player)
    enter(after, marcus, 4, 4, by=player)
    post_game_apply(player=after.player, by=player)
    Fighter.objects.filter(pk=marcus.pk).update(xp=10)  # XP 4 after the Apply, then +6 on the roster

    post_game_revert(player=after.player, by=player)

    marcus.refresh_from_db()
    assert marcus.xp == 9  # only the Apply's +1 is taken back


def test_a_campaign_with_post_game_rolls_can_still_be_deleted(after, fighters, player, campaign):
    full_game(after, fighters, player)
    post_game_apply(player=after.player, by=player)

    campaign.delete()

    assert not DiceRoll.objects.exists()
    assert not PostGame.objects.exists()


def test_a_roll_a_post_game_used_cannot_be_deleted_on_its_own(after, fighters, player):
    made = enter(after, fighters["troop"], 4, by=player)
    with pytest.raises(RestrictedError):
        made.roll.dice_roll.delete()
