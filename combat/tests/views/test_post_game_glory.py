"""combat/views/post_game/glory.py: the Use Glory page (CAMPAIGN_PHASE.md step 7), every refusal
a 422 with its reason beside the field and nothing changed, htmx swapping the step alone, the Review and the
applied overview telling the spends, and the same number of queries for one fighter as for ten."""

import pytest
from django.urls import reverse

from combat.models import PostGame, PostGameGlory
from combat.tests.money_helpers import glory_opening_entry, spend
from combat.tests.post_game_helpers import enter, record_game
from rosters.models import Fighter, Item, StrongboxEntry, Warband

pytestmark = pytest.mark.django_db


@pytest.fixture
def after(campaign, warband, rival_warband, make_fighter):
    marcus = make_fighter(warband, "Brother Marcus", elite=True, cost=800)
    Item.objects.create(warband=warband, fighter=marcus, name="Shield", cost=15)
    glory_opening_entry(warband, 6)
    return record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)


def url(after, name):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


def rows():
    return {
        model.__name__: list(model.objects.order_by("pk").values())
        for model in (PostGame, PostGameGlory, Fighter, Item, StrongboxEntry, Warband)
    }


def test_the_page_shows_the_glory_and_the_form(client, player, after):
    client.force_login(player)
    page = client.get(url(after, "post_game_glory")).content.decode()
    assert "<h2>Use Glory</h2>" in page
    assert 'id="glory-after">6<' in page
    assert 'name="glory-kind"' in page
    assert "Back: Hire &amp; Trade" in page


def test_a_spend_the_glory_cannot_pay_is_a_422_beside_the_cost_and_nothing_changes(client, player, after):
    client.force_login(player)
    before = rows()
    data = {
        "action": "spend",
        "glory-kind": "item",
        "glory-name": "Relic",
        "glory-glory": "7",
        "glory-holder": "arsenal",
    }
    response = client.post(url(after, "post_game_glory"), data)
    assert response.status_code == 422
    page = response.content.decode()
    assert 'id="id_glory-glory-error">Relic costs 7 Glory: the warband has 6 Glory' in page
    assert rows() == before


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (
            {"glory-kind": "item", "glory-name": "Relic", "glory-glory": "0"},
            'id="id_glory-glory-error">Glory is at least 1',
        ),
        ({"glory-kind": "item", "glory-name": "Relic", "glory-glory": "9999"}, "Glory is at most 1000"),
        (
            {"glory-kind": "item", "glory-name": " ", "glory-glory": "1"},
            'id="id_glory-name-error">Give it a name.',
        ),
        (
            {"glory-kind": "benefit", "glory-name": "Vow", "glory-glory": "1"},
            'id="id_glory-benefit-error">Say what',
        ),
        (
            {"glory-kind": "item", "glory-name": "Relic", "glory-glory": "1", "glory-holder": "999"},
            "Select a valid choice",
        ),
        ({"glory-kind": "bribe", "glory-name": "Relic", "glory-glory": "1"}, "Select a valid choice"),
    ],
)
def test_bad_input_is_a_422_beside_its_field_and_nothing_changes(client, player, after, data, words):
    client.force_login(player)
    before = rows()
    response = client.post(url(after, "post_game_glory"), {"action": "spend", **data})
    assert response.status_code == 422
    assert words in response.content.decode()
    assert rows() == before


@pytest.mark.parametrize(
    ("data", "words"),
    [({"action": "remove", "spend": "nope"}, "not planned"), ({"action": "steal"}, "not one of")],
)
def test_other_bad_posts_are_a_422_and_nothing_changes(client, player, after, data, words):
    client.force_login(player)
    before = rows()
    response = client.post(url(after, "post_game_glory"), data)
    assert response.status_code == 422
    assert words in response.content.decode()
    assert rows() == before


def test_htmx_swaps_the_step_alone(client, player, after):
    client.force_login(player)
    data = {"action": "spend", "glory-kind": "mercenary", "glory-name": "Hired Sword", "glory-glory": "2"}
    response = client.post(url(after, "post_game_glory"), data, headers={"HX-Request": "true"})
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith('<section id="glory-step"')
    assert "Hired the mercenary Hired Sword for 2 Glory" in page


