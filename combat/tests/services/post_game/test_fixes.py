"""combat/services/post_game/fixes.py: correct a typed die, void a server roll, before and after Apply.

The rule every test comes back to: a stored roll is never deleted nor rolled again, and a correction gives exactly
the roster a post-game typed right from the start gives."""

import pytest

from campaigns.models import GamePlayer
from campaigns.tests.history import last_context
from combat.models import DiceRoll, PostGame, PostGameFighter
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import post_game_correct_roll, post_game_void_roll
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.tests.post_game_helpers import casualty, game_with, roll
from combat.tests.services.post_game.fix_helpers import comparable, dice_of, type_script, typed_right
from rosters.models import Fighter, Injury

pytestmark = pytest.mark.django_db


@pytest.fixture
def script(fighters):
    return [(fighters["troop"], (3,)), (fighters["marcus"], (1, 4)), (fighters["ada"], (2, 4))]


def _correct(after, dice, faces, *, by, reason="typo"):
    return post_game_correct_roll(player=after.player, roll_id=dice.pk, faces=faces, reason=reason, by=by)


# -- Correct while open ---------------------------------------------------------------------------------------------


def test_a_typed_die_corrected_while_open_is_struck_and_replaced(after, fighters, player, script):
    type_script(after, script, by=player)
    old = dice_of(fighters["marcus"], "trauma")

    fix = _correct(after, old, [1, 1], by=player, reason="read the die wrong")

    old.refresh_from_db()
    assert old.status == DiceRoll.Status.CORRECTED
    assert old.status_by == player
    assert old.status_reason == "read the die wrong"
    assert old.replaced_by == fix.new
    assert old.faces == [1, 4]  # the old faces stay in the dice log
    assert fix.new.faces == [1, 1]
    assert fix.new.source == DiceRoll.Source.ENTERED
    assert "corrected from 1-4" in fix.new.label
    assert dice_of(fighters["marcus"], "trauma") == fix.new
    state = casualty(after, fighters["marcus"])
    assert state.outcome.reason == "dead"
    assert state.rolls[0].struck == old
    assert DiceRoll.objects.count() == 4


def test_a_correction_that_shortens_a_reroll_chain_sets_the_reroll_aside_and_back(
    after, fighters, player, warband
):
    """RULING T-5: Hand Wound again is rerolled. Corrected to another result, the reroll stops counting (kept,
    undone); corrected back, the same stored reroll counts again, never a new roll."""
    marcus = fighters["marcus"]
    Injury.objects.create(fighter=marcus, code="hand_wound", name="Hand Wound", d66=14)
    type_script(after, [(fighters["troop"], (3,)), (fighters["ada"], (4, 4))], by=player)
    type_script(after, [(marcus, (1, 4)), (marcus, (2, 1))], by=player)
    first, reroll = dice_of(marcus, "trauma", 1), dice_of(marcus, "trauma", 2)

    fix = _correct(after, first, [4, 4], by=player)

    reroll.refresh_from_db()
    assert fix.set_aside == [reroll.pk]
    assert reroll.status == DiceRoll.Status.UNDONE
    assert reroll.status_reason.startswith("no longer needed after the correction of Brother Marcus")
    assert casualty(after, marcus).outcome.entry.code == "full_recovery"
    assert after.state().ready

    _correct(after, fix.new, [1, 4], by=player)

    reroll.refresh_from_db()
    assert reroll.counts
    assert casualty(after, marcus).outcome.entry.code == "insomniac"
    assert DiceRoll.objects.filter(fighter=marcus).count() == 4  # 1-4, 4-4, 1-4 again, the reroll: none new


def test_a_correction_that_needs_a_roll_never_made_reopens_the_step(after, fighters, player, script):
    type_script(after, script, by=player)
    Injury.objects.create(fighter=fighters["ada"], code="hand_wound", name="Hand Wound", d66=14)

    fix = _correct(after, dice_of(fighters["ada"], "trauma"), [1, 4], by=player)

    assert fix.reopened
    ada = casualty(after, fighters["ada"])
    assert (ada.needed.purpose, ada.needed.sequence) == ("trauma", 2)
    assert not after.state().ready


def test_bitter_lessons_d3_no_longer_due_stops_counting(after, fighters, player):
    ada = fighters["ada"]
    type_script(
        after,
        [(fighters["troop"], (3,)), (fighters["marcus"], (4, 4)), (ada, (6, 5)), (ada, (2,))],
        by=player,
    )
    d3 = dice_of(ada, "bitter_lessons")

    _correct(after, dice_of(ada, "trauma"), [6, 6], by=player)

    d3.refresh_from_db()
    assert d3.status == DiceRoll.Status.UNDONE
    assert casualty(after, ada).outcome.entry.code == "prominent_scar"


def test_a_ransom_answer_for_a_fighter_no_longer_captured_is_cleared(after, fighters, player, rival_warband):
    type_script(
        after, [(fighters["troop"], (3,)), (fighters["marcus"], (1, 2)), (fighters["ada"], (4, 4))], by=player
    )
    post_game_answer_ransom(
        player=after.player, fighter_id=fighters["marcus"].pk, paid=True, ransom=10, by=player
    )

    _correct(after, dice_of(fighters["marcus"], "trauma"), [4, 1], by=player)

    answer = PostGameFighter.objects.get(fighter=fighters["marcus"])
    assert (answer.ransom_paid, answer.ransom, answer.captor_id) == (None, 0, None)


