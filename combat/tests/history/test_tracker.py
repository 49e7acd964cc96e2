"""The tracker told as a battle report (combat/history/tracker.py), read through the feed: one sentence per
action on the board, its dice, its undo, the end of the game.
"""

import datetime as dt

import pytest

from rosters.history.entries import HistoryFilter, group_by_game
from rosters.history.feed import history_page
from rosters.services.games import game_start
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def board(campaign, warband, rival_warband, make_fighter, organiser):
    from combat.services.tracker.board import tracker_start

    campaign.preset = "fallout_factions"
    campaign.save(update_fields=["preset"])
    game = game_start(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 6, 1),
        warbands=[warband, rival_warband],
        scenario="Bridge",
    )
    fighters = {
        "Brick": make_fighter(warband, "Brick", champion=True, endurance=6, health=3, strength=7),
        "Fidus": make_fighter(rival_warband, "Fidus", endurance=3, health=1),
        "Double-Joe": make_fighter(rival_warband, "Double-Joe", endurance=4, health=2, intelligence=5),
        "Mags": make_fighter(rival_warband, "Mags", champion=True, endurance=5, health=2, intelligence=6),
        "Kit": make_fighter(rival_warband, "Kit", endurance=4, health=1, intelligence=4),
    }
    tracker_start(game=game, by=organiser)
    return Board(game, fighters)


class Board:
    def __init__(self, game, fighters):
        self.game, self.fighters = game, fighters

    def __getitem__(self, name):
        return self.fighters[name]

    @property
    def version(self) -> int:
        from combat.models import TrackerGame

        return TrackerGame.objects.get(game=self.game).version

    def tracked(self, name):
        from combat.models import TrackerFighter

        return TrackerFighter.objects.get(tracker__game=self.game, fighter=self.fighters[name])

    def attack(self, attacker, target, faces, by, dice=None, stat=7):
        from combat.selectors.tracker_attack import AttackTest
        from combat.services.tracker.damage import tracker_roll_attack

        test = AttackTest(dice=dice or len(faces), stat=stat, attacker=self.tracked(attacker))
        return tracker_roll_attack(
            game=self.game, target_id=self[target].pk, attack=test, faces=faces, by=by, version=self.version
        )

    def damage(self, target, amount, by):
        from combat.services.tracker.damage import tracker_apply_damage

        return tracker_apply_damage(
            game=self.game, target_id=self[target].pk, damage=amount, by=by, version=self.version
        )

    def friends(self, names, by):
        from combat.services.tracker.confusion import tracker_mark_friends

        ids = [self[name].pk for name in names]
        return tracker_mark_friends(game=self.game, friend_ids=ids, by=by, version=self.version)

    def confusion(self, name, faces, by):
        from combat.services.tracker.confusion import tracker_confusion_test

        return tracker_confusion_test(
            game=self.game, friend_id=self[name].pk, faces=faces, by=by, version=self.version
        )

    def choose(self, choice, by):
        from combat.services.tracker.confusion import tracker_confusion_choose

        return tracker_confusion_choose(game=self.game, choice=choice, by=by, version=self.version)

    def fatigue(self, name, change, by):
        from combat.services.tracker.fatigue import tracker_adjust_fatigue

        return tracker_adjust_fatigue(
            game=self.game, target_id=self[name].pk, change=change, by=by, version=self.version
        )


def in_game(campaign, **filters) -> list[str]:
    return sentences(campaign, kind="ingame", **filters)


def test_the_board_set_up_is_told_with_who_set_it_up(campaign, board):
    assert in_game(campaign) == ["Game 1 began on the tracker (board set up by Olga)"]


def test_an_attack_says_who_hit_whom_for_how_much_what_it_did_and_the_dice(campaign, board, player):
    # 000 "Damage Examples": Brick scores 4 Hits on Fidus; Damage 4 ≥ Endurance 3 is an Injury, which reaches
    # Fidus' Health of 1, so Fidus is Incapacitated and the Harm is moot (RULINGS D-3, D-8).
    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    assert in_game(campaign)[0] == (
        "Brick hit Fidus for 4 Damage: an Injury — Fidus is Incapacitated "
        "(Pat, on the tracker in Game 1; 2, 7, 5, 1 entered from the table)"
    )


def test_an_attack_with_no_hit_says_it_missed(campaign, board, player):
    board.attack("Brick", "Mags", [9, 10], by=player)
    assert in_game(campaign)[0] == (
        "Brick's attack on Mags missed: no Hit (Pat, on the tracker in Game 1; 9, 10 entered from the table)"
    )


