"""combat/services/post_game/advancement.py: the Skill Advancement Rolls the XP reached, picked, rolled once, a
skill taken, applied as Skill rows and reverted exactly (CAMPAIGN_PHASE.md; RULINGS X-1 to X-3)."""

import pytest

from combat.models import DiceRoll, PostGameAdvancement, PostGameRoll
from combat.services.post_game.advancement import (
    post_game_advancement_charts,
    post_game_advancement_pick,
    post_game_advancement_roll,
)
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.experience import ExperienceAnswer, post_game_record_experience
from combat.services.post_game.revert import post_game_revert
from combat.tests.advancement_helpers import advancement_game, card, settle
from combat.tests.post_game_helpers import _rows, game_with
from rosters.models import Skill

pytestmark = pytest.mark.django_db


@pytest.fixture
def agnes(warband, make_fighter):
    return make_fighter(warband, "Sister Agnes", elite=True, fighter_type="War Prophet", xp=1)


@pytest.fixture
def after(campaign, warband, rival_warband, organiser, player, agnes):
    # +1 for taking part and surviving, +1 Glorious Deed: 1 -> 3 XP, past 2 (RULING X-1).
    return advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={agnes: 1},
    )


def test_reaching_2_xp_gives_one_card_and_stops_the_wizard_there(after, agnes):
    state = after.state()
    [only] = state.advancement.cards
    assert (only.fighter, only.number, only.mark, only.waiting_for) == (agnes, 1, 2, "charts")
    assert state.current_step == "advancement"
    assert (
        "Sister Agnes still needs Skill Advancement Roll 1 (reached 2 XP): two skill charts picked."
        in state.blockers
    )


def test_xp_jumping_two_thresholds_gives_two_cards(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=3)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={ada: 3},
        adjustments={ada: 2},
    )
    # RULING X-4: 3 XP + 1 for taking part + 1 for its Glorious Deeds + the organiser's 2 = 7, past 4 and 7.
    cards = after.state().advancement.cards
    assert [(c.number, c.mark, c.waiting_for) for c in cards] == [(1, 4, "charts"), (2, 7, "earlier")]


def test_a_limited_potential_fighter_stops_at_7_xp_and_its_rolls_with_it(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    # The demo data flags Trench Pilgrims with Limited Potential (RULING X-2).
    pilgrim = make_fighter(warband, "Pilgrim Tom", elite=True, fighter_type="Trench Pilgrim", xp=6)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={pilgrim: 4},
    )
    state = after.state()
    [line] = [line for line in state.xp if line.fighter == pilgrim]
    assert line.xp_after == 7
    assert line.words.endswith("7 XP: Limited Potential, no higher (RULING X-2).")
    assert [c.mark for c in state.advancement.cards] == [7]


def test_ruling_X_4_a_troops_xp_makes_no_skill_advancement_roll_due(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    """CAMPAIGN_PHASE.md: "Troops gain no XP" (RULING X-4); the organiser's adjustment may still give a Troop XP,
    and reaching 2 XP then makes no Skill Advancement Roll due: Advancement is an ELITE model's."""
    troop = make_fighter(warband, "Brother Tim", elite=False, xp=1)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={troop: 1},
        adjustments={troop: 2},
    )
    state = after.state()
    [line] = [line for line in state.xp if line.fighter == troop]
    assert (line.xp_after, line.marks) == (3, ())
    assert [card for card in state.advancement.cards if card.fighter == troop] == []
    assert not any("Brother Tim" in blocker for blocker in state.blockers)


def test_a_roll_is_stored_once_and_given_back_when_asked_again(after, agnes, player):
    common = {"player": after.player, "fighter_id": agnes.pk, "number": 1, "by": player}
    post_game_advancement_charts(first_chart="ranged", second_chart="wildcard", **common)
    first = post_game_advancement_roll(die=1, **common)
    again = post_game_advancement_roll(die=1, faces=[6, 6], **common)

    assert first.created
    assert not again.created
    assert again.roll.pk == first.roll.pk
    dice = DiceRoll.objects.get(fighter=agnes)
    assert dice.source == DiceRoll.Source.SERVER
    assert len(dice.faces) == 2
    assert dice.label.startswith("Sister Agnes: Skill Advancement 2D6 on Ranged, ")
    assert PostGameRoll.objects.get(fighter=agnes).sequence == 1


