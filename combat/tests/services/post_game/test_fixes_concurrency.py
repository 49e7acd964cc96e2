"""Races of the corrections, each call in its own thread and transaction (see test_concurrency.py): two corrections of
the same roll, one wins and the other is told who changed it; a correction racing the Apply, no double-apply and
no lost roll. Then ten at once, corrections (or voids) of one roll against Applies: one fix and one Apply win, every
other call is refused with a reason, every stored roll is kept, and the roster is what one serial order of the same
calls leaves, never half of one."""

import pytest

from combat.models import DiceRoll, PostGame
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.fixes import Fix, post_game_correct_roll, post_game_void_roll
from combat.tests.post_game_helpers import roll
from combat.tests.services.post_game.fix_helpers import (
    comparable,
    dice_of,
    serial_ends,
    type_script,
    typed_right,
)
from combat.tests.services.post_game.test_concurrency import at_once
from rosters.models import Fighter, Injury

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def typed(after, fighters, player):
    script = [(fighters["troop"], (3,)), (fighters["marcus"], (1, 4)), (fighters["ada"], (2, 4))]
    type_script(after, script, by=player)
    return after


def _correct(after, roll_id, faces, by):
    return lambda: post_game_correct_roll(
        player=after.player, roll_id=roll_id, faces=faces, reason=f"typo ({by.username})", by=by
    )


def test_two_corrections_of_the_same_roll_one_wins_the_other_is_told_who(typed, fighters, player, organiser):
    old = dice_of(fighters["marcus"], "trauma")

    results = at_once(_correct(typed, old.pk, [1, 1], player), _correct(typed, old.pk, [6, 6], organiser))

    fixes = [result for result in results if isinstance(result, Fix)]
    refused = [result for result in results if isinstance(result, PostGameError)]
    assert len(fixes) == 1, results
    assert len(refused) == 1, results
    winner = fixes[0].new.rolled_by.username
    assert f"corrected by {winner} at" in str(refused[0])
    old.refresh_from_db()
    assert old.status == DiceRoll.Status.CORRECTED
    assert DiceRoll.objects.filter(replaces__isnull=False).count() == 1
    assert dice_of(fighters["marcus"], "trauma") == fixes[0].new


