"""combat/services/starting_xp.py: a late joiner's starting XP shared among its ELITE fighters (rules
`check_starting_xp`), the Skill Advancement Rolls those XP reach rolled once and stored, the Apply once only, in
one transaction (CAMPAIGN_PHASE.md, late joiners; RULINGS X-1 to X-3)."""

import pytest

from combat.models import DiceRoll, StartingXp, StartingXpFighter, StartingXpRoll
from combat.selectors.starting_xp import starting_xp_page
from combat.services.starting_xp import (
    StartingXpError,
    starting_xp_apply,
    starting_xp_pick,
    starting_xp_roll,
    starting_xp_share,
)
from combat.tests.starting_xp_helpers import late_joiner, settle
from rosters.models import Fighter, Skill

pytestmark = pytest.mark.django_db


@pytest.fixture
def band(campaign, warband, rival_warband, organiser, player2):
    return late_joiner(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, owner=player2
    )


@pytest.fixture
def agnes(band, make_fighter):
    return make_fighter(band, "Sister Agnes", elite=True)


@pytest.fixture
def marcus(band, make_fighter):
    return make_fighter(band, "Brother Marcus", elite=True)


@pytest.fixture
def kell(band, make_fighter):
    return make_fighter(band, "Kell", elite=False)


def test_the_allowance_is_one_per_battle_of_the_warband_that_played_most(band, agnes, kell):
    page = starting_xp_page(warband=band)
    assert page.allowance == 3
    assert [line.fighter for line in page.lines] == [agnes]  # a Troop takes no share
    assert not page.ticked


def test_the_xp_shared_makes_the_skill_advancement_rolls_they_reach_due(band, agnes, marcus, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2, marcus.pk: 1}, by=player2)
    page = starting_xp_page(warband=band)
    assert {line.fighter.name: (line.xp, line.marks) for line in page.lines} == {
        "Sister Agnes": (2, (2,)),  # RULING X-1: 0 -> 2 reaches 2
        "Brother Marcus": (1, ()),
    }
    [card] = page.advancement.cards
    assert (card.fighter, card.number, card.mark, card.waiting_for) == (agnes, 1, 2, "charts")
    assert page.blockers == [
        "Sister Agnes still needs Skill Advancement Roll 1 (reached 2 XP): two skill charts picked."
    ]


@pytest.mark.parametrize(
    ("shares", "message"),
    [
        (lambda a, m, k: {a: 3, m: 1}, "4 starting XP shared, but only 3 may be ticked"),
        (lambda a, m, k: {k: 1}, "is not an active ELITE fighter of Grey Wardens"),
        (lambda a, m, k: {a: -1}, "the starting XP of Sister Agnes must be 0 or more"),
    ],
)
def test_a_bad_split_is_refused_by_name_and_nothing_is_written(
    band, agnes, marcus, kell, player2, shares, message
):
    with pytest.raises(StartingXpError, match=message):
        starting_xp_share(warband=band, shares=shares(agnes.pk, marcus.pk, kell.pk), by=player2)
    assert not StartingXp.objects.exists()
    assert not StartingXpFighter.objects.exists()


def test_a_warband_that_joined_before_any_battle_has_nothing_to_tick(warband, player, make_fighter):
    ada = make_fighter(warband, "Sister Ada", elite=True)
    with pytest.raises(StartingXpError, match="joined before any battle was played"):
        starting_xp_share(warband=warband, shares={ada.pk: 1}, by=player)
    assert not StartingXp.objects.exists()


def test_each_2d6_is_stored_in_the_dice_log_before_it_is_shown_and_never_rolled_twice(band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2)
    again = starting_xp_roll(warband=band, fighter_id=agnes.pk, number=1, die=1, faces=[6, 6], by=player2)
    assert not again.created
    assert list(again.roll.dice_roll.faces) == [4, 5]
    rolls = DiceRoll.objects.filter(warband=band).order_by("id")
    assert [(list(r.faces), r.source, r.purpose) for r in rolls] == [
        ([4, 5], "entered", "advancement"),
        ([3, 3], "entered", "advancement"),
    ]
    assert StartingXpRoll.objects.count() == 2
    [card] = starting_xp_page(warband=band).advancement.cards
    assert [option.name for option in card.options] == ["Long Shadow Shot", "Quiet Boots"]
    assert card.charts[0].total == 9


