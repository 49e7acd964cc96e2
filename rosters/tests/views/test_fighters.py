"""The fighter pages: editing a roster row in place, XP +/-, adding a fighter, the card, leaving the roster and
coming back, Injuries added by hand."""

import re

import pytest

from campaigns.tests.history import events_of
from rosters.models import Fighter
from rosters.tests.conftest import fighter_data, use_preset_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def test_edit_with_htmx_swaps_the_row_for_its_form(as_player, world):
    response = as_player.get(f"/fighters/{world.anselm.pk}/edit/", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="fighter-row-{world.anselm.pk}"')
    assert "<html" not in html
    assert 'name="xp"' in html
    assert f'hx-target="#fighter-row-{world.anselm.pk}"' in html


def test_edit_without_javascript_is_a_page(as_player, world):
    response = as_player.get(f"/fighters/{world.anselm.pk}/edit/")
    assert "<html" in response.content.decode()
    assert 'name="xp"' in response.content.decode()


def test_saving_the_row_returns_the_row(as_player, world):
    data = fighter_data(name="Brother Anselm", elite="on", xp=7, battle_scars=1)
    response = as_player.post(f"/fighters/{world.anselm.pk}/edit/", data, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith(f'<tr id="fighter-row-{world.anselm.pk}"')
    assert 'name="xp"' not in html
    world.anselm.refresh_from_db()
    assert (world.anselm.xp, world.anselm.battle_scars, world.anselm.is_elite) == (7, 1, True)
    assert "PILGRIM" in world.anselm.keywords


def test_saving_without_javascript_goes_back_to_the_roster(as_player, world):
    data = fighter_data(name="Brother Anselm", elite="on", xp=7)
    response = as_player.post(f"/fighters/{world.anselm.pk}/edit/", data)
    assert response.status_code == 302
    assert response["Location"] == f"/warbands/{world.warband.pk}/#fighter-row-{world.anselm.pk}"


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"strength": 11}, "Strength is at most 10."),
        ({"agility": 0}, "Agility is at least 1."),
        ({"xp": -1}, "XP is at least 0."),
        ({"name": "   "}, "Give the fighter a name."),
        ({"name": ""}, "Give the fighter a name."),
        ({"harm_limit": 11}, "Harm Limit is at most 10."),
        ({"movement": "fast"}, "Movement must be a whole number."),
        # Trench Crusade's profile, written as the rules write it (campaigns/profiles.py).
        ({"ranged": "+4D"}, "Ranged is from -3D to +3D."),
        ({"melee": "fast"}, "Melee must be dice, such as +1D, -1D or 0."),
        ({"armour": "-6"}, "Armour is from -5 to +5."),
        ({"base_size": 10}, "Base (mm) is at least 20."),
    ],
)
def test_bad_input_in_the_row_is_refused_with_a_message_and_changes_nothing(
    as_player, world, change, message
):
    use_preset_for(world.campaign, *change)  # the stats of the campaign's own profile
    before = {f.name: getattr(world.anselm, f.attname) for f in Fighter._meta.fields}
    events = len(events_of(world.anselm))
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/edit/", fighter_data(**{"name": "Brother Anselm", **change}), **HTMX
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert message in html
    assert html.lstrip().startswith(f'<tr id="fighter-row-{world.anselm.pk}"')
    world.anselm.refresh_from_db()
    assert {f.name: getattr(world.anselm, f.attname) for f in Fighter._meta.fields} == before
    assert len(events_of(world.anselm)) == events


def test_cancel_brings_back_the_row(as_player, world):
    response = as_player.get(f"/fighters/{world.anselm.pk}/row/", **HTMX)
    assert response.content.decode().lstrip().startswith(f'<tr id="fighter-row-{world.anselm.pk}"')


def test_xp_buttons_answer_with_the_row(as_player, world):
    response = as_player.post(f"/fighters/{world.anselm.pk}/xp/", {"delta": 1}, **HTMX)
    assert response.status_code == 200
    assert f'<output class="xp-value" id="xp-{world.anselm.pk}"' in response.content.decode()
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 4


def test_xp_past_limited_potential_is_refused_in_the_row(as_player, world, organiser, make_fighter):
    """RULING X-2: a Limited Potential fighter (the campaign data's flag on its type) never goes past 7 XP."""
    from combat.services.campaign_data import campaign_data_copy_demo

    campaign_data_copy_demo(campaign=world.warband.campaign, by=organiser)
    odo = make_fighter(world.warband, "Pilgrim Odo", elite=True, fighter_type="Trench Pilgrim", xp=7)
    response = as_player.post(f"/fighters/{odo.pk}/xp/", {"delta": 1}, **HTMX)
    assert response.status_code == 422
    assert "Limited Potential: never past 7 XP (RULING X-2)" in response.content.decode()
    odo.refresh_from_db()
    assert odo.xp == 7


def test_xp_below_zero_is_refused_in_the_row(as_player, world, make_fighter):
    odo = make_fighter(world.warband, "Pilgrim Odo", xp=0)
    response = as_player.post(f"/fighters/{odo.pk}/xp/", {"delta": -1}, **HTMX)
    assert response.status_code == 422
    assert "XP cannot go below 0" in response.content.decode()
    odo.refresh_from_db()
    assert odo.xp == 0


# XP +1 reads the session, the user, the fighter and the membership, locks the row, writes it with its history
# context and renders the row: 9 today. Every CheckConstraint of the fighter once cost a savepoint and a query of
# its own (64 statements in all); campaigns/checks.py decides them in Python. A fighter with a type also reads its
# campaign's data once, for Limited Potential (RULING X-2: never past 7 XP), which the budget leaves room for.
XP_BUDGET = 12


