"""The fighter page's skills: shown on the page, the roster row and the printed card; added by hand
with a refusal beside the field; struck off; only by who may change the warband."""

import pytest
from django.urls import reverse

from campaigns.models import Game
from rosters.models import Skill

pytestmark = pytest.mark.django_db


@pytest.fixture
def agnes(warband, make_fighter):
    return make_fighter(warband, "Sister Agnes", elite=True, xp=4)


def test_the_skill_shows_on_the_fighter_page_the_roster_row_and_the_card(client, agnes, player, campaign):
    game = Game.objects.create(campaign=campaign, number=3, played_on="2026-11-28", created_by=player)
    Skill.objects.create(fighter=agnes, code="deadeye", name="Deadeye", chart="Ranged 9", game=game)
    client.force_login(player)

    page = client.get(reverse("fighter_detail", args=[agnes.pk])).content.decode()
    assert '<strong>Deadeye</strong> <span class="muted small">(Ranged 9)</span>' in page
    assert "Game 3" in page
    roster = client.get(reverse("warband_detail", args=[agnes.warband_id])).content.decode()
    assert 'Skills: <span class="tag" title="Ranged 9">Deadeye</span>' in roster
    card = client.get(reverse("fighter_card_print", args=[agnes.pk])).content.decode()
    assert "<dt>Skills</dt><dd><strong>Deadeye</strong> (Ranged 9)</dd>" in card


def test_a_skill_is_added_by_hand_and_one_it_has_is_refused_beside_the_field(client, agnes, player):
    client.force_login(player)
    url = reverse("skill_create", args=[agnes.pk])
    response = client.post(url, {"name": "Deadeye", "chart": "an ability"})
    assert response.status_code == 302
    assert Skill.objects.get(fighter=agnes).chart == "an ability"

    refused = client.post(url, {"name": "deadeye"})
    assert refused.status_code == 422
    assert "Sister Agnes already has deadeye." in refused.content.decode()
    assert Skill.objects.filter(fighter=agnes).count() == 1

    blank = client.post(url, {"name": "  "})
    assert blank.status_code == 422
    assert Skill.objects.filter(fighter=agnes).count() == 1


def test_a_skill_is_struck_off_and_only_by_who_may_change_the_warband(client, agnes, player, spectator):
    skill = Skill.objects.create(fighter=agnes, code="deadeye", name="Deadeye")
    client.force_login(spectator)
    assert client.post(reverse("skill_delete", args=[skill.pk])).status_code == 403
    assert client.post(reverse("skill_create", args=[agnes.pk]), {"name": "Dodge"}).status_code == 403
    client.force_login(player)
    assert client.post(reverse("skill_delete", args=[skill.pk])).status_code == 302
    assert not Skill.objects.exists()
