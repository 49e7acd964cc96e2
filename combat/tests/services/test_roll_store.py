"""The roll store (combat/services/roll_store.py): faces refused store nothing and raise the caller's error, a roll
is stored with its purpose, source and who rolled it, a stored roll is replaced but never thrown away, and a flow
with a key for its roll gets the stored roll back instead of a new one."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat import rules
from combat.models import DiceRoll
from combat.services import roll_store
from combat.services.post_game.rolls import post_game_roll
from combat.tests.post_game_helpers import record_game

pytestmark = pytest.mark.django_db


class Refused(Exception):
    """The caller's own error, as each flow passes one."""


def refused(refusal: rules.FacesRefused) -> Refused:
    return Refused(f"in the caller's words: {refusal}")


def _roll(campaign, by, faces, *, count=1, sides=6, **extra):
    return roll_store.roll_dice(
        faces=faces,
        sides=sides,
        count=count,
        refused=refused,
        campaign_id=campaign.pk,
        purpose="survival",
        by=by,
        label=lambda rolled: f"Survival Roll D6 {rolled}",
        **extra,
    )


@pytest.mark.parametrize(
    ("faces", "count", "words"),
    [
        ([0], 1, "a D6 shows 1 to 6, got 0"),
        ([7], 1, "a D6 shows 1 to 6, got 7"),
        ([3, 4], 1, "2 faces entered for 1 D6"),
        ([3], 2, "1 faces entered for 2 D6"),
        (["3"], 1, "a die face must be a whole number, got '3'"),
    ],
)
def test_faces_refused_store_nothing_and_raise_the_callers_error(campaign, player, faces, count, words):
    with pytest.raises(Refused, match=f"in the caller's words: {words}") as raised:
        _roll(campaign, player, faces, count=count)
    assert isinstance(raised.value.__cause__, rules.FacesRefused)
    assert not DiceRoll.objects.exists()


def test_a_server_roll_is_stored_with_its_purpose_and_who_rolled_it(campaign, warband, player, make_fighter):
    fighter = make_fighter(warband, "Sister Agnes")
    stored = _roll(campaign, player, None, count=2, warband_id=warband.pk, fighter_id=fighter.pk)
    stored.refresh_from_db()
    assert (stored.source, stored.sides, stored.purpose, stored.rolled_by) == (
        "server",
        6,
        "survival",
        player,
    )
    assert (stored.campaign, stored.warband, stored.fighter) == (campaign, warband, fighter)
    assert len(stored.faces) == 2
    assert all(1 <= face <= 6 for face in stored.faces)
    assert stored.label == f"Survival Roll D6 {stored.faces}"
    assert stored.counts


def test_faces_typed_in_are_stored_as_entered(campaign, player):
    stored = _roll(campaign, player, [6, 1], count=2)
    assert (stored.source, stored.faces) == ("entered", [6, 1])


def test_a_long_label_is_cut_to_the_dice_logs_length(campaign, player):
    stored = roll_store.roll_dice(
        faces=[3],
        sides=6,
        count=1,
        refused=refused,
        campaign_id=campaign.pk,
        purpose="survival",
        by=player,
        label=lambda rolled: "x" * 300,
    )
    assert stored.label == "x" * 200


def test_store_dice_keeps_what_the_engine_read_from_its_dice(campaign, player):
    dice = roll_store.dice_for(faces=[2, 7, 5, 1], sides=10, count=4, refused=refused)
    rules.roll_test(dice, dice_count=4, stat=6)
    stored = roll_store.store_dice(dice=dice, campaign_id=campaign.pk, purpose="attack", by=player, label="")
    assert (stored.source, stored.sides, stored.faces) == ("entered", 10, [2, 7, 5, 1])


def test_store_dice_refuses_a_log_of_two_kinds_of_dice(campaign, player):
    dice = rules.RandomDice()
    dice.roll(6), dice.roll(3)
    with pytest.raises(ValueError, match="one kind"):
        roll_store.store_dice(dice=dice, campaign_id=campaign.pk, purpose="survival", by=player, label="")
    assert not DiceRoll.objects.exists()


def test_store_faces_never_stores_a_face_the_die_cannot_show(campaign, player):
    with pytest.raises(rules.FacesRefused, match="a D6 shows 1 to 6, got 7"):
        roll_store.store_faces(
            faces=[7],
            sides=6,
            source="server",
            campaign_id=campaign.pk,
            purpose="scenario",
            by=player,
            label="",
        )
    assert not DiceRoll.objects.exists()


def test_a_corrected_roll_stays_in_the_log_and_points_at_the_roll_that_counts(campaign, player, player2):
    old = _roll(campaign, player, [2])
    new = roll_store.replace_roll(
        old=old,
        faces=[5],
        refused=refused,
        status=DiceRoll.Status.CORRECTED,
        reason="the die showed 5",
        by=player2,
        label=lambda rolled: f"corrected to {rolled}",
    )
    old.refresh_from_db()
    assert (old.status, old.status_by, old.status_reason, old.replaced_by) == (
        "corrected",
        player2,
        "the die showed 5",
        new,
    )
    assert (new.faces, new.source, new.purpose, new.rolled_by, new.label) == (
        [5],
        "entered",
        "survival",
        player2,
        "corrected to [5]",
    )
    assert DiceRoll.objects.count() == 2


def test_a_correction_refused_stores_nothing_and_leaves_the_old_roll_counting(campaign, player):
    old = _roll(campaign, player, [2])
    with pytest.raises(Refused):
        roll_store.replace_roll(
            old=old, faces=[9], refused=refused, status="corrected", reason="", by=player, label=str
        )
    old.refresh_from_db()
    assert old.counts
    assert DiceRoll.objects.count() == 1


def test_a_roll_inside_a_flows_transaction_adds_one_query(campaign, player):
    with CaptureQueriesContext(connection) as queries:
        _roll(campaign, player, None)
    # Inside the test's transaction, as inside a flow's, the store adds no savepoint: the INSERT alone.
    assert [query["sql"].split()[0] for query in queries] == ["INSERT"]


def test_a_flow_with_a_key_gets_its_stored_roll_back_instead_of_a_new_one(
    campaign, warband, rival_warband, player, make_fighter
):
    # The post-game's key for a roll: its attempt, fighter, purpose and sequence (a double click, a second tab).
    troop = make_fighter(warband, "Troop")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[troop]
    )
    first = post_game_roll(
        player=after.player, fighter_id=troop.pk, purpose="survival", sequence=1, by=player
    )
    again = post_game_roll(
        player=after.player, fighter_id=troop.pk, purpose="survival", sequence=1, by=player
    )
    assert (first.created, again.created) == (True, False)
    assert again.roll.dice_roll == first.roll.dice_roll
    assert DiceRoll.objects.count() == 1