def test_xp_plus_one_stays_within_its_query_budget(as_player, world, django_assert_max_num_queries):
    with django_assert_max_num_queries(XP_BUDGET):
        response = as_player.post(f"/fighters/{world.anselm.pk}/xp/", {"delta": 1}, **HTMX)
    assert response.status_code == 200
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 4


@pytest.mark.parametrize("delta", ["0", "21", "many", ""])
def test_xp_steps_out_of_range_are_refused(as_player, world, delta):
    response = as_player.post(f"/fighters/{world.anselm.pk}/xp/", {"delta": delta}, **HTMX)
    assert response.status_code == 422
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 3


def test_xp_without_javascript_comes_back_to_the_row(as_player, world):
    response = as_player.post(f"/fighters/{world.anselm.pk}/xp/", {"delta": -1})
    assert response["Location"].endswith(f"#fighter-row-{world.anselm.pk}")
    world.anselm.refresh_from_db()
    assert world.anselm.xp == 2


def test_adding_a_fighter(as_player, world):
    response = as_player.post(
        f"/warbands/{world.warband.pk}/fighters/new/", fighter_data(name="Castigator Voss", elite="on")
    )
    fighter = Fighter.objects.get(name="Castigator Voss")
    assert response["Location"] == f"/warbands/{world.warband.pk}/#fighter-row-{fighter.pk}"
    assert fighter.is_elite
    assert fighter.keywords == ["ELITE", "PILGRIM"]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"name": ""}, "Give the fighter a name."),
        ({"luck": 12}, "Luck is at most 10."),
        ({"xp": -3}, "XP is at least 0."),
        ({"ranged": "1.5D"}, "Ranged must be dice, such as +1D, -1D or 0."),
    ],
)
def test_adding_a_bad_fighter_is_refused(as_player, world, change, message):
    use_preset_for(world.campaign, *change)
    count = Fighter.objects.count()
    response = as_player.post(f"/warbands/{world.warband.pk}/fighters/new/", fighter_data(**change))
    assert response.status_code == 422
    assert message in response.content.decode()
    assert Fighter.objects.count() == count


def test_a_d66_out_of_range_says_what_a_d66_roll_is(as_player, world):
    count = world.anselm.injuries.count()
    for roll in (7, 77):
        response = as_player.post(
            f"/fighters/{world.anselm.pk}/injuries/new/", {"result": "other", "name": "Bad Knee", "d66": roll}
        )
        assert response.status_code == 422
        assert "A D66 roll has two digits, each 1 to 6." in response.content.decode()
    assert world.anselm.injuries.count() == count


def test_the_fighter_form_labels_are_written_alike(as_player, world):
    """ "Name:" and "Type:" sat above "Strength" and "XP" in the same form; no label ends in a colon now."""
    use_preset_for(world.campaign, "strength")
    html = as_player.get(f"/fighters/{world.anselm.pk}/edit/").content.decode()
    prefix = f"fighter-{world.anselm.pk}"
    assert f'<label for="{prefix}-name">Name</label>' in html
    assert f'<label for="{prefix}-fighter_type">Type</label>' in html
    assert f'<label for="{prefix}-strength">Strength</label>' in html
    assert not re.search(r"<label[^>]*>[^<]*:</label>", html)


def test_removing_a_fighter_offers_undo_and_undo_puts_it_back(as_player, world):
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/remove/", {"status": "retired", "battlekit": "arsenal"}, follow=True
    )
    html = response.content.decode()
    assert 'id="undo"' in html
    assert "Brother Anselm</strong> left the roster: Retired" in html
    world.anselm.refresh_from_db()
    world.sword.refresh_from_db()
    assert world.anselm.status == "retired"
    assert world.sword.in_arsenal

    response = as_player.post(f"/fighters/{world.anselm.pk}/restore/", {"items": str(world.sword.pk)})
    world.anselm.refresh_from_db()
    world.sword.refresh_from_db()
    assert world.anselm.is_active
    assert world.sword.fighter_id == world.anselm.pk
    # The undo banner shows once.
    assert 'id="undo"' not in as_player.get(f"/warbands/{world.warband.pk}/").content.decode()


def test_a_bad_removal_is_refused(as_player, world):
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/remove/", {"status": "active", "battlekit": "arsenal"}
    )
    assert response.status_code == 422
    world.anselm.refresh_from_db()
    assert world.anselm.is_active


def test_the_fighter_card(as_player, world):
    html = as_player.get(f"/fighters/{world.anselm.pk}/").content.decode()
    assert "Hand Wound" in html
    assert "Trench Sword" in html
    assert f'href="/games/{world.game.pk}/"' in html  # taken Out of Action in that game
    assert 'id="fighter-timeline"' in html  # the history's slot


def test_recording_an_injury_by_hand_from_the_campaigns_table(as_player, world):
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/injuries/new/", {"result": "leg_wound", "d66": 31}
    )
    assert response.status_code == 302
    injury = world.anselm.injuries.get(code="leg_wound")
    assert (injury.name, injury.d66) == ("Leg Wound", 31)
    assert "Movement" in injury.effect


@pytest.mark.parametrize("d66", [17, 70, 9])
def test_an_injury_roll_that_is_not_a_d66_is_refused(as_player, world, d66):
    count = world.anselm.injuries.count()
    response = as_player.post(
        f"/fighters/{world.anselm.pk}/injuries/new/", {"result": "leg_wound", "d66": d66}
    )
    assert response.status_code == 422
    assert world.anselm.injuries.count() == count
