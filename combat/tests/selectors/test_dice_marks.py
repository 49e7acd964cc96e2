"""What the dice log says of each roll (combat/selectors/dice_marks.py): plain when it counts; voided, corrected
or undone with who, when, why and the roll that counts instead; the status filters."""

import datetime as dt

import pytest
from django.utils import timezone

from combat.models import DiceRoll
from combat.selectors.dice_log import dice_log_page
from combat.selectors.dice_marks import (
    STATUS_FILTERS,
    filter_status,
    read_replacements,
    roll_mark,
    roll_replaces,
    with_mark_rows,
)
from combat.tests.dice_helpers import in_post_game, make_roll, strike
from combat.tests.post_game_helpers import record_game

pytestmark = pytest.mark.django_db

VOIDED, CORRECTED, UNDONE = DiceRoll.Status.VOIDED, DiceRoll.Status.CORRECTED, DiceRoll.Status.UNDONE


def spot(roll):
    return f"spot-{roll.pk}"


def loaded(roll):
    """The roll as the log's page reads it."""
    found = with_mark_rows(DiceRoll.objects.filter(pk=roll.pk)).get()
    read_replacements([found])
    return found


@pytest.fixture
def olga(organiser):
    organiser.first_name = "Olga"
    organiser.save()
    return organiser


def test_a_roll_that_counts_has_no_mark_and_replaces_nothing(campaign):
    roll = loaded(make_roll(campaign))
    assert roll_mark(roll, spot) is None
    assert roll_replaces(roll, spot) is None


def test_a_voided_roll_says_who_when_why_and_what_counts_instead(campaign, olga):
    roll = make_roll(campaign, faces=[4])
    at = timezone.now()
    new = strike(roll, VOIDED, by=olga, reason="rolled for the wrong fighter", faces=[2], at=at)
    mark = roll_mark(loaded(roll), spot)
    assert mark.status == VOIDED
    assert mark.words == f"voided by Olga at {timezone.localtime(at):%H:%M}"
    assert mark.reason == "rolled for the wrong fighter"
    assert mark.replacement == new
    assert mark.replacement_spot == f"spot-{new.pk}"
    # The replacement says which roll it counts in place of, and how that one was struck.
    replaces = roll_replaces(loaded(new), spot)
    assert (replaces.roll, replaces.how, replaces.spot) == (roll, "voided", f"spot-{roll.pk}")


def test_a_corrected_roll_names_who_corrected_it_by_username_without_a_first_name(campaign, player):
    roll = make_roll(campaign, source="entered", faces=[4])
    new = strike(roll, CORRECTED, by=player, reason="typo", faces=[1])
    mark = roll_mark(loaded(roll), spot)
    assert mark.words.startswith("corrected by pat_player at ")
    assert (mark.reason, mark.replacement.faces) == ("typo", [1])
    assert roll_replaces(loaded(new), spot).how == "corrected"


def test_a_mark_made_on_a_later_day_says_the_day(campaign, olga):
    roll = make_roll(campaign)
    later = roll.created_at + dt.timedelta(days=2)
    strike(roll, VOIDED, by=olga, at=later)
    local = timezone.localtime(later)
    assert roll_mark(loaded(roll), spot).words == f"voided by Olga on {local.day} {local:%b} at {local:%H:%M}"


def test_an_undone_tracker_roll_and_a_reverted_post_game_roll_say_which(
    campaign, player, warband, rival_warband, make_fighter
):
    fighter = make_fighter(warband, "Brother Marcus")
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    tracker = make_roll(campaign, game=after.game, purpose="attack")
    post_game = make_roll(campaign, game=after.game, fighter=fighter, warband=warband)
    in_post_game(post_game, after)
    strike(tracker, UNDONE, by=player, reason="Undo of: Kit takes Damage 2")
    strike(post_game, UNDONE, by=None, reason="Its post-game was reverted")
    tracker_mark = roll_mark(loaded(tracker), spot)
    assert tracker_mark.words.startswith("undone: tracker Undo by pat_player at ")
    assert tracker_mark.reason == "Undo of: Kit takes Damage 2"
    assert tracker_mark.replacement is None
    # Nobody is named when the mark has no one (a legacy revert whose user is gone).
    post_game_mark = roll_mark(loaded(post_game), spot)
    assert post_game_mark.words.startswith("undone: post-game reverted at ")
    assert " by " not in post_game_mark.words


def test_each_status_filter_takes_exactly_its_rolls(campaign, olga):
    counted = make_roll(campaign)
    voided, corrected, undone = make_roll(campaign), make_roll(campaign), make_roll(campaign)
    voiding = strike(voided, VOIDED, by=olga)
    correcting = strike(corrected, CORRECTED, by=olga)
    strike(undone, UNDONE, by=olga)
    counting = {counted.pk, voiding.pk, correcting.pk}
    expected = {
        None: counting | {voided.pk, corrected.pk, undone.pk},
        "counts": counting,
        "struck": {voided.pk, corrected.pk, undone.pk},
        "voided": {voided.pk},
        "corrected": {corrected.pk},
        "undone": {undone.pk},
    }
    assert set(expected) - {None} == set(STATUS_FILTERS)
    for status, pks in expected.items():
        assert set(filter_status(DiceRoll.objects.all(), status).values_list("pk", flat=True)) == pks, status
        page = dice_log_page(campaign=campaign, status=status)
        assert {roll.pk for roll in page.rolls} == pks, status


def test_the_page_reads_marks_in_two_queries_for_one_roll_or_sixty(
    campaign, olga, player, warband, make_fighter, django_assert_num_queries
):
    fighter = make_fighter(warband, "Brother Marcus")
    struck = make_roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
    strike(struck, CORRECTED, by=olga, reason="typo", faces=[1])
    # The rolls with who struck them, then their replacements and the rolls they replace.
    with django_assert_num_queries(2):
        page = dice_log_page(campaign=campaign, limit=1)
        words = [(r.mark, r.replacing, r.roller_name, r.fighter and r.fighter.name) for r in page.rolls]
    assert words[0][1].roll == struck
    for n in range(58):
        roll = make_roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
        if n % 3 == 0:
            strike(roll, [VOIDED, CORRECTED, UNDONE][n % 9 // 3], by=olga, reason=f"reason {n}")
    with django_assert_num_queries(2):
        page = dice_log_page(campaign=campaign, limit=60)
        marks = [(r.mark and r.mark.words, r.replacing and r.replacing.how) for r in page.rolls]
    assert len(page.rolls) == 60
    struck_ids = set(DiceRoll.objects.exclude(status="counted").values_list("pk", flat=True))
    replacing_ids = set(DiceRoll.objects.values_list("replaced_by", flat=True)) - {None}
    assert [bool(mark) for mark, _ in marks] == [r.pk in struck_ids for r in page.rolls]
    assert [bool(how) for _, how in marks] == [r.pk in replacing_ids for r in page.rolls]
    assert any(mark for mark, _ in marks)
    assert any(how for _, how in marks)
