"""The feed (rosters/history/feed.py): filters, keyset pages, polling, cursors, groups and the order of one moment."""

import json

import pghistory
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign
from rosters.history.entries import HistoryFilter, group_by_game
from rosters.history.feed import history_page, iter_history
from rosters.history.sources import BadCursor, Cursor
from rosters.models import Fighter, Item, Warband
from rosters.services.battlekit import item_create, item_move
from rosters.services.fighters import fighter_adjust_xp, fighter_create
from rosters.services.injuries import injury_add
from rosters.services.warbands import warband_create
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_filter_by_warband_keeps_other_warbands_out(campaign, warband, rival_warband, player, player2):
    fighter_create(warband=warband, by=player, name="Sister Ama")
    fighter_create(warband=rival_warband, by=player2, name="Heretic Priest")
    found = sentences(campaign, warband_id=warband.pk)
    assert any("Sister Ama" in s for s in found)
    assert not any("Heretic Priest" in s for s in found)


def test_filter_by_fighter_follows_its_battlekit_and_injuries(campaign, warband, marcus, player):
    other = fighter_create(warband=warband, by=player, name="Sister Ama")
    lance = item_create(warband=warband, fighter=marcus, name="Lance", by=player)
    item_move(item=lance, to_fighter=None, by=player)
    injury_add(fighter=marcus, by=player, code="14", name="Hand Wound")
    fighter_adjust_xp(fighter=other, delta=1, by=player)
    found = sentences(campaign, fighter_id=marcus.pk)
    assert "Lance moved from Brother Marcus to the Arsenal — by Pat" in found
    assert "Brother Marcus suffered Hand Wound — by Pat" in found
    assert not any("Sister Ama" in s for s in found)


def test_filter_by_game_reads_the_context(campaign, warband, marcus, game3, player):
    fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        Fighter.objects.filter(pk=marcus.pk).update(xp=10)
    found = sentences(campaign, game_id=game3.pk)
    assert "Brother Marcus gained 4 XP (now 10) — post-game of Game 3 by Pat" in found
    assert not any("(now 6)" in s for s in found)


def test_other_campaigns_stay_out(campaign, warband, organiser, player):
    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = Warband.objects.create(campaign=other, owner=player, name="Foreign Band")
    Fighter.objects.create(warband=foreign, name="Stranger")
    assert not any("Stranger" in s or "Foreign" in s for s in sentences(campaign))
    assert any("Stranger" in s for s in sentences(other))


# -- pages ------------------------------------------------------------------------------------------------------


def test_keyset_pages_cover_everything_once_newest_first(campaign, warband, player):
    for n in range(7):
        Fighter.objects.create(warband=warband, name=f"Recruit {n}")
    full = history_page(campaign=campaign)
    keys = [entry.key for entry in full.entries]
    assert full.older is None
    seen, before = [], None
    while True:
        page = history_page(campaign=campaign, before=before, limit=3)
        assert len(page.entries) <= 3
        seen += [entry.key for entry in page.entries]
        if page.older is None:
            break
        before = page.older
    assert seen == keys
    cursors = [Cursor.decode(key) for key in keys]
    assert cursors == sorted(cursors, reverse=True)


@pytest.mark.django_db(transaction=True)
def test_polling_returns_only_what_is_new(campaign, warband, player):
    # Transactional: every event of one transaction has the same time, as in one service call; polling finds
    # what later transactions wrote.
    Fighter.objects.create(warband=warband, name="Old Hand")
    first = history_page(campaign=campaign)
    assert history_page(campaign=campaign, after=first.newest).entries == []
    Fighter.objects.create(warband=warband, name="New Blood")
    new = history_page(campaign=campaign, after=first.newest)
    assert [c.text for e in new.entries for c in e.changes] == ["New Blood joined Iron Sepulchre"]
    assert new.newest != first.newest
    assert history_page(campaign=campaign, after=new.newest).entries == []


@pytest.mark.django_db(transaction=True)
def test_polling_an_empty_history_finds_the_first_change(campaign):
    empty = Campaign.objects.create(name="Empty", created_by=campaign.created_by)
    Campaign.objects.filter(pk=empty.pk).update(name="Still empty")
    page = history_page(campaign=empty, filters=HistoryFilter(campaign_id=empty.pk, kind="roster"))
    assert page.entries == []
    assert page.newest
    Warband.objects.create(campaign=empty, owner=campaign.created_by, name="First Band")
    later = history_page(
        campaign=empty, filters=HistoryFilter(campaign_id=empty.pk, kind="roster"), after=page.newest
    )
    assert [c.text for e in later.entries for c in e.changes] == ["The warband First Band was founded"]


# Rank 99 is no place in a moment (the last is a campaign's deletion: HOLDER_LEVELS + the table ranks + 2, 26 with
# the tracker's rank 20), nor is 27, the first past it.
@pytest.mark.parametrize(
    "cursor", ["", "abc", "1-99-1", "1-27-1", "1-123-1", "1-1", "1-1-1-1", "99999999999999999999-1-1"]
)
def test_a_mangled_cursor_is_refused(campaign, cursor):
    with pytest.raises(BadCursor):
        history_page(campaign=campaign, before=cursor)


def test_entries_group_by_game(campaign, warband, marcus, game3, player):
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        Fighter.objects.filter(pk=marcus.pk).update(xp=8)
        Item.objects.create(warband=warband, name="Trench Club")
    groups = group_by_game(history_page(campaign=campaign).entries)
    assert any(group.game and group.game.title == "Game 3" for group in groups)
    for group in groups:
        ids = {entry.game.id if entry.game else None for entry in group.entries}
        assert len(ids) == 1


