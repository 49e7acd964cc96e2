"""The Django admin has every combat table, its pages open for a superuser, and the logs cannot be edited there.

rosters/tests/test_admin.py covers the campaign and roster tables with its own list; this covers combat's, found
from the admin's registry so a table registered later is covered too.
"""

import re
from collections import Counter
from datetime import date

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Game, GamePlayer, OutOfAction
from combat import models, rules
from combat.services.campaign_data import campaign_data_copy_demo
from combat.services.post_game.rolls import post_game_roll
from combat.services.post_game_switches import campaign_set_post_game_switches
from combat.services.scenario import game_scenario_roll
from combat.services.starting_xp import starting_xp_share
from combat.services.tracker.board import tracker_start
from combat.services.tracker.damage import tracker_apply_damage
from combat.services.tracker.keys import Sent
from combat.tests.post_game_helpers import enter, record_game
from combat.tests.starting_xp_helpers import settle
from combat.tests.tracker_helpers import setup_game
from rosters.services.warbands import warband_create

pytestmark = pytest.mark.django_db

COMBAT_MODELS = [getattr(models, name) for name in models.__all__]
# Logs, written only by the services: read and delete, never add or edit (combat/admin.py).
READ_ONLY = {
    models.DiceRoll,
    models.TrackerAction,
    models.PostGameRoll,
    models.CampaignDataSet,
    models.GameScenario,
    models.PostGameTrade,
    models.PostGameGlory,
    models.StartingXpRoll,
    models.TrackerActionKey,
}
# An attempt starts with the wizard's first write; its fields are read-only, its answers (inline) are not.
NO_ADD = READ_ONLY | {models.PostGame, models.StartingXp}


def _url(model, view: str, *args) -> str:
    return reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{view}", args=args)


@pytest.fixture
def superuser(client, django_user_model):
    user = django_user_model.objects.create_superuser("root", "root@example.org", "x")
    client.force_login(user)
    return user


@pytest.fixture
def rows(campaign, warband, rival_warband, make_fighter, player, player2):
    """At least two rows in every combat table, each pointing at different rows where it can, so a changelist
    that reads a related row per line shows it: two boards with two actions, two post-games with their rolls and
    answers, and the dice log those rolls went to."""
    table = setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )
    # Each sent with an idempotency key, as a phone's offline queue sends them.
    tracker_apply_damage(
        game=table.game, target_id=table["Fidus"].pk, damage=1, by=player2, version=0, sent=Sent(key="tap-1")
    )
    tracker_apply_damage(
        game=table.game, target_id=table["Vera"].pk, damage=1, by=player, version=1, sent=Sent(key="tap-2")
    )
    other = Game.objects.create(
        campaign=campaign, number=3, played_on=date(2026, 12, 1), status=Game.Status.IN_PROGRESS
    )
    GamePlayer.objects.create(game=other, warband=warband)
    GamePlayer.objects.create(game=other, warband=rival_warband)
    tracker_start(game=other, by=player)

    # The post-games' rows below are Trench Crusade's: on this Fallout: Factions board's campaign, its steps are
    # switched on as house rules (Fallout: Factions' own post-game has no Trauma Step).
    campaign_set_post_game_switches(
        campaign=campaign, on=[switch.key for switch in rules.POST_GAME_SWITCHES], by=player
    )
    ada = make_fighter(warband, "Sister Ada", elite=True, xp=5)
    after = record_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[ada], number=2
    )
    made = enter(after, ada, 4, 1, by=player)
    models.PostGameFighter.objects.create(post_game=made.roll.post_game, fighter=ada, glorious_deeds=1)
    OutOfAction.objects.create(player=after.rival, fighter=table["Kit"])
    theirs = post_game_roll(
        player=after.rival, fighter_id=table["Kit"].pk, purpose="survival", sequence=1, faces=[4], by=player2
    )
    models.PostGameFighter.objects.create(
        post_game=theirs.roll.post_game, fighter=table["Mags"], glorious_deeds=2
    )
    for post_game, fighter in ((made.roll.post_game, ada), (theirs.roll.post_game, table["Mags"])):
        models.PostGameAdvancement.objects.create(
            post_game=post_game, fighter=fighter, number=1, first_chart="ranged", second_chart="wildcard"
        )
        # A purchase planned in each post-game's Hire & Trade.
        models.PostGameTrade.objects.create(
            post_game=post_game, kind="buy", name=f"Grenades for {fighter.name}", cost=15, holder=fighter
        )
        # And a spend of Glory planned in its Use Glory.
        models.PostGameGlory.objects.create(
            post_game=post_game, kind="item", name=f"Relic for {fighter.name}", glory=3, holder=fighter
        )
    for kind in ("location_table:common", "skill_chart:ranged"):
        campaign_data_copy_demo(campaign=campaign, by=player, kinds=[kind])
    # Two scenario rolls, one per game being played.
    campaign_data_copy_demo(campaign=campaign, by=player, kinds=["scenario_table:early"])
    for game in (table.game, other):
        game_scenario_roll(game=game, by=player, face=4)
    # Two late joiners' starting XP, each with a share, its charts and both rolls.
    campaign_data_copy_demo(campaign=campaign, by=player, kinds=["skill_chart:stealth_speed"])
    for name in ("Grey Wardens", "Ash Pilgrims"):
        band = warband_create(campaign=campaign, owner=player2, by=player2, name=name)
        joiner = make_fighter(band, f"Sister {name.split()[0]}", elite=True, xp=1)
        starting_xp_share(warband=band, shares={joiner.pk: 1}, by=player2)  # 1 -> 2: a roll due
        settle(band, joiner, by=player2)
    return table