def test_the_skill_found_is_shown_with_the_stepping_rule_and_taken(after, agnes, player):
    Skill.objects.create(fighter=agnes, code="long_shadow_shot", name="Long Shadow Shot")
    settle(after, agnes, by=player, first=(4, 5), second=(3, 3))

    shown = card(after, agnes)
    assert shown.waiting_for == "pick"
    ranged, stealth = shown.charts
    assert ranged.explanation == (
        "9 is Long Shadow Shot, already known → 7, Rapid Reload (the next lower number holding a skill it lacks) "
        "(RULING X-3)."
    )
    assert stealth.explanation == "6 is Quiet Boots."
    assert [(o.code, o.chart) for o in shown.options] == [
        ("rapid_reload", "Ranged 9"),
        ("quiet_boots", "Stealth & Speed 6"),
    ]

    post_game_advancement_pick(
        player=after.player, fighter_id=agnes.pk, number=1, skill_code="quiet_boots", by=player
    )
    state = after.state()
    # The card settled, the wizard goes on: no Troop to promote, nobody to dismiss, Reinforcements to call or
    # decline (worth 0, the warband is under its Threshold Value, RULING C-4) before the Exploration.
    assert state.current_step == "reinforcements"
    [change] = [c for c in state.changes if c.fighter == agnes]
    assert (
        "Sister Agnes reached 2 XP: Skill Advancement — Stealth & Speed 6, Quiet Boots." in change.sentences
    )


def test_a_skill_it_already_has_or_one_not_found_is_refused_and_nothing_changes(after, agnes, player):
    Skill.objects.create(fighter=agnes, code="long_shadow_shot", name="Long Shadow Shot")
    settle(after, agnes, by=player)
    common = {"player": after.player, "fighter_id": agnes.pk, "number": 1, "by": player}

    with pytest.raises(PostGameError, match="already has that skill"):
        post_game_advancement_pick(skill_code="long_shadow_shot", **common)
    with pytest.raises(PostGameError, match=r"not among the skills found \(Rapid Reload, Quiet Boots\)"):
        post_game_advancement_pick(skill_code="wind_reader", **common)
    assert PostGameAdvancement.objects.get(fighter=agnes).skill_code == ""


def test_bad_charts_and_early_picks_are_refused(after, agnes, player):
    common = {"player": after.player, "fighter_id": agnes.pk, "number": 1, "by": player}
    with pytest.raises(PostGameError, match="two different skill charts"):
        post_game_advancement_charts(first_chart="ranged", second_chart="ranged", **common)
    with pytest.raises(PostGameError, match="'cooking' is not one of the campaign's skill charts"):
        post_game_advancement_charts(first_chart="cooking", second_chart="ranged", **common)
    with pytest.raises(PostGameError, match="Pick Sister Agnes's two skill charts before rolling"):
        post_game_advancement_roll(die=1, faces=[1, 2], **common)
    assert not PostGameAdvancement.objects.exists()

    post_game_advancement_charts(first_chart="ranged", second_chart="melee_strength", **common)
    with pytest.raises(PostGameError, match="Roll Sister Agnes's 2D6 on both charts before picking"):
        post_game_advancement_pick(skill_code="rapid_reload", **common)
    with pytest.raises(PostGameError, match="That roll cannot be right"):
        post_game_advancement_roll(die=1, faces=[0, 7], **common)
    with pytest.raises(PostGameError, match="enter both dice"):
        post_game_advancement_roll(die=1, faces=[3], **common)
    with pytest.raises(PostGameError, match="No Skill Advancement Roll 2 is due"):
        post_game_advancement_charts(first_chart="ranged", second_chart="wildcard", **{**common, "number": 2})
    assert not DiceRoll.objects.exists()


def test_the_charts_stand_once_a_die_is_rolled_on_them(after, agnes, player):
    common = {"player": after.player, "fighter_id": agnes.pk, "number": 1, "by": player}
    post_game_advancement_charts(first_chart="ranged", second_chart="wildcard", **common)
    post_game_advancement_roll(die=2, faces=[2, 2], **common)
    with pytest.raises(PostGameError, match="the charts stand"):
        post_game_advancement_charts(first_chart="ranged", second_chart="stealth_speed", **common)


def test_a_patron_skill_result_offers_the_patrons_skills_it_lacks(after, agnes, player):
    Skill.objects.create(fighter=agnes, code="ashen_blessing", name="Ashen Blessing")
    settle(after, agnes, by=player, charts=("wildcard", "ranged"), first=(1, 1), second=(1, 1))

    shown = card(after, agnes)
    assert shown.charts[0].patron
    assert [(o.code, o.chart) for o in shown.options] == [
        ("candle_of_vigil", "Patron (Wildcard 2)"),
        ("oath_of_the_lantern", "Patron (Wildcard 2)"),
        ("steady_breath", "Ranged 2"),
    ]


