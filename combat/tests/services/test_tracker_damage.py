"""The tracker's Damage on PostgreSQL (combat/services/tracker/damage.py): the seed's worked examples, Excess
Harm, Harsh Lessons, and bad input that changes nothing."""

import pytest

from campaigns.models import Game, GamePlayer
from combat.models import DiceRoll, TrackerAction, TrackerFighter
from combat.selectors.tracker import tracker_board
from combat.selectors.tracker_attack import AttackTest
from combat.services.tracker.board import tracker_start
from combat.services.tracker.confusion import (
    tracker_confusion_choose,
    tracker_confusion_test,
    tracker_mark_friends,
)
from combat.services.tracker.damage import tracker_apply_damage, tracker_roll_attack
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerBlocked, TrackerError
from combat.tests.tracker_helpers import damage, snapshot

pytestmark = pytest.mark.django_db

INCAPACITATED = TrackerFighter.Status.INCAPACITATED
FLED = TrackerFighter.Status.FLED


def test_example_one_brick_super_sledge_four_hits_on_fidus_through_the_attack_test(table, player):
    # "Alex's Master, Brick, has attacked Sam's Good Boy, Fidus, with a Super Sledge and scored 4 Hits."
    sledge = AttackTest(dice=4, stat=7, brawl=True, attacker=table.tracked("Brick"))
    action = tracker_roll_attack(
        game=table.game, target_id=table["Fidus"].pk, attack=sledge, faces=[2, 7, 5, 1], by=player, version=0
    )

    fidus = table.tracked("Fidus")
    # "the second result on the table applies [...] so Fidus suffers an Injury and 1 Harm. A Good Boy only has
    # 1 Health, so as soon as Sam marks the first Injury Box, the model is Incapacitated" (RULINGS D-3, D-8).
    assert fidus.injuries == 1
    assert fidus.status == INCAPACITATED
    assert "Damage 4 ≥ Endurance 3: one Injury and 1 Harm" in action.summary
    assert "Fidus is Incapacitated" in action.summary
    assert "4 Hits" in action.summary
    # "If she has any other Friendly models within 3", she'll have to make Confusion Tests for them."
    assert table.tracker.pending == {
        "kind": "confusion",
        "stage": "friends",
        "incapacitated": table["Fidus"].pk,
    }
    assert 'tick the friends that were within 3"' in action.summary

    roll = DiceRoll.objects.get(pk=action.rolls[0])
    assert (roll.purpose, roll.source, roll.faces, roll.sides) == ("attack", "entered", [2, 7, 5, 1], 10)
    assert roll.game == table.game
    assert roll.fighter == table["Brick"]
    assert roll.rolled_by == player


def test_example_one_then_confusion_tests_for_friends_within_3_inches(table, player, player2):
    damage(table, "Fidus", 4, player)
    tracker_mark_friends(
        game=table.game,
        friend_ids=[table["Double-Joe"].pk, table["Kit"].pk],
        by=player2,
        version=table.version,
    )
    board = tracker_board(game=table.game)
    assert board.pending.kind == "test"
    assert [f.fighter.name for f in board.pending.remaining] == ["Double-Joe", "Kit"]

    # Sam tests Kit first (RULING D-10: in the order of the controlling player's choosing): 2 is a Hit on I 4.
    action = tracker_confusion_test(
        game=table.game, friend_id=table["Kit"].pk, faces=[2, 9], by=player2, version=table.version
    )
    assert "passed: nothing happens (RULING D-6)" in action.summary
    # Double-Joe fails (9 and 10 against Intelligence 5) and is Confused: Flee or Take Fatigue.
    action = tracker_confusion_test(game=table.game, faces=[9, 10], by=player2, version=table.version)
    assert "Confused: Flee or Take Fatigue" in action.summary
    assert tracker_board(game=table.game).pending.choices == ("flee", "fatigue")
    with pytest.raises(TrackerBlocked):
        damage(table, "Brick", 1, player)

    action = tracker_confusion_choose(game=table.game, choice="fatigue", by=player2, version=table.version)
    assert table.tracked("Double-Joe").fatigue == 1
    assert table.tracked("Double-Joe").status == TrackerFighter.Status.ACTIVE
    assert "The Confusion Tests are done and Fidus is removed from play" in action.summary
    assert table.tracker.pending is None
    rolls = DiceRoll.objects.filter(game=table.game, purpose="confusion").order_by("id")
    assert [roll.faces for roll in rolls] == [[2, 9], [9, 10]]


