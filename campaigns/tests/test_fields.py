"""Numbers are typed with the digits 0-9: a Unicode digit is refused, never read as a number."""

import pytest
from django.test import Client

from campaigns.fields import WholeNumberField
from campaigns.forms import CampaignForm
from rosters.forms.fighters import XPForm

pytestmark = pytest.mark.django_db

OTHER_DIGITS = ["١", "٣", "۳", "३", "１", "𝟙", "1٣"]


@pytest.mark.parametrize("typed", OTHER_DIGITS)
def test_a_number_in_other_digits_is_refused_with_a_message(typed):
    field = WholeNumberField()
    with pytest.raises(Exception, match="Type a whole number with the digits 0-9."):
        field.clean(typed)


@pytest.mark.parametrize(("typed", "number"), [("3", 3), (" 12 ", 12), ("-2", -2), ("+4", 4)])
def test_a_number_in_0_to_9_reads_as_before(typed, number):
    assert WholeNumberField().clean(typed) == number


def test_empty_is_still_the_fields_own_business():
    assert WholeNumberField(required=False).clean("") is None


def test_the_xp_buttons_form_refuses_an_arabic_indic_one():
    form = XPForm(data={"delta": "١"})
    assert not form.is_valid()
    assert form.errors["delta"] == ["Type a whole number with the digits 0-9."]


def test_a_campaign_with_a_unicode_scar_limit_is_refused_and_not_created(organiser):
    client = Client()
    client.force_login(organiser)
    form = CampaignForm(data={"name": "Digits", "preset": "trench_crusade", "scar_limit": "٣"})
    assert not form.is_valid()
    assert "scar_limit" in form.errors
    from campaigns.models import Campaign

    response = client.post(
        "/campaigns/new/", {"name": "Digits", "preset": "trench_crusade", "scar_limit": "٣"}
    )
    assert response.status_code == 422
    assert "Type a whole number with the digits 0-9." in response.content.decode()
    assert not Campaign.objects.filter(name="Digits").exists()
