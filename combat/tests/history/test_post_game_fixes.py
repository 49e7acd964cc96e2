"""A correction after Apply in the history: told once, as what it changed in the end, with the die,
who and why; the revert + apply again inside it is not told as a bounce, and the first Apply still reads as it
was."""

import pytest
from django.db import transaction

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.fixes import post_game_correct_roll
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import game_with
from combat.tests.services.post_game.fix_helpers import dice_of, type_script
from rosters.history.feed import history_page
from rosters.history.game_changes import game_changes
from rosters.history.snapshot import roster_as_of, roster_state
from rosters.models import Item
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def applied(campaign, warband, rival_warband, make_fighter, player):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2)
    Item.objects.create(warband=warband, fighter=ada, name="Shield")
    Item.objects.create(warband=warband, fighter=marcus, name="Trench Club")
    after = game_with([marcus, ada], campaign=campaign, warband=warband, rival_warband=rival_warband)
    type_script(after, [(marcus, (1, 4)), (ada, (2, 4))], by=player)
    post_game_apply(player=after.player, by=player)
    after.fighters = {"marcus": marcus, "ada": ada}
    return after


def test_a_correction_after_apply_is_told_once_with_the_die_who_and_why(campaign, applied, player):
    marcus = applied.fighters["marcus"]
    post_game_correct_roll(
        player=applied.player, roll_id=dice_of(marcus, "trauma").pk, faces=[1, 1], reason="typo", by=player
    )

    found = sentences(campaign)

    told = "Trauma D66 corrected 14 → 11: typo"
    assert (
        f"Brother Marcus died ({told}) — post-game of Game 1 corrected, entered by Pat from the table"
        in found
    )
    assert f"Hand Wound was removed from Brother Marcus ({told})" in " ".join(found)
    # Sister Ada's result did not change: the revert + apply again inside the correction says nothing of her.
    assert not [sentence for sentence in found if "Sister Ada" in sentence and "corrected" in sentence]
    assert not [sentence for sentence in found if "back on the active roster" in sentence]
    assert sum("Shield moved" in sentence for sentence in found) == 1
    # The first Apply still tells what it did then.
    assert any(sentence.startswith("Brother Marcus: D66 14, Hand Wound") for sentence in found)


# Each write in its own transaction, as on the site: the history tells an event by its transaction's moment.
@pytest.mark.django_db(transaction=True)
def test_a_revert_then_apply_again_keeps_the_first_applys_result_in_the_history(campaign, applied, player):
    post_game_revert(player=applied.player, by=player)
    post_game_apply(player=applied.player, by=player)

    found = sentences(campaign)

    assert sum(sentence.startswith("Brother Marcus: D66 14, Hand Wound") for sentence in found) == 2
    # The first Apply is told as it was, struck: the Revert took it back; the second one stands.
    told = [
        change
        for entry in history_page(campaign=campaign).entries
        for change in entry.changes
        if change.sentence.startswith("Brother Marcus: D66 14, Hand Wound")
    ]
    assert [change.undone for change in told] == ["", "undone by Pat"]  # newest first


@pytest.mark.django_db(transaction=True)
def test_every_sentence_of_a_reverted_apply_is_struck_and_the_next_applys_stand(campaign, applied, player):
    post_game_revert(player=applied.player, by=player)
    post_game_apply(player=applied.player, by=player)

    entries = history_page(campaign=campaign).entries
    applies = [entry for entry in entries if entry.action == "post_game.apply"]
    first_at = min(entry.at for entry in applies)
    first = [change for entry in applies if entry.at == first_at for change in entry.changes]
    second = [change for entry in applies if entry.at != first_at for change in entry.changes]

    assert first
    assert second
    assert {change.undone for change in first} == {"undone by Pat"}
    assert {change.undone for change in second} == {""}
    # The Revert's own lines are not struck: they are the undo.
    reverts = [change for entry in entries if entry.action == "post_game.revert" for change in entry.changes]
    assert reverts
    assert {change.undone for change in reverts} == {""}


def test_a_correction_does_not_strike_the_first_apply(campaign, applied, player):
    marcus = applied.fighters["marcus"]
    post_game_correct_roll(
        player=applied.player, roll_id=dice_of(marcus, "trauma").pk, faces=[1, 1], reason="typo", by=player
    )

    entries = history_page(campaign=campaign).entries

    assert not [change for entry in entries for change in entry.changes if change.undone]


def test_the_roster_as_of_the_game_shows_the_corrected_result(applied, player, warband):
    marcus = applied.fighters["marcus"]
    post_game_correct_roll(
        player=applied.player, roll_id=dice_of(marcus, "trauma").pk, faces=[1, 1], reason="typo", by=player
    )

    as_of = roster_as_of(warband=warband, game=applied.game)

    assert as_of.moment.applied
    assert as_of.snapshot.state() == roster_state(warband)
    assert "Brother Marcus" not in {
        fighter.name for fighter in as_of.snapshot.fighters if fighter.status == "active"
    }


def _history_outcome(warband, game) -> dict:
    """What the history says the game changed (the as-of roster and the game's net changes, the story aside)."""
    as_of = roster_as_of(warband=warband, game=game)
    changes = game_changes(warband=warband, game=game, moment=as_of.moment)
    told = {name: value for name, value in vars(changes).items() if name != "story"}
    roster = as_of.snapshot.state()
    for fighter in roster["fighters"]:  # an Injury given again has a new id and creation time
        fighter["injuries"] = [
            {k: v for k, v in injury.items() if k not in ("id", "created_at")}
            for injury in fighter["injuries"]
        ]
    return {"roster": roster, "changes": repr(told), "applied": as_of.moment.applied}


def test_the_history_outcome_of_a_correction_equals_a_post_game_typed_right(
    campaign, warband, rival_warband, make_fighter, player
):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, xp=3)
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5, battle_scars=2)
    Item.objects.create(warband=warband, fighter=ada, name="Shield")
    after = game_with([marcus, ada], campaign=campaign, warband=warband, rival_warband=rival_warband)
    expected = {}
    try:
        with transaction.atomic():
            type_script(after, [(marcus, (1, 1)), (ada, (2, 4))], by=player)
            post_game_apply(player=after.player, by=player)
            expected = _history_outcome(warband, after.game)
            raise RuntimeError("roll back")
    except RuntimeError:
        pass
    type_script(after, [(marcus, (1, 4)), (ada, (2, 4))], by=player)
    post_game_apply(player=after.player, by=player)

    post_game_correct_roll(
        player=after.player, roll_id=dice_of(marcus, "trauma").pk, faces=[1, 1], reason="typo", by=player
    )

    assert expected["applied"]
    assert _history_outcome(warband, after.game) == expected
