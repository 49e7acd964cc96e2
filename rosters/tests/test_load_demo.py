"""`manage.py load_demo`: a demo campaign on an empty database, once, with a post-game waiting."""

from io import StringIO

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command

from campaigns.models import Campaign, Game, GamePlayer
from rosters.models import Fighter, Injury, Item, Warband

pytestmark = pytest.mark.django_db


def load() -> str:
    out = StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def test_it_loads_the_demo_campaign_and_prints_the_accounts():
    output = load()
    assert "organiser  trench-organiser" in output
    assert "player     trench-player" in output
    assert authenticate(username="organiser", password="trench-organiser") is not None
    assert authenticate(username="player", password="trench-player") is not None

    campaign = Campaign.objects.get()
    assert campaign.preset == "trench_crusade"
    pilgrims = Warband.objects.get(name="The Iron Sepulchre")
    assert pilgrims.owner.username == "player"
    assert pilgrims.fighters.count() == 12
    assert pilgrims.fighters.filter(status=Fighter.Status.ACTIVE).count() == 11
    assert sum(f.is_elite for f in pilgrims.fighters.all()) == 4
    assert Item.objects.filter(warband=pilgrims, fighter__isnull=True).count() == 2
    assert Injury.objects.filter(fighter__warband=pilgrims).count() == 2
    assert Warband.objects.count() == 2

    games = {game.number: game for game in Game.objects.all()}
    assert games[1].status == games[2].status == Game.Status.DONE
    assert games[3].status == Game.Status.RECORDED
    waiting = GamePlayer.objects.filter(game=games[3], post_game=GamePlayer.PostGame.PENDING)
    assert waiting.count() == 2
    assert games[3].players.get(warband=pilgrims).out_of_action.count() == 2


def test_it_does_nothing_when_there_is_a_campaign_already():
    load()
    counts = (Campaign.objects.count(), Fighter.objects.count(), Game.objects.count())
    assert "not loaded again" in load()
    assert (Campaign.objects.count(), Fighter.objects.count(), Game.objects.count()) == counts


def test_it_keeps_the_password_of_a_user_who_exists(make_user):
    make_user("player")
    output = load()
    assert "password is unchanged" in output
    assert authenticate(username="player", password="trench-player") is None
