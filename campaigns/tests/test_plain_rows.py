"""A model's row read by a plain statement is made into the instance the ORM makes (campaigns/plain_rows.py)."""

import pytest
from django.db import connection

from campaigns.models import Campaign
from campaigns.plain_rows import Columns, columns

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_a_row_makes_the_instance_the_orm_makes(campaign):
    # JSON fields too: the ORM decodes their text, and so must a plain read.
    Campaign.objects.filter(pk=campaign.pk).update(
        post_game_switches={"glory": True}, house_trauma_table=[{"d66": 11, "name": "Shaken"}]
    )
    read = Columns(Campaign, "c")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read.sql} FROM {read.table} c WHERE c.id = %s", [campaign.pk])  # noqa: S608
        row = cursor.fetchone()
    assert read.width == len(row)
    made = read.make(row)
    assert type(made) is Campaign
    assert fields(made) == fields(Campaign.objects.get(pk=campaign.pk))
    assert made.post_game_switches == {"glory": True}
    assert not made._state.adding  # a row from the database, as the ORM's own


def test_the_columns_of_a_model_are_made_once_per_process():
    assert columns(Campaign, "c") is columns(Campaign, "c")
    assert columns(Campaign, "c") is not columns(Campaign, "k")
