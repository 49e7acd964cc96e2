"""Campaign pages: create, settings (preset, scar limit, members, invitation) and joining.

The house Trauma Table editor is combat's page: combat/tests/views/test_trauma_table.py."""

import pytest

from campaigns.models import Campaign, Membership

pytestmark = pytest.mark.django_db


@pytest.fixture
def as_organiser(client, organiser):
    client.force_login(organiser)
    return client


def test_it_creates_a_campaign_and_makes_me_its_organiser(client, outsider):
    client.force_login(outsider)
    response = client.post(
        "/campaigns/new/",
        {"name": "Nuka World", "preset": "fallout_factions", "scar_limit": 3, "description": ""},
    )
    campaign = Campaign.objects.get(name="Nuka World")
    assert response["Location"] == f"/campaigns/{campaign.pk}/"
    assert Membership.objects.get(campaign=campaign).role == "organiser"
    html = client.get(response["Location"]).content.decode()
    assert 'id="invitation-url"' in html
    assert f"/join/{campaign.invitation_code}/" in html
    assert "Add a crew" in html  # the Fallout: Factions words


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "preset": "trench_crusade", "scar_limit": 3}, "This field is required."),
        ({"name": "Ok", "preset": "chess", "scar_limit": 3}, "Select a valid choice."),
        ({"name": "Ok", "preset": "trench_crusade", "scar_limit": 0}, "The Battle Scar limit is at least 1."),
        (
            {"name": "Ok", "preset": "trench_crusade", "scar_limit": 11},
            "The Battle Scar limit is at most 10.",
        ),
    ],
)
def test_a_bad_campaign_is_refused(client, outsider, data, message):
    client.force_login(outsider)
    response = client.post("/campaigns/new/", data)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Campaign.objects.count() == 0


def test_the_settings_change_the_preset_and_scar_limit(as_organiser, campaign):
    response = as_organiser.post(
        f"/campaigns/{campaign.pk}/settings/",
        {"name": "The Long Trench", "preset": "fallout_factions", "scar_limit": 4, "status": "active"},
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.preset, campaign.scar_limit) == ("fallout_factions", 4)


def test_bad_settings_change_nothing(as_organiser, campaign):
    response = as_organiser.post(
        f"/campaigns/{campaign.pk}/settings/",
        {"name": "Renamed", "preset": "trench_crusade", "scar_limit": 0, "status": "active"},
    )
    assert response.status_code == 422
    assert "The Battle Scar limit is at least 1." in response.content.decode()
    campaign.refresh_from_db()
    assert (campaign.name, campaign.scar_limit) == ("The Long Trench", 3)


def test_rotating_the_invitation_stops_the_old_link(as_organiser, client, campaign, outsider):
    old = campaign.invitation_code
    as_organiser.post(f"/campaigns/{campaign.pk}/settings/invitation/")
    campaign.refresh_from_db()
    assert campaign.invitation_code != old
    client.force_login(outsider)
    assert client.get(f"/join/{old}/").status_code == 404
    assert client.post(f"/join/{old}/").status_code == 404
    assert not Membership.objects.filter(user=outsider).exists()


def test_joining_through_the_invitation(client, campaign, outsider):
    client.force_login(outsider)
    html = client.get(f"/join/{campaign.invitation_code}/").content.decode()
    assert "Join The Long Trench" in html
    assert "olga_organiser" in html
    response = client.post(f"/join/{campaign.invitation_code}/")
    assert response["Location"] == f"/campaigns/{campaign.pk}/"
    assert Membership.objects.get(campaign=campaign, user=outsider).role == "player"


def test_an_anonymous_visitor_is_offered_log_in_and_back(client, campaign):
    # The home page is a landing page with the login form: logging in from it still comes back here.
    response = client.get(f"/join/{campaign.invitation_code}/")
    assert response.status_code == 200
    assert f'href="/accounts/login/?next=/join/{campaign.invitation_code}/"' in response.content.decode()
    posted = client.post(f"/join/{campaign.invitation_code}/")
    assert posted["Location"] == f"/accounts/login/?next=/join/{campaign.invitation_code}/"
    assert not Membership.objects.filter(campaign=campaign, user__username="").exists()


def test_a_logged_out_visitor_sees_who_invites_them_to_what_and_sign_up_first(
    client, campaign, django_assert_num_queries
):
    join = f"/join/{campaign.invitation_code}/"
    with django_assert_num_queries(2):
        response = client.get(join)
    html = response.content.decode()
    assert "olga_organiser invites you to The Long Trench" in html
    # Organiser and two players; the spectator does not play.
    assert "The Long Trench (Trench Crusade), 3 players." in html
    assert html.index(f'href="/accounts/signup/?next={join}"') < html.index(
        f'href="/accounts/login/?next={join}"'
    )
    assert "Join the campaign" not in html