def test_spends_then_the_review_then_the_apply_and_the_overview(client, player, after, warband):
    client.force_login(player)
    data = {"action": "spend", "glory-kind": "item", "glory-name": "Saint's Finger", "glory-glory": "4"}
    marcus = Fighter.objects.get(name="Brother Marcus")
    assert (
        client.post(url(after, "post_game_glory"), {**data, "glory-holder": str(marcus.pk)}).status_code
        == 302
    )
    benefit = {
        "action": "spend",
        "glory-kind": "benefit",
        "glory-name": "Vow",
        "glory-glory": "2",
        "glory-benefit": "a vow of silence",
    }
    assert client.post(url(after, "post_game_glory"), benefit).status_code == 302
    assert client.post(url(after, "post_game_trade"), {"action": "pass"})["Location"] == url(
        after, "post_game_glory"
    )
    assert client.post(url(after, "post_game_glory"), {"action": "pass"})["Location"] == url(
        after, "post_game_review"
    )
    review = client.get(url(after, "post_game_review")).content.decode()
    assert "Glory Item Saint&#x27;s Finger for 4 Glory (Brother Marcus)" in review
    assert "Vow for 2 Glory: a vow of silence" in review
    assert "Back: Use Glory" in review
    assert client.post(url(after, "post_game_apply")).status_code == 302
    warband.refresh_from_db()
    assert warband.glory == 0
    overview = client.get(url(after, "post_game")).content.decode()
    assert (
        "Use Glory: Glory Item Saint&#x27;s Finger for 4 Glory (Brother Marcus); Vow for 2 Glory" in overview
    )
    assert client.get(url(after, "post_game_glory")).status_code == 302  # applied: back to the overview


def test_a_spectator_reads_and_cannot_write(client, spectator, after):
    client.force_login(spectator)
    assert client.get(url(after, "post_game_glory")).status_code == 200
    assert client.post(url(after, "post_game_glory"), {"action": "pass"}).status_code == 403


# Measured: 13 for 1 fighter and for 10 (the session and the user, the player with its membership, the post-game
# read with the spends planned and the trades, one each, the warband's Battlekit read once with the fighters'; no
# price list on this form).
QUERIES = 13


@pytest.mark.parametrize("count", [1, 10])
def test_the_page_takes_the_same_queries_for_one_fighter_as_for_ten(
    client, player, campaign, warband, rival_warband, make_fighter, count, django_assert_num_queries
):
    glory_opening_entry(warband, 9)
    for number in range(count):
        fighter = make_fighter(warband, f"Yeoman {number}")
        Item.objects.create(warband=warband, fighter=fighter, name=f"Rifle {number}", cost=10)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    spend(after, player, "item", "Relic", 2, holder=Fighter.objects.filter(warband=warband).first())
    client.force_login(player)
    client.get(url(after, "post_game_glory"))  # warm the session alike
    with django_assert_num_queries(QUERIES):
        response = client.get(url(after, "post_game_glory"))
    assert response.status_code == 200


def test_a_papal_states_warband_sees_its_4_glory_from_the_reinforcements(
    client, player, campaign, warband, rival_warband, make_fighter
):
    """CAMPAIGN_PHASE.md: "A Papal States warband gains 4 Glory each time it does this" (worth 600, under 800)."""
    warband.faction = "Papal States"
    warband.save(update_fields=["faction"])
    make_fighter(warband, "Brother Marcus", elite=True, cost=600)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    client.force_login(player)
    assert client.post(url(after, "post_game_reinforcements"), {"action": "call"}).status_code == 302
    page = client.get(url(after, "post_game_reinforcements")).content.decode()
    assert 'id="reinforcements-glory">4<' in page
    glory = client.get(url(after, "post_game_glory")).content.decode()
    assert 'id="glory-after">4<' in glory
    assert "(with 4 from the Reinforcements)" in glory


def test_a_glory_item_for_a_fighter_this_post_game_kills_is_refused_with_422(
    client, player, campaign, warband, rival_warband, make_fighter
):
    # The POST is parsed against every active fighter; the service, reading the post-game, refuses the one who dies
    # in it, and the page shows the form again on the post-game's holders, the refusal beside the holder.
    cole = make_fighter(warband, "Cole")
    glory_opening_entry(warband, 6)
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[cole])
    enter(after, cole, 1, by=player)  # RULING T-2: a Troop dies on a 1 or 2
    client.force_login(player)
    before = rows()
    data = {"action": "spend", "glory-kind": "item", "glory-name": "Relic", "glory-glory": "1"}
    response = client.post(url(after, "post_game_glory"), {**data, "glory-holder": str(cole.pk)})
    assert response.status_code == 422
    assert 'id="id_glory-holder-error">Select a valid choice' in response.content.decode()
    assert rows() == before
