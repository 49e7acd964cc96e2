"""What the history pages read (rosters/history/selectors.py): the feed's answers to a page, a poll and an
overflowing poll, and the campaign a read-only link opens."""

import pytest
from django.urls import reverse

from rosters.history import selectors
from rosters.history.entries import HistoryFilter
from rosters.history.feed import PAGE_SIZE
from rosters.services.fighters import fighter_adjust_xp

pytestmark = pytest.mark.django_db


def _feed(campaign, **reading):
    url = reverse("campaign_history", args=[campaign.pk])
    filters = HistoryFilter(campaign_id=campaign.pk)
    return selectors.feed(campaign=campaign, filters=filters, url=url, query="", **reading)


# Transactional: every event of one transaction has the same time; a poll finds what later transactions wrote.
@pytest.mark.django_db(transaction=True)
def test_a_poll_with_nothing_new_and_one_with_a_change(campaign, marcus, player):
    newest = _feed(campaign).page.newest
    assert _feed(campaign, after=newest).mode == "nothing"
    fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    polled = _feed(campaign, after=newest)
    assert polled.mode == "new"
    assert [c.text for e in polled.page.entries for c in e.changes] == ["Brother Marcus gained 1 XP (now 6)"]
    assert polled.poll_url.endswith(f"?after={polled.page.newest}")


@pytest.mark.django_db(transaction=True)
def test_more_changes_than_a_page_since_the_poll_replace_the_whole_feed(client, campaign, marcus, player):
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    newest = _feed(campaign).page.newest
    for _ in range(PAGE_SIZE + 1):
        fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    assert _feed(campaign, after=newest).mode == "overflow"
    response = client.get(url, {"after": newest}, headers={"HX-Request": "true", "HX-Target": "history-new"})
    assert response.status_code == 200
    assert response["HX-Retarget"] == "#history-feed"
    assert response["HX-Reswap"] == "outerHTML"
    html = response.content.decode()
    assert f"gained 1 XP (now {5 + PAGE_SIZE + 1})" in html
    assert 'id="history-feed"' in html


def test_a_page_links_to_the_older_page_and_polls_from_its_newest(campaign, marcus, player):
    for _ in range(PAGE_SIZE + 1):
        fighter_adjust_xp(fighter=marcus, delta=1, by=player)
    first = _feed(campaign)
    assert first.mode == "page"
    assert len(first.page.entries) == PAGE_SIZE
    assert first.more_url.endswith(f"?before={first.page.older}")
    older = _feed(campaign, before=first.page.older)
    assert older.poll_url is None  # an older page does not poll: what is new goes on top of the first page


def test_a_read_only_link_opens_its_campaign_until_it_is_revoked(campaign, organiser):
    from campaigns.services import sharing as campaign_services

    campaign = campaign_services.campaign_share_create(campaign=campaign, by=organiser)
    token = campaign.share_token
    assert selectors.shared_campaign(token=token) == campaign
    campaign_services.campaign_share_revoke(campaign=campaign, by=organiser)
    assert selectors.shared_campaign(token=token) is None


def test_the_filters_lists_read_in_sql_are_what_the_orm_reads(campaign, warband, rival_warband, player):
    """The filter's warbands and fighters (plain SQL) are the ORM's rows, in its order: by name, then id."""
    from rosters.models import Fighter, Warband
    from rosters.services.fighters import fighter_create

    for name in ("Zed", "Abel", "abel", "Émile", "Abel"):
        fighter_create(warband=warband, by=player, name=name)
    fighter_create(warband=rival_warband, by=player, name="Mara")
    Warband.objects.create(campaign=campaign, owner=player, name="An empty warband")
    warbands, fighters = selectors.filter_warbands_and_fighters(campaign=campaign)
    assert warbands == list(
        Warband.objects.filter(campaign=campaign).order_by("name", "id").values_list("id", "name")
    )
    assert fighters == selectors.filter_fighters(campaign=campaign)
    assert fighters == list(
        Fighter.objects.filter(warband__campaign=campaign)
        .order_by("warband__name", "warband_id", "name", "id")
        .values_list("id", "name", "warband_id", "warband__name")
    )
