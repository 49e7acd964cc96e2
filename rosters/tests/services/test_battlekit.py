"""Battlekit writes: moved between fighters and the Arsenal, changed, deleted."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.tests.history import deleted_context, last_context
from rosters.models import Item
from rosters.services import battlekit as battlekit_services

pytestmark = pytest.mark.django_db


def test_battlekit_moves_between_fighters_and_the_arsenal(warband, player, make_fighter):
    anselm = make_fighter(warband, "Brother Anselm", elite=True)
    odo = make_fighter(warband, "Pilgrim Odo")
    item = battlekit_services.item_create(warband=warband, name="Holy Relic", keywords=["heavy"], by=player)
    assert item.in_arsenal
    assert item.keywords == ["HEAVY"]
    assert last_context(item, "insert")["reason"] == "Holy Relic added to the Arsenal"

    battlekit_services.item_move(item=item, to_fighter=anselm, by=player)
    battlekit_services.item_move(item=item, to_fighter=odo, by=player)
    item.refresh_from_db()
    assert item.fighter == odo
    context = last_context(item, "update")
    assert context["action"] == "item.move"
    assert context["reason"] == "Holy Relic moved from Brother Anselm to Pilgrim Odo"
    battlekit_services.item_move(item=item, to_fighter=None, by=player)
    item.refresh_from_db()
    assert item.in_arsenal


def test_battlekit_that_cannot_be_removed_stays(warband, player, make_fighter):
    anselm = make_fighter(warband, "Brother Anselm", elite=True)
    item = battlekit_services.item_create(
        warband=warband, fighter=anselm, name="Bound Relic", removable=False, by=player
    )
    with pytest.raises(ValidationError, match="cannot be removed"):
        battlekit_services.item_move(item=item, to_fighter=None, by=player)
    item.refresh_from_db()
    assert item.fighter == anselm


def test_battlekit_cannot_go_to_another_warband_or_a_removed_fighter(
    warband, rival_warband, player, make_fighter
):
    stranger = make_fighter(rival_warband, "Heretic Priest")
    fallen = make_fighter(warband, "Fallen Pilgrim", status="dead")
    item = battlekit_services.item_create(warband=warband, name="Shovel", by=player)
    with pytest.raises(ValidationError, match="not in Iron Sepulchre"):
        battlekit_services.item_move(item=item, to_fighter=stranger, by=player)
    with pytest.raises(ValidationError, match="not on the active roster"):
        battlekit_services.item_move(item=item, to_fighter=fallen, by=player)
    item.refresh_from_db()
    assert item.in_arsenal


def test_it_updates_and_deletes_battlekit(warband, player):
    item = battlekit_services.item_create(warband=warband, name="Shovel", by=player)
    battlekit_services.item_update(
        item=item, by=player, changes={"name": "Entrenching Tool", "keywords": ["two-handed"]}
    )
    item.refresh_from_db()
    assert (item.name, item.keywords) == ("Entrenching Tool", ["TWO-HANDED"])
    assert last_context(item, "update")["action"] == "item.update"
    with pytest.raises(ValidationError):
        battlekit_services.item_update(item=item, by=player, changes={"name": ""})
    pk = item.pk
    battlekit_services.item_delete(item=item, by=player)
    assert deleted_context(Item, pk)["action"] == "item.delete"
