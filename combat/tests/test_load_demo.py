"""`manage.py load_demo`: a demo campaign on an empty database, once, that tells a campaign's story.

Games 1 and 2 with their post-games applied through the wizard's own service functions (dice entered, so every
outcome is known), Game 3 with both post-games waiting, Game 4 in progress on the tracker (a Trench Crusade board:
Injury Rolls with a Minor Hit, a Down, a TOUGH model saved and a Bloodbath, then Out of Action marks, one undone).
"""

import re
from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaigns.models import Campaign, Game, GamePlayer
from combat.models import DiceRoll, PostGame, TrackerAction, TrackerFighter, TrackerGame
from rosters.history.feed import HistoryFilter, history_page, iter_history
from rosters.models import Fighter, Injury, Item, Skill, Warband

pytestmark = pytest.mark.django_db


def load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_it_loads_the_demo_campaign_and_prints_the_accounts():
    output = load()
    assert "organiser  trench-organiser" in output
    assert "player     trench-player" in output
    assert authenticate(username="organiser", password="trench-organiser") is not None
    assert authenticate(username="player", password="trench-player") is not None

    campaign = Campaign.objects.get()
    assert campaign.preset == "trench_crusade"
    pilgrims = Warband.objects.get(name="The Iron Sepulchre")
    heretics = Warband.objects.get(name="The Grey Legion")
    assert pilgrims.owner.username == "player"
    assert heretics.owner.username == "organiser"
    assert pilgrims.fighters.count() == 12
    assert pilgrims.fighters.filter(status=Fighter.Status.ACTIVE).count() == 11
    assert sum(f.is_elite for f in pilgrims.fighters.all()) == 4
    assert Warband.objects.count() == 2

    games = {game.number: game for game in Game.objects.all()}
    assert games[1].status == games[2].status == Game.Status.DONE
    assert games[3].status == Game.Status.RECORDED
    waiting = GamePlayer.objects.filter(game=games[3], post_game=GamePlayer.PostGame.PENDING)
    assert waiting.count() == 2
    assert games[3].players.get(warband=pilgrims).out_of_action.count() == 2
    assert games[4].status == Game.Status.IN_PROGRESS


def test_the_post_games_of_games_1_and_2_were_applied_with_the_dice_entered():
    load()
    pilgrims = Warband.objects.get(name="The Iron Sepulchre")
    heretics = Warband.objects.get(name="The Grey Legion")
    fighters = {f.name: f for f in Fighter.objects.all()}
    # Game 1: a Troop that dies (Survival D6 2, RULING T-2) with all its Battlekit (RULING T-6); an ELITE's Hand
    # Wound (D66 14) and its Battle Scar; a Troop that survives (D6 5).
    assert fighters["Pilgrim Hale"].status == Fighter.Status.DEAD
    assert not Item.objects.filter(name="Trench Shield").exists()
    anselm = fighters["Prophet Anselm the Unbowed"]
    assert [(i.code, i.d66) for i in anselm.injuries.all()] == [("hand_wound", 14)]
    assert anselm.battle_scars == 1
    assert fighters["Trooper Rhee"].status == Fighter.Status.ACTIVE
    # Game 2: Castigator Voss Captured (D66 12) and ransomed for 15 ducats (no Injury, no Scar, RULING T-8);
    # Bitter Lessons (D66 65, D3 2); Chorister Vex's Chest Wound (D66 16).
    assert fighters["Castigator Voss"].status == Fighter.Status.ACTIVE
    assert fighters["Castigator Voss"].battle_scars == 0
    assert [(i.code, i.d66) for i in fighters["Chorister Vex"].injuries.all()] == [("chest_wound", 16)]
    assert Injury.objects.filter(fighter__warband=pilgrims).count() == 1
    # 700 - 615 recruits and Battlekit + 20 spoils - 15 ransom; 700 - 560 + 15 ransom.
    pilgrims.refresh_from_db()
    heretics.refresh_from_db()
    assert (pilgrims.strongbox, heretics.strongbox) == (90, 155)
    # XP earned in the post-game (1 for surviving, 2 from Bitter Lessons), then some spent.
    assert fighters["Communicant Brother Mattias"].xp == 3 + 1 + 1 + 2
    assert anselm.xp == 9 + 1 - 5 + 1
    # Battlekit moved: out of the Arsenal to a fighter; one piece left there.
    assert Item.objects.get(name="Spare Trench Shield").fighter == fighters["Pilgrim Bettina"]
    assert list(
        Item.objects.filter(warband=pilgrims, fighter__isnull=True).values_list("name", flat=True)
    ) == ["Incendiary Grenades"]
    assert PostGame.objects.filter(status=PostGame.Status.APPLIED).count() == 4
    post_game_rolls = DiceRoll.objects.exclude(purpose__in=["attack", "confusion", "advancement", "injury"])
    assert post_game_rolls.count() == 7  # Hale, Anselm, Rhee; Voss, Mattias (D66 and D3), Vex
    # Each Skill Advancement Roll the XP reached, two 2D6 typed in, one skill learnt.
    learnt = Skill.objects.filter(fighter__warband__in=[pilgrims, heretics])
    assert DiceRoll.objects.filter(purpose="advancement").count() == 2 * learnt.count()
    assert learnt.exclude(game=None).count() == learnt.count() > 0
    assert set(post_game_rolls.values_list("source", flat=True)) == {DiceRoll.Source.ENTERED}


