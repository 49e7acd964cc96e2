"""The site's own 400, 403, 404 and 500 pages: styled, with the navigation and a way on, and the
favicon and app icons linked from every page."""

import pytest
from django.contrib.staticfiles import finders
from django.template import loader
from django.test import Client, RequestFactory
from django.urls import reverse

from config.outages import server_error

pytestmark = pytest.mark.django_db


def test_a_missing_page_answers_the_sites_404_with_its_navigation(client, player):
    client.force_login(player)
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    page = response.content.decode()
    assert "<h1>Page not found</h1>" in page
    assert 'class="site-nav"' in page
    assert "Log out" in page
    assert f'href="{reverse("dashboard")}">Back to your dashboard' in page
    assert "Resolver404" not in page
    assert "/no-such-page/" not in page.split("<main", 1)[1]


def test_a_logged_out_visitor_on_a_missing_page_is_offered_log_in_and_sign_up(client):
    page = client.get("/no-such-page/").content.decode()
    assert f'href="{reverse("login")}">Log in</a>' in page
    assert f'href="{reverse("signup")}">Sign up</a>' in page


def test_a_refusal_answers_the_sites_403_with_the_reason_it_was_refused(client, player, rival_warband):
    client.force_login(player)
    response = client.post(reverse("warband_edit", args=[rival_warband.pk]), {"name": "Mine now"})
    assert response.status_code == 403
    page = response.content.decode()
    assert "<h1>Not yours to do</h1>" in page
    assert "Nothing was changed." in page
    assert 'class="site-nav"' in page
    rival_warband.refresh_from_db()
    assert rival_warband.name == "Heretic Legion"


def test_the_500_page_stands_alone_with_the_navigation_and_no_request(client):
    request = RequestFactory().get("/")
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(request)
    assert response.status_code == 500
    page = response.content.decode()
    assert "<h1>Something went wrong on our side</h1>" in page
    assert 'class="site-nav"' in page
    assert "saved whole or not at all" in page


def test_the_400_page_says_nothing_was_changed():
    page = loader.render_to_string("400.html", {})
    assert "<h1>That request could not be read</h1>" in page
    assert "nothing was changed" in page


@pytest.mark.parametrize("name", ["icons/icon.svg", "icons/icon-32.png", "icons/icon-180.png"])
def test_every_page_links_the_favicon_and_app_icons_that_exist(client, name):
    page = Client().get(reverse("login")).content.decode()
    assert f"/static/{name}" in page
    assert finders.find(name) is not None


@pytest.mark.parametrize("size", [32, 180, 192, 512])
def test_each_png_icon_is_the_size_its_name_says(size):
    with open(finders.find(f"icons/icon-{size}.png"), "rb") as png:
        header = png.read(24)
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(header[16:20], "big") == size
    assert int.from_bytes(header[20:24], "big") == size
