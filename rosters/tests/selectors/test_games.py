"""A game page's reads: who was taken Out of Action."""

import pytest

from rosters.selectors import games as game_selectors

pytestmark = pytest.mark.django_db


def test_a_game_page_lists_who_was_out_of_action(campaign, played):
    game = campaign.games.get(number=1)
    page = game_selectors.game_page(game=game)
    assert [[m.fighter.name for m in p.out_of_action.all()] for p in page.players] == [["Brother Anselm"], []]
    assert game_selectors.out_of_action_ids(game=game) == {played.warband_id: {played.pk}}


def _game_with_fallen(campaign, warband, rival_warband, player, make_fighter, fallen: int):
    import datetime

    from campaigns.services import reports as report_services
    from rosters.services import games as game_services
    from rosters.services.games import GameEntry

    out = [make_fighter(warband, f"Pilgrim {n}") for n in range(fallen)]
    game = game_services.game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 4, 1),
        entries=[GameEntry(warband, "loss", out), GameEntry(rival_warband, "win")],
    )
    report_services.report_write(game=game, by=player, title="A hard day", text="We fell.")
    return game


def test_the_game_page_holds_its_report_and_no_story_when_not_tracked(
    campaign, warband, rival_warband, player, make_fighter
):
    game = _game_with_fallen(campaign, warband, rival_warband, player, make_fighter, 2)
    page = game_selectors.game_page(game=game)
    assert page.report.title == "A hard day"
    assert page.report.author == player
    assert page.story == []
    assert page.story_more is False


@pytest.mark.parametrize("fallen", [1, 12])
def test_the_game_page_costs_the_same_queries_for_1_or_12_fighters_out_of_action(
    campaign, warband, rival_warband, player, make_fighter, django_assert_num_queries, fallen
):
    game = _game_with_fallen(campaign, warband, rival_warband, player, make_fighter, fallen)
    game = type(game).objects.select_related("campaign").get(pk=game.pk)
    # Players with owners, their Out of Action marks with fighters, the report with its author, and the tracker's
    # story from the history (one query: a game not tracked has no events whose names to look up);
    # the fighters fielded and each warband's active roster to field them from (two more, whatever the sizes).
    with django_assert_num_queries(6):
        page = game_selectors.game_page(game=game)
        assert sum(len(p.out_of_action.all()) for p in page.players) == fallen
