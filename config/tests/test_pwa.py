"""The manifest, the service worker at the root and the offline page, without a browser."""

import pytest
from django.templatetags.static import static

from config import pwa

pytestmark = pytest.mark.django_db


def test_the_manifest_has_what_chromium_asks_to_install(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = response.json()
    assert data["name"] == "Warband Ledger"
    assert data["short_name"] == "Ledger"
    assert data["display"] == "standalone"
    assert data["start_url"] == "/"
    assert data["theme_color"] == pwa.THEME_COLOUR
    assert data["background_color"] == pwa.BACKGROUND_COLOUR
    sizes = {(icon["sizes"], icon["purpose"]) for icon in data["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    assert all(icon["src"].startswith(static("icons/")) for icon in data["icons"])


def test_each_icon_of_the_manifest_is_served_at_its_size(client):
    for icon in client.get("/manifest.webmanifest").json()["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        png = b"".join(response.streaming_content)
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def test_every_page_links_the_manifest_and_both_theme_colours(client, player):
    client.force_login(player)
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert 'name="theme-color" content="#2b2118" media="(prefers-color-scheme: light)"' in html
    assert 'name="theme-color" content="#15130f" media="(prefers-color-scheme: dark)"' in html
    assert 'name="service-worker" content="/sw.js"' in html


def test_the_worker_is_served_from_the_root_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    assert "max-age=0" in response["Cache-Control"]
    assert b'addEventListener("fetch"' in response.content


def test_the_worker_refuses_post(client):
    assert client.post("/sw.js").status_code == 405


def test_the_offline_page_names_no_one(client, player):
    client.force_login(player)
    response = client.get("/offline/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "<h1>Offline</h1>" in html
    assert player.username not in html
    assert "Log out" not in html
