"""combat/services/post_game/glory.py on PostgreSQL: Use Glory (CAMPAIGN_PHASE.md step 7, "Glory Points are spent
on Glory Items, mercenaries and other benefits") planned, refused in plain words when the Glory cannot pay,
applied in the Apply's one transaction with one ledger entry each, reverted exactly; and the Papal States' 4
Glory for calling Reinforcements."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.glory import post_game_glory_pass, post_game_glory_remove
from combat.services.post_game.reinforcements import post_game_reinforcements
from combat.services.post_game.revert import post_game_revert
from combat.tests.money_helpers import (
    glory_entries,
    glory_opening_entry,
    glory_sum,
    ledger_sum,
    spend,
)
from combat.tests.post_game_helpers import arsenal, game_with, kit, roster_snapshot
from combat.tests.promotion_helpers import fresh_player
from rosters.models import Fighter, Item, StrongboxEntry
from rosters.services.strongbox import strongbox_adjust

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    glory_opening_entry(warband, 10)  # 50 ducats, 10 Glory
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def test_a_spend_is_planned_and_read_in_plain_words(played, fighters, player):
    spend(played, player, "item", "Blessed Icon", 4, holder=fighters["marcus"], keywords=["holy"])
    spend(played, player, "mercenary", "Hired Sword", 3, fighter_type="Mercenary Yeoman")
    spend(played, player, "benefit", "Pilgrimage", 2, benefit="a pilgrimage to the shrine")
    step = played.state().glory
    assert [line.words for line in step.lines] == [
        "Glory Item Blessed Icon for 4 Glory (Brother Marcus)",
        "Hired the mercenary Hired Sword, Mercenary Yeoman for 3 Glory",
        "Pilgrimage for 2 Glory: a pilgrimage to the shrine",
    ]
    assert (step.glory_before, step.spent, step.glory_after) == (10, 9, 1)
    assert step.lines[0].spend.keywords == ["HOLY"]


def test_a_spend_the_glory_cannot_pay_is_refused_and_nothing_is_stored(played, player):
    spend(played, player, "item", "Blessed Icon", 8)
    with pytest.raises(PostGameError, match=r"Relic costs 3 Glory: .* already spends 8, so 2 is left"):
        spend(played, player, "item", "Relic", 3)
    assert [line.spend.name for line in played.state().glory.lines] == ["Blessed Icon"]


@pytest.mark.parametrize(
    ("kind", "fields", "words"),
    [
        ("item", {"glory": 0}, "greater than or equal to 1"),
        ("item", {"glory": 5_000}, "less than or equal to 1000"),
        ("benefit", {"glory": 1}, "Say what the benefit is"),
        ("item", {"glory": 1, "name": "  "}, "cannot be blank"),
    ],
)
def test_bad_input_is_refused_in_plain_words(played, player, kind, fields, words):
    fields = {"name": "Relic", **fields}
    with pytest.raises(PostGameError, match=words):
        spend(played, player, kind, fields.pop("name"), fields.pop("glory"), **fields)
    assert played.state().glory.lines == ()


def test_passing_with_nothing_spent_goes_on_to_the_review(played, player):
    assert not played.state().glory.passed
    post_game_glory_pass(player=fresh_player(played), by=player)
    state = played.state()
    assert state.glory.passed
    assert state.glory.lines == ()


def test_spends_applied_with_a_ledger_entry_each_then_reverted_exactly(played, warband, fighters, player):
    before = roster_snapshot(warband)
    entries_before = list(StrongboxEntry.objects.filter(warband=warband).values())
    marcus = fighters["marcus"]
    spend(played, player, "item", "Saint's Finger", 4, holder=marcus, removable=False)
    spend(played, player, "item", "Relic", 1)
    assert glory_sum(warband) == 10  # planning moves nothing
    spend(played, player, "mercenary", "Hired Sword", 3)
    spend(played, player, "benefit", "Pilgrimage", 2, benefit="a pilgrimage")

    post_game_apply(player=fresh_player(played), by=player)

    warband.refresh_from_db()
    assert warband.glory == 0 == glory_sum(warband)
    assert warband.strongbox == 50 == ledger_sum(warband)  # Glory pays, not ducats
    assert glory_entries(warband, played.game) == [("glory", -4), ("glory", -1), ("glory", -3), ("glory", -2)]
    assert "Saint's Finger" in kit(marcus)
    icon = Item.objects.get(name="Saint's Finger")
    assert (icon.removable, icon.cost, icon.notes) == (False, 0, "Glory Item: 4 Glory")
    assert arsenal(warband) == ["Relic"]
    sword = Fighter.objects.get(warband=warband, name="Hired Sword")
    assert (sword.cost, sword.keywords, sword.status) == (0, ["MERCENARY"], Fighter.Status.ACTIVE)
    summary = fresh_player(played).post_games.get().summary
    assert summary["glory_spends"][3] == "Pilgrimage for 2 Glory: a pilgrimage"

    post_game_revert(player=fresh_player(played), by=player)
    assert roster_snapshot(warband) == before
    assert glory_sum(warband) == 10
    # None deleted: the Apply's four and the Revert's four, of the opposite sign, after the earlier ones.
    after = list(StrongboxEntry.objects.filter(warband=warband).order_by("id").values())
    assert after[: len(entries_before)] == sorted(entries_before, key=lambda row: row["id"])
    assert [row["glory"] for row in after[len(entries_before) :]] == [-4, -1, -3, -2, 2, 3, 1, 4]
    assert played.state().glory.glory_after == 0  # the plan is kept: the same attempt, open again


def test_a_spend_taken_back_frees_its_glory(played, player):
    spend(played, player, "item", "Blessed Icon", 8)
    line = played.state().glory.lines[0]
    post_game_glory_remove(player=fresh_player(played), by=player, spend_id=line.id)
    assert played.state().glory.glory_after == 10
    with pytest.raises(PostGameError, match="not planned in this post-game"):
        post_game_glory_remove(player=fresh_player(played), by=player, spend_id=line.id)


def test_the_apply_is_refused_when_the_glory_was_spent_elsewhere_since(played, warband, player):
    spend(played, player, "benefit", "Pilgrimage", 8, benefit="a pilgrimage")
    strongbox_adjust(warband=warband, by=player, reason="spent on a side quest", glory=-5)
    state = played.state()
    assert any("more than the 5 the warband has" in blocker for blocker in state.blockers)
    with pytest.raises(PostGameError, match="Not ready to apply"):
        post_game_apply(player=fresh_player(played), by=player)
    warband.refresh_from_db()
    assert warband.glory == 5 == glory_sum(warband)


def test_a_papal_states_warband_gains_4_glory_for_reinforcements(
    campaign, warband, rival_warband, fighters, player
):
    """CAMPAIGN_PHASE.md: "A Papal States warband gains 4 Glory each time it does this." Worth 700 after Game 1:
    under its Threshold Value of 800."""
    warband.faction = "The Papal States"
    warband.save(update_fields=["faction"])
    glory_opening_entry(warband, 1)
    Fighter.objects.filter(pk=fighters["marcus"].pk).update(cost=700)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    before = roster_snapshot(warband)
    post_game_reinforcements(player=fresh_player(after), by=player, call=True)
    assert after.state().glory.glory_before == 5  # the 4 may be spent in the same post-game's Use Glory
    spend(after, player, "item", "Papal Seal", 5)
    post_game_apply(player=fresh_player(after), by=player)
    warband.refresh_from_db()
    assert warband.glory == 0 == glory_sum(warband)
    assert glory_entries(warband, after.game) == [("reinforcements", 4), ("glory", -5)]
    assert warband.strongbox == 0 == ledger_sum(warband)
    assert "4 Glory gained (Papal States)" in fresh_player(after).post_games.get().summary["reinforcements"]
    post_game_revert(player=fresh_player(after), by=player)
    assert roster_snapshot(warband) == before
    assert glory_sum(warband) == 1


def test_another_faction_gains_no_glory_for_reinforcements(
    campaign, warband, rival_warband, fighters, player
):
    Fighter.objects.filter(pk=fighters["marcus"].pk).update(cost=700)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_reinforcements(player=fresh_player(after), by=player, call=True)
    assert after.state().reinforcements.glory == 0
    post_game_apply(player=fresh_player(after), by=player)
    assert glory_entries(warband, after.game) == []


def test_use_glory_comes_after_hire_and_trade_and_is_done_once_passed(played, player):
    from combat.selectors.post_game import glory as glory_step
    from combat.selectors.post_game.steps import POST_GAME_STEPS
    from combat.services.post_game.trade import post_game_trade_pass

    # CAMPAIGN_PHASE.md: 6. Hire and trade, 7. Use Glory; then the Review.
    assert [step.key for step in POST_GAME_STEPS][-3:] == ["trade", "glory", "review"]
    assert [step.key for step in POST_GAME_STEPS if step.read][-2:] == ["trade", "glory"]
    post_game_trade_pass(player=fresh_player(played), by=player)
    assert not glory_step.done(played.state())  # where the wizard picks up once the earlier steps are done
    post_game_glory_pass(player=fresh_player(played), by=player)
    assert glory_step.done(played.state())
