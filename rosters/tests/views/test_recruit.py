"""rosters/views/recruit.py: the recruit page, its totals as the quantities are typed (htmx and without), one POST
that recruits the whole order or refuses it whole (422, the reason in the summary and beside the totals)."""

import pytest

from rosters.models import Fighter, Warband
from rosters.services import price_lists as price_services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def listed(campaign, organiser, warband):
    price_services.price_list_copy_demo(campaign=campaign, by=organiser)
    Warband.objects.filter(pk=warband.pk).update(strongbox=700)
    return f"/warbands/{warband.pk}/recruit/"


def _order(**quantities) -> dict:
    # The demo lists, by name order: fighter-0 Lantern Warden, fighter-1 Mire Pilgrim, fighter-2 Trench Runner;
    # kit-0 Bell Hammer, kit-1 Chain Sling, kit-2 Rivet Plate.
    return {"fighters_version": "1", "battlekit_version": "1", **quantities}


def test_the_roster_and_the_campaign_page_link_to_it(client, player, listed, warband, campaign):
    client.force_login(player)
    assert f'href="{listed}"' in client.get(f"/warbands/{warband.pk}/").content.decode()
    assert (
        f'href="/campaigns/{campaign.pk}/prices/"'
        in client.get(f"/campaigns/{campaign.pk}/").content.decode()
    )


def test_the_page_lists_every_row_with_a_quantity(client, player, listed):
    client.force_login(player)
    html = client.get(listed).content.decode()
    for name in (
        "Lantern Warden",
        "Mire Pilgrim",
        "Trench Runner",
        "Bell Hammer",
        "Chain Sling",
        "Rivet Plate",
    ):
        assert name in html
    assert 'name="fighter-1"' in html
    assert 'name="kit-2"' in html
    assert 'id="recruit-totals"' in html
    assert "Nothing picked yet" in html


def test_the_page_costs_the_same_whatever_the_list(
    client, player, campaign, organiser, listed, django_assert_num_queries
):
    client.force_login(player)
    client.get(listed)  # the session and the user warm up
    # The user, the membership and warband (access), the price lists: 5, whatever the list holds.
    with django_assert_num_queries(5) as few:
        client.get(listed)
    rows = [
        {"name": f"Pilgrim {n:03}", "cost": 10, "keywords": [], "movement": 6, "health": 1, "harm_limit": 3}
        for n in range(150)
    ]
    price_services.price_list_save(campaign=campaign, kind="fighters", rows=rows, by=organiser)
    with django_assert_num_queries(len(few.captured_queries)):
        html = client.get(listed).content.decode()
    assert "Pilgrim 149" in html