# -- Correct after Apply: exactly as if typed right -------------------------------------------------------------------


def test_correct_after_apply_equals_a_post_game_typed_right(
    after, fighters, player, script, warband, rival_warband
):
    right = [script[0], (fighters["marcus"], (1, 1)), script[2]]
    expected = typed_right(after, right, by=player, warbands=[warband, rival_warband])
    type_script(after, script, by=player)
    applied = post_game_apply(player=after.player, by=player)
    assert comparable(warband, rival_warband) != expected

    fix = _correct(after, dice_of(fighters["marcus"], "trauma"), [1, 1], by=player, reason="typo")

    assert fix.applied_again
    applied.refresh_from_db()
    assert applied.status == PostGame.Status.APPLIED
    assert comparable(warband, rival_warband) == expected
    assert Fighter.objects.get(pk=fighters["marcus"].pk).status == "dead"
    context = last_context(fighters["marcus"])
    assert context["action"] == "post_game.correct"
    assert context["roll"] == [fix.old.pk, fix.new.pk]
    assert (context["faces_before"], context["faces_after"]) == ([1, 4], [1, 1])
    assert context["why"] == "typo"
    assert context["reason"] == "Trauma D66 corrected 14 → 11: typo"
    assert context["net"] is True
    # The correction can itself be reverted, back to the roster before the post-game.
    assert applied.snapshot["fighters"]


def test_correct_after_apply_to_captured_leaves_the_post_game_open_waiting_for_the_ransom(
    after, fighters, player, script, warband, rival_warband
):
    right = [script[0], (fighters["marcus"], (1, 2)), script[2]]

    def ransom():
        post_game_answer_ransom(
            player=after.player, fighter_id=fighters["marcus"].pk, paid=True, ransom=10, by=player
        )

    expected = typed_right(after, right, by=player, warbands=[warband, rival_warband], before_apply=ransom)
    before = comparable(warband, rival_warband)
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)

    fix = _correct(after, dice_of(fighters["marcus"], "trauma"), [1, 2], by=player)

    assert not fix.applied_again
    assert fix.reopened
    after.refresh()
    assert after.player.post_game == GamePlayer.PostGame.IN_PROGRESS
    assert comparable(warband, rival_warband) == before  # taken back, not applied again yet
    assert casualty(after, fighters["marcus"]).waiting_for == "ransom"
    ransom()
    post_game_apply(player=after.player, by=player)
    assert comparable(warband, rival_warband) == expected


# -- Void -----------------------------------------------------------------------------------------------------------


def test_the_organiser_voids_a_server_roll_and_the_server_rolls_again(after, fighters, player, organiser):
    made = roll(after, fighters["troop"], by=player).roll.dice_roll

    fix = post_game_void_roll(
        player=after.player, roll_id=made.pk, reason="die fell off the table", by=organiser
    )

    made.refresh_from_db()
    assert made.status == DiceRoll.Status.VOIDED
    assert (made.status_by, made.status_reason, made.replaced_by) == (
        organiser,
        "die fell off the table",
        fix.new,
    )
    assert fix.new.source == DiceRoll.Source.SERVER
    assert 1 <= fix.new.faces[0] <= 6
    assert dice_of(fighters["troop"], "survival") == fix.new


def test_void_with_typed_faces_for_the_replacement(after, fighters, player, organiser):
    made = roll(after, fighters["troop"], by=player).roll.dice_roll

    fix = post_game_void_roll(
        player=after.player, roll_id=made.pk, reason="rolled twice", by=organiser, faces=[5]
    )

    assert (fix.new.faces, fix.new.source) == ([5], DiceRoll.Source.ENTERED)


# -- Refusals: a clear message, nothing changed ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "reason", "message"),
    [
        ([7, 1], "typo", "cannot be right"),
        ([1], "typo", "1 dice entered"),
        ([1, 1], "", "Say why"),
        ([1, 1], "   ", "Say why"),
        ([1, 1], "x" * 201, "at most 200"),
    ],
)
def test_bad_corrections_are_refused_and_change_nothing(
    after, fighters, player, script, faces, reason, message
):
    type_script(after, script, by=player)
    old = dice_of(fighters["marcus"], "trauma")
    count = DiceRoll.objects.count()

    with pytest.raises(PostGameError, match=message):
        _correct(after, old, faces, by=player, reason=reason)

    old.refresh_from_db()
    assert old.counts
    assert DiceRoll.objects.count() == count


def test_a_corrected_roll_cannot_be_corrected_again_and_says_who_changed_it(after, fighters, player, script):
    type_script(after, script, by=player)
    old = dice_of(fighters["marcus"], "trauma")
    _correct(after, old, [1, 1], by=player, reason="typo")

    with pytest.raises(PostGameError, match=r"corrected by pat_player at \d\d:\d\d: typo"):
        _correct(after, old, [2, 2], by=player)


