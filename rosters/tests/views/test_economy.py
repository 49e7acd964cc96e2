"""The economy's pages: the price lists, recruiting and buying from them, selling, the ledger page."""

import re

import pytest

from rosters.models import Fighter, Item, PriceList, StrongboxEntry
from rosters.services import battlekit as battlekit_services
from rosters.services import price_lists as price_services
from rosters.services import strongbox as strongbox_services
from rosters.services import warbands as warband_services
from rosters.tests.conftest import fighter_data

pytestmark = pytest.mark.django_db


@pytest.fixture
def listed(campaign, organiser):
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    return campaign


@pytest.fixture
def band(campaign, player):
    return warband_services.warband_create(campaign=campaign, owner=player, by=player, name="Grey Wardens")


# -- the price lists ------------------------------------------------------------------------------------------


def test_members_read_the_price_lists_and_only_the_organiser_edits(
    client, listed, player, spectator, organiser
):
    client.force_login(spectator)
    html = client.get(f"/campaigns/{listed.pk}/prices/").content.decode()
    assert "Bell Hammer" in html
    assert "Lantern Warden" in html
    assert "Save as a new version" not in html
    response = client.post(f"/campaigns/{listed.pk}/prices/", {"action": "copy_demo"})
    assert response.status_code == 403
    client.force_login(organiser)
    assert "Save as a new version" in client.get(f"/campaigns/{listed.pk}/prices/").content.decode()


def test_the_price_lists_name_their_columns_in_words_not_as_the_files_fields(client, listed, player):
    """A phone shows each row as a card labelled by its column: "Harm Limit", not the CSV field "harm_limit" (the
    field names stay in the help of the edit form, where a file is written)."""
    client.force_login(player)
    html = client.get(f"/campaigns/{listed.pk}/prices/").content.decode()
    headers = re.findall(r'<th scope="col">([^<]*)</th>', html)
    assert headers == ["Name", "Cost", "Keywords", "Movement", "Health", "Harm Limit"] + [
        "Name",
        "Cost",
        "Keywords",
        "Removable",
    ]
    labels = set(re.findall(r'data-label="([^"]*)"', html))
    assert labels == {"Name", "Cost", "Keywords", "Movement", "Health", "Harm Limit", "Removable"}


def test_a_bad_price_list_is_refused_beside_the_field_and_nothing_is_saved(client, campaign, organiser):
    client.force_login(organiser)
    response = client.post(
        f"/campaigns/{campaign.pk}/prices/",
        {
            "action": "save",
            "kind": "battlekit",
            "battlekit-rows": "name,cost,keywords,removable\nLance,-3,,yes\n",
        },
    )
    assert response.status_code == 422
    assert "cost must be from 0 to 10000, got -3" in response.content.decode()
    assert not PriceList.objects.exists()


def test_the_organiser_saves_a_list_as_csv_and_exports_it(client, campaign, organiser):
    client.force_login(organiser)
    text = "name,cost,keywords,removable\nMaul,20,HEAVY,no\n"
    response = client.post(
        f"/campaigns/{campaign.pk}/prices/", {"action": "save", "kind": "battlekit", "battlekit-rows": text}
    )
    assert response.status_code == 302
    exported = client.get(f"/campaigns/{campaign.pk}/prices/battlekit/export/?format=csv")
    assert exported.content.decode() == "name,cost,keywords,removable\nMaul,20,HEAVY,no\n"
    assert client.get(f"/campaigns/{campaign.pk}/prices/battlekit/export/?format=json").json()["rows"][0] == {
        "name": "Maul",
        "cost": 20,
        "keywords": ["HEAVY"],
        "removable": False,
    }


