"""People by their display name everywhere, the username only on their account page."""

import pytest
from django.contrib.auth import get_user_model

from campaigns.people import DISPLAY_NAME_MAX_LENGTH, display_name

pytestmark = pytest.mark.django_db


def test_sign_up_asks_for_the_display_name_first_and_keeps_it(client):
    page = client.get("/accounts/signup/").content.decode()
    assert page.index('name="display_name"') < page.index('name="username"')
    response = client.post(
        "/accounts/signup/",
        {
            "display_name": "Olga the Grey",
            "username": "olga42",
            "email": "olga@example.org",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
        },
    )
    assert response.status_code == 302
    user = get_user_model().objects.get(username="olga42")
    assert user.first_name == "Olga the Grey"
    assert "Welcome, Olga the Grey!" in client.get("/", follow=True).content.decode()


def test_a_blank_display_name_at_sign_up_falls_back_to_the_username(client):
    client.post(
        "/accounts/signup/",
        {
            "username": "quiet",
            "email": "quiet@example.org",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
        },
    )
    assert display_name(get_user_model().objects.get(username="quiet")) == "quiet"


def test_the_account_page_shows_the_username_and_changes_the_display_name(client, player):
    client.force_login(player)
    page = client.get("/accounts/profile/").content.decode()
    assert "You log in as <strong>pat_player</strong>" in page
    response = client.post(
        "/accounts/profile/", {"display_name": "  Pat   Smith ", "email": "pat@example.org"}
    )
    assert response["Location"] == "/accounts/profile/"
    player.refresh_from_db()
    assert player.first_name == "Pat Smith"
    assert player.email == "pat@example.org"


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "This field is required."),
        ("x" * (DISPLAY_NAME_MAX_LENGTH + 1), f"at most {DISPLAY_NAME_MAX_LENGTH} characters"),
        ("Pat\u0007", "control characters"),
    ],
)
def test_a_bad_display_name_is_refused_beside_the_field_and_nothing_changes(client, player, name, message):
    client.force_login(player)
    response = client.post("/accounts/profile/", {"display_name": name, "email": "new@example.org"})
    assert response.status_code == 422
    assert message.lower() in response.content.decode().lower()
    player.refresh_from_db()
    assert player.first_name == ""
    assert player.email == "pat_player@example.org"


def test_the_account_page_needs_a_login(client):
    assert client.get("/accounts/profile/")["Location"].startswith("/accounts/login/")


def test_the_navigation_and_the_campaign_page_name_people_by_display_name(client, campaign, player, warband):
    player.first_name = "Pat Smith"
    player.save()
    client.force_login(player)
    page = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert 'title="Your account">Pat Smith</a>' in page
    assert '<td data-label="Player">Pat Smith</td>' in page
    main = page.split("<main", 1)[1]
    assert "pat_player" not in main


def test_the_invitation_names_the_organiser_by_display_name(client, campaign, organiser):
    organiser.first_name = "Olga"
    organiser.save()
    page = client.get(f"/join/{campaign.invitation_code}/").content.decode()
    assert "Olga invites you to The Long Trench" in page
    assert "olga_organiser" not in page


def test_nobody_is_someone():
    assert display_name(None) == "someone"
