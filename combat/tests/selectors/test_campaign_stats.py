"""The campaign's statistics against a five-game campaign played on the board (combat/tests/stats_helpers.py),
every figure worked out by hand from the games; and the same number of queries after two games and after five."""

import pytest

from combat.selectors.campaign_stats import campaign_stats
from combat.tests.stats_helpers import FIVE_GAMES, crews, play
from rosters.models import FoundLocation, LedgerCause, Skill
from rosters.services.fighters import fighter_adjust_xp, fighter_remove
from rosters.services.strongbox import strongbox_post

pytestmark = pytest.mark.django_db

# Two warbands, six fighters: the selector's queries whatever the campaign's length (warbands, their games,
# fighters, fielded, on the board, Out of Action rows, the board's actions, XP when hired, skills, ledger,
# Locations, post-game moments, and the history's fighter and Battlekit events for the value).
QUERIES = 14


@pytest.fixture
def fighters(warband, rival_warband, make_fighter):
    return crews(warband, rival_warband, make_fighter)


def campaign_of(campaign, games, *, warband, rival_warband, fighters, organiser):
    """The first `games` of FIVE_GAMES, with what their post-games gave (XP, skills, ducats, Locations) and Rusty
    dead after Game 2."""
    played = []
    for number, game in enumerate(FIVE_GAMES[:games], start=1):
        played.append(
            play(campaign, number, game, iron=warband, heretic=rival_warband, fighters=fighters, by=organiser)
        )
        if number == 2:
            fighter_remove(fighter=fighters["Rusty"], status="dead", by=organiser)
    return played


@pytest.fixture
def five(campaign, warband, rival_warband, fighters, organiser):
    games = campaign_of(
        campaign, 5, warband=warband, rival_warband=rival_warband, fighters=fighters, organiser=organiser
    )
    fighter_adjust_xp(fighter=fighters["Brick"], delta=3, by=organiser)
    fighter_adjust_xp(fighter=fighters["Mags"], delta=2, by=organiser)
    Skill.objects.create(fighter=fighters["Brick"], code="x1", name="Hard", game=games[1])
    Skill.objects.create(fighter=fighters["Mags"], code="x2", name="Fast", game=games[3])
    Skill.objects.create(fighter=fighters["Vera"], code="x3", name="Born with it")  # hired with: not learnt
    strongbox_post(
        warband=warband, by=organiser, cause=LedgerCause.LOOT, reason="loot", ducats=20, game=games[0]
    )
    strongbox_post(warband=warband, by=organiser, cause=LedgerCause.BUY, reason="a rifle", ducats=-15)
    strongbox_post(warband=rival_warband, by=organiser, cause=LedgerCause.LOOT, reason="loot", ducats=10)
    for holder, count in ((warband, 1), (rival_warband, 2)):
        for index in range(count):
            FoundLocation.objects.create(
                warband=holder, code=f"L{index}", name="A ruin", table="common", score=5, game=games[2]
            )
    fighters["Vera"].battle_scars = 1
    fighters["Vera"].save(update_fields=["battle_scars"])
    return games


def figures(row) -> dict:
    return {name: getattr(row.figures, name) for name in vars(row.figures)}


def test_each_warbands_figures_match_the_five_games_played(campaign, five):
    by_name = {row.warband.name: figures(row) for row in campaign_stats(campaign=campaign).warbands}
    assert by_name == {
        # Won 1 and 4; 3+0+2+5+1 VP; Vera (twice), Brick and Rusty taken out; Brick took out Kit twice and
        # Fidus, Vera took out Mags; Rusty died; the loot of 20 earned, the rifle's 15 spent.
        "Iron Sepulchre": {
            "games": 5,
            "wins": 2,
            "victory_points": 11,
            "taken_out": 4,
            "caused": 4,
            "deaths": 1,
            "scars": 1,
            "xp": 3,
            "skills": 1,
            "earned": 20,
            "spent": 15,
            "locations": 1,
        },
        "Heretic Legion": {
            "games": 5,
            "wins": 2,
            "victory_points": 10,
            "taken_out": 4,
            "caused": 3,
            "deaths": 0,
            "scars": 0,
            "xp": 2,
            "skills": 1,
            "earned": 10,
            "spent": 0,
            "locations": 2,
        },
    }


