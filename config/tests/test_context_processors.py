"""base.html's links and static addresses worked out once per process (config/context_processors.py)."""

import pytest
from django.template import Context, Template
from django.test import Client, RequestFactory, override_settings

from config.context_processors import LINKS, STATIC_FILES, site_links

pytestmark = pytest.mark.django_db


def test_the_links_are_what_the_url_and_static_tags_write():
    links = site_links(RequestFactory().get("/"))["site_links"]
    for name in LINKS:
        assert links[name] == Template("{% url name %}").render(Context({"name": name}))
    for name, path in STATIC_FILES.items():
        assert links[name] == Template("{% load static %}{% static path %}").render(Context({"path": path}))


def test_a_foreign_host_is_refused_without_reading_the_static_files_manifest(tmp_path):
    # A manifest that does not exist yet: reading any static address would raise, and the refusal would be a 500.
    manifest_storage = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.ManifestStaticFilesStorage"},
    }
    with override_settings(
        STORAGES=manifest_storage, STATIC_ROOT=tmp_path, DEBUG=False, ALLOWED_HOSTS=["ledger.example.org"]
    ):
        response = Client(raise_request_exception=False).get("/accounts/login/", HTTP_HOST="127.0.0.1")
    assert response.status_code == 400
