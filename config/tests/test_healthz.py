import pytest
from django.core.cache import caches
from django.db import OperationalError
from django.test import override_settings

from config.tests.shared_cache import dead_redis_settings, shared_redis_or_skip

pytestmark = pytest.mark.django_db


def test_it_answers_200_when_the_database_answers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}


def test_it_answers_503_when_the_database_does_not(client, monkeypatch):
    from django.db.backends.postgresql.base import DatabaseWrapper

    def unreachable(self, *args, **kwargs):
        raise OperationalError("connection refused")

    # The real server cannot be stopped under the test, so the cursor is made to fail as a lost server would.
    monkeypatch.setattr(DatabaseWrapper, "cursor", unreachable)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"


def test_it_refuses_post(client):
    assert client.post("/healthz").status_code == 405


def test_with_a_shared_cache_it_names_the_cache_when_redis_answers(client):
    shared = shared_redis_or_skip()
    with shared.as_process():
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "cache": "ok"}


def test_it_answers_503_when_the_shared_redis_does_not(client):
    """Redis down: every logged-in page answers 503, so the load balancer must take the instance out too."""
    with override_settings(**dead_redis_settings()):
        response = client.get("/healthz")
        caches["default"].close()
    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "database": "ok", "cache": "unreachable"}