def test_game_4_is_on_the_tracker_with_an_action_undone():
    load()
    tracker = TrackerGame.objects.get(game__number=4)
    assert tracker.ended_at is None
    assert tracker.pending is None  # nothing waits: a new user can carry on at once
    actions = list(TrackerAction.objects.filter(tracker=tracker).order_by("version"))
    # A Trench Crusade board: no Endurance, so no Damage table; Injury Rolls and markers, then who was taken Out
    # of Action at the table marked by a tap (one mark put on the wrong fighter and undone).
    assert [a.kind for a in actions] == [
        "injury_roll",
        "injury_roll",
        "injury_roll",
        "blood",
        "blood",
        "injury_roll",
        "out_of_action",
        "out_of_action",
        "out_of_action",
    ]
    assert [a.undone for a in actions] == [False] * 7 + [True, False]
    status = dict(TrackerFighter.objects.filter(tracker=tracker).values_list("fighter__name", "status"))
    assert status["Pilgrim Odo"] == status["Trooper Oszkar"] == "out_of_action"
    assert status["Heretic Priest Malachai"] == "active"
    assert set(status.values()) == {"active", "out_of_action"}


def test_game_4_plays_a_minor_hit_a_down_a_tough_save_and_a_bloodbath_with_the_dice_stored():
    """TC_IN_GAME.md through the board's services and the roll store (RULINGS I-4, I-6, I-8), dice typed in."""
    load()
    tracker = TrackerGame.objects.get(game__number=4)
    rolls = [
        a
        for a in TrackerAction.objects.filter(tracker=tracker).order_by("version")
        if a.kind == "injury_roll"
    ]
    assert [a.summary.split(". ")[0] for a in rolls] == [
        "Trooper Lisk: Injury Roll 2D6 (2, 3) = 5: Minor Hit, 1 Blood Marker",
        "Sister Agnethe: Injury Roll 2D6 (4, 4) = 8: Down, 1 Blood Marker",
        "The Anchorite of Saint Ludwin: Injury Roll 2D6 (6, 5) = 11: Out of Action, saved by Tough: Down, "
        "1 Blood Marker",
        "Sister Agnethe: Bloodbath Roll 4D6 keep 3 highest (5, 3, 2, 1) = 10: Out of Action (3 Blood Markers spent)",
    ]
    assert "(RULING I-4)" in rolls[2].summary
    tracked = {
        row.fighter.name: (row.blood, row.down, row.tough_used, row.status)
        for row in TrackerFighter.objects.filter(tracker=tracker).select_related("fighter")
    }
    assert tracked["Trooper Lisk"] == (1, False, False, "active")
    assert tracked["The Anchorite of Saint Ludwin"] == (1, True, True, "active")
    assert tracked["Sister Agnethe"][-1] == "out_of_action"  # to the Trauma Step when the game ends (I-7)
    stored = DiceRoll.objects.filter(purpose="injury").order_by("pk")
    assert [roll.faces for roll in stored] == [[2, 3], [4, 4], [6, 5], [5, 3, 2, 1]]
    assert [roll.pk for roll in stored] == [pk for action in rolls for pk in action.rolls]
    assert set(stored.values_list("source", flat=True)) == {DiceRoll.Source.ENTERED}


