import pytest
from django.db import OperationalError

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
