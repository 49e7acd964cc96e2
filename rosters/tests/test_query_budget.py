"""The roster and campaign pages cost the same number of queries with 5 fighters as with 50 (at most BUDGET)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rosters.services import battlekit as battlekit_services
from rosters.services import fighters as fighter_services
from rosters.services import games as game_services
from rosters.services import injuries as injury_services

pytestmark = pytest.mark.django_db

# 16: the fighters' skills joined the roster (one query); the roster's Add Battlekit
# form reads the campaign's price list, and its value and limits read the fighters' costs and the battles played
# (one query each, whatever the roster's size).
BUDGET = 16


def fill(warband, player, count: int):
    for number in range(count):
        fighter = fighter_services.fighter_create(
            warband=warband, by=player, name=f"Pilgrim {number}", elite=number % 4 == 0, xp=number % 7
        )
        battlekit_services.item_create(warband=warband, fighter=fighter, name="Trench Club", by=player)
        if number % 3 == 0:
            injury_services.injury_add(fighter=fighter, code="leg_wound", name="Leg Wound", by=player)
    battlekit_services.item_create(warband=warband, name="Spare Shovel", by=player)


def queries_for(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(path)
    assert response.status_code == 200
    return len(captured.captured_queries)


@pytest.mark.parametrize("page", ["roster", "campaign"])
def test_a_page_costs_the_same_with_5_and_50_fighters(
    client, player, warband, rival_warband, make_fighter, page, django_assert_max_num_queries
):
    client.force_login(player)
    heretic = make_fighter(rival_warband, "Heretic Priest", elite=True)
    game_services.game_record(
        campaign=warband.campaign,
        by=player,
        played_on="2025-03-01",
        entries=[
            game_services.GameEntry(warband, "win"),
            game_services.GameEntry(rival_warband, "loss", [heretic]),
        ],
    )
    path = f"/warbands/{warband.pk}/" if page == "roster" else f"/campaigns/{warband.campaign_id}/"
    fill(warband, player, 5)
    with django_assert_max_num_queries(BUDGET):
        small = queries_for(client, path)
    fill(warband, player, 45)
    with django_assert_max_num_queries(BUDGET):
        large = queries_for(client, path)
    assert small == large, f"{small} queries with 5 fighters, {large} with 50"


# The fighter's card drawn: the session and user, then the fighter with its warband, campaign and owner, the
# reader's membership and the card's digest with the other active fighters' ids and names (each piece of
# Battlekit's "Give to" list, drawn once) in one query, its Injuries, Battlekit and skills, its Out of Action marks
# and the campaign's price list.
CARD_QUERIES = 8
# The card read again, nothing it shows changed: the session and user, then the fighter, the membership and the
# digest in one query.
CARD_KEPT_QUERIES = 3


def test_the_fighter_card_costs_the_same_with_5_and_50_fighters(
    client, player, warband, django_assert_num_queries
):
    client.force_login(player)
    fill(warband, player, 5)
    fighter = warband.fighters.order_by("id").first()
    battlekit_services.item_create(warband=warband, fighter=fighter, name="Shovel", by=player)
    path = f"/fighters/{fighter.pk}/"
    with django_assert_num_queries(CARD_QUERIES):
        small = client.get(path)
    fill(warband, player, 45)
    with django_assert_num_queries(CARD_QUERIES):
        large = client.get(path)
    assert small.status_code == large.status_code == 200
    # Every other active fighter is offered in each piece's "Give to" list, and the fighter itself is not.
    html = large.content.decode()
    assert html.count('<option value="arsenal">') == 2
    assert html.count(">Pilgrim 44</option>") == 2
    assert f'<option value="{fighter.pk}">' not in html
