"""The fighter cards' reads (rosters/selectors/cards.py): what each card holds, and a constant query count."""

import pytest

from rosters.models import Fighter
from rosters.selectors import cards as card_selectors
from rosters.services import battlekit as battlekit_services
from rosters.services import injuries as injury_services
from rosters.tests.conftest import use_preset_for

pytestmark = pytest.mark.django_db


def _kit_out(warband, fighter, player, n: int) -> None:
    injury_services.injury_add(
        fighter=fighter, code=f"c{n}", name=f"Wound {n}", effect="-1 Melee.", by=player
    )
    battlekit_services.item_create(warband=warband, fighter=fighter, name=f"Blade {n}", by=player)


def test_a_card_per_active_fighter_elite_first(warband, player, make_fighter):
    use_preset_for(warband.campaign, "strength")  # Fallout: Factions' profile: M, S, ...
    make_fighter(warband, "Pilgrim Odo")
    make_fighter(warband, "Brother Anselm", elite=True, xp=5)
    make_fighter(warband, "Fallen Pilgrim", status="dead")
    sheet = card_selectors.warband_cards(warband=warband)
    assert [c.fighter.name for c in sheet.cards] == ["Brother Anselm", "Pilgrim Odo"]
    anselm = sheet.cards[0]
    assert anselm.elite
    assert [b.xp for b in anselm.xp_boxes if b.ticked] == [1, 2, 3, 4, 5]
    assert anselm.harm_boxes == 3
    assert anselm.injury_boxes == 1
    assert [s.short for s in anselm.profile][:2] == ["M", "S"]
    assert anselm.profile[0].value == "6″"


def test_no_harm_limit_means_no_harm_boxes_and_a_unit_gets_its_health_pool(warband, make_fighter):
    use_preset_for(warband.campaign, "harm_limit")
    make_fighter(warband, "Brother Marcus", elite=True, harm_limit=None, health=2)
    make_fighter(warband, "Pilgrim Band", unit_size=5, health=2)
    marcus, band = card_selectors.warband_cards(warband=warband).cards
    assert marcus.harm_boxes == 0
    assert marcus.profile[-1].value == "—"
    assert band.health_pool
    assert band.injury_boxes == 10


def test_a_trench_crusade_card_prints_its_own_profile(warband, make_fighter):
    make_fighter(
        warband, "Brother Marcus", elite=True, movement=8, ranged=1, melee=-1, armour=-2, base_size=32
    )
    (marcus,) = card_selectors.warband_cards(warband=warband).cards
    assert [(s.label, s.short, s.value) for s in marcus.profile] == [
        ("Movement", "M", "8″"),
        ("Ranged", "R", "+1D"),
        ("Melee", "Me", "-1D"),
        ("Armour", "A", "-2"),
        ("Base", "B", "32mm"),
    ]


def test_the_paper_is_a4_or_letter_and_anything_else_is_a4(warband):
    assert card_selectors.warband_cards(warband=warband, paper="letter").paper == "letter"
    assert card_selectors.warband_cards(warband=warband, paper="tabloid").paper == "a4"
    assert card_selectors.warband_cards(warband=warband, paper=None).paper == "a4"


def test_one_fighters_card(warband, player, make_fighter):
    odo = make_fighter(warband, "Pilgrim Odo")
    _kit_out(warband, odo, player, 1)
    sheet = card_selectors.fighter_cards(fighter=odo)
    assert [c.fighter.pk for c in sheet.cards] == [odo.pk]
    assert [i.name for i in sheet.cards[0].injuries] == ["Wound 1"]
    assert [i.name for i in sheet.cards[0].battlekit] == ["Blade 1"]


@pytest.mark.parametrize("fighters", [1, 12])
def test_the_sheet_costs_the_same_queries_for_1_or_12_fighters(
    warband, player, make_fighter, django_assert_num_queries, fighters
):
    for n in range(fighters):
        fighter = make_fighter(warband, f"Pilgrim {n}", elite=n == 0, xp=n)
        _kit_out(warband, fighter, player, n)
    assert Fighter.objects.filter(warband=warband).count() == fighters
    # The fighters, their Injuries, their Battlekit, their skills: four queries, whatever the roster's size.
    with django_assert_num_queries(4):
        sheet = card_selectors.warband_cards(warband=warband)
        assert sum(len(c.injuries) + len(c.battlekit) for c in sheet.cards) == 2 * fighters


def test_ruling_X_4_the_card_says_how_each_fighter_gains_xp(warband, make_fighter):
    # RULING X-4: only an ELITE model gains XP (+1 for taking part and surviving, +1 for at least one Glorious
    # Deed); a Troop's Glorious Deeds count only in the Promotion Pool (P-1).
    make_fighter(warband, "Brother Marcus", elite=True)
    make_fighter(warband, "Pilgrim Odo")
    marcus, odo = card_selectors.warband_cards(warband=warband).cards
    assert marcus.xp_rule == (
        "+1 for taking part and surviving, +1 for at least one Glorious Deed (RULING X-4)"
    )
    assert (
        odo.xp_rule == "Glorious Deeds feed Promotions (the Promotion Pool, RULING P-1), not XP (RULING X-4)"
    )
