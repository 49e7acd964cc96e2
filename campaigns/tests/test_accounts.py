import pytest
from django.contrib.auth import get_user_model
from django.core import mail

pytestmark = pytest.mark.django_db

User = get_user_model()


def test_it_signs_up_and_lands_on_the_dashboard(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "alice",
            "email": "alice@example.org",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == "/"
    assert User.objects.filter(username="alice").exists()
    assert response.context["user"].username == "alice"
    assert "No campaigns yet" in response.content.decode()


def test_it_refuses_mismatched_passwords_and_creates_nothing(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "bob",
            "email": "bob@example.org",
            "password1": "one-password-42",
            "password2": "other-42",
        },
    )
    assert response.status_code == 200
    assert "password fields didn" in response.content.decode()
    assert User.objects.count() == 0


def test_the_sign_up_says_why_the_email_is_required_and_refuses_none(client):
    """The help said "Only used to reset a forgotten password" on a field that must be filled in."""
    page = client.get("/accounts/signup/").content.decode()
    assert "Only used to reset" not in page
    assert "Required: it is where a link to reset a forgotten password is sent" in page
    response = client.post(
        "/accounts/signup/",
        {
            "username": "carol",
            "email": "",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
        },
    )
    assert "This field is required." in response.content.decode()
    assert not User.objects.filter(username="carol").exists()


def test_it_logs_in(client, make_user, password):
    make_user("carol")
    response = client.post("/accounts/login/", {"username": "carol", "password": password}, follow=True)
    assert response.context["user"].is_authenticated


def test_it_says_so_on_a_wrong_password(client, make_user):
    make_user("carol")
    response = client.post("/accounts/login/", {"username": "carol", "password": "wrong"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()
    assert not response.context["user"].is_authenticated


def test_it_logs_out(client, make_user):
    client.force_login(make_user("dave"))
    response = client.post("/accounts/logout/", follow=True)
    assert not response.context["user"].is_authenticated


def test_it_sends_a_password_reset_link(client, make_user):
    make_user("erin")
    response = client.post("/accounts/password_reset/", {"email": "erin@example.org"}, follow=True)
    assert response.status_code == 200
    assert len(mail.outbox) == 1
    assert "/accounts/reset/" in mail.outbox[0].body


def test_it_changes_the_password(client, make_user, password):
    user = make_user("frank")
    client.force_login(user)
    response = client.post(
        "/accounts/password_change/",
        {
            "old_password": password,
            "new_password1": "another-good-one-77",
            "new_password2": "another-good-one-77",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-good-one-77")


def test_visitors_see_what_the_tool_is(client):
    response = client.get("/")
    assert response.status_code == 200
    assert "Sign up" in response.content.decode()
