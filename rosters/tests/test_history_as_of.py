"""The roster as of a game, read from the history, against snapshots of the live roster taken at the time.

A warband goes through three games, each with its post-game applied by the post-game wizard's own services
(`combat.services`), with roster changes between games; afterwards the as-of view of each game must equal what
the roster was right after that post-game, and "what changed" must name what the game did.

These tests are transactional: every event of one transaction carries that transaction's time (PostgreSQL's
NOW()), so each write must be its own transaction for "right after the post-game" to mean what it does in use.
"""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import GamePlayer
from combat.services.post_game.apply import post_game_apply
from combat.services.post_game.revert import post_game_revert
from combat.tests.post_game_helpers import AfterGame, enter
from rosters.history.game_changes import game_changes
from rosters.history.moment import as_of_moment
from rosters.history.snapshot import roster_as_of, roster_snapshot, roster_state
from rosters.models import Fighter, Item
from rosters.services.battlekit import item_create, item_move
from rosters.services.fighters import fighter_adjust_xp, fighter_create, fighter_update
from rosters.services.games import GameEntry, game_record
from rosters.services.injuries import injury_add
from rosters.services.warbands import warband_adjust, warband_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def band(warband, player):
    marcus = fighter_create(
        warband=warband, by=player, name="Brother Marcus", elite=True, fighter_type="Trench Cleric", xp=3
    )
    ada = fighter_create(
        warband=warband,
        by=player,
        name="Sister Ada",
        elite=True,
        fighter_type="War Prophet",
        xp=5,
        battle_scars=2,
    )
    kell = fighter_create(warband=warband, by=player, name="Yeoman Kell", fighter_type="Yeoman")
    item_create(warband=warband, fighter=marcus, name="Trench Club", by=player)
    item_create(warband=warband, fighter=ada, name="Heavy Flamer", keywords=["HEAVY"], by=player)
    item_create(warband=warband, fighter=ada, name="Blessed Icon", removable=False, by=player)
    item_create(warband=warband, fighter=kell, name="Rifle", by=player)
    return {"marcus": marcus, "ada": ada, "kell": kell}


def play(*, campaign, warband, rival_warband, organiser, out, number) -> AfterGame:
    game = game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, number),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=out),
            GameEntry(warband=rival_warband, result="win"),
        ],
    )
    assert game.number == number
    return AfterGame(
        game,
        GamePlayer.objects.get(game=game, warband=warband),
        GamePlayer.objects.get(game=game, warband=rival_warband),
    ).refresh()


@pytest.fixture
def three_games(campaign, warband, rival_warband, organiser, player, band):
    """Three games with post-games, roster changes between them, and the live roster snapshotted after each."""
    marcus, ada, kell = band["marcus"], band["ada"], band["kell"]
    snapshots, games = {}, {}

    # Game 1: Brother Marcus is taken Out of Action and rolls 14, Hand Wound (an Injury and a Battle Scar).
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[marcus],
        number=1,
    )
    enter(after, marcus, 1, 4, by=player)
    post_game_apply(player=after.player, by=player)
    snapshots[1], games[1] = roster_state(warband), after.game

    # Between games: a relic for the Arsenal, a new recruit, the Strongbox spent.
    item_create(warband=warband, fighter=None, name="Holy Relic", by=player)
    fighter_create(warband=warband, by=player, name="Sister Ama", fighter_type="Trench Pilgrim")
    warband_adjust(warband=warband, by=player, strongbox=-20, reason="bought the relic")

    # Game 2: Sister Ada's third Battle Scar makes her Unfit For Duty (her removable Battlekit to the Arsenal);
    # Yeoman Kell rolls a 1 on his Survival Roll and dies with his Rifle.
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[ada, kell],
        number=2,
    )
    enter(after, kell, 1, by=player)
    enter(after, ada, 3, 1, by=player)  # 31 Leg Wound: an Injury and her third Scar
    post_game_apply(player=after.player, by=player)
    snapshots[2], games[2] = roster_state(warband), after.game

    # Between games: XP by hand, the relic given to Marcus.
    fighter_adjust_xp(fighter=marcus, delta=2, by=player, reason="campaign bonus")
    item_move(item=Item.objects.get(name="Holy Relic"), to_fighter=marcus, by=player)

    # Game 3: Marcus rolls 11, Dead: removed with all his Battlekit.
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[marcus],
        number=3,
    )
    enter(after, marcus, 1, 1, by=player)
    post_game_apply(player=after.player, by=player)
    snapshots[3], games[3] = roster_state(warband), after.game

    # And after the last game the roster moves on again.
    fighter_create(warband=warband, by=player, name="Brother Late")
    return games, snapshots