def test_a_new_user_sees_the_rolls_on_the_board_and_the_game_page(client):
    load()
    client.force_login(Fighter.objects.get(name="Trooper Lisk").warband.owner)
    game = Game.objects.get(number=4)
    board = client.get(f"/games/{game.pk}/tracker/").content.decode()
    assert "Tough (used)" in board
    assert "Sister Agnethe: Bloodbath Roll 4D6 keep 3 highest (5, 3, 2, 1) = 10: Out of Action" in board
    page = client.get(f"/games/{game.pk}/").content.decode()
    story = page[page.index('id="tracker-story"') :]
    assert "Trooper Lisk: Injury Roll 2D6 (2, 3) = 5: Minor Hit, 1 Blood Marker" in story
    assert (
        "The Anchorite of Saint Ludwin: Injury Roll 2D6 (6, 5) = 11: Out of Action, saved by Tough" in story
    )


@pytest.mark.django_db(transaction=True)
def test_the_demo_feed_tells_the_campaign_in_order():
    # Transactional, as the command runs: each step commits, so each has its own time in the history.
    load()
    campaign = Campaign.objects.get()
    games = {game.number: game.pk for game in Game.objects.all()}
    entries = list(iter_history(campaign=campaign))

    def applied(number):
        return [
            e.at for e in entries if e.action == "post_game.apply" and e.game and e.game.id == games[number]
        ]

    assert applied(1)
    assert applied(2)
    assert max(applied(1)) < min(applied(2))
    # Recruiting came before the first game; Game 4's board is the newest story.
    recruited = [e.at for e in entries if e.action == "fighter.create"]
    assert max(recruited) < min(e.at for e in entries if e.game and e.game.id == games[1])
    first = history_page(campaign=campaign)
    sentences = [change.sentence for entry in first.entries for change in entry.changes]
    assert first.entries[0].game.id == games[4]
    assert any(re.search(r"D66 \d\d", sentence) for sentence in sentences), sentences
    assert (
        "Chorister Vex suffered Chest Wound (D66 16) — post-game of Game 2, entered by Olga from the table"
        in (sentences)
    )
    assert any(s.startswith("Castigator Voss: D66 12, Captured, ransom paid") for s in sentences)
    # The feed reads as the story, game by game, not table by table: Game 4, then 3, then 2 ...
    order = []
    for group in first.groups:
        if group.game and (not order or order[-1] != group.game.title):
            order.append(group.game.title)
    assert order[:3] == ["Game 4", "Game 3", "Game 2"]
    board = [
        change
        for entry in history_page(
            campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="ingame")
        ).entries
        for change in entry.changes
    ]
    assert board[0].sentence == "Trooper Oszkar was taken Out of Action (Pat, on the tracker in Game 4)"
    assert board[2].undone == "undone by Pat"
    assert board[-1].sentence == "Game 4 began on the tracker (board set up by Pat)"


def test_it_does_nothing_when_there_is_a_campaign_already():
    load()
    counts = (Campaign.objects.count(), Fighter.objects.count(), Game.objects.count())
    assert "not loaded again" in load()
    assert (Campaign.objects.count(), Fighter.objects.count(), Game.objects.count()) == counts


def test_it_keeps_the_password_of_a_user_who_exists(make_user):
    make_user("player")
    output = load()
    assert "password is unchanged" in output
    assert authenticate(username="player", password="trench-player") is None


def test_a_failed_step_leaves_no_half_demo_and_the_next_run_loads_it_whole(monkeypatch):
    from combat.services.tracker import board as services

    def broken(**kwargs):
        raise RuntimeError("the board fell off the table")

    monkeypatch.setattr(services, "tracker_undo", broken)
    with pytest.raises(RuntimeError):
        load()
    assert not Campaign.objects.exists()
    monkeypatch.undo()
    assert "Demo campaign loaded" in load()
    assert Game.objects.count() == 4


