"""The Exploration told in the history (rosters/history/location_events.py): the Location found, the loot on the
Strongbox, a revert striking it off; the as-of roster and what the game changed include the found Locations."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.exploration import post_game_exploration_roll
from combat.services.post_game.revert import post_game_revert
from combat.tests.exploration_helpers import save_tables
from combat.tests.post_game_helpers import record_game
from rosters.history.game_changes import game_changes
from rosters.history.snapshot import roster_as_of, roster_state
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def third(campaign, warband, rival_warband, organiser, player):
    """Game 3 of Iron Sepulchre: 4 dice, Common or Rare; 5+6+4+2 = 17 finds the Drowned Chapel (Rare)."""
    save_tables(campaign, organiser)
    for number in (1, 2):
        record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, number=3)
    post_game_exploration_roll(player=after.player, faces=[5, 6, 4, 2], by=player)
    return after


def test_a_found_location_and_its_loot_are_told(campaign, third, player):
    post_game_apply(player=third.player, by=player)

    found = sentences(campaign, kind="games")
    assert any(
        sentence.startswith("Iron Sepulchre found the Drowned Chapel (Rare, score 17) in Game 3")
        for sentence in found
    ), found
    assert (
        "Iron Sepulchre: Strongbox 50 → 220 ducats (loot from the Exploration) — post-game of Game 3 by Pat"
        in sentences(campaign, kind="strongbox")
    )


def test_a_revert_strikes_the_location_off_in_the_history(campaign, third, player):
    post_game_apply(player=third.player, by=player)
    post_game_revert(player=third.player, by=player)

    assert any(
        sentence.startswith("The Drowned Chapel is no longer on Iron Sepulchre's record")
        for sentence in sentences(campaign, kind="games")
    )


def test_the_location_is_told_on_the_warband_s_timeline_and_not_a_fighter_s(
    campaign, third, player, warband, make_fighter
):
    fighter = make_fighter(warband, "Yeoman Kell")
    post_game_apply(player=third.player, by=player)

    assert any("Drowned Chapel" in s for s in sentences(campaign, warband_id=warband.pk))
    assert not any("Drowned Chapel" in s for s in sentences(campaign, fighter_id=fighter.pk))


def test_the_as_of_roster_and_the_game_s_changes_have_the_found_location(third, player, warband):
    post_game_apply(player=third.player, by=player)

    as_of = roster_as_of(warband=warband, game=third.game)

    assert [location.name for location in as_of.snapshot.locations] == ["Drowned Chapel"]
    assert as_of.snapshot.state() == roster_state(warband)
    changes = game_changes(warband=warband, game=third.game)
    assert changes.locations_found == ["Drowned Chapel"]
    assert changes.strongbox.after - changes.strongbox.before == 170


def test_a_reverted_exploration_leaves_no_location_in_the_game_s_changes(third, player, warband):
    post_game_apply(player=third.player, by=player)
    post_game_revert(player=third.player, by=player)

    changes = game_changes(warband=warband, game=third.game)

    assert changes.locations_found == []
    assert roster_state(warband)["locations"] == []