def test_each_game_s_as_of_view_equals_the_roster_right_after_its_post_game(warband, three_games):
    games, snapshots = three_games
    for number in (1, 2, 3):
        as_of = roster_as_of(warband=warband, game=games[number])
        assert as_of.moment.applied, number
        assert as_of.snapshot.state() == snapshots[number], f"Game {number}"
    # The three snapshots really differ, and today's roster differs from all of them.
    assert snapshots[1] != snapshots[2] != snapshots[3]
    assert roster_state(warband) != snapshots[3]


def test_the_roster_after_game_2_reads_as_it_was(warband, three_games):
    games, _ = three_games
    snapshot = roster_as_of(warband=warband, game=games[2]).snapshot
    by_name = {f.name: f for f in snapshot.fighters}
    assert set(by_name) == {"Brother Marcus", "Sister Ada", "Yeoman Kell", "Sister Ama"}
    assert by_name["Sister Ada"].status == "unfit_for_duty"
    assert by_name["Sister Ada"].battle_scars == 3
    assert [i.name for i in by_name["Sister Ada"].injuries_then] == ["Leg Wound"]
    assert [i.name for i in by_name["Sister Ada"].battlekit_then] == ["Blessed Icon"]
    assert by_name["Yeoman Kell"].status == "dead"
    assert by_name["Yeoman Kell"].battlekit_then == []
    assert [i.name for i in by_name["Brother Marcus"].injuries_then] == ["Hand Wound"]
    assert by_name["Brother Marcus"].xp == 5  # +1 in each game; not the 2 given by hand after Game 2
    assert sorted(i.name for i in snapshot.arsenal) == ["Heavy Flamer", "Holy Relic"]
    assert snapshot.warband.strongbox == 30
    assert [f.name for f in snapshot.fallen] == ["Sister Ada", "Yeoman Kell"]


def test_what_changed_in_each_game(warband, three_games):
    games, _ = three_games
    first = game_changes(warband=warband, game=games[1])
    assert [(c.name, c.after) for c in first.injuries_added] == [("Brother Marcus", "Hand Wound")]
    assert [(c.name, c.before, c.after) for c in first.scars] == [("Brother Marcus", 0, 1)]
    # +1 XP for each ELITE fighter that took part and survived; Troops gain none.
    assert sorted((c.name, c.before, c.after) for c in first.xp) == [
        ("Brother Marcus", 3, 4),
        ("Sister Ada", 5, 6),
    ]
    assert first.fighters_lost == []
    assert any(
        "Brother Marcus suffered Hand Wound (D66 14)" in c.sentence for e in first.story for c in e.changes
    )

    second = game_changes(warband=warband, game=games[2])
    assert sorted((c.name, c.after) for c in second.fighters_lost) == [
        ("Sister Ada", "Unfit For Duty"),
        ("Yeoman Kell", "Dead"),
    ]
    assert [(c.name, c.before, c.after) for c in second.scars] == [("Sister Ada", 2, 3)]
    assert [(c.name, c.after) for c in second.injuries_added] == [("Sister Ada", "Leg Wound")]
    moves = {(m.item, m.source, m.destination) for m in second.battlekit}
    assert ("Heavy Flamer", "Sister Ada", "the Arsenal") in moves
    assert ("Rifle", "Yeoman Kell", "") in moves  # lost with him
    assert second.strongbox is None  # spent between the games, not in one

    third = game_changes(warband=warband, game=games[3])
    assert [(c.name, c.after) for c in third.fighters_lost] == [("Brother Marcus", "Dead")]
    assert {(m.item, m.destination) for m in third.battlekit} == {("Trench Club", ""), ("Holy Relic", "")}


def test_the_as_of_page_shows_the_roster_then_and_the_changes(client, player, warband, three_games):
    games, _ = three_games
    client.force_login(player)
    html = client.get(reverse("warband_as_of", args=[warband.pk, games[2].pk])).content.decode()
    assert "Iron Sepulchre after Game 2" in html
    assert "right after its post-game was applied" in html
    assert "What changed in Game 2" in html
    assert "Sister Ada (Unfit For Duty)" in html
    assert "Heavy Flamer: Sister Ada → the Arsenal" in html
    assert "Brother Late" not in html  # joined after Game 3
    assert reverse("warband_as_of", args=[warband.pk, games[1].pk]) in html
    assert reverse("warband_as_of", args=[warband.pk, games[3].pk]) in html


