"""How far a write reaches in the page cache (config/page_versions.py, config/page_cache.py), proved with the test
client: after each kind of write, every kept page that shows what changed is rendered again, and the pages that
show nothing of it are still answered from the cache (HIT_QUERIES).

A board action (a Damage, an Undo) replaces the tokens of its campaign, of the warbands in its game and of their
fighters; the end of the game, and every other write, those of every page of its campaign and of its members'
dashboards (config/tests/test_page_cache_reach.py follows one through several members and campaigns).
"""

import pytest
from django.test import Client

from campaigns.models import Campaign, Membership
from combat.services.tracker.board import tracker_undo
from combat.services.tracker.end import tracker_end_game
from combat.tests.tracker_helpers import damage, table  # noqa: F401  (the seed's two crews on a started board)
from config.tests.test_page_cache import (  # noqa: F401
    HIT_QUERIES,
    keep_all,
    kept,
    misses,
    queries_of,
    read,
    shared,
)
from rosters.models import Warband
from rosters.services.fighters import fighter_update

pytestmark = pytest.mark.django_db


@pytest.fixture
def elsewhere(campaign, organiser, player, make_fighter):
    """What a board shows nothing of: a third warband of the campaign, not in the game, with its fighter, and
    another campaign the player belongs to."""
    bystanders = Warband.objects.create(
        campaign=campaign, owner=organiser, name="Bystanders", faction="Raiders"
    )
    nell = make_fighter(bystanders, "Nell")
    other = Campaign.objects.create(name="The Quiet Front", created_by=organiser)
    Membership.objects.create(campaign=other, user=organiser, role=Membership.Role.ORGANISER)
    Membership.objects.create(campaign=other, user=player, role=Membership.Role.PLAYER)
    return {
        "the other warband's roster": f"/warbands/{bystanders.pk}/",
        "the other warband's fighter": f"/fighters/{nell.pk}/",
        "the dashboard": "/",
        "another campaign's page": f"/campaigns/{other.pk}/",
        "another campaign's feed": f"/campaigns/{other.pk}/history/",
    }


def showing_the_board(table, campaign) -> dict[str, str]:  # noqa: F811
    """Every kept page that shows what a board action on `table` changed."""
    return {
        "the campaign page": f"/campaigns/{campaign.pk}/",
        "the history feed": f"/campaigns/{campaign.pk}/history/",
        "the feed of the target": f"/campaigns/{campaign.pk}/history/?fighter={table['Fidus'].pk}",
        "the statistics": f"/campaigns/{campaign.pk}/stats/",
        "the target's roster": f"/warbands/{table.sam.warband_id}/",
        "the attacker's roster": f"/warbands/{table.alex.warband_id}/",
        "the target's card": f"/fighters/{table['Fidus'].pk}/",
        "a fighter of the target's crew": f"/fighters/{table['Kit'].pk}/",
        "a fighter of the other crew": f"/fighters/{table['Brick'].pk}/",
    }