def test_every_combat_model_is_registered():
    assert [model for model in COMBAT_MODELS if not admin.site.is_registered(model)] == []


@pytest.mark.parametrize("model", COMBAT_MODELS, ids=lambda model: model.__name__)
def test_its_changelist_and_change_page_open_for_a_superuser(client, superuser, rows, model):
    obj = model.objects.order_by("pk").first()
    assert obj is not None, model

    assert client.get(_url(model, "changelist")).status_code == 200
    assert client.get(_url(model, "changelist"), {"q": "a"}).status_code == 200
    assert client.get(_url(model, "change", obj.pk)).status_code == 200


@pytest.mark.parametrize("model", COMBAT_MODELS, ids=lambda model: model.__name__)
def test_its_add_page_opens_unless_it_is_a_log(client, superuser, model):
    response = client.get(_url(model, "add"))

    assert response.status_code == (403 if model in NO_ADD else 200)


@pytest.mark.parametrize(
    "model", sorted(READ_ONLY, key=lambda model: model.__name__), ids=lambda m: m.__name__
)
def test_a_log_cannot_be_edited_in_the_admin(client, superuser, rows, model):
    obj = model.objects.order_by("pk").first()
    before = {field.attname: getattr(obj, field.attname) for field in model._meta.concrete_fields}

    response = client.post(_url(model, "change", obj.pk), {})

    assert response.status_code == 403
    obj.refresh_from_db()
    assert {field.attname: getattr(obj, field.attname) for field in model._meta.concrete_fields} == before


def test_a_post_games_before_images_are_read_only(client, superuser, rows):
    post_game = models.PostGame.objects.filter(answers__fighter__name="Sister Ada").get()
    page = client.get(_url(models.PostGame, "change", post_game.pk)).content.decode()

    assert 'name="status"' not in page
    assert 'name="snapshot"' not in page
    assert 'name="answers-0-glorious_deeds"' in page  # the players' answers stay editable


def test_a_tracked_fighters_state_can_be_fixed(client, superuser, rows):
    tracked = rows.tracked("Fidus")
    page = client.get(_url(models.TrackerFighter, "change", tracked.pk)).content.decode()

    assert 'name="harm"' in page
    assert 'name="status"' in page


def _shape(sql: str) -> str:
    return re.sub(r"\d+", "#", sql)


@pytest.mark.parametrize("model", COMBAT_MODELS, ids=lambda model: model.__name__)
def test_a_changelist_does_not_read_a_related_row_per_line(client, superuser, rows, model):
    assert model.objects.count() >= 2

    with CaptureQueriesContext(connection) as queries:
        assert client.get(_url(model, "changelist")).status_code == 200

    # The admin counts the rows twice (all, and filtered), with the same query; any other query run more than
    # once is a related row read per line, which list_select_related avoids.
    shapes = Counter(_shape(query["sql"]) for query in queries.captured_queries)
    repeated = [shape for shape, count in shapes.items() if count > 1 and "COUNT(*)" not in shape]
    assert repeated == []