def test_a_correction_racing_the_apply_applies_once_with_the_right_die(
    typed, fighters, player, organiser, warband, rival_warband
):
    old = dice_of(fighters["marcus"], "trauma")
    results = at_once(
        _correct(typed, old.pk, [1, 1], player), lambda: post_game_apply(player=typed.player, by=organiser)
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    assert PostGame.objects.filter(player=typed.player, status=PostGame.Status.APPLIED).count() == 1
    marcus = Fighter.objects.get(pk=fighters["marcus"].pk)
    assert marcus.status == "dead"  # D66 11, whichever ran first
    assert Injury.objects.filter(fighter=marcus).count() == 0
    assert DiceRoll.objects.count() == 4  # three rolls and the correction: none lost, none twice
    assert Fighter.objects.get(pk=fighters["ada"].pk).battle_scars == 3
    assert comparable(warband, rival_warband)["fighters"][marcus.pk]["status"] == "dead"


def test_typed_right_helper_is_usable_in_real_transactions(after, fighters, player, warband, rival_warband):
    script = [(fighters["troop"], (3,)), (fighters["marcus"], (1, 1)), (fighters["ada"], (2, 4))]
    expected = typed_right(after, script, by=player, warbands=[warband, rival_warband])
    assert expected["fighters"][fighters["marcus"].pk]["status"] == "dead"
    assert not DiceRoll.objects.exists()  # rolled back


def test_a_void_racing_the_apply_applies_once_with_the_replacement(after, fighters, player, organiser):
    made = roll(after, fighters["troop"], by=player).roll.dice_roll
    type_script(after, [(fighters["marcus"], (4, 4)), (fighters["ada"], (4, 4))], by=player)

    results = at_once(
        lambda: post_game_void_roll(
            player=after.player, roll_id=made.pk, reason="off the table", by=organiser, faces=[1]
        ),
        lambda: post_game_apply(player=after.player, by=player),
    )

    assert not [result for result in results if isinstance(result, Exception)], results
    assert PostGame.objects.filter(player=after.player, status=PostGame.Status.APPLIED).count() == 1
    assert Fighter.objects.get(pk=fighters["troop"].pk).status == "dead"
    made.refresh_from_db()
    assert made.status == DiceRoll.Status.VOIDED
    assert DiceRoll.objects.count() == 4


# -- Ten at once ------------------------------------------------------------------------------------------------------

# Each a Trauma result that needs no further roll nor answer, so every serial order ends applied.
MARCUS_FACES = ([1, 1], [4, 4], [2, 4], [3, 3], [5, 5])
TROOP_FACES = ([1], [2], [3], [4], [6])


def _applies(after, people):
    return [lambda by=by: post_game_apply(player=after.player, by=by) for by in people]


def _orders(fixes, applies) -> list[list]:
    """The serial orders a race of `fixes` (of one roll) and `applies` can be told apart by: which fix wins (the
    others then find the roll struck) and whether the Apply ran before it or after (the other Applies then find
    the post-game applied)."""
    orders = []
    for index, fix in enumerate(fixes):
        rest = fixes[:index] + fixes[index + 1 :]
        orders.append([fix, *rest, *applies])
        orders.append([*applies, fix, *rest])
    return orders


def _race(fixes, applies, *, warbands) -> tuple[list, list[dict]]:
    """Every serial end first (rolled back), then all the calls at once, in their own threads."""
    ends = serial_ends(_orders(fixes, applies), warbands=warbands, refusal=PostGameError)
    calls = [call for pair in zip(fixes, applies, strict=True) for call in pair]
    return at_once(*calls), ends


def _one_fix_and_one_apply(results, *, struck: str) -> Fix:
    fixes = [result for result in results if isinstance(result, Fix)]
    applied = [result for result in results if isinstance(result, PostGame)]
    refused = [result for result in results if isinstance(result, PostGameError)]
    assert len(fixes) == 1, results
    assert len(applied) == 1, results
    assert len(refused) == len(results) - 2, results  # no other error: no deadlock, no IntegrityError
    for refusal in refused:
        assert f"That roll no longer counts: {struck} by" in str(refusal) or "already applied" in str(refusal)
    return fixes[0]


def _kept(before: dict[int, list[int]], old: DiceRoll, fix: Fix, status: str) -> None:
    """Every roll stored before the race is still there with its faces; the struck one points at the one roll
    made in its place, which the post-game counts."""
    after = {row.pk: row.faces for row in DiceRoll.objects.filter(pk__in=before)}
    assert after == before
    assert DiceRoll.objects.count() == len(before) + 1
    old.refresh_from_db()
    assert (old.status, old.replaced_by) == (status, fix.new)


def test_ten_at_once_corrections_of_one_roll_racing_applies_end_as_one_serial_order(
    typed, fighters, player, organiser, warband, rival_warband
):
    old = dice_of(fighters["marcus"], "trauma")
    stored = {row.pk: row.faces for row in DiceRoll.objects.all()}
    people = [player, organiser] * 3
    fixes = [_correct(typed, old.pk, faces, by) for faces, by in zip(MARCUS_FACES, people, strict=False)]

    results, ends = _race(fixes, _applies(typed, people[1:6]), warbands=[warband, rival_warband])

    fix = _one_fix_and_one_apply(results, struck="corrected")
    assert PostGame.objects.filter(player=typed.player, status=PostGame.Status.APPLIED).count() == 1
    _kept(stored, old, fix, DiceRoll.Status.CORRECTED)
    assert dice_of(fighters["marcus"], "trauma") == fix.new
    # The roster is what one serial order leaves: the winning correction before the Apply or after it.
    now = comparable(warband, rival_warband)
    assert now in ends
    winner = MARCUS_FACES.index(fix.new.faces)
    assert now in (ends[2 * winner], ends[2 * winner + 1])


def test_ten_at_once_voids_of_one_roll_racing_applies_end_as_one_serial_order(
    after, fighters, player, organiser, warband, rival_warband
):
    made = roll(after, fighters["troop"], by=player).roll.dice_roll
    type_script(after, [(fighters["marcus"], (4, 4)), (fighters["ada"], (4, 4))], by=player)
    stored = {row.pk: row.faces for row in DiceRoll.objects.all()}
    voids = [
        lambda faces=faces: post_game_void_roll(
            player=after.player,
            roll_id=made.pk,
            reason=f"off the table ({faces[0]})",
            by=organiser,
            faces=faces,
        )
        for faces in TROOP_FACES
    ]

    results, ends = _race(
        voids, _applies(after, [player, organiser] * 2 + [player]), warbands=[warband, rival_warband]
    )

    fix = _one_fix_and_one_apply(results, struck="voided")
    assert PostGame.objects.filter(player=after.player, status=PostGame.Status.APPLIED).count() == 1
    _kept(stored, made, fix, DiceRoll.Status.VOIDED)
    assert dice_of(fighters["troop"], "survival") == fix.new
    now = comparable(warband, rival_warband)
    winner = TROOP_FACES.index(fix.new.faces)
    assert now in (ends[2 * winner], ends[2 * winner + 1])