def test_one_moment_reads_in_the_order_it_happened_a_fighter_before_what_it_was_given(
    campaign, warband, player
):
    # A test is one transaction, like an import or a post-game: every event below has the same time, so only the
    # order inside the moment can tell that Sister Ama was added before she was given a Lance or gained XP.
    ama = fighter_create(warband=warband, by=player, name="Sister Ama")
    item_create(warband=warband, fighter=ama, name="Lance", by=player)
    injury_add(fighter=ama, by=player, code="14", name="Hand Wound")
    fighter_adjust_xp(fighter=ama, delta=2, by=player)
    assert sentences(campaign, fighter_id=ama.pk) == [
        "Sister Ama gained 2 XP (now 2) — by Pat",
        "Sister Ama suffered Hand Wound — by Pat",
        "Pat gave Lance to Sister Ama",
        "Pat added Sister Ama to Iron Sepulchre",
    ]
    # Removed outright: her Injury goes with her, her Lance to the Arsenal, and she leaves last.
    with pghistory.context(user=player.pk):
        Fighter.objects.filter(pk=ama.pk).delete()
    removed = sentences(campaign, warband_id=warband.pk)
    assert removed[0] == "Pat removed Sister Ama from Iron Sepulchre"
    # The fixture's warband was founded in the same moment, before anyone joined it.
    assert removed[-2:] == [
        "Pat added Sister Ama to Iron Sepulchre",
        "The warband Iron Sepulchre (Trench Pilgrims) was founded",
    ]


def test_a_warband_is_founded_before_its_fighters_join_in_the_same_moment(campaign, player):
    band = warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")
    fighter_create(warband=band, by=player, name="Warden Ivo")
    assert sentences(campaign, warband_id=band.pk) == [
        "Pat added Warden Ivo to Grey Wardens",
        "Pat founded the warband Grey Wardens",
    ]


def test_keyset_pages_inside_one_moment_cover_every_table_once_in_order(campaign, warband, player):
    for name in ("Ama", "Bo", "Cy"):
        fighter = fighter_create(warband=warband, by=player, name=name)
        item_create(warband=warband, fighter=fighter, name=f"{name}'s Lance", by=player)
        fighter_adjust_xp(fighter=fighter, delta=1, by=player)
    keys = [entry.key for entry in history_page(campaign=campaign).entries]
    for size in (1, 2, 4):
        seen, before = [], None
        while True:
            page = history_page(campaign=campaign, before=before, limit=size)
            seen += [entry.key for entry in page.entries]
            if page.older is None:
                break
            before = page.older
        assert seen == keys
    cursors = [Cursor.decode(key) for key in keys]
    assert cursors == sorted(cursors, reverse=True)


def test_iter_history_reads_every_page(campaign, warband):
    for n in range(12):
        Fighter.objects.create(warband=warband, name=f"Recruit {n}")
    names = [c.text for e in iter_history(campaign=campaign, chunk=5) for c in e.changes]
    assert sum("Recruit" in n for n in names) == 12


# -- the query's plan -----------------------------------------------------------------------------------------


def _subplans(node: dict) -> list[str]:
    # A CTE or an InitPlan runs once; a SubPlan runs again for every row that asks for it.
    own = [node["Subplan Name"]] if node.get("Subplan Name", "").startswith("SubPlan") else []
    return own + [name for child in node.get("Plans", ()) for name in _subplans(child)]


@pytest.mark.parametrize("kind", [None, "xp"])
def test_the_feed_reads_each_events_row_and_the_row_before_it_without_a_subplan_per_row(
    campaign, warband, marcus, player, kind
):
    """Each event's row and its previous row come from one set-based join per table over the page's ids: a
    correlated subquery per row and table made the feed's plan run two SubPlans per table for every row."""
    for delta in (1, 2):
        fighter_adjust_xp(fighter=marcus, delta=delta, by=player)
    with CaptureQueriesContext(connection) as captured:
        page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind=kind))
    assert "Brother Marcus gained 2 XP (now 8) — by Pat" in [
        c.sentence for e in page.entries for c in e.changes
    ]
    # The page's events, then their rows and the rows before them (only the tables the page holds).
    page_sql, details_sql = (query["sql"] for query in captured.captured_queries[:2])
    assert "to_jsonb(x)" in details_sql
    assert "to_jsonb(x)" not in page_sql
    for sql in (page_sql, details_sql):
        with connection.cursor() as db:
            db.execute("EXPLAIN (FORMAT JSON) " + sql)
            plan = db.fetchone()[0]
        plan = json.loads(plan) if isinstance(plan, str) else plan
        assert _subplans(plan[0]["Plan"]) == []


def test_the_rows_of_a_page_are_read_only_from_the_tables_it_holds(campaign, marcus, player):
    """The second query names only the event tables of the page's events: a branch for every table the filter could
    reach cost PostgreSQL more to plan than the whole query cost to run."""
    fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    with CaptureQueriesContext(connection) as captured:
        page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="xp"))
    assert [e.source for e in page.entries] == ["fighter"] * len(page.entries)
    details_sql = captured.captured_queries[1]["sql"]
    assert details_sql.count("to_jsonb(x)") == 1
    assert "rosters_fighterevent" in details_sql
