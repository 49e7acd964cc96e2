"""The battle report's page (campaigns/views/reports.py): who writes and edits, bad input, markup kept inert."""

import datetime
import re

import pytest

from campaigns.models import REPORT_TITLE_LENGTH, BattleReport, Game, GamePlayer, Membership
from campaigns.services import reports as report_services

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("boom")</script>'


@pytest.fixture
def game(campaign, warband, rival_warband):
    game = Game.objects.create(campaign=campaign, number=1, played_on=datetime.date(2025, 3, 1))
    GamePlayer.objects.create(game=game, warband=warband, result="win")
    GamePlayer.objects.create(game=game, warband=rival_warband, result="loss")
    return game


@pytest.fixture
def bystander(make_user, campaign):
    """A player of the campaign whose warband did not take part in the game."""
    user = make_user("bea_bystander")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.Role.PLAYER)
    return user


def url(game) -> str:
    return f"/games/{game.pk}/report/"


def data(**changes) -> dict:
    return {"title": "The Last Stand", "text": "We held.\nThen we ran.", **changes}


@pytest.mark.parametrize("who", ["player", "player2", "organiser"])
def test_a_participant_or_the_organiser_writes_the_report(client, game, who, request):
    user = request.getfixturevalue(who)
    client.force_login(user)
    assert client.get(url(game)).status_code == 200

    response = client.post(url(game), data())

    assert response.status_code == 302
    assert response["Location"] == f"/games/{game.pk}/#battle-report"
    report = BattleReport.objects.get(game=game)
    assert (report.author, report.text) == (user, "We held.\nThen we ran.")


@pytest.mark.parametrize(("who", "status"), [("spectator", 403), ("bystander", 403), ("outsider", 404)])
def test_others_cannot_write_it(client, game, who, status, request):
    client.force_login(request.getfixturevalue(who))

    assert client.get(url(game)).status_code == status
    assert client.post(url(game), data()).status_code == status
    assert not BattleReport.objects.exists()


def test_anonymous_is_sent_to_log_in(client, game):
    response = client.post(url(game), data())
    assert response.status_code == 302
    assert "/login/" in response["Location"]
    assert not BattleReport.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("player", 302), ("organiser", 302), ("player2", 403)])
def test_its_author_or_the_organiser_edits_it(client, game, player, who, status, request):
    report = report_services.report_write(game=game, by=player, title="Ours", text="We won.")
    client.force_login(request.getfixturevalue(who))

    response = client.post(url(game), data(title="Edited"))

    assert response.status_code == status
    report.refresh_from_db()
    assert report.title == ("Edited" if status == 302 else "Ours")
    assert report.author == player


def test_the_edit_form_holds_the_report(client, game, player):
    report_services.report_write(game=game, by=player, title="Ours", text="We won.")
    client.force_login(player)
    html = client.get(url(game)).content.decode()
    assert 'value="Ours"' in html
    assert "We won.</textarea>" in html
    assert "Edit the battle report of Game 1" in html


def test_bad_input_shows_each_error_beside_its_field_and_writes_nothing(client, game, player):
    client.force_login(player)

    response = client.post(url(game), data(title="x" * (REPORT_TITLE_LENGTH + 1), text=""))

    assert response.status_code == 422
    html = response.content.decode()
    title_field = re.search(r'<div class="field has-error">\s*<label for="id_title".*?</div>', html, re.S)
    text_field = re.search(r'<div class="field has-error">\s*<label for="id_text".*?</div>', html, re.S)
    assert title_field is not None
    assert text_field is not None
    assert "at most 120 characters" in html
    assert "This field is required." in html
    assert not BattleReport.objects.exists()


def test_a_nul_in_the_text_is_a_form_error_not_a_500(client, game, player):
    client.force_login(player)
    response = client.post(url(game), data(text="bad\x00text"))
    assert response.status_code == 422
    assert not BattleReport.objects.exists()


def test_markup_in_the_report_is_shown_as_text_on_the_form(client, game, player):
    report_services.report_write(game=game, by=player, title=SCRIPT, text=SCRIPT)
    client.force_login(player)
    html = client.get(url(game)).content.decode()
    assert SCRIPT not in html
    assert "&lt;script&gt;alert(&quot;boom&quot;)&lt;/script&gt;" in html


def test_a_game_of_another_campaign_is_404(client, game, other_player_campaign_user):
    client.force_login(other_player_campaign_user)
    assert client.get(url(game)).status_code == 404


@pytest.fixture
def other_player_campaign_user(make_user, organiser):
    from campaigns.models import Campaign

    user = make_user("far_away")
    elsewhere = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    Membership.objects.create(campaign=elsewhere, user=user, role=Membership.Role.ORGANISER)
    return user
