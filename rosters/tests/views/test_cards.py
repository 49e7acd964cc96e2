"""The fighter cards to print (rosters/views/cards.py): who may read them, what each card prints, GET only."""

import pytest

from rosters.services import battlekit as battlekit_services
from rosters.services import injuries as injury_services
from rosters.tests.conftest import use_preset_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def marcus(warband, player, make_fighter):
    marcus = make_fighter(
        warband,
        "Brother Marcus",
        elite=True,
        keywords=["ELITE", "PILGRIM"],
        fighter_type="Trench Pilgrim",
        strength=6,
        luck=3,
        health=2,
        harm_limit=2,
        movement=5,
        xp=5,
        battle_scars=1,
    )
    injury_services.injury_add(
        fighter=marcus, by=player, code="14", name="Hand Wound", effect="-1 DICE to Melee.", d66=14
    )
    battlekit_services.item_create(
        warband=warband, fighter=marcus, name="Lance", keywords=["HEAVY"], by=player
    )
    return marcus


def test_the_roster_prints_a_card_per_active_fighter(client, spectator, warband, marcus, make_fighter):
    make_fighter(warband, "Pilgrim Odo")
    make_fighter(warband, "Fallen Pilgrim", status="dead")
    client.force_login(spectator)
    response = client.get(f"/warbands/{warband.pk}/cards/")
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="print-card"') == 2
    assert "Fallen Pilgrim" not in html
    for text in (
        "Brother Marcus",
        "Pilgrim Odo",
        "Hand Wound",
        "(D66 14)",
        "-1 DICE to Melee.",
        "Lance (HEAVY)",
    ):
        assert text in html
    assert "ELITE, PILGRIM" in html
    assert "css/paper-a4.css" in html


def test_every_field_of_one_fighters_card(client, player, marcus):
    use_preset_for(
        marcus.warband.campaign, "strength"
    )  # Fallout: Factions: S.P.E.C.I.A.L., Harm and Injuries
    client.force_login(player)
    html = client.get(f"/fighters/{marcus.pk}/card/").content.decode()
    assert html.count('class="print-card"') == 1
    assert "<td>5″</td>" in html
    assert "<td>6</td>" in html
    assert "<td>3</td>" in html
    assert "Battle Scars</dt><dd>1 of 3" in html
    assert "XP 5" in html
    assert html.count('class="box threshold ticked"') == 2  # 2 and 4 XP reached
    assert html.count('class="box threshold"') == 2  # 7 and 10 ahead
    assert "Harm (Harm Limit 2)" in html
    assert "Injuries at the table (Health 2)" in html


def test_a_trench_crusade_card_has_its_profile_and_no_harm_boxes(client, player, warband, make_fighter):
    odo = make_fighter(warband, "Pilgrim Odo", ranged=-1, melee=2, armour=-1, base_size=40)
    client.force_login(player)
    html = client.get(f"/fighters/{odo.pk}/card/").content.decode()
    for written in ("<td>6″</td>", "<td>-1D</td>", "<td>+2D</td>", "<td>-1</td>", "<td>40mm</td>"):
        assert written in html, written
    assert '<abbr title="Ranged">R</abbr>' in html
    assert '<abbr title="Strength">' not in html
    assert "Harm boxes" not in html  # Harm and the Harm Limit are Fallout: Factions' (seed 000)


def test_letter_paper_is_a_choice_on_the_page(client, player, marcus):
    client.force_login(player)
    html = client.get(f"/fighters/{marcus.pk}/card/?paper=letter").content.decode()
    assert "css/paper-letter.css" in html
    assert '<option value="letter" selected>' in html
    bad = client.get(f"/fighters/{marcus.pk}/card/?paper=../../etc").content.decode()
    assert "css/paper-a4.css" in bad


def test_an_outsider_gets_404_and_anonymous_is_sent_to_log_in(client, outsider, warband, marcus):
    assert client.get(f"/warbands/{warband.pk}/cards/").status_code == 302
    client.force_login(outsider)
    assert client.get(f"/warbands/{warband.pk}/cards/").status_code == 404
    assert client.get(f"/fighters/{marcus.pk}/card/").status_code == 404


def test_the_cards_take_no_post(client, player, warband, marcus):
    client.force_login(player)
    assert client.post(f"/warbands/{warband.pk}/cards/").status_code == 405
    assert client.post(f"/fighters/{marcus.pk}/card/").status_code == 405


def test_the_roster_and_the_fighter_link_to_their_cards(client, player, warband, marcus):
    client.force_login(player)
    assert f'href="/warbands/{warband.pk}/cards/"' in client.get(f"/warbands/{warband.pk}/").content.decode()
    assert f'href="/fighters/{marcus.pk}/card/"' in client.get(f"/fighters/{marcus.pk}/").content.decode()


def test_a_fighter_name_with_markup_prints_as_text(client, player, warband, make_fighter):
    odo = make_fighter(warband, "<script>alert(1)</script>")
    client.force_login(player)
    html = client.get(f"/fighters/{odo.pk}/card/").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def _queries(client, path: str) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return len(queries)


def test_the_print_page_costs_the_same_queries_for_1_or_12_fighters(
    client, player, warband, marcus, make_fighter
):
    client.force_login(player)
    path = f"/warbands/{warband.pk}/cards/"
    one = _queries(client, path)
    for n in range(11):
        fighter = make_fighter(warband, f"Pilgrim {n}", xp=n)
        injury_services.injury_add(fighter=fighter, by=player, code=f"c{n}", name=f"Wound {n}")
        battlekit_services.item_create(warband=warband, fighter=fighter, name=f"Blade {n}", by=player)
    twelve = _queries(client, path)
    assert client.get(path).content.decode().count('class="print-card"') == 12
    assert twelve == one