def test_the_as_of_page_runs_the_same_queries_for_small_and_large_rosters(
    client, player, campaign, warband, rival_warband, organiser
):
    fighters = [fighter_create(warband=warband, by=player, name=f"Recruit {n}") for n in range(3)]
    after = play(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, out=[], number=1
    )
    client.force_login(player)
    url = reverse("warband_as_of", args=[warband.pk, after.game.pk])
    with CaptureQueriesContext(connection) as small:
        assert client.get(url).status_code == 200
    for n in range(30):
        fighter = fighter_create(warband=warband, by=player, name=f"Veteran {n}")
        item_create(warband=warband, fighter=fighter, name=f"Blade {n}", by=player)
        injury_add(fighter=fighter, by=player, code="14", name="Hand Wound", game=after.game, d66=14)
    fighters.append(fighter)
    with CaptureQueriesContext(connection) as large:
        assert client.get(url).status_code == 200
    assert len(small) == len(large) <= 20


def test_before_the_post_game_the_view_is_right_after_the_game_was_recorded(
    campaign, warband, rival_warband, organiser, player, band
):
    marcus = band["marcus"]
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[marcus],
        number=1,
    )
    recorded = roster_state(warband)
    fighter_adjust_xp(fighter=marcus, delta=1, by=player, reason="later")
    enter(after, marcus, 1, 4, by=player)  # a roll is made, nothing is applied yet
    as_of = roster_as_of(warband=warband, game=after.game)
    assert not as_of.moment.applied
    assert "not applied yet" in as_of.moment.explanation
    assert as_of.snapshot.state() == recorded


def test_a_reverted_post_game_reads_as_not_applied(campaign, warband, rival_warband, organiser, player, band):
    marcus = band["marcus"]
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[marcus],
        number=1,
    )
    recorded = roster_state(warband)
    enter(after, marcus, 1, 4, by=player)
    post_game_apply(player=after.player, by=player)
    applied = roster_state(warband)
    assert roster_as_of(warband=warband, game=after.game).snapshot.state() == applied
    post_game_revert(player=after.refresh().player, by=player)
    as_of = roster_as_of(warband=warband, game=after.game)
    assert as_of.moment.reverted
    assert not as_of.moment.applied
    assert "undone" in as_of.moment.explanation
    assert as_of.snapshot.state() == recorded
    assert game_changes(warband=warband, game=after.game, moment=as_of.moment).is_empty


def test_a_warband_that_sat_a_game_out(campaign, warband, rival_warband, organiser, player, band, player2):
    third = warband_create(campaign=campaign, owner=player2, name="Third Band", by=player2)
    after = play(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, out=[], number=1
    )
    moment = as_of_moment(warband=third, game=after.game)
    assert not moment.played
    assert "did not play" in moment.explanation
    assert roster_snapshot(warband_id=third.pk, at=moment.at).warband.name == "Third Band"


def test_a_fighter_deleted_outright_is_in_the_earlier_rosters(
    campaign, warband, rival_warband, organiser, player, band
):
    after = play(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, out=[], number=1
    )
    post_game_apply(player=after.player, by=player)
    then = roster_state(warband)
    Fighter.objects.filter(pk=band["kell"].pk).delete()
    snapshot = roster_as_of(warband=warband, game=after.game).snapshot
    assert snapshot.state() == then
    assert "Yeoman Kell" in {f.name for f in snapshot.fighters}


def test_a_fighter_promoted_later_reads_as_a_troop_in_the_earlier_game(
    client, campaign, warband, rival_warband, organiser, player, band
):
    """The as-of roster and the game page tell a fighter's standing then: Yeoman Kell was a Troop in Game 1 and
    was made ELITE after it (RULING P-7's keyword), so Game 1 still calls him a Troop."""
    kell = band["kell"]
    after = play(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        organiser=organiser,
        out=[kell],
        number=1,
    )
    enter(after, kell, 4, by=player)  # a Troop's Survival Roll: he lives
    post_game_apply(player=after.player, by=player)
    fighter_update(fighter=kell, by=player, changes={}, elite=True)
    client.force_login(player)

    as_of = client.get(reverse("warband_as_of", args=[warband.pk, after.game.pk])).content.decode()
    game = client.get(reverse("game_detail", args=[after.game.pk])).content.decode()

    row = re.search(rf'<tr id="as-of-fighter-{kell.pk}">.*?</tr>', as_of, re.S).group(0)
    assert "badge elite" not in row
    assert "Troop" in row
    mark = re.search(r"Yeoman Kell</a>.*?</li>", game, re.S).group(0)
    assert "badge elite" not in mark
    assert "Troop" in mark
