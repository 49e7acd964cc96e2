"""Tests for combat/services/campaign_data.py and combat/selectors/campaign_data.py: a campaign's data saved as
versions (never edited in place), refused rows change nothing, CSV and JSON round trips, and as-of reads."""

import datetime as dt
import json

import pytest
from django.db import IntegrityError, ProgrammingError, transaction
from django.utils import timezone

from combat import rules
from combat.campaign_data_io import (
    CampaignDataError,
    rows_from_text,
    rows_to_csv,
    rows_to_json,
)
from combat.demo_campaign_data import demo_rows
from combat.models import CampaignDataSet
from combat.selectors.campaign_data import campaign_data_as_of, current_campaign_data
from combat.services.campaign_data import campaign_data_copy_demo, campaign_data_import, campaign_data_save

pytestmark = pytest.mark.django_db

COMMON = "location_table:common"
RANGED = "skill_chart:ranged"


def skills(*rolls):
    return [{"roll": roll, "code": f"skill_{roll}", "name": f"Skill {roll}"} for roll in rolls]


def test_each_save_is_a_new_version_and_the_old_ones_stay(campaign, organiser):
    first, new = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 7), by=organiser)
    assert new
    assert first.version == 1
    second, new = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 7, 9), by=organiser)
    assert new
    assert second.version == 2
    assert [s.version for s in CampaignDataSet.objects.filter(campaign=campaign, kind=RANGED)] == [2, 1]
    first.refresh_from_db()
    assert [row["roll"] for row in first.rows] == [2, 7]
    assert second.created_by == organiser


def test_saving_the_same_rows_again_makes_no_version(campaign, organiser):
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(7, 2), by=organiser)
    again, new = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 7), by=organiser)
    assert not new
    assert again.version == 1
    assert CampaignDataSet.objects.count() == 1


def test_rows_are_stored_trimmed_and_in_roll_order(campaign, organiser):
    rows = [{"roll": 9, "code": "b", "name": "  Bee "}, {"roll": 3, "code": "a", "name": "Ay"}]
    data_set, _ = campaign_data_save(campaign=campaign, kind=RANGED, rows=rows, by=organiser)
    assert data_set.rows == [{"roll": 3, "code": "a", "name": "Ay"}, {"roll": 9, "code": "b", "name": "Bee"}]


@pytest.mark.parametrize(
    ("kind", "rows", "words"),
    [
        (RANGED, skills(7, 7), "Two rows have the roll 7"),
        (
            RANGED,
            [*skills(3), {"roll": 4, "code": "skill_3", "name": "Other"}],
            "Two rows have the code skill_3",
        ),
        (RANGED, skills(13), "roll 13 is not a 2D6 result"),
        (RANGED, [{"roll": 5, "code": "x", "name": " "}], "needs a name"),
        (RANGED, [], "has no rows"),
        (COMMON, [{"score": 9, "code": "a", "name": "A"}, {"score": 9, "code": "b", "name": "B"}], "score 9"),
        (COMMON, [{"score": 9, "code": "a", "name": "A"}, {"score": 10, "code": "a", "name": "B"}], "code a"),
        (COMMON, [{"score": n, "code": f"l{n}", "name": f"L{n}"} for n in range(61)], "at most 60"),
        (COMMON, [{"score": 4, "code": "a", "name": "A" * 101}], "longer than 100"),
        ("fighter_types", [{"name": "Nun", "never_promoted": True, "limited_potential": "x"}], "yes or no"),
        (
            "fighter_types",
            [
                {"name": "Nun", "never_promoted": True, "limited_potential": False},
                {"name": " nun", "never_promoted": False, "limited_potential": False},
            ],
            "both name the fighter type",
        ),
    ],
)
def test_it_refuses_bad_rows_in_plain_words_and_changes_nothing(campaign, organiser, kind, rows, words):
    campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=[kind])
    before = list(CampaignDataSet.objects.values_list("kind", "version", "rows"))
    with pytest.raises(CampaignDataError) as refused:
        campaign_data_save(campaign=campaign, kind=kind, rows=rows, by=organiser)
    assert any(words in problem for problem in refused.value.problems), refused.value.problems
    assert list(CampaignDataSet.objects.values_list("kind", "version", "rows")) == before


