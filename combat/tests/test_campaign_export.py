"""A whole campaign as one JSON file: the demo campaign exported, wiped, imported again comes
back row for row; a malformed file is refused with a clear message and nothing changed."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from campaigns.models import Campaign
from combat.campaign_export import TABLES, CampaignImportRefused, export_campaign, import_campaign
from combat.services.scenario import game_scenario_roll
from combat.tests.scenario_helpers import make_game
from rosters.models import Warband

pytestmark = pytest.mark.django_db


def rows(campaign_pk: int) -> dict:
    from django.core import serializers

    seen = {}
    for model, path in TABLES:
        queryset = model._default_manager.filter(**{path: campaign_pk}).order_by("pk")
        seen[model._meta.label] = serializers.serialize("python", queryset, use_natural_foreign_keys=True)
    return seen


@pytest.fixture
def demo():
    call_command("load_demo")
    return Campaign.objects.get()


def wipe(campaign: Campaign) -> None:
    """This install forgets the campaign and its people, as a fresh install would not have them."""
    users = list(campaign.memberships.values_list("user_id", flat=True))
    campaign.delete()
    get_user_model().objects.filter(pk__in=users).delete()


def test_the_demo_campaign_comes_back_row_for_row(demo, tmp_path):
    pk = demo.pk  # deleting the campaign below clears demo.pk
    game = make_game(demo, *Warband.objects.filter(campaign=demo).order_by("pk")[:2])
    game.created_by = demo.created_by  # as the game form records it (the import checks every row)
    game.save(update_fields=["created_by"])
    game_scenario_roll(game=game, by=demo.created_by, face=2)
    before = rows(pk)
    assert before["combat.GameScenario"]
    assert before["combat.PostGame"]
    assert before["combat.DiceRoll"]
    assert before["combat.TrackerGame"]
    path = tmp_path / "campaign.json"
    call_command("export_campaign", str(demo.pk), str(path))
    data = json.loads(path.read_text())
    assert len(data["members"]) >= 2
    wipe(demo)
    assert not Campaign.objects.exists()

    call_command("import_campaign", str(path))

    assert rows(pk) == before
    # The people come back by name, with no usable password until one is set.
    for member in data["members"]:
        user = get_user_model().objects.get(username=member["username"])
        assert not user.has_usable_password()
    # New rows after the import get new ids (the sequences moved past the file's).
    assert Campaign.objects.create(name="Next", created_by=user).pk > pk


def test_importing_into_an_install_that_holds_the_campaign_is_refused(demo):
    text = json.dumps(export_campaign(demo))
    with pytest.raises(CampaignImportRefused, match="fresh install"):
        import_campaign(text)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "not json at all", "not JSON"),
        (lambda d: [], "exactly the keys"),
        (lambda d: {**d, "format": "warband-ledger/warband"}, "not a warband-ledger/campaign file"),
        (lambda d: {**d, "extra": 1}, "exactly the keys"),
        (lambda d: {**d, "objects": [{"model": "auth.user", "pk": 1, "fields": {}}]}, "not a campaign row"),
        (
            lambda d: {**d, "objects": [r for r in d["objects"] if r["model"] != "campaigns.campaign"]},
            "exactly one",
        ),
        (lambda d: {**d, "members": [{"username": ""}]}, "members must be"),
    ],
)
def test_a_malformed_file_is_refused_with_a_message_and_nothing_changes(demo, change, message):
    data = export_campaign(demo)
    wipe(demo)
    changed = change(data)
    with pytest.raises(CampaignImportRefused, match=message):
        import_campaign(changed if isinstance(changed, str) else json.dumps(changed))
    assert not Campaign.objects.exists()


def test_rows_that_do_not_fit_are_refused_whole(demo):
    data = export_campaign(demo)
    wipe(demo)
    fighter = next(row for row in data["objects"] if row["model"] == "rosters.fighter")
    fighter["fields"]["xp"] = "lots"
    with pytest.raises(CampaignImportRefused):
        import_campaign(json.dumps(data))
    assert not Campaign.objects.exists()
    assert not get_user_model().objects.exists()


def test_the_command_says_why_and_that_nothing_was_imported(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text("{}")
    with pytest.raises(CommandError, match="exactly the keys .* Nothing was imported."):
        call_command("import_campaign", str(path))


def test_a_deeply_nested_file_is_refused_before_it_is_parsed():
    with pytest.raises(CampaignImportRefused, match="nests too deeply to be a campaign export"):
        import_campaign("[" * 5_000 + "]" * 5_000)
    assert not Campaign.objects.exists()
