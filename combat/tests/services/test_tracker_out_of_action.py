"""A Trench Crusade board (combat/services/tracker/out_of_action.py): a single model marked Out of Action in one
tap, the mark taken back, undone; Fallout: Factions' single-model Damage refused there; units keep their Health
Pool; the end of the game takes the marked fighters Out of Action."""

import pytest

from campaigns.models import OutOfAction
from combat.models import TrackerAction, TrackerActionKey, TrackerFighter
from combat.rules import board_rules
from combat.selectors.tracker_attack import AttackTest
from combat.services.tracker import keys
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.confusion import tracker_mark_friends
from combat.services.tracker.damage import tracker_roll_attack
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.errors import TrackerError
from combat.services.tracker.fatigue import tracker_adjust_fatigue, tracker_recover_harm
from combat.services.tracker.marks import tracker_mark
from combat.services.tracker.out_of_action import tracker_out_of_action
from combat.tests.tracker_helpers import damage, events_of, snapshot

pytestmark = pytest.mark.django_db

OUT = TrackerFighter.Status.OUT_OF_ACTION


def out(table, name, by, *, taken=True, sent=None):
    return tracker_out_of_action(
        game=table.game, target_id=table[name].pk, taken=taken, by=by, version=table.version, sent=sent
    )


def test_a_fighter_is_marked_out_of_action_with_what_the_trauma_step_rolls(tc_table, player):
    action = out(tc_table, "Brick", player)
    assert tc_table.tracked("Brick").status == OUT
    assert action.kind == TrackerAction.Kind.OUT_OF_ACTION
    # 003 "Trauma Step": an ELITE model (Brick is a Champion, RULING T-1) rolls the D66, a Troop the Survival D6.
    assert action.summary == (
        "Brick is taken Out of Action and removed from play; after the game: a D66 on the Trauma Table in the "
        "Trauma Step."
    )
    assert "a Survival Roll (D6)" in out(tc_table, "Rusty", player).summary
    assert action.before == [
        {
            "table": "fighter",
            "id": tc_table.tracked("Brick").pk,
            "values": {
                "harm": 0,
                "injuries": 0,
                "fatigue": 0,
                "status": "active",
                "models_left": 1,
                "lost_hp": 0,
                "blood": 0,
                "blessings": 0,
                "down": False,
                "tough_used": False,
            },
        }
    ]
    event = events_of(tc_table.tracked("Brick"))[-1]
    assert event.pgh_context.metadata["action"] == "tracker.out_of_action"


def test_undo_puts_the_fighter_back_in_play(tc_table, player, player2):
    out(tc_table, "Fidus", player2)
    undone = tracker_undo(game=tc_table.game, by=player, version=tc_table.version)
    assert undone.kind == TrackerAction.Kind.OUT_OF_ACTION
    assert undone.undone
    assert tc_table.tracked("Fidus").status == TrackerFighter.Status.ACTIVE


def test_the_mark_is_taken_back_by_its_own_action(tc_table, player):
    out(tc_table, "Vera", player)
    back = out(tc_table, "Vera", player, taken=False)
    assert tc_table.tracked("Vera").status == TrackerFighter.Status.ACTIVE
    assert back.kind == TrackerAction.Kind.BACK_IN_PLAY
    assert (
        back.summary
        == "Vera is back in play: the Out of Action mark is taken back, so no Trauma Step for it."
    )
    # Undoing the taking back marks her Out of Action again.
    tracker_undo(game=tc_table.game, by=player, version=tc_table.version)
    assert tc_table.tracked("Vera").status == OUT


def test_no_mark_no_taking_back_and_no_second_mark(tc_table, player):
    before, version = snapshot(tc_table.game), tc_table.version
    with pytest.raises(TrackerError, match="Vera is not marked Out of Action: there is no mark to take back"):
        out(tc_table, "Vera", player, taken=False)
    assert (snapshot(tc_table.game), tc_table.version) == (before, version)
    out(tc_table, "Vera", player)
    with pytest.raises(TrackerError, match="Vera is Out of Action and out of play"):
        out(tc_table, "Vera", player)


def test_a_unit_is_not_marked_it_keeps_its_health_pool(tc_table, player):
    before = snapshot(tc_table.game)
    with pytest.raises(TrackerError, match="The Choir is a unit of several models: its Health Pool"):
        out(tc_table, "The Choir", player)
    assert snapshot(tc_table.game) == before
    # Seed 004 in a Trench Crusade campaign too: 3 Damage takes 3 of 6 Health Points, one whole model removed.
    action = damage(tc_table, "The Choir", 3, player)
    choir = tc_table.tracked("The Choir")
    assert (choir.models_left, choir.lost_hp) == (2, 1)
    assert action.kind == TrackerAction.Kind.DAMAGE


def test_it_is_refused_on_a_fallout_factions_board(table, player):
    before = snapshot(table.game)
    with pytest.raises(TrackerError, match="have Endurance: a model leaves play by Damage, Incapacitated"):
        out(table, "Brick", player)
    assert snapshot(table.game) == before
    assert not TrackerAction.objects.exists()


