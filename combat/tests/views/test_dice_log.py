"""The dice log page: every roll with who, when, server or entered, faces and purpose; members only."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from combat.models import DiceRoll

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr id="roll-(\d+)">')


def roll(campaign, **fields):
    values = {"source": "server", "sides": 6, "faces": [3], "purpose": "survival"}
    values.update(fields)
    return DiceRoll.objects.create(campaign=campaign, **values)


def test_anonymous_visitors_are_sent_to_log_in(client, campaign):
    response = client.get(reverse("campaign_dice_log", args=[campaign.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_outsiders_get_404(client, outsider, campaign):
    client.force_login(outsider)
    assert client.get(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 404


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
def test_every_member_reads_it(request, client, who, campaign):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 200


def test_it_takes_no_writes(client, player, campaign):
    client.force_login(player)
    assert client.post(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 405


def test_it_shows_who_when_how_the_faces_and_what_for(
    client, player, player2, campaign, warband, make_fighter
):
    player.first_name = "Pat"
    player.save()
    marcus = make_fighter(warband, "Brother Marcus", elite=True)
    roll(
        campaign,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        faces=[1, 4],
        purpose="trauma",
        label="D66 14",
    )
    roll(campaign, rolled_by=player2, source="entered", sides=10, faces=[7, 2], purpose="attack")
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert "Trauma roll" in html
    assert "Brother Marcus" in html
    assert "D66 14" in html
    assert ">D66<" in html
    assert "1 4" in html
    assert "Pat" in html
    assert "rolled by the server" in html
    assert "entered from the table" in html
    assert "2D10" in html
    assert "quinn_player" in html
    # Newest first.
    ids = [int(i) for i in ROW.findall(html)]
    assert ids == sorted(ids, reverse=True)


def test_other_campaigns_rolls_stay_out(client, player, campaign, organiser):
    from campaigns.models import Campaign

    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = roll(other, label="foreign roll")
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert f'id="roll-{foreign.pk}"' not in html


def test_pages_by_keyset_cover_every_roll_once(client, player, campaign):
    made = [roll(campaign, faces=[n % 6 + 1]).pk for n in range(120)]
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    seen, params = [], {}
    while True:
        response = client.get(url, params)
        assert response.status_code == 200
        seen += [int(i) for i in ROW.findall(response.content.decode())]
        older = response.context["page"].older
        if not older:
            break
        params = {"before": older}
    assert seen == sorted(made, reverse=True)


def test_the_older_rolls_come_as_an_htmx_fragment(client, player, campaign):
    for _ in range(55):
        roll(campaign)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    older = client.get(url).context["page"].older
    html = client.get(url, {"before": older}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in html
    assert len(ROW.findall(html)) == 5
    assert 'id="dice-log-more"' in html


def test_filters_by_game_and_warband(client, player, campaign, warband, rival_warband):
    from datetime import date

    from campaigns.models import Game

    game = Game.objects.create(campaign=campaign, number=1, played_on=date(2026, 5, 1))
    ours = roll(campaign, game=game, warband=warband)
    theirs = roll(campaign, game=game, warband=rival_warband)
    loose = roll(campaign)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    html = client.get(url, {"warband": warband.pk}).content.decode()
    assert f'id="roll-{ours.pk}"' in html
    assert f'id="roll-{theirs.pk}"' not in html
    html = client.get(url, {"game": game.number}).content.decode()
    assert f'id="roll-{loose.pk}"' not in html
    assert f'id="roll-{theirs.pk}"' in html


def test_bad_links_are_400s_with_a_reason(client, player, campaign):
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"before": "yesterday"})
    assert response.status_code == 400
    assert "That page link is not valid" in response.content.decode()
    assert client.get(url, {"game": "12345678"}).status_code == 400


def test_the_page_runs_the_same_queries_for_few_and_many_rolls(
    client, player, campaign, warband, make_fighter
):
    fighter = make_fighter(warband, "Brother Marcus")
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    for _ in range(3):
        roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _ in range(80):
        roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(few) == len(many) <= 10


def test_a_game_the_campaign_does_not_have_is_said_in_place_of_the_log(client, player, campaign):
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"game": 7}, headers={"HX-Request": "true", "HX-Target": "dice-log"})
    assert response.status_code == 422
    assert "There is no Game 7 in this campaign." in response.content.decode()
