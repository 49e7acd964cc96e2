"""Injury writes: recorded and struck off, with the history they leave."""

import pytest
from django.core.exceptions import ValidationError

from campaigns.tests.history import deleted_context, last_context
from rosters.models import Injury
from rosters.services import injuries as injury_services

pytestmark = pytest.mark.django_db


def test_it_adds_and_strikes_off_an_injury(warband, player, make_fighter):
    fighter = make_fighter(warband, "Brother Anselm", elite=True)
    injury = injury_services.injury_add(
        fighter=fighter, code="hand_wound", name="Hand Wound", effect="-1 DICE", d66=14, by=player
    )
    context = last_context(injury, "insert")
    assert context["action"] == "injury.add"
    assert context["reason"] == "Brother Anselm suffered Hand Wound (D66 14)"
    assert context["fighter"] == fighter.pk
    pk = injury.pk
    injury_services.injury_remove(injury=injury, by=player)
    assert not Injury.objects.filter(pk=pk).exists()
    assert deleted_context(Injury, pk)["action"] == "injury.remove"


def test_it_refuses_an_injury_with_a_roll_that_is_not_a_d66(warband, player, make_fighter):
    fighter = make_fighter(warband, "Brother Anselm", elite=True)
    with pytest.raises(ValidationError):
        injury_services.injury_add(fighter=fighter, code="hand_wound", name="Hand Wound", d66=70, by=player)
    with pytest.raises(ValidationError):
        injury_services.injury_add(fighter=fighter, code="hand_wound", name="", by=player)
    assert Injury.objects.count() == 0