def test_example_two_double_joe_two_hits_on_brick_is_one_harm(table, player2):
    # "Sam's Security Guard, Double-Joe, has returned fire at Brick. [...] she only scored 2 Hits. [...] using
    # Brick's Endurance of 6, sees that the third result applies [...] Brick takes 1 Harm".
    action = damage(table, "Brick", 2, player2)
    brick = table.tracked("Brick")
    assert (brick.harm, brick.injuries, brick.status) == (1, 0, "active")
    assert action.summary.startswith("Damage 2 < Endurance 6: 1 Harm")
    assert table.tracker.pending is None


def test_a_rolled_attack_gains_a_bonus_die_per_harm_on_the_target(table, player2):
    damage(table, "Brick", 2, player2)  # 1 Harm on Brick
    # Double-Joe's 2 dice + 1 Bonus Die for Brick's Harm (000 "Harm"): three faces are asked for.
    with pytest.raises(TrackerError, match="rolls 3 D10s: enter 3 faces"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Brick"].pk,
            attack=AttackTest(dice=2, stat=6),
            faces=[1, 2],
            by=player2,
            version=table.version,
        )
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Brick"].pk,
        attack=AttackTest(dice=2, stat=6),
        faces=[1, 2, 9],
        by=player2,
        version=table.version,
    )
    assert "2 Hits" in action.summary
    assert table.tracked("Brick").harm == 2


def test_a_makeshift_weapon_is_2s_with_the_attackers_strength_and_the_brawl_bonus_dice(table, player):
    # RULING D-12: 2S, +1 for charging, +1 per supporting friend; Brick's Strength is 7.
    attack = AttackTest(makeshift=True, charged=True, supporting_friends=1, attacker=table.tracked("Brick"))
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Mags"].pk,
        attack=attack,
        faces=[7, 8, 1, 10],
        by=player,
        version=table.version,
    )
    assert "4 D10s, a Hit on 7 or less" in action.summary
    assert "2 Hits" in action.summary


def test_server_dice_are_stored_before_the_result(table, player):
    action = tracker_roll_attack(
        game=table.game, target_id=table["Kit"].pk, attack=AttackTest(dice=3, stat=5), by=player, version=0
    )
    roll = DiceRoll.objects.get(pk=action.rolls[0])
    assert roll.source == "server"
    assert len(roll.faces) == 3
    assert all(1 <= face <= 10 for face in roll.faces)
    hits = sum(1 for face in roll.faces if face <= 5)
    assert f"Damage {hits}" in action.summary


# --- Start and end of the game --------------------------------------------------------------------------------


def test_excess_harm_is_an_injury(table, player2):
    for _ in range(3):
        damage(table, "Brick", 1, player2)
    assert table.tracked("Brick").harm == 3  # the Harm Limit
    action = damage(table, "Brick", 1, player2)
    brick = table.tracked("Brick")
    # RULING D-2: Excess Harm caused by Damage is an Injury; Harm never rises above the Harm Limit.
    assert (brick.harm, brick.injuries) == (3, 1)
    assert "RULING D-2" in action.summary
    # On the "equal or greater" row at the Harm Limit: the row's Injury and one from the Excess Harm.
    action = damage(table, "Brick", 6, player2)
    assert table.tracked("Brick").injuries == 3
    assert table.tracked("Brick").status == INCAPACITATED
    assert "RULING D-2" in action.summary