def test_the_demo_carries_a_made_up_set_of_campaign_data():
    """Every kind filled with invented names, so every step can be tried; told in the feed."""
    from combat.demo_campaign_data import LOCATION_TABLES
    from combat.models import CampaignDataSet
    from combat.selectors.campaign_data import current_campaign_data

    load()
    campaign = Campaign.objects.get()
    data = current_campaign_data(campaign=campaign)
    assert set(data.skill_charts()) == {"melee_strength", "ranged", "stealth_speed", "wildcard"}
    assert set(data.location_tables()) == {"common", "rare", "legendary"}
    assert data.location_tables()["common"].at(LOCATION_TABLES["common"][0][0]).name == "Flooded Dugout"
    assert data.never_promoted("Anchorite Shrine")
    for warband in Warband.objects.all():
        assert len(data.patron_skills(warband.pk)) == 3
    # ... and a made-up scenario table for each of the four stages
    assert {
        stage: len(data.scenario_table(stage).names) for stage in ("early", "mid", "endgame", "final")
    } == {
        "early": 4,
        "mid": 4,
        "endgame": 3,
        "final": 2,
    }
    assert CampaignDataSet.objects.filter(campaign=campaign).count() == 4 + 3 + 1 + 4 + 2
    told = [change.sentence for entry in iter_history(campaign=campaign) for change in entry.changes]
    assert "Olga saved the Common Locations, v1: 5 rows (copied from the demo set)" in told


def test_the_standings_rank_by_the_victory_points_typed_for_each_game(client):
    """Each recorded game carries both sides' Victory Points, one corrected afterwards with its reason; the
    standings rank by them (RULING W-2), not by name: with a win each, the names alone would put the Grey Legion
    first."""
    from rosters.selectors.campaigns import campaign_page

    load()
    campaign = Campaign.objects.get()
    typed = {
        (player.game.number, player.warband.name): (player.result, player.victory_points)
        for player in GamePlayer.objects.filter(game__number__lte=3).select_related("game", "warband")
    }
    assert typed == {
        (1, "The Iron Sepulchre"): ("win", 9),  # 7 at the table, corrected to 9
        (1, "The Grey Legion"): ("loss", 3),
        (2, "The Iron Sepulchre"): ("loss", 4),
        (2, "The Grey Legion"): ("win", 8),
        (3, "The Iron Sepulchre"): ("draw", 5),
        (3, "The Grey Legion"): ("draw", 5),
    }
    standings = [
        (row.place, row.warband.name, row.warband.victory_points, row.warband.wins, row.value)
        for row in campaign_page(campaign=campaign).leaderboard
    ]
    assert standings == [(1, "The Iron Sepulchre", 18, 1, 585), (2, "The Grey Legion", 16, 1, 560)]
    assert sorted(name for _, name, *_ in standings) == ["The Grey Legion", "The Iron Sepulchre"]
    client.force_login(campaign.created_by)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    leaderboard = page[
        page.index('id="leaderboard"') : page.index("</table>", page.index('id="leaderboard"'))
    ]
    assert leaderboard.index("The Iron Sepulchre") < leaderboard.index("The Grey Legion")
    assert "585 ducats" in leaderboard
    assert "560 ducats" in leaderboard
    told = [change.sentence for entry in iter_history(campaign=campaign) for change in entry.changes]
    assert any("2 Victory Points more for the Iron Sepulchre" in sentence for sentence in told), told


def test_every_demo_fighter_and_piece_of_battlekit_costs_what_the_campaign_price_list_says():
    """Recruited from the campaign's newest price list (the shipped demo rows and the warbands' own, v2), so each
    warband has a value (RULING C-2: the fighters on the roster and the Battlekit they carry)."""
    from combat.management.demo_prices import NOTE
    from rosters.models import PriceList
    from rosters.selectors.price_lists import newest_price_lists

    load()
    campaign = Campaign.objects.get()
    lists = newest_price_lists(campaign=campaign)
    assert {kind: (lists[kind].version, lists[kind].note) for kind in lists} == {
        PriceList.Kind.FIGHTERS: (2, NOTE),
        PriceList.Kind.BATTLEKIT: (2, NOTE),
    }
    costs = {kind: {row["name"]: row["cost"] for row in lists[kind].rows} for kind in lists}
    fighters = list(Fighter.objects.filter(warband__campaign=campaign))
    assert len(fighters) == 19
    assert {f.name: f.cost for f in fighters} == {
        f.name: costs[PriceList.Kind.FIGHTERS][f.fighter_type] for f in fighters
    }
    assert min(f.cost for f in fighters) > 0
    items = list(Item.objects.filter(warband__campaign=campaign))
    listed_as = {"Spare Trench Shield": "Trench Shield"}  # a spare, bought at the Trench Shield's price
    assert {i.pk: i.cost for i in items} == {
        i.pk: costs[PriceList.Kind.BATTLEKIT][listed_as.get(i.name, i.name)] for i in items
    }
    assert min(i.cost for i in items) > 0
    for warband in Warband.objects.filter(campaign=campaign):
        active = warband.fighters.filter(status=Fighter.Status.ACTIVE)
        carried = Item.objects.filter(fighter__in=active)
        value = sum(f.cost for f in active) + sum(i.cost for i in carried)
        assert value > 0
        assert value == {"The Iron Sepulchre": 585, "The Grey Legion": 560}[warband.name]


