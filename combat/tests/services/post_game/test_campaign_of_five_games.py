"""A campaign of five games played through the services, every post-battle step of each: the XP
thresholds reached across games give their Skill Advancement Rolls (RULING X-1), each skill learnt once (X-3);
the failed Promotion Dice are tallied across games and the sixth promotes without a roll (P-4, P-7); the
Exploration Dice rise with the battles fought (E-1), a Location is found once per warband (E-4), and every ducat
of loot reaches the Strongbox (E-3)."""

import pytest

from combat.services.campaign_data import campaign_data_copy_demo
from combat.services.post_game.advancement import post_game_advancement_pick
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.dismiss import post_game_dismiss
from combat.services.post_game.exploration import post_game_exploration_roll
from combat.tests.advancement_helpers import card, settle
from combat.tests.post_game_helpers import game_with
from combat.tests.promotion_helpers import assign, deeds, promotion_die
from rosters.models import FoundLocation, Skill, Warband

pytestmark = pytest.mark.django_db

# Per game: Sister Agnes's Glorious Deeds, her XP after it, whether a Skill Advancement Roll is due, the
# Promotion Dice (model, face typed; None for the automatic success), the warband's tally after, the Exploration
# Dice typed, the dice that battles fought give (E-1), the Location found (the demo's made-up tables), the loot.
GAMES = [
    (1, 2, True, [("tom", 1), ("will", 2)], 2, [3, 4, 2], 3, "field_kitchen", 90),
    (0, 3, False, [("tom", 3)], 3, [2, 3, 4], 3, None, 90),  # 9 again: the Field Kitchen is found already
    (0, 4, True, [("will", 4)], 4, [5, 6, 4, 2], 4, "gas_choked_bunker", 170),
    (0, 5, False, [("tom", 5)], 5, [1, 2, 3, 1], 4, "flooded_dugout", 70),
    # RULING X-4: 5 + 1 + 1 for her two Glorious Deeds = 7 reaches 7; the tally is 5, so the first die
    # promotes without a roll (P-4).
    (2, 7, True, [("will", None)], 0, [6, 5, 2, 1], 4, "sunken_reliquary", 140),
]


@pytest.fixture
def band(campaign, warband, organiser, make_fighter):
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    Warband.objects.filter(pk=warband.pk).update(strongbox=50)
    return {
        "agnes": make_fighter(warband, "Sister Agnes", elite=True, fighter_type="War Prophet"),
        "tom": make_fighter(warband, "Brother Tom", fighter_type="Yeoman"),
        "will": make_fighter(warband, "Brother Will", fighter_type="Yeoman"),
    }


def _advance(after, agnes, number: int, *, by) -> str:
    """Her card `number`: Ranged and Stealth & Speed, 9 and 6 typed, the first skill found taken."""
    settle(after, agnes, by=by, first=(4, 5), second=(3, 3), number=number)
    found = card(after, agnes, number)
    taken = found.options[0].code
    assert taken not in found.known  # RULING X-3: never a skill she has
    post_game_advancement_pick(
        player=after.player, fighter_id=agnes.pk, number=number, skill_code=taken, by=by
    )
    return taken


def test_five_games_keep_the_thresholds_the_tally_the_locations_and_the_loot_right(
    campaign, warband, rival_warband, player, band
):
    agnes = band["agnes"]
    learnt, loot_total = [], 0
    for number, (glory, xp, due, dice, tally, faces, count, found, loot) in enumerate(GAMES, start=1):
        after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband, number=number)
        deeds(after, player, {agnes: glory} if glory else {})
        state = after.state()
        line = next(line for line in state.xp if line.fighter.pk == agnes.pk)
        assert line.xp_after == xp

        cards = [c for c in state.advancement.cards if c.fighter.pk == agnes.pk]
        assert len(cards) == (1 if due else 0)
        if due:
            learnt.append(_advance(after, agnes, 1, by=player))

        counts: dict = {}
        for name, _face in dice:
            counts[band[name]] = counts.get(band[name], 0) + 1
        assign(after, player, counts)
        for name, face in dice:
            promotion_die(after, band[name], face, by=player)
        post_game_dismiss(player=after.player, by=player, fighter_ids=[])

        exploration = after.state().exploration
        assert (exploration.battles_fought, exploration.dice) == (number, count)
        post_game_exploration_roll(player=after.player, faces=faces, by=player)
        exploration = after.state().exploration
        assert (exploration.location.code if exploration.location else None) == found
        assert exploration.loot == loot
        loot_total += loot

        # Hire & Trade comes after the Exploration; nothing bought, the Apply does not wait for it.
        assert after.state().current_step == "trade"
        post_game_apply(player=after.player, by=player)

        warband.refresh_from_db()
        agnes.refresh_from_db()
        assert agnes.xp == xp
        assert warband.promotion_tally == tally

    # Three Skill Advancement Rolls (2, 4 and 7 XP), three different skills, each from its own game.
    skills = list(Skill.objects.filter(fighter=agnes).order_by("id"))
    assert [skill.code for skill in skills] == learnt
    assert len(set(learnt)) == 3
    assert [skill.game.number for skill in skills] == [1, 3, 5]
    # Brother Will was promoted by the automatic success of game 5: ELITE, 0 XP (P-7); Tom is still a Troop.
    will, tom = (band[name] for name in ("will", "tom"))
    will.refresh_from_db()
    tom.refresh_from_db()
    assert (will.keywords, will.xp) == (["ELITE"], 0)
    assert tom.keywords == []
    found = FoundLocation.objects.filter(warband=warband).order_by("id")
    assert [(row.code, row.game.number) for row in found] == [
        ("field_kitchen", 1),
        ("gas_choked_bunker", 3),
        ("flooded_dugout", 4),
        ("sunken_reliquary", 5),
    ]
    assert warband.strongbox == 50 + loot_total
