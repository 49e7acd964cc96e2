"""The bare view `make bench` compares pages with exists only when BENCH_VIEWS=true."""

import pytest
from django.test import RequestFactory

from rosters.views.bench import plain


@pytest.mark.django_db
def test_it_is_not_routed_normally(client):
    assert client.get("/bench/plain").status_code == 404


def test_it_answers_plain_text():
    response = plain(RequestFactory().get("/bench/plain"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain"
    assert response.content == b"ok\n"