def test_a_server_roll_and_a_face_out_of_range(band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    from combat.services.starting_xp import starting_xp_charts

    starting_xp_charts(
        warband=band, fighter_id=agnes.pk, number=1, first_chart="ranged", second_chart="wildcard", by=player2
    )
    with pytest.raises(StartingXpError, match="cannot be right"):
        starting_xp_roll(warband=band, fighter_id=agnes.pk, number=1, die=1, faces=[7, 1], by=player2)
    assert not DiceRoll.objects.filter(warband=band).exists()
    made = starting_xp_roll(warband=band, fighter_id=agnes.pk, number=1, die=1, by=player2)
    assert made.created
    assert made.roll.dice_roll.source == "server"
    assert all(1 <= face <= 6 for face in made.roll.dice_roll.faces)


def test_the_shares_stand_once_a_die_is_rolled(band, agnes, marcus, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2)
    with pytest.raises(StartingXpError, match="the shares stand"):
        starting_xp_share(warband=band, shares={marcus.pk: 2}, by=player2)
    assert list(StartingXpFighter.objects.values_list("fighter__name", "xp")) == [("Sister Agnes", 2)]


def test_the_apply_waits_for_every_card_then_writes_xp_and_skills_once(band, agnes, marcus, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2, marcus.pk: 1}, by=player2)
    with pytest.raises(StartingXpError, match="still needs Skill Advancement Roll 1"):
        starting_xp_apply(warband=band, by=player2)
    settle(band, agnes, by=player2, skill="long_shadow_shot")
    starting_xp_apply(warband=band, by=player2)
    assert {f.name: f.xp for f in Fighter.objects.filter(warband=band)} == {
        "Sister Agnes": 2,
        "Brother Marcus": 1,
    }
    assert list(Skill.objects.values_list("fighter__name", "name", "chart")) == [
        ("Sister Agnes", "Long Shadow Shot", "Ranged 9")
    ]
    assert StartingXpFighter.objects.get(fighter=agnes).told == (
        "Sister Agnes started with 2 XP as a late joiner: Skill Advancement — Ranged 9, Long Shadow Shot"
    )
    assert (
        StartingXpFighter.objects.get(fighter=marcus).told
        == "Brother Marcus started with 1 XP as a late joiner"
    )
    # Once only: every later write is refused and changes nothing.
    for write in (
        lambda: starting_xp_apply(warband=band, by=player2),
        lambda: starting_xp_share(warband=band, shares={agnes.pk: 3}, by=player2),
        lambda: starting_xp_pick(
            warband=band, fighter_id=agnes.pk, number=1, skill_code="quiet_boots", by=player2
        ),
    ):
        with pytest.raises(StartingXpError, match="is ticked already: it is ticked once"):
            write()
    assert Fighter.objects.get(pk=agnes.pk).xp == 2
    assert Skill.objects.count() == 1
    assert DiceRoll.objects.filter(warband=band).count() == 2  # the rolls are kept


def test_the_apply_is_one_transaction(band, agnes, player2, monkeypatch):
    """A failure half-way (a skill it already has by hand) leaves neither the XP nor the status written."""
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2, skill="long_shadow_shot")
    Skill.objects.create(fighter=agnes, code="long_shadow_shot_by_hand", name="Long Shadow Shot")
    with pytest.raises(StartingXpError, match="already has Long Shadow Shot"):
        starting_xp_apply(warband=band, by=player2)
    assert Fighter.objects.get(pk=agnes.pk).xp == 0
    assert not StartingXp.objects.get().is_applied
    assert StartingXpFighter.objects.get().told == ""


def test_a_patron_skill_result_offers_the_patrons_skills_it_lacks(band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2, charts=("wildcard", "ranged"), first=(1, 1), second=(4, 5))
    [card] = starting_xp_page(warband=band).advancement.cards
    assert card.charts[0].patron
    names = [option.name for option in card.options]
    assert "Candle of Vigil" in names
    assert "Long Shadow Shot" in names


def test_a_typed_die_is_corrected_by_the_dice_logs_rules_and_a_lost_pick_is_cleared(band, agnes, player2):
    from combat.services.starting_xp import starting_xp_correct_roll

    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2, skill="long_shadow_shot")
    typed = StartingXpRoll.objects.get(sequence=1).dice_roll
    with pytest.raises(StartingXpError, match="Say why"):
        starting_xp_correct_roll(warband=band, roll_id=typed.pk, faces=[3, 4], reason=" ", by=player2)
    new = starting_xp_correct_roll(warband=band, roll_id=typed.pk, faces=[3, 4], reason="typo", by=player2)
    typed.refresh_from_db()
    assert (typed.status, typed.replaced_by, typed.status_reason) == ("corrected", new, "typo")
    assert list(new.faces) == [3, 4]
    assert DiceRoll.objects.filter(warband=band).count() == 3  # the typed roll is kept, struck
    [card] = starting_xp_page(warband=band).advancement.cards
    assert card.charts[0].total == 7  # Ranged 7 is Rapid Reload: Long Shadow Shot is no longer found
    assert (card.picked, card.waiting_for, card.record.skill_code) == (None, "pick", "")


def test_a_server_roll_is_not_corrected(band, agnes, player2):
    from combat.services.starting_xp import starting_xp_charts, starting_xp_correct_roll

    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    common = {"warband": band, "fighter_id": agnes.pk, "number": 1, "by": player2}
    starting_xp_charts(first_chart="ranged", second_chart="wildcard", **common)
    made = starting_xp_roll(die=1, **common)
    with pytest.raises(StartingXpError, match="made by the server's dice"):
        starting_xp_correct_roll(
            warband=band, roll_id=made.roll.dice_roll_id, faces=[1, 1], reason="typo", by=player2
        )
    assert DiceRoll.objects.get(pk=made.roll.dice_roll_id).counts
