"""Every campaign limit lives on the model; the forms take it from there, and the database refuses the rest.

For each limited field a campaign form shows: the limit itself passes the model and the form, one past it is
refused by both (and by the database constraint where there is one).
"""

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from campaigns.forms import CampaignForm, CampaignSettingsForm
from campaigns.limits import value_bounds
from campaigns.models import SCAR_LIMIT_DEFAULT, SCAR_LIMIT_MAX, SCAR_LIMIT_MIN, Campaign

pytestmark = pytest.mark.django_db

FORMS = (CampaignForm, CampaignSettingsForm)


def campaign_data(**changes) -> dict:
    return {
        "name": "Limits",
        "preset": "trench_crusade",
        "scar_limit": SCAR_LIMIT_DEFAULT,
        "status": "active",
    } | (changes)


def model_refuses(organiser, **values) -> bool:
    campaign = Campaign(created_by=organiser, **{"name": "Limits", **values})
    try:
        campaign.full_clean()
    except ValidationError:
        return True
    return False


def test_the_scar_limit_is_read_from_the_model_field():
    assert value_bounds(Campaign, "scar_limit") == (SCAR_LIMIT_MIN, SCAR_LIMIT_MAX)
    for form_class in FORMS:
        field = form_class().fields["scar_limit"]
        assert (field.min_value, field.max_value) == (SCAR_LIMIT_MIN, SCAR_LIMIT_MAX)
        assert field.initial == Campaign._meta.get_field("scar_limit").default == SCAR_LIMIT_DEFAULT


@pytest.mark.parametrize("form_class", FORMS)
@pytest.mark.parametrize(
    ("scar_limit", "refused"),
    [
        (SCAR_LIMIT_MIN, False),
        (SCAR_LIMIT_MAX, False),
        (SCAR_LIMIT_MIN - 1, True),
        (SCAR_LIMIT_MAX + 1, True),
    ],
)
def test_model_and_form_agree_on_the_scar_limit(organiser, form_class, scar_limit, refused):
    form = form_class(campaign_data(scar_limit=scar_limit))

    assert (not form.is_valid()) is refused
    assert model_refuses(organiser, scar_limit=scar_limit) is refused


@pytest.mark.parametrize("scar_limit", [SCAR_LIMIT_MIN - 1, SCAR_LIMIT_MAX + 1])
def test_the_database_refuses_a_scar_limit_the_model_refuses(organiser, scar_limit):
    with pytest.raises(IntegrityError), transaction.atomic():
        Campaign.objects.create(name="Past the limit", created_by=organiser, scar_limit=scar_limit)


@pytest.mark.parametrize("form_class", FORMS)
def test_model_and_form_agree_on_the_name_length(organiser, form_class):
    longest = Campaign._meta.get_field("name").max_length

    assert form_class().fields["name"].max_length == longest
    assert form_class(campaign_data(name="n" * longest)).is_valid()
    assert not model_refuses(organiser, name="n" * longest)
    assert not form_class(campaign_data(name="n" * (longest + 1))).is_valid()
    assert model_refuses(organiser, name="n" * (longest + 1))