def test_damage_counted_at_the_table_says_what_it_did_and_who_applied_it(campaign, board, player2):
    board.damage("Brick", 2, by=player2)  # 000 Example two: 2 < Endurance 6, 1 Harm
    assert in_game(campaign)[0] == "Brick took 2 Damage: 1 Harm (Bob, on the tracker in Game 1)"


def test_incapacitating_a_champion_tells_the_harsh_lessons(campaign, board, player, player2):
    board.damage("Mags", 10, by=player)  # ≥ double Endurance 5: Incapacitated (RULING D-1)
    assert in_game(campaign)[0] == (
        "Mags took 10 Damage — Mags is Incapacitated; Harsh Lessons: +1 XP for Heretic Legion "
        "(Pat, on the tracker in Game 1)"
    )


def test_confusion_tests_friends_passed_confused_and_fatigue(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends(["Double-Joe", "Kit"], by=player2)
    board.confusion("Kit", [2, 9], by=player2)  # 2 ≤ Intelligence 4: a Hit, passed (RULING D-6)
    board.confusion("Double-Joe", [9, 10], by=player2)  # no Hit: Confused
    board.choose("fatigue", by=player2)
    assert in_game(campaign)[:4] == [
        "Double-Joe's Confusion Test: Confused — took 1 Fatigue, now 1 (Bob, on the tracker in Game 1)",
        "Double-Joe's Confusion Test: failed — Confused, to Flee or Take Fatigue "
        "(Bob, on the tracker in Game 1; 9, 10 entered from the table)",
        "Kit's Confusion Test: passed (Bob, on the tracker in Game 1; 2, 9 entered from the table)",
        'Double-Joe and Kit within 3" of Fidus: Confusion Tests (2I) (Bob, on the tracker in Game 1)',
    ]


def test_a_confused_model_that_cannot_take_fatigue_flees(campaign, board, player, player2):
    board.fatigue("Kit", 1, by=player2)
    board.fatigue("Kit", 1, by=player2)
    board.damage("Fidus", 4, by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [9, 9], by=player2)  # RULING D-7: at 2 Fatigue it must Flee
    found = in_game(campaign)
    assert found[0] == (
        "Kit's Confusion Test: Fled — Exhausted, it could not Take Fatigue "
        "(Bob, on the tracker in Game 1; 9, 9 entered from the table)"
    )
    assert "Kit took 1 Fatigue, now 2 (Exhausted) (Bob, on the tracker in Game 1)" in found
    assert "Kit took 1 Fatigue, now 1 (Bob, on the tracker in Game 1)" in found


def test_a_confused_model_that_chooses_to_flee(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [9, 9], by=player2)
    board.choose("flee", by=player2)
    assert in_game(campaign)[0] == (
        "Kit's Confusion Test: Confused — Fled, out of play but not Out of Action (Bob, on the tracker in Game 1)"
    )


def test_no_friend_within_3_inches(campaign, board, player, player2):
    board.damage("Fidus", 4, by=player)
    board.friends([], by=player2)
    assert in_game(campaign)[0] == (
        'No friend was within 3" of Fidus: no Confusion Test (Bob, on the tracker in Game 1)'
    )


def test_fatigue_removed_and_harm_recovered(campaign, board, player, player2):
    from combat.services.tracker.fatigue import tracker_recover_harm

    board.fatigue("Brick", 1, by=player)
    board.fatigue("Brick", -1, by=player)
    board.damage("Brick", 2, by=player2)
    tracker_recover_harm(game=board.game, target_id=board["Brick"].pk, by=player, version=board.version)
    assert in_game(campaign)[:3] == [
        "Brick Recovered 1 Harm, now 0 (Pat, on the tracker in Game 1)",
        "Brick took 2 Damage: 1 Harm (Bob, on the tracker in Game 1)",
        "Brick lost 1 Fatigue, now 0 (Pat, on the tracker in Game 1)",
    ]


def test_an_undone_action_reads_as_undone_and_the_undo_says_who(campaign, board, organiser, player2):
    from combat.services.tracker.board import tracker_undo

    board.damage("Brick", 7, by=player2)  # ≥ Endurance 6: an Injury and 1 Harm
    tracker_undo(game=board.game, by=organiser, version=board.version)
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame"))
    undo, undone = (entry.changes[0] for entry in page.entries[:2])
    assert (
        undo.sentence == "Olga undid “Brick took 7 Damage: an Injury and 1 Harm” (on the tracker in Game 1)"
    )
    assert undo.undone == ""
    assert undone.sentence == "Brick took 7 Damage: an Injury and 1 Harm (Bob, on the tracker in Game 1)"
    assert undone.undone == "undone by Olga"
    assert undone.told.endswith("[undone by Olga]")


def test_an_undone_actions_dice_do_not_say_undone_twice(campaign, board, organiser, player):
    from combat.models import DiceRoll
    from combat.services.tracker.board import tracker_undo

    action = board.attack("Brick", "Mags", [9, 10], by=player)
    tracker_undo(game=board.game, by=organiser, version=board.version)
    assert DiceRoll.objects.get(pk=action.rolls[0]).status == "undone"
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame"))
    undone = page.entries[1].changes[0]
    assert undone.sentence == (
        "Brick's attack on Mags missed: no Hit (Pat, on the tracker in Game 1; 9, 10 entered from the table)"
    )
    assert undone.undone == "undone by Olga"


def test_a_tracker_roll_corrected_later_says_so_with_its_dice(campaign, board, organiser, player):
    from combat.models import DiceRoll
    from combat.tests.dice_helpers import strike

    action = board.attack("Brick", "Mags", [9, 10], by=player)
    strike(DiceRoll.objects.get(pk=action.rolls[0]), "corrected", by=organiser, reason="typo", faces=[9, 1])
    assert in_game(campaign)[0] == (
        "Brick's attack on Mags missed: no Hit (Pat, on the tracker in Game 1; 9, 10 entered from the table, "
        "later corrected to 9, 1 by Olga (typo))"
    )


def test_the_end_of_the_game_names_the_fallen_and_the_harsh_lessons(
    campaign, board, organiser, player, player2
):
    from combat.services.tracker.end import tracker_end_game

    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    board.friends([], by=player2)
    board.damage("Mags", 10, by=player)
    board.friends([], by=player2)
    results = {
        entry.pk: "win" if entry.warband.owner == player else "loss" for entry in board.game.players.all()
    }
    tracker_end_game(game=board.game, results=results, by=organiser, version=board.version)
    assert in_game(campaign)[0] == (
        "End of Game 1: Fidus and Mags taken Out of Action; Harsh Lessons: +1 crew XP for Heretic Legion "
        "(Olga, on the tracker)"
    )


def test_tracker_sentences_are_grouped_under_their_game_and_filtered_by_fighter(
    campaign, board, warband, player, player2
):
    board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    board.friends(["Kit"], by=player2)
    board.confusion("Kit", [2, 9], by=player2)
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame"))
    (group,) = group_by_game(page.entries)
    assert group.game.title == "Game 1"
    assert group.game.scenario == "Bridge"
    # The attacker's, the target's and the tested friend's own stories each hold their part.
    assert [s.split(" (")[0] for s in in_game(campaign, fighter_id=board["Brick"].pk)] == [
        "Brick hit Fidus for 4 Damage: an Injury — Fidus is Incapacitated",
        "Game 1 began on the tracker",
    ]
    assert any(s.startswith("Brick hit Fidus") for s in in_game(campaign, fighter_id=board["Fidus"].pk))
    kit = in_game(campaign, fighter_id=board["Kit"].pk)
    assert kit[0].startswith("Kit's Confusion Test: passed")
    assert not any("Brick hit" in s for s in kit)
    # A warband's story holds the battle report of each game it played.
    assert len(in_game(campaign, warband_id=warband.pk)) == len(in_game(campaign)) == 4
    # Other kinds of change leave the board out.
    assert not any("on the tracker" in s for s in sentences(campaign, kind="games"))


def test_an_attack_logged_before_the_context_named_the_damage_reads_from_its_roll(campaign, board, player):
    from pghistory.models import Context

    action = board.attack("Brick", "Fidus", [2, 7, 5, 1], by=player)
    # Older tracker events have no `damage` or `attacker` in their context: the attacker is the roll's fighter.
    for context in Context.objects.filter(metadata__action="tracker.attack"):
        context.metadata = {k: v for k, v in context.metadata.items() if k not in ("damage", "attacker")}
        context.save()
    assert action.rolls
    assert in_game(campaign)[0].startswith("Brick hit Fidus: an Injury — Fidus is Incapacitated (Pat,")


# -- a post-game's results, as its Apply stored them -----------------------------------------------------------


def test_a_game_started_for_the_tracker_reads_as_started(campaign, board):
    found = sentences(campaign, kind="games")
    assert "Olga started Game 1 (Bridge)" in found
    assert "Iron Sepulchre takes part in Game 1 — by Olga" in found


def test_an_out_of_action_mark_and_its_taking_back_on_a_trench_crusade_board(
    campaign, board, organiser, player, player2
):
    from combat.services.tracker.end import tracker_end_game
    from combat.services.tracker.out_of_action import tracker_out_of_action

    campaign.preset = (
        "trench_crusade"  # no Endurance: the board marks Out of Action (combat/rules/board_rules.py)
    )
    campaign.save(update_fields=["preset"])
    for name, taken, by in (("Kit", True, player), ("Fidus", True, player2), ("Kit", False, player)):
        tracker_out_of_action(
            game=board.game, target_id=board[name].pk, taken=taken, by=by, version=board.version
        )
    assert in_game(campaign)[:3] == [
        "Kit was back in play: the Out of Action mark taken back (Pat, on the tracker in Game 1)",
        "Fidus was taken Out of Action (Bob, on the tracker in Game 1)",
        "Kit was taken Out of Action (Pat, on the tracker in Game 1)",
    ]
    results = {entry.pk: "draw" for entry in board.game.players.all()}
    tracker_end_game(game=board.game, results=results, by=organiser, version=board.version)
    assert in_game(campaign)[0] == "End of Game 1: Fidus taken Out of Action (Olga, on the tracker)"


def test_a_trench_crusade_injury_roll_markers_and_their_undo_are_told(campaign, board, organiser, player):
    """TC_IN_GAME.md: the roll told from its stored record (RULING I-8), with its dice; the taps in their words."""
    from combat.services.tracker.board import tracker_undo
    from combat.services.tracker.injury import injury_roll, tracker_marker

    campaign.preset = "trench_crusade"
    campaign.save(update_fields=["preset"])
    kit = board["Kit"].pk
    for what in ("down", "blood"):
        tracker_marker(game=board.game, target_id=kit, what=what, change=1, by=player, version=board.version)
    injury_roll(
        game=board.game,
        target_id=kit,
        by=player,
        version=board.version,
        faces=[5, 4, 1],
        blood_spent=1,
        armour="standard",
    )
    assert in_game(campaign)[:3] == [
        "Kit: Injury Roll 3D6 keep 2 highest (5, 4, 1) -1 armour = 8: Down, 2 Blood Markers (1 Blood Marker spent) "
        "(Pat, on the tracker in Game 1; 5, 4, 1 entered from the table)",
        "+1 Blood Marker on Kit (1 Blood Marker now) (Pat, on the tracker in Game 1)",
        "Kit is Down (Pat, on the tracker in Game 1)",
    ]
    tracker_undo(game=board.game, by=organiser, version=board.version)
    assert in_game(campaign)[0].startswith("Olga undid “Kit: Injury Roll 3D6 keep 2 highest (5, 4, 1)")


def test_who_did_it_is_told_when_the_board_was_told(campaign, board, player, player2):
    """The "By" of typed Damage, an Out of Action mark and an Injury Roll reads in the history."""
    from combat.services.tracker.damage import tracker_apply_damage
    from combat.services.tracker.injury import injury_roll
    from combat.services.tracker.out_of_action import tracker_out_of_action

    game, brick = board.game, board["Brick"].pk
    tracker_apply_damage(
        game=game, target_id=board["Mags"].pk, damage=2, by=player, version=board.version, attacker_id=brick
    )
    assert in_game(campaign)[0].startswith("Mags took 2 Damage from Brick")
    campaign.preset = "trench_crusade"
    campaign.save(update_fields=["preset"])
    injury_roll(
        game=game,
        target_id=board["Kit"].pk,
        by=player,
        version=board.version,
        faces=[2, 1],
        attacker_id=brick,
    )
    tracker_out_of_action(
        game=game,
        target_id=board["Fidus"].pk,
        taken=True,
        by=player2,
        version=board.version,
        attacker_id=brick,
    )
    told = in_game(campaign)
    assert told[0] == "Fidus was taken Out of Action by Brick (Bob, on the tracker in Game 1)"
    assert told[1].startswith("Kit: Injury Roll 2D6 (2, 1) = 3: Minor Hit")
    assert " by Brick (Pat" in told[1]
