"""Tests for combat/selectors/scenario.py: each warband's battle and the lower stage (CAMPAIGN_PHASE.md; RULINGS
C-1, W-1), each warband's own previous scenario, the odds, a past roll read as it was; in a fixed number of
queries whatever the campaign's size."""

import pytest

from campaigns.models import Game
from combat.selectors.scenario import scenario_page
from combat.services.scenario import game_scenario_roll
from combat.tests.scenario_helpers import make_game, save_table
from rosters.models import Warband

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("earlier", [1, 10])
def test_the_page_reads_five_queries_before_the_roll_and_three_after(
    campaign, organiser, player, warband, rival_warband, earlier, django_assert_num_queries
):
    save_table(campaign, organiser)
    for number in range(earlier):
        other = Warband.objects.create(campaign=campaign, owner=organiser, name=f"W{number}", faction="x")
        make_game(campaign, warband, other, scenario=f"S{number}", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)
    with django_assert_num_queries(5):
        page = scenario_page(game=game)
    assert page.battles == {warband.pk: earlier + 1, rival_warband.pk: 1}
    assert [(a.warband, a.scenario) for a in page.avoided] == [("Iron Sepulchre", f"S{earlier - 1}")]
    game_scenario_roll(game=game, by=player, face=2)
    with django_assert_num_queries(3):
        page = scenario_page(game=game)
    assert page.settled
    assert page.explanation == "D6 2: Raid."


def test_each_warband_avoids_only_its_own_previous_game(campaign, organiser, warband, rival_warband):
    save_table(campaign, organiser)
    make_game(campaign, warband, rival_warband, scenario="Hold", status=Game.Status.DONE)
    make_game(campaign, warband, scenario="Raid", status=Game.Status.DONE)
    game = make_game(campaign, warband, rival_warband)
    page = scenario_page(game=game)
    assert sorted((a.warband, a.scenario, a.game_number) for a in page.avoided) == [
        ("Heretic Legion", "Hold", 1),
        ("Iron Sepulchre", "Raid", 2),
    ]
    odds = {line.name: line.words for line in page.odds}
    # the three faces left: Crossing on 1 and 4, Ambush on 5
    assert odds == {"Crossing": "67%", "Raid": "no chance", "Hold": "no chance", "Ambush": "1 in 3"}
    assert [line.faces for line in page.odds if line.name == "Crossing"] == [(1, 4)]
    assert page.can_roll


def test_a_game_past_battle_12_has_no_stage(campaign, organiser, warband, rival_warband):
    save_table(campaign, organiser)
    for _ in range(12):
        make_game(campaign, warband, status=Game.Status.DONE)
    page = scenario_page(game=make_game(campaign, warband, rival_warband))
    assert "played every battle" in page.problem
    assert not page.can_roll