def test_a_key_makes_a_repeat_answer_the_same_action(tc_table, player):
    sent = keys.Sent(key="tap-1", batch="queue")
    first = out(tc_table, "Kit", player, sent=sent)
    again = tracker_out_of_action(
        game=tc_table.game, target_id=tc_table["Kit"].pk, taken=True, by=player, version=0, sent=sent
    )
    assert again.pk == first.pk
    assert TrackerAction.objects.count() == 1
    assert TrackerActionKey.objects.get().action == first


def test_nothing_is_half_applied_when_the_key_cannot_be_kept(tc_table, player, monkeypatch):
    def broken(action, **kwargs):
        raise RuntimeError("the key fell off the table")

    before, version = snapshot(tc_table.game), tc_table.version
    monkeypatch.setattr(keys, "remember", broken)
    with pytest.raises(RuntimeError):
        out(tc_table, "Kit", player, sent=keys.Sent(key="tap-1"))
    # One transaction: the mark, the board's version and the action go together or not at all.
    assert (snapshot(tc_table.game), tc_table.version) == (before, version)
    assert not TrackerAction.objects.exists()


def _refusals(table, player):
    single = table["Brick"].pk
    game, version = table.game, table.version
    yield "Damage", lambda: damage(table, "Brick", 3, player)
    yield "Harm", lambda: tracker_mark(game=game, target_id=single, mark="harm", by=player, version=version)
    yield (
        "Injury",
        lambda: tracker_mark(game=game, target_id=single, mark="injury", by=player, version=version),
    )
    yield (
        "Fatigue",
        lambda: tracker_adjust_fatigue(game=game, target_id=single, change=1, by=player, version=0),
    )
    yield "Recover", lambda: tracker_recover_harm(game=game, target_id=single, by=player, version=version)


def test_fallout_factions_single_model_damage_is_refused_with_the_reason(tc_table, player):
    before = snapshot(tc_table.game)
    for what, call in _refusals(tc_table, player):
        with pytest.raises(TrackerError) as refusal:
            call()
        assert refusal.value.message == board_rules.single_model_damage_refused("Brick"), what
        assert "Fallout: Factions' rule" in refusal.value.message
        assert "seed" not in refusal.value.message
    assert snapshot(tc_table.game) == before
    assert not TrackerAction.objects.exists()


def test_the_attack_test_and_confusion_are_refused_there(tc_table, player):
    attacker = tc_table.tracked("Fidus")
    with pytest.raises(TrackerError, match="ten-sided dice against a Fallout: Factions stat"):
        tracker_roll_attack(
            game=tc_table.game,
            target_id=tc_table["The Choir"].pk,
            attack=AttackTest(dice=2, stat=5, attacker=attacker),
            faces=[1, 2],
            by=player,
            version=0,
        )
    with pytest.raises(TrackerError, match="Confusion Tests follow an Incapacitation"):
        tracker_mark_friends(game=tc_table.game, friend_ids=[], by=player, version=0)
    assert not TrackerAction.objects.exists()


def test_the_end_of_the_game_takes_the_marked_fighters_out_of_action(tc_table, player, player2):
    out(tc_table, "Brick", player2)
    out(tc_table, "Fidus", player)
    out(tc_table, "Kit", player)
    out(tc_table, "Kit", player, taken=False)  # marked by mistake, taken back: no Trauma Step
    tracker_end_game(
        game=tc_table.game,
        results={tc_table.alex.pk: "loss", tc_table.sam.pk: "win"},
        by=player,
        version=tc_table.version,
    )
    marked = set(OutOfAction.objects.values_list("player_id", "fighter_id"))
    assert marked == {(tc_table.alex.pk, tc_table["Brick"].pk), (tc_table.sam.pk, tc_table["Fidus"].pk)}


def test_the_mark_may_say_who_took_the_fighter_out_of_action(tc_table, player2):
    action = tracker_out_of_action(
        game=tc_table.game,
        target_id=tc_table["Brick"].pk,
        taken=True,
        by=player2,
        version=tc_table.version,
        attacker_id=tc_table["Mags"].pk,
    )
    assert action.attacker_id == tc_table["Mags"].pk
    assert action.summary.endswith(" By Mags (Heretic Legion).")
    event = events_of(tc_table.tracked("Brick"))[-1]
    assert event.pgh_context.metadata["attacker"] == tc_table["Mags"].pk


@pytest.mark.parametrize(
    ("named", "reason"),
    [("Vera", "Vera is on Brick's own side"), ("outsider", "is not a fighter in this game")],
)
def test_by_must_be_a_fighter_of_the_other_side_in_this_game(
    tc_table, player, make_fighter, warband, named, reason
):
    attacker = make_fighter(warband, "Benched") if named == "outsider" else tc_table[named]
    before = snapshot(tc_table.game)
    with pytest.raises(TrackerError, match=reason) as refused:
        tracker_out_of_action(
            game=tc_table.game,
            target_id=tc_table["Brick"].pk,
            taken=True,
            by=player,
            version=tc_table.version,
            attacker_id=attacker.pk,
        )
    assert refused.value.field == "attacker"
    assert snapshot(tc_table.game) == before


def test_taking_a_mark_back_names_no_one(tc_table, player):
    out(tc_table, "Vera", player)
    back = tracker_out_of_action(
        game=tc_table.game,
        target_id=tc_table["Vera"].pk,
        taken=False,
        by=player,
        version=tc_table.version,
        attacker_id=tc_table["Vera"].pk,  # ignored: no one takes a fighter back into play
    )
    assert back.attacker_id is None
