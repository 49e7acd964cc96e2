"""An htmx request whose session has expired is sent to the login page as a page."""

import pytest

pytestmark = pytest.mark.django_db


def test_an_htmx_request_without_a_session_gets_hx_redirect_back_to_its_page(client, table):
    board = f"/games/{table.game.pk}/tracker/"
    response = client.get(
        f"{board}board/",
        {"version": 0},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver{board}"},
    )
    assert response.status_code == 200
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{table.game.pk}%2Ftracker%2F"
    assert response.content == b""  # nothing for htmx to swap into the board


def test_a_post_from_a_card_is_redirected_the_same_way_and_changes_nothing(client, table):
    response = client.post(
        f"/games/{table.game.pk}/tracker/fighters/{table['Brick'].pk}/fatigue/",
        {"version": 0, "change": 1},
        headers={"HX-Request": "true", "HX-Current-URL": f"http://testserver/games/{table.game.pk}/tracker/"},
    )
    assert response["HX-Redirect"].startswith("/accounts/login/?next=")
    assert table.tracked("Brick").fatigue == 0


def test_another_sites_current_url_is_not_the_next_page(client, table):
    response = client.get(
        f"/games/{table.game.pk}/tracker/board/",
        headers={"HX-Request": "true", "HX-Current-URL": "https://elsewhere.example/phish"},
    )
    assert response["HX-Redirect"] == f"/accounts/login/?next=%2Fgames%2F{table.game.pk}%2Ftracker%2Fboard%2F"


def test_a_plain_request_keeps_its_redirect(client, table):
    response = client.get(f"/games/{table.game.pk}/tracker/")
    assert response.status_code == 302
    assert "HX-Redirect" not in response


def test_other_htmx_redirects_are_left_alone(client, table, player):
    client.force_login(player)
    response = client.post(f"/games/{table.game.pk}/tracker/start/", headers={"HX-Request": "true"})
    assert "HX-Redirect" not in response
