"""The trivial views `make bench` compares pages with exist only when BENCH_VIEWS=true."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from rosters.views.bench import authenticated, plain


@pytest.mark.django_db
def test_it_is_not_routed_normally(client):
    assert client.get("/bench/plain").status_code == 404
    assert client.get("/bench/authenticated").status_code == 404


def test_it_answers_plain_text():
    response = plain(RequestFactory().get("/bench/plain"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"ok\n"


@pytest.mark.django_db
def test_the_authenticated_baseline_loads_the_user(player):
    request = RequestFactory().get("/bench/authenticated")
    request.user = player
    response = authenticated(request)
    assert response.status_code == 200
    assert response.content == f"ok {player.pk}\n".encode()


def test_the_authenticated_baseline_refuses_a_stranger():
    request = RequestFactory().get("/bench/authenticated")
    request.user = AnonymousUser()
    assert authenticated(request).status_code == 403
