"""combat/services/post_game/reinforcements.py on PostgreSQL (CAMPAIGN_PHASE.md "Reinforcements"; RULING C-4):
called only under the Threshold Value, instead of the Exploration; the Arsenal given up, the Strongbox emptied,
purchases up to the budget, no leftover ducats kept; reverted exactly."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.dismiss import post_game_dismiss
from combat.services.post_game.exploration import post_game_exploration_roll
from combat.services.post_game.reinforcements import post_game_reinforcements
from combat.services.post_game.revert import post_game_revert
from combat.tests.exploration_helpers import save_tables
from combat.tests.money_helpers import buy, entries, ledger_sum, opening_entry, recruit, sell
from combat.tests.post_game_helpers import arsenal, game_with, roster_snapshot
from combat.tests.promotion_helpers import assign, fresh_player
from rosters.models import Fighter, Item

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    """The warband worth 700 after Game 1: under its Threshold Value of 800 for battle 2 (C-1), a budget of 100."""
    opening_entry(warband)  # 50 ducats
    Fighter.objects.filter(pk=fighters["marcus"].pk).update(cost=600)
    Item.objects.filter(warband=warband, name="Shield").update(cost=100)
    Item.objects.create(warband=warband, name="Spare Rifle", cost=30)  # in the Arsenal
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def call(after, by, *, yes=True):
    return post_game_reinforcements(player=fresh_player(after), by=by, call=yes)


def test_the_budget_is_the_threshold_value_minus_the_value(played):
    step = played.state().reinforcements
    assert step.available
    assert (step.threshold, step.value, step.budget) == (800, 700, 100)


def test_not_under_the_threshold_value_they_cannot_be_called(played, fighters, player):
    Fighter.objects.filter(pk=fighters["troop"].pk).update(cost=100)  # worth 800: not under 800
    step = played.state().reinforcements
    assert "is not under its Threshold Value for battle 2 (800; RULING C-4)" in step.why_not
    with pytest.raises(PostGameError, match="Reinforcements cannot be called"):
        call(played, player)
    assert played.state().current_step != "reinforcements"


def test_a_preset_without_limits_has_no_reinforcements(played, campaign, player):
    campaign.uses_limits = False
    campaign.save(update_fields=["uses_limits"])
    step = played.state().reinforcements
    assert step.why_not == (
        "this campaign's preset leaves the Threshold Value off, so there are no Reinforcements to call"
    )
    with pytest.raises(PostGameError, match="leaves the Threshold Value off"):
        call(played, player)


def test_calling_them_skips_the_exploration(played, player, campaign, organiser):
    save_tables(campaign, organiser)
    assign(played, player, {})  # no Promotion Dice
    post_game_dismiss(player=fresh_player(played), by=player, fighter_ids=[])
    assert played.state().current_step == "reinforcements"
    call(played, player)
    state = played.state()
    assert state.exploration.skipped
    assert state.current_step == "trade"
    with pytest.raises(PostGameError, match="There is no Exploration in this post-game"):
        post_game_exploration_roll(player=fresh_player(played), faces=[3, 4, 2], by=player)


def test_once_the_exploration_dice_are_rolled_they_cannot_be_called(played, player, campaign, organiser):
    save_tables(campaign, organiser)
    post_game_exploration_roll(player=fresh_player(played), faces=[3, 4, 2], by=player)
    assert played.state().reinforcements.called is None
    with pytest.raises(PostGameError, match="instead of Exploring, not after it"):
        call(played, player)


def test_purchases_beyond_the_budget_are_refused(played, player):
    call(played, player)
    recruit(played, player, "Yeoman Pell", 60, reinforcements=True)
    with pytest.raises(PostGameError, match="budget has 40 left"):
        buy(played, player, "Heavy Flamer", 45, reinforcements=True)
    assert played.state().reinforcements.spent == 60


def test_declining_takes_the_purchases_back(played, player):
    call(played, player)
    recruit(played, player, "Yeoman Pell", 60, reinforcements=True)
    call(played, player, yes=False)
    step = played.state().reinforcements
    assert (step.called, step.purchases) == (False, [])


def test_applied_the_strongbox_ends_empty_and_the_ledger_explains_it(played, warband, fighters, player):
    before = roster_snapshot(warband)
    call(played, player)
    recruit(played, player, "Yeoman Pell", 60, reinforcements=True)
    buy(played, player, "Grenades", 25, holder=fighters["troop"], reinforcements=True)

    post_game_apply(player=fresh_player(played), by=player)

    warband.refresh_from_db()
    assert warband.strongbox == 0  # "leftover ducats are not kept"
    assert entries(warband, played.game) == [
        ("reinforcements", -50),  # the Strongbox emptied
        ("reinforcements", 100),  # the budget
        ("recruit", -60),
        ("buy", -25),
        ("reinforcements", -15),  # the leftover, not kept
    ]
    assert ledger_sum(warband) == 0
    assert arsenal(warband) == []  # the Spare Rifle given up
    assert Fighter.objects.filter(warband=warband, name="Yeoman Pell", cost=60).exists()

    post_game_revert(player=fresh_player(played), by=player)
    assert roster_snapshot(warband) == before
    assert ledger_sum(warband) == 50


def test_hire_and_trade_after_reinforcements_start_from_an_empty_strongbox(played, warband, player):
    call(played, player)
    assert played.state().trade.strongbox_before == 0
    with pytest.raises(PostGameError, match="the Strongbox holds 0 ducats"):
        buy(played, player, "Musket", 5)
    sell(played, player, Item.objects.get(warband=warband, name="Shield"))  # 50 (RULING C-3)
    buy(played, player, "Musket", 50)
    post_game_apply(player=fresh_player(played), by=player)
    warband.refresh_from_db()
    assert warband.strongbox == 0
    assert ledger_sum(warband) == 0


def test_an_apply_before_the_exploration_dice_declines_the_exploration(played, player):
    """The Exploration is rolled, skipped for Reinforcements, or declined; applying before
    the dice are rolled declines it, and the summary says so."""
    applied = post_game_apply(player=fresh_player(played), by=player)
    assert applied.summary["exploration"] == (
        "Exploration declined: the Exploration Dice were not rolled, so no Location and no loot."
    )
    assert "reinforcements" not in applied.summary


def test_reinforcements_called_are_told_in_the_summary_instead_of_the_exploration(played, player):
    call(played, player)
    applied = post_game_apply(player=fresh_player(played), by=player)
    assert applied.summary["exploration"].startswith(
        "Exploration skipped: Reinforcements were called instead"
    )
    assert applied.summary["reinforcements"] == (
        "Reinforcements called: budget 100 ducats (Threshold Value 800 - value 700), bought nothing for 0; 100 "
        "ducats not kept; the Strongbox's 50 ducats given up; the Arsenal given up: Spare Rifle."
    )
