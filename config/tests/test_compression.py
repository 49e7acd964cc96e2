"""Pages go out gzip-compressed to a browser that asks, static files pre-compressed with brotli."""

import gzip
import re

import brotli
import pytest
from django.core.management import call_command
from django.template.loader import render_to_string
from django.test import override_settings

from config import settings as production

pytestmark = pytest.mark.django_db

# A CSRF token is masked afresh in every response (a BREACH defence): two renderings of a page differ only there.
TOKEN = re.compile(rb"[A-Za-z0-9]{64}")


def same_page(body: bytes) -> bytes:
    return TOKEN.sub(b"TOKEN", body)


def test_a_page_asked_with_gzip_is_compressed_and_is_the_same_page(client, warband, player):
    client.force_login(player)
    url = f"/warbands/{warband.pk}/"
    plain = client.get(url)
    compressed = client.get(url, headers={"Accept-Encoding": "gzip, deflate, br"})
    assert plain.status_code == compressed.status_code == 200
    assert "Content-Encoding" not in plain
    assert compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    assert len(compressed.content) < len(plain.content) / 2
    assert same_page(gzip.decompress(compressed.content)) == same_page(plain.content)


def test_the_empty_poll_answer_stays_empty(client, table, player):
    client.force_login(player)
    response = client.get(
        f"/games/{table.game.pk}/tracker/board/",
        {"version": table.version},
        headers={"Accept-Encoding": "gzip"},
    )
    assert response.status_code == 204
    assert response.content == b""
    assert "Content-Encoding" not in response


def test_collected_static_files_have_brotli_and_gzip_twins(tmp_path):
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=production.STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    original = (tmp_path / "vendor/htmx/htmx.min.js").read_bytes()
    [hashed] = [p for p in (tmp_path / "vendor/htmx").glob("htmx.min.*.js")]
    assert brotli.decompress(hashed.with_name(hashed.name + ".br").read_bytes()) == original
    assert gzip.decompress(hashed.with_name(hashed.name + ".gz").read_bytes()) == original


@pytest.mark.parametrize("url", ["/accounts/login/", "/accounts/signup/", "/no-such-page/"])
def test_every_page_says_what_the_site_is(client, url):
    assert b'<meta name="description" content="Warband Ledger ' in client.get(url).content


@pytest.mark.parametrize("template", ["400.html", "500.html", "503.html"])
def test_the_standalone_error_pages_say_it_too(template):
    assert '<meta name="description" content="Warband Ledger' in render_to_string(template)


def test_a_logged_in_page_says_it_too(client, warband, player):
    client.force_login(player)
    assert b'<meta name="description"' in client.get(f"/warbands/{warband.pk}/").content