def test_it_refuses_a_kind_the_campaign_does_not_keep(campaign, organiser, rival_warband):
    for kind in ("skill_chart:psychic", "patron_skills:999999", "nonsense"):
        with pytest.raises(CampaignDataError, match="keeps no data"):
            campaign_data_save(campaign=campaign, kind=kind, rows=skills(2), by=organiser)
    assert not CampaignDataSet.objects.exists()


def test_a_saved_version_cannot_be_edited_in_place(campaign, organiser):
    data_set, _ = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=organiser)
    with pytest.raises(ProgrammingError, match="Cannot update rows"), transaction.atomic():
        CampaignDataSet.objects.filter(pk=data_set.pk).update(rows=skills(3))
    data_set.refresh_from_db()
    assert data_set.rows == skills(2)


def test_the_database_refuses_a_repeated_version_and_an_unknown_kind(campaign, organiser):
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=organiser)
    with pytest.raises(IntegrityError), transaction.atomic():
        CampaignDataSet.objects.create(campaign=campaign, kind=RANGED, version=1, rows=[])
    with pytest.raises(IntegrityError), transaction.atomic():
        CampaignDataSet.objects.create(campaign=campaign, kind="skill_chart:psychic", version=1, rows=[])


def test_deleting_the_account_that_saved_a_version_keeps_the_version(campaign, organiser, make_user):
    olga = make_user("olga_two")
    data_set, _ = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=olga)
    olga.delete()
    data_set.refresh_from_db()
    assert data_set.created_by is None
    assert data_set.rows == skills(2)


def test_a_save_is_told_in_the_history_with_who_and_how_many_rows(campaign, organiser):
    campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON), by=organiser)
    event = CampaignDataSet.pgh_event_model.objects.get()
    assert event.pgh_label == "insert"
    assert event.pgh_context.metadata["action"] == "campaign_data.save"
    assert event.pgh_context.metadata["user"] == organiser.pk
    assert "the Common Locations, v1 (5 rows)" in event.pgh_context.metadata["reason"]


@pytest.mark.parametrize("kind", [RANGED, COMMON, "fighter_types", "patron_skills:{warband}"])
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_then_import_gives_the_same_rows(campaign, organiser, warband, kind, fmt):
    kind = kind.format(warband=warband.pk)
    (saved,) = campaign_data_copy_demo(campaign=campaign, by=organiser, kinds=[kind])
    text = rows_to_csv(kind, saved.rows) if fmt == "csv" else rows_to_json(kind, saved.rows, version=1)
    CampaignDataSet.objects.filter(pk=saved.pk).delete()  # a fresh campaign's first import
    imported, new = campaign_data_import(campaign=campaign, kind=kind, text=text, fmt="auto", by=organiser)
    assert new
    assert imported.rows == saved.rows
    assert imported.note == "imported"


def test_a_csv_reads_yes_and_no_and_its_columns_in_any_order():
    text = "limited_potential,name,never_promoted\nyes,War Dog,no\n,Shrine,1\n"
    assert rows_from_text("fighter_types", text, fmt="csv") == [
        {"name": "War Dog", "never_promoted": False, "limited_potential": True},
        {"name": "Shrine", "never_promoted": True, "limited_potential": False},
    ]