def test_a_server_roll_cannot_be_corrected_and_a_typed_one_cannot_be_voided(
    after, fighters, player, organiser
):
    server = roll(after, fighters["troop"], by=player).roll.dice_roll
    type_script(after, [(fighters["marcus"], (1, 4))], by=player)

    with pytest.raises(PostGameError, match="only voided by the organiser"):
        _correct(after, server, [3], by=organiser)
    with pytest.raises(PostGameError, match="correct it instead"):
        post_game_void_roll(
            player=after.player, roll_id=dice_of(fighters["marcus"], "trauma").pk, reason="x", by=organiser
        )
    assert not DiceRoll.objects.exclude(status=DiceRoll.Status.COUNTED).exists()


def test_only_the_organiser_voids(after, fighters, player):
    server = roll(after, fighters["troop"], by=player).roll.dice_roll

    with pytest.raises(PostGameError, match="Only the campaign's organiser"):
        post_game_void_roll(player=after.player, roll_id=server.pk, reason="I do not like it", by=player)
    server.refresh_from_db()
    assert server.counts


def test_a_roll_of_another_warbands_post_game_is_refused(after, fighters, player, script, rival_warband):
    type_script(after, script, by=player)
    old = dice_of(fighters["marcus"], "trauma")

    with pytest.raises(PostGameError, match="not one of this post-game's"):
        post_game_correct_roll(player=after.rival, roll_id=old.pk, faces=[1, 1], reason="typo", by=player)


def test_a_correction_after_the_next_game_is_refused(after, fighters, player, script, warband, rival_warband):
    type_script(after, script, by=player)
    post_game_apply(player=after.player, by=player)
    game_with([], campaign=after.game.campaign, warband=warband, rival_warband=rival_warband, number=2)
    before = comparable(warband, rival_warband)

    with pytest.raises(PostGameError, match="played again since Game 1"):
        _correct(after, dice_of(fighters["marcus"], "trauma"), [1, 1], by=player)

    assert comparable(warband, rival_warband) == before
    assert dice_of(fighters["marcus"], "trauma").faces == [1, 4]


def test_a_correction_that_reopens_a_step_says_so_on_the_card(after, fighters, player, script):
    type_script(after, script, by=player)
    Injury.objects.create(fighter=fighters["ada"], code="hand_wound", name="Hand Wound", d66=14)
    old = dice_of(fighters["ada"], "trauma")

    _correct(after, old, [1, 4], by=player)

    assert casualty(after, fighters["ada"]).reopened_after == old.label
    assert casualty(after, fighters["marcus"]).reopened_after is None


def test_a_roll_set_aside_and_asked_for_again_counts_again_and_is_not_rolled_anew(after, fighters, player):
    from django.utils import timezone

    from combat.services.post_game.rolls import post_game_roll

    made = roll(after, fighters["troop"], by=player).roll
    DiceRoll.objects.filter(pk=made.dice_roll_id).update(
        status=DiceRoll.Status.UNDONE, status_at=timezone.now(), status_reason="no longer needed"
    )

    again = post_game_roll(
        player=after.player, fighter_id=fighters["troop"].pk, purpose="survival", sequence=1, by=player
    )

    assert not again.created
    assert again.roll.dice_roll_id == made.dice_roll_id
    assert DiceRoll.objects.get(pk=made.dice_roll_id).counts
    assert DiceRoll.objects.count() == 1


def test_void_after_apply_applies_again_with_the_replacement(after, fighters, player, organiser, warband):
    made = roll(after, fighters["troop"], by=player).roll.dice_roll
    type_script(after, [(fighters["marcus"], (4, 4)), (fighters["ada"], (4, 4))], by=player)
    post_game_apply(player=after.player, by=player)

    fix = post_game_void_roll(
        player=after.player, roll_id=made.pk, reason="rolled off the table", by=organiser, faces=[1]
    )

    assert fix.applied_again
    assert Fighter.objects.get(pk=fighters["troop"].pk).status == "dead"
    assert last_context(fighters["troop"])["action"] == "post_game.void"


@pytest.mark.parametrize("others", [0, 6])
def test_a_correction_after_apply_takes_the_same_queries_whatever_the_number_of_fighters(
    campaign, warband, rival_warband, make_fighter, player, others, django_assert_max_num_queries
):
    """Measured: 45 queries for 1 fighter and for 7 (the revert, the state worked out twice with the campaign's
    data each time, the apply; each state reads the Exploration step's battles fought, found Locations and
    Location tables in 2; the money steps read the trades planned, Use Glory's spends and the
    warband's Battlekit, one query each)."""
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    elites = [make_fighter(warband, f"Elite {number}", elite=True) for number in range(others)]
    after = game_with([marcus, *elites], campaign=campaign, warband=warband, rival_warband=rival_warband)
    type_script(after, [(marcus, (1, 4)), *[(elite, (4, 4)) for elite in elites]], by=player)
    post_game_apply(player=after.player, by=player)

    with django_assert_max_num_queries(45):
        fix = _correct(after, dice_of(marcus, "trauma"), [1, 1], by=player)

    assert fix.applied_again