def test_the_settings_page_says_how_to_enter_the_groups_own_list(client, campaign, organiser):
    client.force_login(organiser)
    html = client.get(f"/campaigns/{campaign.pk}/settings/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/prices/"' in html
    assert "No official list is shipped" in html


# -- recruiting and buying from the list -----------------------------------------------------------------------


def test_a_fighter_type_from_the_list_fills_the_form_in(client, listed, band, player):
    client.force_login(player)
    html = client.get(f"/warbands/{band.pk}/fighters/new/?type=Trench+Runner").content.decode()
    assert 'value="Trench Runner"' in html
    assert 'name="cost" value="35"' in html


def test_recruiting_pays_and_a_fighter_the_strongbox_cannot_pay_is_refused(client, band, player):
    client.force_login(player)
    response = client.post(f"/warbands/{band.pk}/fighters/new/", fighter_data(cost=60, pay="on"))
    assert response.status_code == 302
    band.refresh_from_db()
    assert band.strongbox == 640
    response = client.post(
        f"/warbands/{band.pk}/fighters/new/", fighter_data(name="Giant", cost=700, pay="on")
    )
    assert response.status_code == 422
    assert "holds 640 ducats: it cannot pay 700" in response.content.decode()
    assert not Fighter.objects.filter(name="Giant").exists()


def test_buying_from_the_list_fills_in_the_cost_and_pays(client, listed, band, player):
    client.force_login(player)
    response = client.post(
        f"/warbands/{band.pk}/items/new/",
        {"listed": "Rivet Plate", "name": "", "holder": "arsenal", "pay": "on"},
    )
    assert response.status_code == 302
    plate = Item.objects.get(warband=band)
    assert (plate.name, plate.cost, plate.removable, plate.keywords) == ("Rivet Plate", 30, False, ["ARMOUR"])
    band.refresh_from_db()
    assert band.strongbox == 670


def test_a_negative_cost_is_refused_beside_the_field(client, band, player):
    client.force_login(player)
    response = client.post(
        f"/warbands/{band.pk}/items/new/", {"name": "Lance", "holder": "arsenal", "cost": -4}
    )
    assert response.status_code == 422
    assert "Cost is at least 0." in response.content.decode()
    assert not Item.objects.filter(warband=band).exists()


# -- selling -----------------------------------------------------------------------------------------------------


def test_selling_from_the_arsenal_credits_half_the_cost(client, band, player):
    lance = battlekit_services.item_create(warband=band, by=player, name="Lance", cost=5)
    client.force_login(player)
    html = client.get(f"/warbands/{band.pk}/").content.decode()
    assert "Sell for 3 ducats" in html
    response = client.post(f"/items/{lance.pk}/sell/")
    assert response.status_code == 302
    band.refresh_from_db()
    assert band.strongbox == 703


def test_selling_kit_that_cannot_be_removed_is_refused_with_422(client, band, player):
    from rosters.services import fighters as fighter_services

    odo = fighter_services.fighter_create(warband=band, by=player, name="Odo")
    plate = battlekit_services.item_create(
        warband=band, by=player, name="Rivet Plate", cost=30, removable=False, fighter=odo
    )
    client.force_login(player)
    response = client.post(f"/items/{plate.pk}/sell/")
    assert response.status_code == 422
    assert "Rivet Plate cannot be removed from Odo, so it cannot be sold." in response.content.decode()
    assert Item.objects.filter(pk=plate.pk).exists()


def test_a_rival_cannot_sell_my_kit(client, band, player2, player):
    lance = battlekit_services.item_create(warband=band, by=player, name="Lance", cost=5)
    client.force_login(player2)
    assert client.post(f"/items/{lance.pk}/sell/").status_code == 403
    assert Item.objects.filter(pk=lance.pk).exists()


# -- the ledger page ---------------------------------------------------------------------------------------------


def test_the_ledger_lists_entries_newest_first_in_pages(client, band, player, organiser):
    for number in range(1, 56):
        strongbox_services.strongbox_adjust(warband=band, by=organiser, reason=f"Entry {number}", ducats=1)
    client.force_login(player)
    first = client.get(f"/warbands/{band.pk}/ledger/").content.decode()
    assert first.index("Entry 55") < first.index("Entry 54")
    assert "Entry 6 <" in first
    assert "Entry 5 <" not in first
    assert "Older entries" in first
    newest_shown = StrongboxEntry.objects.filter(warband=band).order_by("-id")[49]
    older = client.get(f"/warbands/{band.pk}/ledger/?before={newest_shown.pk}").content.decode()
    assert "Entry 5 <" in older
    assert "Starting value of Grey Wardens" in older
    assert "Entry 55" not in older


def test_the_ledger_page_costs_the_same_with_10_and_100_entries(
    client, band, player, organiser, django_assert_max_num_queries
):
    client.force_login(player)
    client.get(f"/warbands/{band.pk}/ledger/")
    for number in range(100):
        strongbox_services.strongbox_adjust(warband=band, by=organiser, reason=f"Entry {number}", ducats=1)
    with django_assert_max_num_queries(12):
        client.get(f"/warbands/{band.pk}/ledger/")


def test_the_organiser_adjusts_with_a_reason_and_a_player_cannot(client, band, player, organiser):
    client.force_login(player)
    assert client.post(f"/warbands/{band.pk}/ledger/", {"ducats": 5, "reason": "Mine"}).status_code == 403
    client.force_login(organiser)
    response = client.post(f"/warbands/{band.pk}/ledger/", {"ducats": 5, "reason": ""})
    assert response.status_code == 422
    assert "Say why: the ledger keeps the reason." in response.content.decode()
    response = client.post(f"/warbands/{band.pk}/ledger/", {"ducats": -701, "reason": "Too much"})
    assert response.status_code == 422
    assert "cannot pay 701" in response.content.decode()
    assert client.post(f"/warbands/{band.pk}/ledger/", {"ducats": 5, "reason": "Found"}).status_code == 302
    band.refresh_from_db()
    assert band.strongbox == 705


def test_a_mangled_page_is_not_found(client, band, player):
    client.force_login(player)
    assert client.get(f"/warbands/{band.pk}/ledger/?before=abc").status_code == 404


@pytest.mark.parametrize("fmt", ["json", "auto"])
def test_a_deeply_nested_json_import_is_refused_beside_the_field_and_nothing_is_saved(
    client, campaign, organiser, fmt
):
    """Five thousand nested lists would overflow Python's parser: the depth is refused before the parse."""
    client.force_login(organiser)
    posted = {"action": "import", "kind": "battlekit", "battlekit-import-text": "[" * 5_000 + "]" * 5_000}
    response = client.post(f"/campaigns/{campaign.pk}/prices/", {**posted, "battlekit-import-format": fmt})
    assert response.status_code == 422
    assert "The file nests too deeply to be a price list" in response.content.decode()
    assert not PriceList.objects.exists()


@pytest.mark.parametrize("preset", ["trench_crusade", "fallout_factions"])
def test_the_roster_says_what_its_ledger_holds_in_plain_words(client, band, player, preset):
    """The link says what the ledger holds: "every ducats in and out" read wrong in either game's money."""
    type(band.campaign).objects.filter(pk=band.campaign_id).update(preset=preset)
    client.force_login(player)
    html = client.get(f"/warbands/{band.pk}/").content.decode()
    assert "ledger</a>: what came in and went out, and why." in html
    assert "every ducats" not in html
    assert "every caps" not in html