@pytest.mark.parametrize(
    ("text", "fmt", "words"),
    [
        ("", "csv", "The CSV is empty"),
        ("roll,name\n2,A\n", "csv", "must name the fields roll, code, name"),
        ("roll,code,name\ntwo,a,A\n", "csv", "Line 2: roll must be a whole number"),
        ("roll,code,name\n2,a,A,extra\n", "csv", "more cells"),
        ("{not json", "json", "not JSON"),
        ('{"rows": 3}', "json", "a list of rows"),
        (rows_to_json(COMMON, []), "json", "holds the Common Locations, not the Ranged skill chart"),
        (b"\xff\xfe", "csv", "not UTF-8"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_and_nothing_changes(campaign, organiser, text, fmt, words):
    with pytest.raises(CampaignDataError) as refused:
        campaign_data_import(campaign=campaign, kind=RANGED, text=text, fmt=fmt, by=organiser)
    assert any(words in problem for problem in refused.value.problems), refused.value.problems
    assert not CampaignDataSet.objects.exists()


def test_an_import_with_a_repeated_roll_names_it_and_changes_nothing(campaign, organiser):
    text = "roll,code,name\n7,a,Ay\n7,b,Bee\n"
    with pytest.raises(CampaignDataError, match="Two rows have the roll 7"):
        campaign_data_import(campaign=campaign, kind=RANGED, text=text, fmt="csv", by=organiser)
    assert not CampaignDataSet.objects.exists()


def test_copying_the_demo_set_fills_every_kind_not_saved_yet(campaign, organiser, warband, rival_warband):
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(4), by=organiser)
    made = campaign_data_copy_demo(campaign=campaign, by=organiser)
    kinds = {data_set.kind for data_set in made}
    assert RANGED not in kinds
    assert {COMMON, "skill_chart:wildcard", "fighter_types", f"patron_skills:{warband.pk}"} <= kinds
    # skill charts, Location tables, fighter types, the four stages' scenario tables, Patron skills
    assert len(made) == 3 + 3 + 1 + 4 + 2
    assert {"scenario_table:early", "scenario_table:final"} <= kinds
    data = current_campaign_data(campaign=campaign)
    assert data.rows(RANGED) == skills(4)
    assert set(data.skill_charts()) == {"melee_strength", "ranged", "stealth_speed", "wildcard"}
    assert isinstance(data.location_tables()["common"], rules.LocationTable)
    assert data.scenario_table("mid").lookup(1) == "The Drowned Chapel"
    assert data.never_promoted("anchorite shrine")
    assert not data.never_promoted("War Prophet")
    assert data.limited_potential("Trench Pilgrim")
    assert [row["code"] for row in data.patron_skills(warband.pk)][0] == "ashen_blessing"


def test_as_of_reads_the_version_saved_at_or_before_the_moment(
    campaign, organiser, django_assert_num_queries
):
    first, _ = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=organiser)
    between = timezone.now()
    second, _ = campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 3), by=organiser)
    campaign_data_save(campaign=campaign, kind=COMMON, rows=demo_rows(COMMON), by=organiser)

    with django_assert_num_queries(1):
        then = campaign_data_as_of(campaign=campaign, at=between)
        assert then.version(RANGED) == 1
        assert then.version(COMMON) is None
    before_anything = campaign_data_as_of(campaign=campaign, at=first.created_at - dt.timedelta(seconds=1))
    assert before_anything.sets == {}
    with django_assert_num_queries(1):
        now = current_campaign_data(campaign=campaign)
        assert (now.version(RANGED), now.version(COMMON)) == (2, 1)
    assert now.skill_charts()["ranged"].at(3).code == "skill_3"
    assert json.loads(rows_to_json(RANGED, now.rows(RANGED)))["rows"] == second.rows


def _fields(data_set: CampaignDataSet) -> dict:
    return {
        field.attname: getattr(data_set, field.attname) for field in CampaignDataSet._meta.concrete_fields
    }


def test_the_reads_return_what_the_orms_queryset_would(campaign, organiser, warband, rival_warband):
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=organiser)
    between = timezone.now()
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 3), by=organiser)
    campaign_data_copy_demo(campaign=campaign, by=organiser)
    for at in (None, between):
        orm = CampaignDataSet.objects.filter(campaign=campaign)
        orm = orm if at is None else orm.filter(created_at__lte=at)
        expected = {
            data_set.kind: _fields(data_set) for data_set in orm.order_by("kind", "-version").distinct("kind")
        }
        read = (
            current_campaign_data(campaign=campaign)
            if at is None
            else campaign_data_as_of(campaign=campaign, at=at)
        )
        assert {kind: _fields(data_set) for kind, data_set in read.sets.items()} == expected


def test_a_saved_versions_chart_is_made_once_and_a_new_version_makes_its_own(campaign, organiser):
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2), by=organiser)
    first = current_campaign_data(campaign=campaign).skill_charts()["ranged"]
    assert current_campaign_data(campaign=campaign).skill_charts()["ranged"] is first
    campaign_data_save(campaign=campaign, kind=RANGED, rows=skills(2, 3), by=organiser)
    newer = current_campaign_data(campaign=campaign).skill_charts()["ranged"]
    assert newer.at(3).code == "skill_3"
    assert first.at(3) is None