def test_a_damage_renders_again_every_page_that_shows_the_board(
    client,
    campaign,
    player,
    organiser,
    table,  # noqa: F811
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    pages = showing_the_board(table, campaign)
    client.force_login(player)
    keep_all(client, shared, pages)
    feed_before = read(client, pages["the history feed"]).content.decode()
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        damage(table, "Fidus", 2, organiser)
    assert misses(client, shared, pages) == list(pages)
    with shared.as_process():
        feed = read(client, pages["the history feed"]).content.decode()
    assert "Fidus took 2 Damage" not in feed_before
    assert "Fidus took 2 Damage: 1 Harm" in feed


def test_a_damage_leaves_kept_every_page_that_shows_nothing_of_the_board(
    client,
    campaign,
    player,
    organiser,
    table,  # noqa: F811
    elsewhere,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    client.force_login(player)
    keep_all(client, shared, elsewhere)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        damage(table, "Fidus", 2, organiser)
    assert misses(client, shared, elsewhere) == []


def test_an_undo_renders_again_the_pages_that_show_the_board_and_no_other(
    client,
    campaign,
    player,
    organiser,
    table,  # noqa: F811
    elsewhere,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        damage(table, "Kit", 1, organiser)
    pages = showing_the_board(table, campaign)
    client.force_login(player)
    keep_all(client, shared, {**pages, **elsewhere})
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        tracker_undo(game=table.game, by=organiser, version=table.version)
    assert misses(client, shared, {**pages, **elsewhere}) == list(pages)


def test_the_end_of_the_game_renders_again_every_members_pages(
    client,
    campaign,
    player,
    organiser,
    table,  # noqa: F811
    elsewhere,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """The dashboard lists the games being played, and the rosters their games: the end reaches every page of the
    campaign."""
    mine = {name: url for name, url in elsewhere.items() if "another campaign" not in name}
    client.force_login(player)
    keep_all(client, shared, mine)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        tracker_end_game(
            game=table.game,
            results={table.alex.pk: "win", table.sam.pk: "loss"},
            by=organiser,
            version=table.version,
        )
    assert misses(client, shared, mine) == list(mine)
    with shared.as_process():
        assert "Open the tracker" not in read(client, "/").content.decode()


def test_a_roster_write_renders_again_every_page_of_its_campaign_and_no_other(
    client,
    campaign,
    player,
    organiser,
    table,  # noqa: F811
    elsewhere,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """Every roster and card of the campaign, its own pages and the dashboard; not another campaign's pages."""
    of_the_campaign = {name: url for name, url in elsewhere.items() if "another campaign" not in name}
    pages = {**showing_the_board(table, campaign), **of_the_campaign}
    another = {name: url for name, url in elsewhere.items() if name not in of_the_campaign}
    client.force_login(player)
    keep_all(client, shared, {**pages, **another})
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        fighter_update(fighter=table["Kit"], by=organiser, changes={"name": "Kit the Bold"})
    assert misses(client, shared, {**pages, **another}) == list(pages)
    with shared.as_process():
        assert "Kit the Bold" in read(client, f"/warbands/{table.sam.warband_id}/").content.decode()


def test_a_damage_posted_by_another_player_is_on_the_next_page(
    client,
    campaign,
    player,
    player2,
    table,  # noqa: F811
    elsewhere,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """Through the whole path: the second player taps Damage on the board; the player's kept pages that show it
    are rendered again, the rest still come from the cache."""
    pages = showing_the_board(table, campaign)
    client.force_login(player)
    keep_all(client, shared, {**pages, **elsewhere})
    other = Client()
    other.force_login(player2)
    url = f"/games/{table.game.pk}/tracker/fighters/{table['Brick'].pk}/damage/"
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        response = other.post(url, {"damage": 2, "version": table.version})
    assert response.status_code == 302
    assert table.tracked("Brick").harm or table.tracked("Brick").injuries
    assert misses(client, shared, {**pages, **elsewhere}) == list(pages)


def every_route(patterns, prefix=""):
    from django.urls import URLPattern, URLResolver

    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from every_route(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), pattern.callback


def test_every_page_that_may_be_kept_names_its_scope_in_its_address():
    """Each kept page but the dashboard is told of board actions through the campaign, warband or fighter its
    address names (`cacheable`'s scope): a page that named none would keep a board's old state."""
    from django.urls import get_resolver

    kept_pages = {
        route: getattr(view, "page_cache_scope", None)
        for route, view in every_route(get_resolver().url_patterns)
        if getattr(view, "page_cache_query", None) is not None
    }
    assert kept_pages.pop("") is None  # the dashboard: its user's own scope, never a board's
    assert len(kept_pages) == 5
    for route, scope in kept_pages.items():
        assert scope in {"campaign_id", "warband_id", "fighter_id"}, route
        assert f"<int:{scope}>" in route, route