def test_a_logged_out_visitor_with_a_replaced_link_is_told_it_is_not_valid(client, campaign):
    response = client.get("/join/not-a-code/")
    assert response.status_code == 404
    assert (
        "This invitation link is not valid any more. Ask the organiser for a new one."
        in response.content.decode()
    )


def test_an_archived_campaign_refuses_new_members(client, campaign, organiser, outsider):
    from campaigns.services.campaigns import campaign_update

    campaign_update(campaign=campaign, by=organiser, status="archived")
    client.force_login(outsider)
    response = client.post(f"/join/{campaign.invitation_code}/")
    assert response.status_code == 422
    assert "archived" in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()


def test_the_organiser_changes_roles_but_never_leaves_the_campaign_without_one(
    as_organiser, campaign, organiser, player
):
    membership = Membership.objects.get(campaign=campaign, user=player)
    as_organiser.post(f"/campaigns/{campaign.pk}/members/{membership.pk}/", {"role": "spectator"})
    membership.refresh_from_db()
    assert membership.role == "spectator"

    mine = Membership.objects.get(campaign=campaign, user=organiser)
    response = as_organiser.post(f"/campaigns/{campaign.pk}/members/{mine.pk}/", {"role": "player"})
    assert response.status_code == 422
    assert "needs an organiser" in response.content.decode()
    mine.refresh_from_db()
    assert mine.role == "organiser"

    response = as_organiser.post(f"/campaigns/{campaign.pk}/members/{membership.pk}/", {"role": "king"})
    assert response.status_code == 422
    membership.refresh_from_db()
    assert membership.role == "spectator"


def test_a_member_can_be_removed(as_organiser, campaign, player2):
    membership = Membership.objects.get(campaign=campaign, user=player2)
    as_organiser.post(f"/campaigns/{campaign.pk}/members/{membership.pk}/", {"remove": "1"})
    assert not Membership.objects.filter(pk=membership.pk).exists()


def test_a_member_of_another_campaign_cannot_be_changed_from_this_one(as_organiser, campaign, outsider):
    from campaigns.services.campaigns import campaign_create

    other = campaign_create(name="Elsewhere", by=outsider)
    theirs = Membership.objects.get(campaign=other)
    response = as_organiser.post(f"/campaigns/{campaign.pk}/members/{theirs.pk}/", {"role": "player"})
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.role == "organiser"


def test_a_newcomer_with_an_invitation_signs_up_and_comes_back_to_it(client, campaign):
    join = f"/join/{campaign.invitation_code}/"
    login_page = client.get(join, follow=True).content.decode()
    assert f'href="/accounts/signup/?next=/join/{campaign.invitation_code}/"' in login_page
    signup_page = client.get(f"/accounts/signup/?next={join}").content.decode()
    assert f'name="next" value="{join}"' in signup_page
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
            "next": join,
        },
    )
    assert response["Location"] == join
    assert "Join The Long Trench" in client.get(join).content.decode()


def test_signing_up_never_sends_anyone_to_another_site(client):
    response = client.post(
        "/accounts/signup/",
        {
            "username": "newcomer",
            "email": "newcomer@example.org",
            "password1": "a-very-good-password-42",
            "password2": "a-very-good-password-42",
            "next": "https://evil.example/",
        },
    )
    assert response["Location"] == "/"


def test_the_invitation_box_stays_open_until_every_player_has_a_warband(as_organiser, campaign, warband):
    # pat_player has a warband, quinn_player has none yet: the group is not all in.
    html = as_organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert '<section id="invitation"' in html
    assert "Invite your group" in html


def test_the_invitation_box_folds_away_once_everyone_has_joined(
    as_organiser, campaign, warband, rival_warband
):
    html = as_organiser.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert '<details id="invitation"' in html
    assert "Invite more players" in html
    assert "(3 joined, every player has a warband)" in html
    # Folded, not gone: the link can still be copied.
    assert f"/join/{campaign.invitation_code}/" in html


def test_a_campaign_with_only_its_organiser_shows_the_invitation_open(client, outsider):
    from campaigns.services.campaigns import campaign_create

    campaign = campaign_create(name="Alone", by=outsider)
    client.force_login(outsider)
    html = client.get(f"/campaigns/{campaign.pk}/").content.decode()
    assert '<section id="invitation"' in html
