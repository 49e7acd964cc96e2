"""The Django admin has every campaign and roster model, and its pages open."""

import pytest
from django.contrib import admin

from campaigns.models import Campaign, Game, GamePlayer, Membership, OutOfAction
from rosters.models import Fighter, FoundLocation, Injury, Item, Skill, Warband

pytestmark = pytest.mark.django_db

MODELS = [
    Campaign,
    Membership,
    Game,
    GamePlayer,
    OutOfAction,
    Warband,
    Fighter,
    Injury,
    Skill,
    Item,
    FoundLocation,
]


@pytest.fixture
def learnt(world):
    """A skill and a found Location, which the post-game writes and `world` has none of."""
    Skill.objects.create(
        fighter=world.anselm, code="deadeye", name="Deadeye", chart="Ranged", game=world.game
    )
    FoundLocation.objects.create(
        warband=world.warband, code="chapel", name="Drowned Chapel", table="rare", score=9, game=world.game
    )


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_every_model_is_in_the_admin_and_its_pages_open(client, django_user_model, world, learnt, model):
    assert admin.site.is_registered(model)
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "x"))
    meta = model._meta
    assert client.get(f"/admin/{meta.app_label}/{meta.model_name}/").status_code == 200
    obj = model.objects.first()
    assert client.get(f"/admin/{meta.app_label}/{meta.model_name}/{obj.pk}/change/").status_code == 200


def test_the_battle_report_is_in_the_admin_and_its_pages_open(client, django_user_model, world, player):
    from campaigns.models import BattleReport
    from campaigns.services import reports as report_services

    report = report_services.report_write(game=world.game, by=player, title="The Last Stand", text="We held.")
    assert admin.site.is_registered(BattleReport)
    client.force_login(django_user_model.objects.create_superuser("root", "root@example.org", "x"))
    assert client.get("/admin/campaigns/battlereport/").status_code == 200
    assert client.get(f"/admin/campaigns/battlereport/{report.pk}/change/").status_code == 200