def test_each_warbands_ledger_opens_with_its_starting_value_pays_every_recruit_and_sums_to_its_strongbox():
    """CAMPAIGN_PHASE.md: "A warband begins the campaign with its starting value in ducats in its Strongbox";
    every recruit and piece of Battlekit is paid from it, an entry each, so the ledger sums to the Strongbox."""
    from rosters.models import LedgerCause

    load()
    # What the story moves after recruiting: Game 1's spoils and the ransom of Game 2, paid and received.
    after = {"The Iron Sepulchre": {"adjustment": 20, "ransom": -15}, "The Grey Legion": {"ransom": 15}}
    # Pieces bought: the Pilgrims' 17 carried and 2 in the Arsenal; the Heretics' 9 and the Tome.
    pieces = {"The Iron Sepulchre": 19, "The Grey Legion": 10}
    spent = {"The Iron Sepulchre": 615, "The Grey Legion": 560}
    for warband in Warband.objects.all():
        entries = list(warband.ledger.order_by("id"))
        start = entries[0]
        glory = {"The Iron Sepulchre": 2, "The Grey Legion": 1}[warband.name]
        assert (start.cause, start.ducats, start.glory) == ("start", warband.starting_value, glory)
        assert warband.starting_value == 700
        assert sum(e.ducats for e in entries) == warband.strongbox == entries[-1].balance
        assert sum(e.glory for e in entries) == warband.glory == entries[-1].glory_balance
        recruits = [-e.ducats for e in entries if e.cause == LedgerCause.RECRUIT]
        bought = [-e.ducats for e in entries if e.cause == LedgerCause.BUY]
        # Every fighter the warband ever recruited (the dead among them), every piece it bought (the lost too).
        assert sorted(recruits) == sorted(warband.fighters.values_list("cost", flat=True))
        assert len(bought) == pieces[warband.name]
        assert sum(recruits) + sum(bought) == spent[warband.name]
        rest = {}
        for entry in entries[1:]:
            if entry.cause not in (LedgerCause.RECRUIT, LedgerCause.BUY) and entry.ducats:
                rest[entry.cause] = rest.get(entry.cause, 0) + entry.ducats
        assert rest == after[warband.name]
        assert warband.strongbox == 700 - spent[warband.name] + sum(rest.values())


def test_game_3s_reinforcements_offer_the_threshold_value_less_each_warbands_value(client):
    """RULING C-4 with C-1: after their third battle the warbands are about to play battle 4 (Threshold Value
    1000); the budget is the Threshold Value minus the value, read where the player reads it."""
    from django.urls import reverse

    from combat.selectors.post_game.state import post_game_state

    load()
    expected = {"The Iron Sepulchre": (585, 415), "The Grey Legion": (560, 440)}
    for player in GamePlayer.objects.filter(game__number=3).select_related("game__campaign", "warband"):
        step = post_game_state(player=player).reinforcements
        assert step.available
        assert (step.threshold, step.value, step.budget) == (1000, *expected[player.warband.name])
        assert step.budget == step.threshold - step.value
        client.force_login(player.warband.owner)
        page = client.get(reverse("post_game_reinforcements", args=[player.game_id, player.warband_id]))
        budget = expected[player.warband.name][1]
        assert f'id="reinforcements-budget">{budget}<' in page.content.decode()
