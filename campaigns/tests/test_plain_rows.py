"""A model's row read by a plain statement is made into the instance the ORM makes (campaigns/plain_rows.py)."""

import pytest
from django.db import connection

from campaigns.models import Campaign
from campaigns.plain_rows import Part, part, slices

pytestmark = pytest.mark.django_db


def fields(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.concrete_fields}


def test_a_row_makes_the_instance_the_orm_makes(campaign):
    # JSON fields too: the ORM decodes their text, and so must a plain read.
    Campaign.objects.filter(pk=campaign.pk).update(
        post_game_switches={"glory": True}, house_trauma_table=[{"d66": 11, "name": "Shaken"}]
    )
    read = Part(Campaign, "c")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read.columns} FROM {read.table} WHERE c.id = %s", [campaign.pk])  # noqa: S608
        row = cursor.fetchone()
    assert len(read.names) == len(row)
    made = read.load(row)
    assert type(made) is Campaign
    assert fields(made) == fields(Campaign.objects.get(pk=campaign.pk))
    assert made.post_game_switches == {"glory": True}
    assert not made._state.adding  # a row from the database, as the ORM's own


def test_a_part_of_a_few_fields_reads_its_key_first_and_a_missing_row_is_none(campaign):
    read = Part(Campaign, "c", only=("name",))
    assert read.names == ("id", "name")
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {read.columns}, 7 FROM {read.table} WHERE c.id = %s", [campaign.pk])  # noqa: S608
        row = cursor.fetchone()
    at, rest = slices([read])
    made = read.load(row[at])
    assert (made.pk, made.name, row[rest]) == (campaign.pk, campaign.name, (7,))
    assert read.load((None, None)) is None  # a left join that found no row


def test_the_part_of_a_whole_model_is_made_once_per_process():
    assert part(Campaign, "c") is part(Campaign, "c")
    assert part(Campaign, "c") is not part(Campaign, "k")
