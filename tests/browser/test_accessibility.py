"""axe-core on every page of the demo campaign, at phone width, light and dark (Accessibility: zero
violations, so a new one fails the suite)."""

import io

import pytest
from django.core.management import call_command
from django.test import Client
from playwright.sync_api import Page

from campaigns.models import Campaign, Game
from rosters.models import Fighter, Warband
from tests.browser.axe import violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def demo(django_user_model):
    call_command("load_demo", stdout=io.StringIO())
    campaign = Campaign.objects.get(name="The Long Trench")
    sepulchre = Warband.objects.get(campaign=campaign, name="The Iron Sepulchre")
    games = {game.number: game for game in Game.objects.filter(campaign=campaign)}
    fighter = Fighter.objects.filter(warband=sepulchre).order_by("pk").first()
    c, w, g = campaign.pk, sepulchre.pk, games
    member_pages = [
        "/",
        f"/campaigns/{c}/",
        f"/campaigns/{c}/settings/",
        f"/campaigns/{c}/history/",
        f"/campaigns/{c}/dice/",
        f"/campaigns/{c}/dice/?status=struck",
        f"/warbands/{w}/dice/",
        f"/campaigns/{c}/settings/trauma-table/",
        f"/campaigns/{c}/data/",
        f"/campaigns/{c}/data/skill_chart:ranged/",
        f"/campaigns/{c}/data/location_table:common/",
        f"/campaigns/{c}/data/fighter_types/",
        f"/campaigns/{c}/data/scenario_table:early/",
        f"/warbands/{w}/",
        f"/warbands/{w}/starting-xp/",
        f"/campaigns/{c}/warbands/new/",
        f"/warbands/{w}/history/",
        f"/warbands/{w}/as-of/{g[2].pk}/",
        f"/warbands/{w}/print/",
        f"/warbands/{w}/cards/",
        f"/fighters/{fighter.pk}/card/",
        f"/fighters/{fighter.pk}/",
        f"/fighters/{fighter.pk}/history/",
        f"/games/{g[2].pk}/",
        f"/games/{g[4].pk}/",
        f"/games/{g[2].pk}/report/",
        f"/games/{g[2].pk}/post-game/{w}/",
        f"/games/{g[3].pk}/post-game/{w}/out-of-action/",
        f"/games/{g[3].pk}/post-game/{w}/advancement/",
        f"/games/{g[3].pk}/post-game/{w}/reinforcements/",
        f"/games/{g[3].pk}/post-game/{w}/trade/",
        f"/games/{g[3].pk}/post-game/{w}/glory/",
        f"/games/{g[4].pk}/tracker/",
        f"/games/{g[4].pk}/scenario/",
        "/accounts/profile/",
        "/rules/",
    ]
    public_pages = [
        "/accounts/login/",
        "/accounts/signup/",
        f"/join/{campaign.invitation_code}/",
        "/rules/",
        "/offline/",
    ]
    return {
        "organiser": django_user_model.objects.get(username="organiser"),
        "member_pages": member_pages,
        "public_pages": public_pages,
    }


def _log_in(page: Page, live_server, user):
    client = Client()
    client.force_login(user)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])


def _walk(page: Page, live_server, paths) -> list[str]:
    found = []
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        for path in paths:
            response = page.goto(live_server.url + path)
            assert response.status < 400, (path, response.status)
            found += [f"{path} [{scheme}] {line}" for line in violations(page)]
    return found


def test_every_page_a_member_opens_has_no_accessibility_violation(page: Page, live_server, demo):
    page.set_viewport_size(PHONE)
    _log_in(page, live_server, demo["organiser"])
    found = _walk(page, live_server, demo["member_pages"])
    assert not found, f"{len(found)} axe-core violation(s):\n" + "\n".join(found)


def test_every_page_a_visitor_opens_has_no_accessibility_violation(page: Page, live_server, demo):
    page.set_viewport_size(PHONE)
    found = _walk(page, live_server, demo["public_pages"])
    assert not found, f"{len(found)} axe-core violation(s):\n" + "\n".join(found)
