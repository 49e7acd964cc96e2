"""combat/services/post_game/dismiss.py on PostgreSQL: a fighter with 2 or more Battle Scars after the Trauma Step
may be dismissed (CAMPAIGN_PHASE.md), its Battlekit to the Arsenal as RULING T-4 sends it; applied and reverted."""

import pytest

from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.dismiss import post_game_dismiss
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import arsenal, enter, game_with, kit, roster_snapshot
from combat.tests.promotion_helpers import assign, fresh_player, step
from rosters.models import Fighter

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(campaign, warband, rival_warband, fighters):
    return game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)


def dismiss(after, by, *fighters):
    return post_game_dismiss(player=fresh_player(after), by=by, fighter_ids=[f.pk for f in fighters])


def test_only_fighters_with_two_or_more_battle_scars_may_be_dismissed(played, fighters):
    assert [candidate.name for candidate in played.state().dismiss.candidates] == ["Sister Ada"]


def test_a_scar_from_this_trauma_step_counts(campaign, warband, rival_warband, fighters, player):
    Fighter.objects.filter(pk=fighters["marcus"].pk).update(battle_scars=1)
    after = game_with([fighters["marcus"]], campaign=campaign, warband=warband, rival_warband=rival_warband)
    enter(after, fighters["marcus"], 1, 4, by=player)  # Hand Wound: a Battle Scar (RULING T-4)
    candidates = {c.name: c.scars for c in after.state().dismiss.candidates}
    assert candidates == {"Brother Marcus": 2, "Sister Ada": 2}


def test_a_fighter_with_fewer_scars_is_refused_and_nothing_changes(played, fighters, player):
    with pytest.raises(PostGameError, match="Brother Marcus does not have 2 or more Battle Scars"):
        dismiss(played, player, fighters["marcus"])
    assert not played.state().dismiss.passed


def test_dismissing_nobody_passes_the_step(played, player):
    assign(played, player, {})  # no Promotion Dice: the Promotions step is passed
    assert played.state().current_step == "dismiss"
    dismiss(played, player)
    # On to the next step: Reinforcements (worth 0, the warband is under its Threshold Value, RULING
    # C-4), called or declined before the Exploration.
    assert played.state().current_step == "reinforcements"
    assert played.state().dismiss.dismissed == []


def test_a_dismissal_applied_then_reverted_exactly(played, fighters, player, warband):
    before = roster_snapshot(warband)
    ada = fighters["ada"]
    dismiss(played, player, ada)
    change = next(c for c in played.state().changes if c.fighter.pk == ada.pk)
    assert change.sentences[-1:] == [
        "Dismissed with 2 Battle Scars (a fighter with 2 or more may be). Battlekit to the Arsenal: Heavy Flamer, "
        "Shield."
    ]

    post_game_apply(player=played.player, by=player)
    ada.refresh_from_db()
    assert ada.status == Fighter.Status.DISMISSED
    assert arsenal(warband) == ["Heavy Flamer", "Shield"]
    assert kit(ada) == ["Blessed Icon"]  # RULING T-4: what cannot be removed leaves with the model

    post_game_revert(player=played.refresh().player, by=player)
    assert roster_snapshot(warband) == before


def test_a_dismissed_fighter_gets_no_promotion_dice(played, warband, make_fighter, player):
    abel = make_fighter(warband, "Brother Abel", elite=True, can_gain_xp=False, battle_scars=2)
    assert "Brother Abel" in [c.name for c in step(played).candidates]
    dismiss(played, player, abel)
    assert "Brother Abel" not in [c.name for c in step(played).candidates]


def test_a_fighter_holding_promotion_dice_cannot_be_dismissed(played, warband, make_fighter, player):
    abel = make_fighter(warband, "Brother Abel", elite=True, can_gain_xp=False, battle_scars=2)
    assign(played, player, {abel: 1})
    with pytest.raises(PostGameError, match="Brother Abel holds Promotion Dice"):
        dismiss(played, player, abel)
    assert played.state().dismiss.dismissed == []


def test_p_5_a_dismissed_elite_model_does_not_count_toward_the_6(played, warband, make_fighter, player):
    """RULING P-5: "With 6 ELITE models on the roster no Promotion Dice are rolled"; one dismissed after the Trauma
    Step leaves the warband, so 5 remain and the pool is rolled (P-1: 1 die after a loss)."""
    # The `fighters` fixture holds two ELITE models already: 3 knights and a scarred one make 6.
    assert sum(f.counts_as_elite for f in Fighter.objects.filter(warband=warband)) == 2
    for number in range(3):
        make_fighter(warband, f"Knight {number}", elite=True)
    scarred = make_fighter(warband, "Knight Scarred", elite=True, battle_scars=2)
    before = step(played)
    assert (before.elite_count, before.pool) == (6, 0)
    dismiss(played, player, scarred)
    after = step(played)
    assert (after.elite_count, after.pool) == (5, 1)
    assert "RULING P-5" not in after.pool_words