def test_htmx_totals_swap_only_the_totals_and_write_nothing(client, player, listed):
    client.force_login(player)
    before = Fighter.objects.count()
    response = client.get(listed, _order(**{"fighter-1": "10", "kit-0": "1"}), **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<section id="recruit-totals"')
    assert 'id="recruit-total">415<' in html
    assert 'id="recruit-left">285<' in html
    assert Fighter.objects.count() == before


def test_the_totals_say_the_value_and_models_after_beside_the_next_battles_limits(
    client, player, listed, django_assert_num_queries
):
    client.force_login(player)
    order = _order(**{"fighter-1": "10", "fighter-0": "1"})
    client.get(listed, order, **HTMX)
    # The page's 5, and the warband's limits (its fighters with the battles played, one statement): 6 whatever the
    # order.
    with django_assert_num_queries(6):
        html = client.get(listed, order, **HTMX).content.decode()
    limits = html[html.index('id="recruit-limits"') :]
    limits = limits[: limits.index("</p>")]
    assert (
        'value <strong class="num">490</strong> against a Threshold Value of <span class="num">700</span>'
        in limits
    )
    assert (
        '<strong class="num">11</strong> models against a Field Strength of <span class="num">10</span>'
        in limits
    )
    assert "fields no more than these for that battle" in limits


def test_without_javascript_the_total_is_worked_out_as_a_page(client, player, listed):
    client.force_login(player)
    html = client.get(listed, {**_order(**{"fighter-0": "8"}), "totals": "1"}).content.decode()
    assert "<html" in html
    assert 'id="recruit-total">720<' in html
    assert "cannot pay it" in html
    assert 'value="8"' in html  # the quantities typed stay in the form


def test_ten_fighters_in_one_post_back_to_the_roster(client, player, listed, warband):
    client.force_login(player)
    response = client.post(listed, _order(**{"fighter-1": "8", "fighter-2": "2"}))
    assert response.status_code == 302
    assert response.url == f"/warbands/{warband.pk}/#roster"
    assert Fighter.objects.filter(warband=warband).count() == 10
    warband.refresh_from_db()
    assert warband.strongbox == 700 - 8 * 40 - 2 * 35


@pytest.mark.parametrize(
    ("preset", "said"),
    [
        ("trench_crusade", "2 fighters recruited and 1 bought for the Arsenal, for 95 ducats in all."),
        ("fallout_factions", "2 fighters recruited and 1 bought for the Stash, for 95 caps in all."),
    ],
)
def test_the_message_says_the_total_in_the_campaigns_money_and_words(
    client, player, listed, warband, campaign, preset, said
):
    """The roster's message after the order names the money and where the kit went in the game's words: "95 in
    all" said nothing of ducats or caps, and a Fallout: Factions crew has a Stash, not an Arsenal."""
    type(campaign).objects.filter(pk=campaign.pk).update(preset=preset)
    client.force_login(player)
    response = client.post(listed, _order(**{"fighter-1": "2", "kit-0": "1"}), follow=True)
    assert said in response.content.decode()


def test_an_order_the_strongbox_cannot_pay_is_refused_whole_with_the_reason_on_top(
    client, player, listed, warband
):
    client.force_login(player)
    response = client.post(listed, _order(**{"fighter-0": "8"}))
    assert response.status_code == 422
    html = response.content.decode()
    summary = html[html.index('id="error-summary"') : html.index("</div>", html.index('id="error-summary"'))]
    assert "costs 720 ducats" in summary
    assert 'href="#recruit-totals"' in summary
    assert 'role="alert"' in summary
    assert "data-error-summary" in summary
    totals = html[html.index('<section id="recruit-totals"') :]
    assert "20 short, so nothing is bought" in totals[: totals.index("</section>")]
    assert html.index('id="error-summary"') < html.index('id="recruit-fighters"')  # above the fold
    assert not Fighter.objects.filter(warband=warband).exists()


def test_a_bad_quantity_stands_beside_its_field(client, player, listed, warband):
    client.force_login(player)
    response = client.post(listed, _order(**{"fighter-1": "99"}))
    assert response.status_code == 422
    html = response.content.decode()
    assert "Mire Pilgrim: at most 25 at a time." in html
    assert 'aria-invalid="true"' in html
    assert 'href="#id_fighter-1"' in html
    assert not Fighter.objects.filter(warband=warband).exists()


def test_without_a_price_list_it_points_to_the_price_lists(client, player, warband, campaign):
    client.force_login(player)
    html = client.get(f"/warbands/{warband.pk}/recruit/").content.decode()
    assert "no price list yet" in html
    assert f'href="/campaigns/{campaign.pk}/prices/"' in html


@pytest.mark.parametrize(("who", "status"), [("player2", 403), ("spectator", 403), ("outsider", 404)])
def test_only_who_may_change_the_warband_recruits(client, request, listed, who, status):
    client.force_login(request.getfixturevalue(who))
    assert client.get(listed).status_code == status
    assert client.post(listed, _order(**{"fighter-1": "1"})).status_code == status
    assert not Fighter.objects.exists()


def test_the_organiser_recruits_for_a_players_warband(client, organiser, listed, warband):
    client.force_login(organiser)
    assert client.post(listed, _order(**{"fighter-1": "1"})).status_code == 302
    assert Fighter.objects.filter(warband=warband).count() == 1
