"""collectstatic writes the project's CSS and JavaScript minified, hashed and compressed (config/storage.py)."""

import gzip
import json
import re

import brotli
import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from config import settings as production
from config.storage import minified

SOURCE = settings.BASE_DIR / "static"


@pytest.fixture(scope="module")
def collected(tmp_path_factory):
    root = tmp_path_factory.mktemp("static")
    with override_settings(STATIC_ROOT=root, STORAGES=production.STORAGES):
        call_command("collectstatic", interactive=False, verbosity=0)
    return root, json.loads((root / "staticfiles.json").read_text())["paths"]


def test_production_uses_the_minifying_storage():
    # The production settings, not the tests' (config/settings_test.py serves static/ as it is).
    assert production.STORAGES["staticfiles"]["BACKEND"] == "config.storage.MinifiedStaticStorage"


@pytest.mark.parametrize("name", ["css/ledger.css", "js/ledger.js", "js/offline.js"])
def test_the_hashed_file_is_the_minified_one_and_its_twins_decompress_to_it(collected, name):
    root, manifest = collected
    source = (SOURCE / name).read_text()
    hashed = root / manifest[name]
    body = hashed.read_bytes()
    assert body.decode() == minified(name, source)
    assert len(body) < 0.85 * len(source.encode())
    assert (root / name).read_bytes() == body  # the plain copy too
    assert brotli.decompress(hashed.with_name(hashed.name + ".br").read_bytes()) == body
    assert gzip.decompress(hashed.with_name(hashed.name + ".gz").read_bytes()) == body


def test_a_file_already_minified_is_kept_byte_for_byte(collected):
    root, manifest = collected
    name = "vendor/htmx/htmx.min.js"
    assert (root / manifest[name]).read_bytes() == (SOURCE / name).read_bytes()


def test_every_rule_and_every_custom_property_of_the_stylesheet_survives():
    source = (SOURCE / "css/ledger.css").read_text()
    body = minified("css/ledger.css", source)
    assert "/*" not in body
    assert body.count("{") == re.sub(r"/\*.*?\*/", "", source, flags=re.S).count("{")
    assert set(re.findall(r"--[a-z0-9-]+", body)) == set(re.findall(r"--[a-z0-9-]+", source))
    assert "@media (prefers-color-scheme:dark)" in body or "@media (prefers-color-scheme: dark)" in body


def test_a_script_loses_its_comments_but_not_its_strings_or_regular_expressions():
    script = (
        "// a comment about the rule\n"
        "const url = 'http://example.test/a//b'; /* block */\n"
        "const pattern = /\\/static\\/[a-z]+/g;\n"
        "const text = `line ${url} // not a comment`;\n"
    )
    body = minified("js/example.js", script)
    assert "comment about" not in body
    assert "block" not in body
    assert "'http://example.test/a//b'" in body
    assert "/\\/static\\/[a-z]+/g" in body
    assert "`line ${url} // not a comment`" in body


def test_other_files_pass_through_unchanged():
    assert minified("css/ledger.min.css", "a { b: c }  /* kept */") == "a { b: c }  /* kept */"
    assert minified("icons/README.md", "/* not css */") == "/* not css */"