def test_harsh_lessons_once_per_crew(table, player, player2, rival_warband, warband):
    # Mags, Sam's Champion, is Incapacitated: Sam's crew earns 1 XP (RULING D-11).
    action = damage(table, "Mags", 10, player)
    assert "Harsh Lessons: Heretic Legion earns 1 XP" in action.summary
    assert table.tracker.harsh_lessons == [rival_warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    # A second Champion of the same crew gives nothing more.
    fighter = table["Kit"]
    fighter.champion = True
    fighter.save()
    action = damage(table, "Kit", 8, player)
    assert "already earned its Harsh Lessons XP this game" in action.summary
    assert table.tracker.harsh_lessons == [rival_warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)

    # The other crew earns its own, once.
    damage(table, "Brick", 12, player2)
    assert table.tracker.harsh_lessons == [rival_warband.pk, warband.pk]
    tracker_mark_friends(game=table.game, friend_ids=[], by=player, version=table.version)

    results = {table.alex.pk: "loss", table.sam.pk: "win"}
    tracker_end_game(game=table.game, results=results, by=player, version=table.version)
    rival_warband.refresh_from_db()
    warband.refresh_from_db()
    assert (rival_warband.crew_xp, warband.crew_xp) == (1, 1)


def test_a_non_champion_gives_no_harsh_lessons(table, player):
    damage(table, "Kit", 8, player)
    assert table.tracker.harsh_lessons == []


def test_negative_damage_is_refused(table, player):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="0 or more"):
        damage(table, "Brick", -1, player)
    assert snapshot(table.game) == before
    assert table.version == 0
    assert not TrackerAction.objects.exists()


def test_a_d10_face_of_11_is_refused_and_no_roll_is_stored(table, player):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="11 is not a face of a D10"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Kit"].pk,
            attack=AttackTest(dice=2, stat=5),
            faces=[3, 11],
            by=player,
            version=0,
        )
    assert snapshot(table.game) == before
    assert not DiceRoll.objects.exists()


def test_a_target_from_another_game_is_refused(table, player, campaign, warband, make_fighter):
    other = Game.objects.create(
        campaign=campaign, number=2, played_on=table.game.played_on, status="in_progress"
    )
    GamePlayer.objects.create(game=other, warband=warband)
    tracker_start(game=other, by=player)
    before = snapshot(table.game)
    outsider = make_fighter(warband, "Latecomer")
    with pytest.raises(TrackerError, match="not on this game's board"):
        tracker_apply_damage(game=other, target_id=table["Fidus"].pk, damage=3, by=player, version=0)
    with pytest.raises(TrackerError, match="not on this game's board"):
        tracker_apply_damage(game=table.game, target_id=outsider.pk, damage=3, by=player, version=0)
    assert snapshot(table.game) == before


def test_an_attacker_from_another_game_is_refused(table, player, campaign, warband):
    other = Game.objects.create(
        campaign=campaign, number=2, played_on=table.game.played_on, status="in_progress"
    )
    GamePlayer.objects.create(game=other, warband=warband)
    tracker_start(game=other, by=player)
    stranger = TrackerFighter.objects.get(tracker__game=other, fighter=table["Brick"])
    with pytest.raises(TrackerError, match="attacker is not on this game's board"):
        tracker_roll_attack(
            game=table.game,
            target_id=table["Kit"].pk,
            attack=AttackTest(makeshift=True, attacker=stranger),
            faces=[1, 1],
            by=player,
            version=0,
        )


def test_an_incapacitated_fighter_cannot_take_damage(table, player, player2):
    damage(table, "Kit", 8, player)
    tracker_mark_friends(game=table.game, friend_ids=[], by=player2, version=table.version)
    with pytest.raises(TrackerError, match="Kit is Incapacitated and out of play"):
        damage(table, "Kit", 1, player)


def test_typed_damage_may_say_who_dealt_it(table, player2):
    action = damage(table, "Fidus", 4, player2, attacker_id=table["Brick"].pk)
    assert action.attacker_id == table["Brick"].pk
    assert "Fidus is Incapacitated" in action.summary
    assert "By Brick (Iron Sepulchre)." in action.summary


def test_typed_damage_by_a_friend_is_refused_with_nothing_changed(table, player2):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="Double-Joe is on Fidus' own side") as refused:
        damage(table, "Fidus", 4, player2, attacker_id=table["Double-Joe"].pk)
    assert refused.value.field == "attacker"
    assert snapshot(table.game) == before


def test_a_rolled_attack_keeps_its_attacker_on_the_action(table, player):
    sledge = AttackTest(dice=4, stat=7, attacker=table.tracked("Brick"))
    action = tracker_roll_attack(
        game=table.game, target_id=table["Fidus"].pk, attack=sledge, faces=[2, 7, 5, 1], by=player, version=0
    )
    assert action.attacker_id == table["Brick"].pk
