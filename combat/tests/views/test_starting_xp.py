"""combat/views/starting_xp.py: the late joiner's starting XP page, its writes, refusals with nothing changed, who
may write, and constant query counts (CAMPAIGN_PHASE.md, late joiners)."""

import pytest

from combat.models import DiceRoll, StartingXp, StartingXpFighter
from combat.services.starting_xp import starting_xp_share
from combat.tests.starting_xp_helpers import late_joiner, settle
from rosters.models import Fighter

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def band(campaign, warband, rival_warband, organiser, player2):
    return late_joiner(
        campaign=campaign, warband=warband, rival_warband=rival_warband, organiser=organiser, owner=player2
    )


@pytest.fixture
def agnes(band, make_fighter):
    return make_fighter(band, "Sister Agnes", elite=True)


@pytest.fixture
def owner(client, player2):
    client.force_login(player2)
    return client


def url(band, part=""):
    return f"/warbands/{band.pk}/starting-xp/{part}"


def test_the_roster_links_a_late_joiner_to_its_starting_xp(owner, band, agnes):
    html = owner.get(f"/warbands/{band.pk}/").content.decode()
    assert f'href="/warbands/{band.pk}/starting-xp/"' in html
    assert "it may tick 3 XP" in html


def test_the_page_offers_a_share_for_each_elite_fighter(owner, band, agnes, make_fighter):
    make_fighter(band, "Kell")  # a Troop
    html = owner.get(url(band)).content.decode()
    assert "Share 3 starting XP" in html
    assert f'name="xp-{agnes.pk}"' in html
    assert "Kell" not in html


def test_sharing_then_the_cards_then_the_apply(owner, band, agnes, player2):
    response = owner.post(url(band, "share/"), {f"xp-{agnes.pk}": "2"})
    assert response.status_code == 302
    html = owner.get(url(band)).content.decode()
    assert f'id="card-{agnes.pk}-1"' in html
    assert f'action="/warbands/{band.pk}/starting-xp/"' in html
    assert 'hx-target="#starting-xp-step"' in html
    for data in (
        {"do": "charts", "first_chart": "ranged", "second_chart": "stealth_speed"},
        {"do": "roll", "die": "1", "mode": "enter", "first": "4", "second": "5"},
        {"do": "roll", "die": "2", "mode": "roll"},
    ):
        response = owner.post(url(band), {"fighter": agnes.pk, "number": 1, **data}, **HTMX)
        assert response.status_code == 200
    assert "Long Shadow Shot" in response.content.decode()
    owner.post(url(band), {"do": "pick", "fighter": agnes.pk, "number": 1, "skill": "long_shadow_shot"})
    response = owner.post(url(band, "apply/"))
    assert response.status_code == 302
    assert Fighter.objects.get(pk=agnes.pk).xp == 2
    roster = owner.get(f"/warbands/{band.pk}/").content.decode()
    assert "Long Shadow Shot" in roster
    again = owner.post(url(band, "apply/"))
    assert again.status_code == 422
    assert "it is ticked once" in again.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"xp-{a}": "4"}, "4 starting XP shared, but only 3 may be ticked"),
        ({"xp-{a}": "-1"}, "greater than or equal to 0"),
        ({"xp-{a}": "two"}, "whole number"),
    ],
)
def test_a_bad_share_is_refused_with_422_and_nothing_changes(owner, band, agnes, data, message):
    posted = {key.format(a=agnes.pk): value for key, value in data.items()}
    response = owner.post(url(band, "share/"), posted, **HTMX)
    assert response.status_code == 422
    assert message in response.content.decode()
    assert not StartingXp.objects.exists()


def test_a_bad_card_write_is_refused_on_its_card_and_nothing_changes(owner, band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    response = owner.post(
        url(band),
        {"do": "charts", "fighter": agnes.pk, "number": 1, "first_chart": "ranged", "second_chart": "ranged"},
    )
    assert response.status_code == 422
    assert "Pick two different skill charts." in response.content.decode()
    response = owner.post(
        url(band),
        {
            "do": "roll",
            "fighter": agnes.pk,
            "number": 1,
            "die": "1",
            "mode": "enter",
            "first": "9",
            "second": "1",
        },
    )
    assert response.status_code == 422
    assert not DiceRoll.objects.filter(warband=band).exists()


def test_only_the_owner_or_the_organiser_writes_and_outsiders_see_nothing(
    client, band, agnes, player, outsider
):
    client.force_login(player)  # a player of the campaign, not the owner: reads, never writes
    assert client.get(url(band)).status_code == 200
    assert client.post(url(band, "share/"), {f"xp-{agnes.pk}": "1"}).status_code == 403
    client.force_login(outsider)
    assert client.get(url(band)).status_code == 404
    assert not StartingXpFighter.objects.exists()


@pytest.mark.parametrize("count", [1, 10])
def test_the_page_reads_in_a_constant_number_of_queries(
    owner, band, player2, make_fighter, count, django_assert_num_queries
):
    fighters = [make_fighter(band, f"Sister {n}", elite=True) for n in range(count)]
    starting_xp_share(
        warband=band, shares={fighters[0].pk: 2, **({fighters[1].pk: 1} if count > 1 else {})}, by=player2
    )
    settle(band, fighters[0], by=player2, skill="long_shadow_shot")
    with django_assert_num_queries(QUERIES):
        assert owner.get(url(band)).status_code == 200


QUERIES = 11  # the session and the user, the warband, the page (selectors/starting_xp.py), the template


def test_the_warbands_dice_log_shows_a_starting_xp_roll_with_no_game(owner, band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2)
    html = owner.get(f"/warbands/{band.pk}/dice/").content.decode()
    assert "Sister Agnes: Skill Advancement 2D6 on Ranged, 9 (4+5) (starting XP)" in html


def test_a_typed_die_is_corrected_from_its_card(owner, band, agnes, player2):
    starting_xp_share(warband=band, shares={agnes.pk: 2}, by=player2)
    settle(band, agnes, by=player2)
    typed = DiceRoll.objects.filter(warband=band).order_by("id").first()
    html = owner.get(url(band)).content.decode()
    assert f'action="/warbands/{band.pk}/starting-xp/rolls/{typed.pk}/correct/"' in html
    refused = owner.post(url(band, f"rolls/{typed.pk}/correct/"), {"first": "3", "second": "4"})
    assert refused.status_code == 422
    assert DiceRoll.objects.get(pk=typed.pk).counts
    done = owner.post(
        url(band, f"rolls/{typed.pk}/correct/"), {"first": "3", "second": "4", "reason": "typo"}
    )
    assert done.status_code == 302
    assert DiceRoll.objects.get(pk=typed.pk).status == "corrected"
