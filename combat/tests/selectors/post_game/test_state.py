"""combat/selectors/post_game/: the wizard's reads on PostgreSQL, put together by `post_game_state`.

The order, the Battlekit's fate and a fighter's own rules come from the engine (`rules.trauma_order`,
`rules.battlekit_fate`, `rules.full_recovery_instead`); the reads take the same number of queries whatever the
number of fighters.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from combat import rules
from combat.selectors.post_game.changes import battlekit_fate
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Item

pytestmark = pytest.mark.django_db


def _out(warband, make_fighter, troops: int, elites: int):
    """Troops and ELITE fighters interleaved, in the order the game recorded them, each with two pieces of kit."""
    fighters = []
    for index in range(max(troops, elites)):
        if index < elites:
            fighters.append(make_fighter(warband, f"Brother {index}", elite=True))
        if index < troops:
            fighters.append(make_fighter(warband, f"Yeoman {index}"))
    for fighter in fighters:
        Item.objects.create(
            warband=warband, fighter=fighter, name=f"{fighter.name}'s Maul", keywords=["HEAVY"]
        )
        Item.objects.create(warband=warband, fighter=fighter, name=f"{fighter.name}'s Relic", removable=False)
    return fighters


def _queries(after) -> int:
    with CaptureQueriesContext(connection) as queries:
        after.state().blockers  # noqa: B018 - the blockers wait for every step's read: the whole state
    return len(queries)


@pytest.mark.parametrize("many", [6, 12])
def test_the_state_takes_as_many_queries_for_many_casualties_as_for_two(
    campaign, warband, rival_warband, make_fighter, many, player
):
    few = record_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        out_of_action=_out(warband, make_fighter, 1, 1),
    )
    enter(few, few.state().casualties[0].fighter, 4, by=player)
    lots = _out(warband, make_fighter, many // 2, many // 2)
    crowd = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=lots, number=2
    )
    enter(crowd, crowd.state().casualties[0].fighter, 4, by=player)
    # Hire & Trade's plan is one read more, and Use Glory's spends one more, whatever the
    # casualties.
    assert _queries(crowd) == _queries(few) <= 12


def test_the_casualties_come_in_the_engines_order_troops_first(
    campaign, warband, rival_warband, make_fighter
):
    # RULING T-1: the page lists (and the service accepts rolls in) the order `trauma_step` rolls in.
    fighters = _out(warband, make_fighter, 2, 3)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=fighters
    )
    listed = [casualty.fighter.name for casualty in after.state().casualties]
    assert listed == ["Yeoman 0", "Yeoman 1", "Brother 0", "Brother 1", "Brother 2"]
    engine = [fighter.name for fighter in rules.trauma_order(fighters, elite=lambda f: f.counts_as_elite)]
    assert listed == engine
    casualties = [rules.Casualty(f.name, elite=f.counts_as_elite) for f in fighters]
    outcomes = rules.trauma_step(casualties, rules.ScriptedDice([4, 4, 6, 3, 6, 3, 6, 3]))
    assert [outcome.id for outcome in outcomes] == listed


def test_a_champion_counts_as_elite_in_the_post_game(campaign, warband, rival_warband, make_fighter):
    # RULING T-1 / roles.py: a Fallout: Factions Champion plays the ELITE part, with or without the keyword.
    champion = make_fighter(warband, "Brick", champion=True)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[champion]
    )
    (casualty,) = after.state().casualties
    assert casualty.elite is True
    assert casualty.needed.is_d66


@pytest.mark.parametrize(
    ("faces", "scars", "arsenal", "lost"),
    [
        ((1, 1), 0, [], ["Maul", "Relic"]),  # Dead: all of it (RULING T-6)
        ((3, 6), 0, [], ["Maul"]),  # Robbed: all but what cannot be lost
        ((3, 4), 0, [], ["Maul"]),  # Muscle Damage: the HEAVY piece
        ((2, 4), 2, ["Maul"], []),  # Unfit For Duty: to the Arsenal, the Relic leaves with it (RULING T-4)
        ((3, 4), 2, [], ["Maul"]),  # Muscle Damage as the last Scar: HEAVY lost first
    ],
)
def test_the_review_sends_battlekit_where_the_engine_says(
    campaign, warband, rival_warband, make_fighter, player, faces, scars, arsenal, lost
):
    hero = make_fighter(warband, "Hero", elite=True, battle_scars=scars)
    maul = Item.objects.create(warband=warband, fighter=hero, name="Maul", keywords=["heavy"])
    relic = Item.objects.create(warband=warband, fighter=hero, name="Relic", removable=False)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[hero])
    enter(after, hero, *faces, by=player)
    (change,) = after.state().changes
    assert ([item.name for item in change.to_arsenal], [item.name for item in change.lost]) == (arsenal, lost)
    (casualty,) = after.state().casualties
    assert battlekit_fate(casualty.outcome, [maul, relic]) == (change.to_arsenal, change.lost)


def test_a_sniper_priest_treats_lost_an_eye_as_full_recovery_on_the_review(
    campaign, warband, rival_warband, make_fighter, player
):
    # TRAUMA_TABLE.md 15, by its type (rules.full_recovery_instead).
    priest = make_fighter(warband, "Father Ezra", elite=True, fighter_type="Sniper Priest")
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[priest]
    )
    enter(after, priest, 1, 5, by=player)
    (casualty,) = after.state().casualties
    assert casualty.outcome.treated_as_full_recovery
    assert casualty.outcome.injuries == frozenset()
    assert casualty.outcome.scars == 0


def _halfway(campaign, warband, rival_warband, make_fighter, player):
    """A post-game with its Troop's roll in and its ELITE fighter's still to make."""
    fighters = _out(warband, make_fighter, 1, 1)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=fighters
    )
    enter(after, fighters[1], 4, by=player)
    return after


def test_a_page_that_shows_the_trauma_step_reads_no_later_step(
    campaign, warband, rival_warband, make_fighter, player
):
    """The casualties and where the wizard stands are read without the later steps' reads (their picks, the
    Use Glory spends): those run, in order, only when something asks for them."""
    state = _halfway(campaign, warband, rival_warband, make_fighter, player).state()
    with CaptureQueriesContext(connection) as early:
        assert [casualty.elite for casualty in state.casualties] == [False, True]
        assert state.current_step == "elites"
    with CaptureQueriesContext(connection) as late:
        assert state.blockers
    assert len(early) == 0
    assert len(late) > 0


def test_what_a_state_says_does_not_depend_on_what_is_read_first(
    campaign, warband, rival_warband, make_fighter, player
):
    after = _halfway(campaign, warband, rival_warband, make_fighter, player)
    whole = after.state()
    blockers = whole.blockers  # every step read, in order
    lazy = after.state()
    keys = list(lazy.parts)
    # A late step first, then the earlier ones, then what only the last step settles.
    parts = {key: lazy.parts[key] for key in reversed(keys)}
    assert parts == {key: whole.parts[key] for key in keys}
    assert (lazy.current_step, lazy.xp, lazy.casualties) == (whole.current_step, whole.xp, whole.casualties)
    assert (lazy.blockers, lazy.changes, lazy.strongboxes) == (blockers, whole.changes, whole.strongboxes)