def test_each_fighters_figures_match_the_games_it_played(campaign, five):
    rows = {row.fighter.name: row for row in campaign_stats(campaign=campaign).fighters}
    brick, rusty, vera, kit = (figures(rows[name]) for name in ("Brick", "Rusty", "Vera", "Kit"))
    assert (
        brick["games"],
        brick["wins"],
        brick["taken_out"],
        brick["caused"],
        brick["xp"],
        brick["skills"],
    ) == (
        5,
        2,
        1,
        3,
        3,
        1,
    )
    # Rusty played Games 1 (a win) and 2, then died: not on the later boards.
    assert (rusty["games"], rusty["wins"], rusty["taken_out"], rusty["deaths"]) == (2, 1, 1, 1)
    assert rows["Rusty"].died
    # Vera's mark in Game 5 named no one: she was taken out, nobody caused it.
    assert (vera["taken_out"], vera["caused"], vera["scars"], vera["skills"]) == (2, 1, 1, 0)
    # Game 3's mark first named Vera, was undone and named Brick: only Brick caused it.
    assert (kit["taken_out"], kit["caused"]) == (2, 1)


def test_who_took_whom_out_of_action_in_each_game(campaign, five):
    told = [
        (row.game, row.attacker.fighter.name, row.victim.fighter.name)
        for row in campaign_stats(campaign=campaign).taken_out
    ]
    assert told == [
        (1, "Mags", "Vera"),
        (2, "Kit", "Brick"),
        (2, "Mags", "Rusty"),
        (3, "Brick", "Kit"),
        (4, "Brick", "Fidus"),
        (4, "Vera", "Mags"),
        (5, "Brick", "Kit"),
    ]


def test_the_campaigns_records(campaign, five):
    records = {
        record.title: (record.holder.fighter.name, record.figure)
        for record in campaign_stats(campaign=campaign).records
    }
    assert records == {
        "Most Out of Action caused": ("Brick", 3),
        "Most XP gained": ("Brick", 3),
        # Five fighters played all five games and live; Brick was hired first.
        "Oldest survivor": ("Brick", 5),
    }


def test_the_standings_after_each_game_rank_the_victory_points_so_far(campaign, five):
    series = campaign_stats(campaign=campaign).series
    assert series.games == (1, 2, 3, 4, 5)
    places = {row.warband.name: [(p.place, p.victory_points) for p in row.points] for row in series.warbands}
    # RULING W-2: Victory Points so far, then wins.
    assert places == {
        "Iron Sepulchre": [(1, 3), (2, 3), (2, 5), (1, 10), (1, 11)],
        "Heretic Legion": [(2, 1), (1, 5), (1, 7), (2, 7), (2, 10)],
    }


def test_a_campaign_with_no_game_has_no_records_and_no_series(campaign, warband, fighters):
    stats = campaign_stats(campaign=campaign)
    assert [record.holder for record in stats.records] == [None, None, None]
    assert stats.series.games == ()
    assert not stats.series.has_values
    assert [figures(row)["games"] for row in stats.warbands] == [0, 0]


@pytest.mark.parametrize("games", [2, 5])
def test_it_costs_the_same_queries_after_two_games_as_after_five(
    campaign, warband, rival_warband, fighters, organiser, games, django_assert_num_queries
):
    campaign_of(
        campaign, games, warband=warband, rival_warband=rival_warband, fighters=fighters, organiser=organiser
    )
    with django_assert_num_queries(QUERIES):
        stats = campaign_stats(campaign=campaign)
        stats.standings_chart, stats.value_chart  # noqa: B018 - the charts are drawn from what was read
    assert len(stats.series.games) == games


def test_a_record_of_one_says_its_unit_in_the_singular(campaign, warband, rival_warband, fighters, organiser):
    """After one game the oldest survivor has played "1 game", not "1 games"; after five, "5 games"."""
    campaign_of(
        campaign, 1, warband=warband, rival_warband=rival_warband, fighters=fighters, organiser=organiser
    )
    units = {
        record.title: (record.figure, record.unit) for record in campaign_stats(campaign=campaign).records
    }
    assert units["Oldest survivor"] == (1, "game")


def test_a_record_of_many_says_its_unit_in_the_plural(campaign, five):
    units = {
        record.title: (record.figure, record.unit) for record in campaign_stats(campaign=campaign).records
    }
    assert units["Oldest survivor"] == (5, "games")
