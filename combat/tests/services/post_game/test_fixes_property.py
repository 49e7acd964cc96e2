"""The corrections' property: for random typed-dice scripts, apply -> correct one die -> the roster equals a fresh apply
with the corrected script (fighters, Injuries, Battlekit, Strongboxes)."""

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.fixes import post_game_correct_roll
from combat.services.post_game.ransom import post_game_answer_ransom
from combat.tests.post_game_helpers import enter
from combat.tests.services.post_game.fix_helpers import comparable, dice_of
from rosters.models import Injury

pytestmark = pytest.mark.django_db

d6 = st.integers(min_value=1, max_value=6)
d66 = st.tuples(d6, d6)
# What the table says when the engine asks for more than the script: a reroll, the D3, an unpaid ransom.
LATER = {"trauma": (4, 4), "survival": (3,), "bitter_lessons": (2,)}


class _Undo(Exception):  # noqa: N818 - raised only to roll the savepoint back
    pass


def _finish(after, by) -> None:
    """Answer whatever the post-game still asks for, always the same way."""
    for _ in range(10):
        state = after.state()
        waiting = [c for c in state.casualties if c.waiting_for in ("roll", "d3", "ransom")]
        if not waiting:
            return
        for casualty in waiting:
            if casualty.waiting_for == "ransom":
                post_game_answer_ransom(player=after.player, fighter_id=casualty.id, paid=False, by=by)
            else:
                enter(after, casualty.fighter, *LATER[casualty.needed.purpose], by=by)


def _play(after, script, by) -> None:
    for fighter, faces in script:
        enter(after, fighter, *faces, by=by)
    _finish(after, by)


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    troop=d6,
    marcus=d66,
    ada=d66,
    which=st.sampled_from(["troop", "marcus", "ada"]),
    new_d6=d6,
    new_d66=d66,
)
def test_apply_then_correct_equals_a_fresh_apply_of_the_corrected_script(
    after, fighters, player, warband, rival_warband, troop, marcus, ada, which, new_d6, new_d66
):
    if not Injury.objects.filter(fighter=fighters["marcus"]).exists():
        # Hand Wound already: a D66 14 is rerolled (RULING T-5), so chains grow and shrink.
        Injury.objects.create(fighter=fighters["marcus"], code="hand_wound", name="Hand Wound", d66=14)
    faces = {"troop": (troop,), "marcus": marcus, "ada": ada}
    new = new_d6 if which == "troop" else new_d66
    new = (new,) if which == "troop" else new
    script = [(fighters[key], faces[key]) for key in ("troop", "marcus", "ada")]
    right = [(fighters[key], new if key == which else faces[key]) for key in ("troop", "marcus", "ada")]
    expected = actual = None
    try:
        with transaction.atomic():
            _play(after, right, player)
            post_game_apply(player=after.player, by=player)
            expected = comparable(warband, rival_warband)
            raise _Undo
    except _Undo:
        pass
    try:
        with transaction.atomic():
            _play(after, script, player)
            post_game_apply(player=after.player, by=player)
            purpose = "survival" if which == "troop" else "trauma"
            fix = post_game_correct_roll(
                player=after.player,
                roll_id=dice_of(fighters[which], purpose).pk,
                faces=list(new),
                reason="typo",
                by=player,
            )
            if not fix.applied_again:
                _finish(after, player)
                post_game_apply(player=after.player, by=player)
            actual = comparable(warband, rival_warband)
            raise _Undo
    except _Undo:
        pass
    assert expected is not None
    assert expected["fighters"]
    assert actual == expected