def test_a_patron_skill_result_with_no_patron_list_says_so_and_where_to_add_one(
    client, after, agnes, player, organiser, warband
):
    from combat.services.campaign_data import campaign_data_save

    # The warband's Patron has no skill list (an empty version of it); Agnes knows no skill at all.
    campaign_data_save(
        campaign=after.game.campaign, kind=f"patron_skills:{warband.pk}", rows=[], by=organiser
    )
    settle(after, agnes, by=player, charts=("wildcard", "ranged"), first=(1, 1), second=(1, 1))

    wildcard = card(after, agnes).charts[0]
    # CAMPAIGN_PHASE.md: a Patron Skill result picks from the Patron's list; with none, RULING X-3 steps past it,
    # and the sentence says why rather than "already known" of a fighter that knows nothing.
    assert "already known" not in wildcard.explanation
    assert wildcard.explanation.startswith(
        "2 is Patron Skill, but the warband's Patron has no skill list → 6, "
    )
    assert wildcard.no_patron_list
    client.force_login(player)
    page = client.get(f"/games/{after.game.pk}/post-game/{warband.pk}/advancement/").content.decode()
    assert "the warband&#x27;s Patron has no skill list" in page
    assert f"/campaigns/{after.game.campaign.pk}/data/" in page.split("no skill list")[1].split("</p>")[0]


def test_the_second_card_counts_the_first_cards_pick_as_known(
    campaign, warband, rival_warband, organiser, player, make_fighter
):
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=3)
    after = advancement_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        player=player,
        deeds={ada: 3},
        adjustments={ada: 2},  # RULING X-4: 3 + 2 from the game + 2 = 7 XP, two cards
    )
    settle(after, ada, by=player, first=(4, 5), second=(3, 3), skill="long_shadow_shot")
    settle(after, ada, by=player, number=2, first=(5, 4), second=(3, 3))

    second = card(after, ada, 2)
    assert second.known_names == ["Long Shadow Shot"]
    assert second.charts[0].found.code == "rapid_reload"  # 9 is known now: a step down (RULING X-3)
    assert [o.code for o in second.options] == ["rapid_reload", "quiet_boots"]


def test_apply_creates_the_skill_rows_and_revert_gives_the_exact_rows_back(after, agnes, player):
    Skill.objects.create(fighter=agnes, code="grim_humour", name="Grim Humour", chart="by hand")
    before = _rows(Skill.objects.order_by("pk"))
    settle(after, agnes, by=player, skill="long_shadow_shot")

    post_game_apply(player=after.player, by=player)

    learnt = Skill.objects.get(fighter=agnes, code="long_shadow_shot")
    assert (learnt.name, learnt.chart, learnt.game_id) == ("Long Shadow Shot", "Ranged 9", after.game.pk)
    agnes.refresh_from_db()
    assert agnes.xp == 3

    post_game_revert(player=after.refresh().player, by=player)

    assert _rows(Skill.objects.order_by("pk")) == before
    # Applied again from the same stored dice and pick: the same skill, no new roll.
    post_game_apply(player=after.refresh().player, by=player)
    assert Skill.objects.filter(fighter=agnes, code="long_shadow_shot").count() == 1
    assert DiceRoll.objects.filter(fighter=agnes).count() == 2


def test_a_skill_added_by_hand_after_the_pick_stops_the_apply(after, agnes, player):
    settle(after, agnes, by=player, skill="long_shadow_shot")
    Skill.objects.create(fighter=agnes, code="long_shadow_shot", name="Long Shadow Shot")

    state = after.state()
    assert card(after, agnes).problem == "Long Shadow Shot is no longer among the skills found: pick again."
    with pytest.raises(PostGameError, match="Not ready to apply"):
        post_game_apply(player=after.player, by=player)
    assert state.current_step == "advancement"


def test_without_skill_charts_the_rolls_are_told_but_do_not_stop_the_apply(
    campaign, warband, rival_warband, player, make_fighter
):
    lone = make_fighter(warband, "Lone", elite=True, xp=1)
    after = game_with([], campaign=campaign, warband=warband, rival_warband=rival_warband)
    post_game_record_experience(
        player=after.player, by=player, answers={lone.pk: ExperienceAnswer(glorious_deeds=1)}
    )
    state = after.state()
    assert state.advancement.unrolled == [(lone, (2,))]
    assert not state.blockers
    post_game_apply(player=after.player, by=player)
    lone.refresh_from_db()
    assert lone.xp == 3
