"""How far a write to one campaign reaches in the page cache (config/page_versions.py, `campaign_changed`), proved
through the whole path with several members and two campaigns: the pages that show the campaign are rendered
again for every member, and every other kept page, the writer's own included, is still answered from the cache
(HIT_QUERIES). What decides access still reaches every page of the member it changed."""

import secrets

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from campaigns.history_context import history_context
from campaigns.models import Campaign, Membership
from campaigns.services.members import membership_set_role
from config import page_versions
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

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(campaign, warband, rival_warband, organiser, player, player2, outsider, make_fighter):
    """Campaign C (the organiser, the player, the second player) with the player's warband W and its fighter, and
    the second player's; campaign D of the player and the outsider, with the outsider's warband."""
    brick = make_fighter(warband, "Brick", xp=2)
    fidus = make_fighter(rival_warband, "Fidus")
    other = Campaign.objects.create(name="The Quiet Front", created_by=outsider)
    Membership.objects.create(campaign=other, user=outsider, role=Membership.Role.ORGANISER)
    Membership.objects.create(campaign=other, user=player, role=Membership.Role.PLAYER)
    hollow = Warband.objects.create(campaign=other, owner=outsider, name="Hollow Choir", faction="Raiders")
    nell = make_fighter(hollow, "Nell")
    showing_c = {
        "W's roster": f"/warbands/{warband.pk}/",
        "the fighter's card": f"/fighters/{brick.pk}/",
        "C's page": f"/campaigns/{campaign.pk}/",
        "C's feed": f"/campaigns/{campaign.pk}/history/",
        "C's statistics": f"/campaigns/{campaign.pk}/stats/",
        "the other roster of C": f"/warbands/{rival_warband.pk}/",
        "a fighter of the other roster of C": f"/fighters/{fidus.pk}/",
        "the dashboard": "/",
    }
    of_d = {
        "D's page": f"/campaigns/{other.pk}/",
        "D's feed": f"/campaigns/{other.pk}/history/",
        "a roster of D": f"/warbands/{hollow.pk}/",
        "a fighter of D": f"/fighters/{nell.pk}/",
    }
    return {"brick": brick, "showing C": showing_c, "of D": of_d, "other": other}


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_xp_gained_renders_again_the_pages_of_its_campaign_for_every_member_and_no_other(
    world,
    player,
    player2,
    outsider,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    writer, fellow, elsewhere = logged_in(player), logged_in(player2), logged_in(outsider)
    keep_all(writer, shared, {**world["showing C"], **world["of D"]})
    keep_all(fellow, shared, world["showing C"])
    keep_all(elsewhere, shared, {**world["of D"], "the dashboard": "/"})
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        response = writer.post(f"/fighters/{world['brick'].pk}/xp/", {"delta": 1})
    assert response.status_code == 302
    world["brick"].refresh_from_db()
    assert world["brick"].xp == 3
    # Every page that shows C, for the writer and for the other member...
    assert misses(writer, shared, world["showing C"]) == list(world["showing C"])
    assert misses(fellow, shared, world["showing C"]) == list(world["showing C"])
    # ...and nothing else: the writer's pages of D, and every page of the member of D alone, dashboard included.
    assert misses(writer, shared, world["of D"]) == []
    assert misses(elsewhere, shared, {**world["of D"], "the dashboard": "/"}) == []
    with shared.as_process():
        card = read(fellow, world["showing C"]["the fighter's card"]).content
    assert b">3<" in card or b" 3 " in card or b"3 XP" in card


def test_a_role_changed_reaches_every_kept_page_of_that_member(
    world,
    campaign,
    organiser,
    player,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """Access is decided by the member's access state, which the role is part of, not by the campaign's tokens:
    their kept pages of every campaign take the full path, which answers as a fresh load does."""
    demoted = logged_in(player)
    pages = {**world["showing C"], **world["of D"]}
    keep_all(demoted, shared, pages)
    with shared.as_process(), django_capture_on_commit_callbacks(execute=True):
        membership_set_role(
            membership=campaign.memberships.get(user=player), role=Membership.Role.SPECTATOR, by=organiser
        )
    assert misses(demoted, shared, pages) == list(pages)


def test_a_kept_roster_is_answered_in_a_process_that_never_read_its_campaign(
    world,
    campaign,
    player,
    organiser,
    shared,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    """A roster's address names its warband, not its campaign: the page holds the campaign's token's key, and a
    process without a guess of it (a fresh worker), or with a wrong one, fetches it once more and still answers
    from the cache, until a write to the campaign replaces it."""
    reader = logged_in(player)
    url = world["showing C"]["W's roster"]
    kept(reader, shared, url)
    warband = world["brick"].warband_id
    for guess in (None, world["other"].pk):
        page_versions._GUESSES.clear()
        if guess is not None:
            page_versions.remember_campaign("warband", warband, guess)
        with shared.as_process():
            assert queries_of(reader, url) == HIT_QUERIES
        assert page_versions.guessed_campaign("warband", warband) == campaign.pk
    page_versions._GUESSES.clear()
    with (
        shared.as_process(),
        django_capture_on_commit_callbacks(execute=True),
        history_context(by=organiser, action="test", reason="a write", campaign=campaign.pk),
    ):
        pass
    with shared.as_process():
        assert queries_of(reader, url) > HIT_QUERIES


@pytest.mark.parametrize("name", ["W's roster", "the fighter's card"])
def test_the_render_path_reads_the_pages_campaign_with_the_access_state(name, world, player, shared):  # noqa: F811
    """A roster's or card's campaign costs the render path no query of its own: it comes with the access state."""
    reader = logged_in(player)
    url = world["showing C"][name]
    kept(reader, shared, url)
    reader.cookies["csrftoken"] = secrets.token_hex(16)  # a kept page of another CSRF cookie: the render path
    with shared.as_process(), CaptureQueriesContext(connection) as captured:
        read(reader, url)
    asked = [query["sql"] for query in captured]
    # The access state's query is the one that reads the user's password (the card's own digest query aggregates
    # arrays too).
    access = [sql for sql in asked if "array_agg" in sql and "u.password" in sql]
    assert len(access) == 1
    assert "campaign_id FROM" in access[0].split("array_agg", 2)[-1]
    assert not [sql for sql in asked if sql.startswith("SELECT w.campaign_id")]
