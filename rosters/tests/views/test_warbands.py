"""The roster page: what it shows and to whom, its Battlekit forms, editing the warband, the print view, the
cached rows, and each campaign's own words."""

import re

import pytest

from combat import rules
from rosters.models import Fighter, Item
from rosters.tests.conftest import fighter_data, use_preset_for

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def test_the_roster_shows_fighters_injuries_battlekit_and_the_arsenal(as_player, world):
    response = as_player.get(f"/warbands/{world.warband.pk}/")
    html = response.content.decode()
    assert f'id="fighter-row-{world.anselm.pk}"' in html
    assert "Hand Wound" in html
    assert "Trench Sword" in html
    assert 'id="arsenal"' in html
    assert "Holy Relic" in html
    assert 'id="removed-fighters"' in html
    assert "Fallen Pilgrim" in html
    assert "ELITE" in html
    assert 'id="warband-history-link"' in html
    # The post-game of the game the warband played is waiting, with a link to the wizard.
    assert f'href="/games/{world.game.pk}/post-game/{world.warband.pk}/"' in html


def test_each_rows_buttons_say_whose_they_are(as_player, world):
    """Twelve links all named "Edit" and "Card" told a screen reader nothing; each now names its fighter."""
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert 'aria-label="Edit Brother Anselm">Edit</a>' in html
    assert 'aria-label="Card of Brother Anselm">Card</a>' in html
    assert 'aria-label="Edit Holy Relic">Edit</a>' in html  # the Arsenal's


def test_a_spectator_sees_no_edit_buttons(client, spectator, world):
    client.force_login(spectator)
    html = client.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert "Brother Anselm" in html
    assert f"/fighters/{world.anselm.pk}/xp/" not in html
    assert f"/fighters/{world.anselm.pk}/edit/" not in html


def test_a_fallout_campaign_uses_champion_and_caps(as_player, world, organiser):
    from campaigns.services.campaigns import campaign_update

    campaign_update(campaign=world.campaign, by=organiser, preset="fallout_factions")
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert "Champion" in html
    assert "caps" in html
    assert "ducats" not in html
    response = as_player.post(
        f"/warbands/{world.warband.pk}/fighters/new/", fighter_data(name="Overboss Kane", elite="on")
    )
    assert response.status_code == 302
    kane = Fighter.objects.get(name="Overboss Kane")
    assert kane.champion
    assert not kane.is_elite


def test_a_fallout_campaign_says_equipment_and_crew_in_its_messages(as_player, world, organiser):
    """The Battlekit forms' messages and help spoke Trench Crusade in a Fallout: Factions campaign."""
    from campaigns.services.campaigns import campaign_update

    campaign_update(campaign=world.campaign, by=organiser, preset="fallout_factions")
    response = as_player.post(f"/warbands/{world.warband.pk}/items/new/", {"name": " ", "holder": "arsenal"})
    assert response.status_code == 422
    html = response.content.decode()
    assert "Give the Equipment a name." in html
    assert "Battlekit" not in html
    card = as_player.get(f"/fighters/{world.anselm.pk}/").content.decode()
    assert (
        'Equipment that cannot be removed from the model stays with it (<a class="ruling" href="/rules/#ruling-T-4"'
        in card
    )
    assert "RULING T-4" not in card
    assert "Battlekit" not in card
    dashboard = as_player.get("/").content.decode()
    assert re.search(r"you are player\s*· 3 crews\b", dashboard)  # the campaign's three, in its words


def test_the_dashboard_names_my_warbands_and_crews_in_their_own_words(as_player, world, player, organiser):
    from campaigns.models import Campaign, Membership
    from rosters.services import warbands as warband_services

    html = as_player.get("/").content.decode()
    assert '<h2 id="my-warbands">Your warbands</h2>' in html
    wastes = Campaign.objects.create(name="Wastes", preset="fallout_factions", created_by=organiser)
    Membership.objects.create(campaign=wastes, user=player, role="player")
    warband_services.warband_create(campaign=wastes, owner=player, name="Diamond City Security", by=player)
    html = as_player.get("/").content.decode()
    assert '<h2 id="my-warbands">Your warbands and crews</h2>' in html
    assert "<th>Warband / Crew</th>" in html
    world.warband.delete()
    html = as_player.get("/").content.decode()
    assert '<h2 id="my-warbands">Your crews</h2>' in html
    assert "<th>Crew</th>" in html


def test_a_refused_holder_is_shown_beside_the_field(as_player, world):
    """A holder that is not in the warband (a fighter removed in another tab) was refused with no message: the
    error belonged to a field the roster draws by hand."""
    count = Item.objects.count()
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/", {"name": "Shovel", "holder": str(world.heretic.pk)}
    )
    assert response.status_code == 422
    html = response.content.decode()
    message = "Choose a fighter of this warband, or the Arsenal."
    assert message in html
    assert html.index(message) < html.index('id="add-item-holder"')  # beside its field, not at the top
    assert re.search(r'<details class="card no-print" id="add-item"\s+open', html)
    assert Item.objects.count() == count
    card = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/",
        {"name": "Shovel", "holder": str(world.fallen.pk), "next": f"/fighters/{world.anselm.pk}/"},
    )
    assert card.status_code == 422
    assert message in card.content.decode()


def test_moving_battlekit_to_where_it_already_is_says_so(as_player, world):
    """The move form opens on an Arsenal item and "the Arsenal": Move answered "is now with the Arsenal"."""
    for headers in ({}, HTMX):
        response = as_player.post(
            f"/warbands/{world.warband.pk}/items/move/", {"item": world.relic.pk, "to": "arsenal"}, **headers
        )
        assert response.status_code == 422
        html = response.content.decode()
        assert "Holy Relic is already with the Arsenal: choose where it goes." in html
        assert "is now with" not in html
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/move/", {"item": world.sword.pk, "to": str(world.anselm.pk)}
    )
    assert "Trench Sword is already with Brother Anselm: choose where it goes." in response.content.decode()


def test_moving_battlekit_with_htmx_swaps_the_roster(as_player, world):
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/move/", {"item": world.relic.pk, "to": world.anselm.pk}, **HTMX
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="roster">')
    assert "Holy Relic is now with Brother Anselm." in html
    world.relic.refresh_from_db()
    assert world.relic.fighter_id == world.anselm.pk


def test_battlekit_cannot_be_moved_to_another_warbands_fighter(as_player, world):
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/move/", {"item": world.relic.pk, "to": world.heretic.pk}, **HTMX
    )
    assert response.status_code == 422
    world.relic.refresh_from_db()
    assert world.relic.in_arsenal


def test_battlekit_that_cannot_be_removed_stays_with_its_fighter(as_player, world, player):
    from rosters.services.battlekit import item_create

    bound = item_create(
        warband=world.warband, fighter=world.anselm, name="Bound Relic", removable=False, by=player
    )
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/move/", {"item": bound.pk, "to": "arsenal"}
    )
    assert response.status_code == 422
    bound.refresh_from_db()
    assert bound.fighter_id == world.anselm.pk


def test_adding_battlekit_needs_a_name(as_player, world):
    count = Item.objects.count()
    response = as_player.post(f"/warbands/{world.warband.pk}/items/new/", {"name": " ", "holder": "arsenal"})
    assert response.status_code == 422
    assert "Give the Battlekit a name." in response.content.decode()
    assert Item.objects.count() == count


def test_battlekit_added_from_a_fighters_card_goes_back_to_the_card(as_player, world):
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/",
        {"name": "Gas Mask", "holder": world.anselm.pk, "next": f"/fighters/{world.anselm.pk}/#battlekit"},
    )
    assert response["Location"] == f"/fighters/{world.anselm.pk}/#battlekit"
    assert Item.objects.get(name="Gas Mask").fighter_id == world.anselm.pk


def test_next_cannot_send_anyone_to_another_site(as_player, world):
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/",
        {"name": "Gas Mask", "holder": "arsenal", "next": "https://evil.example/"},
    )
    assert response["Location"] == f"/warbands/{world.warband.pk}/#arsenal"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "", "crew_xp": 0}, "Give the warband a name."),
        ({"name": "Ok", "crew_xp": -1}, "Crew XP is at least 0."),
        ({"name": "Ok", "crew_xp": 0, "starting_value": -5}, "Starting value is at least 0."),
    ],
)
def test_a_bad_warband_edit_is_refused(as_player, world, data, message):
    # The form asks for the crew's XP only where Harsh Lessons is on (a Trench Crusade house rule here).
    world.campaign.post_game_switches = {"harsh-lessons": True}
    world.campaign.save(update_fields=["post_game_switches"])
    response = as_player.post(f"/warbands/{world.warband.pk}/edit/", data)
    assert response.status_code == 422
    assert message in response.content.decode()
    world.warband.refresh_from_db()
    assert (world.warband.name, world.warband.strongbox, world.warband.glory) == ("Iron Sepulchre", 50, 0)


def test_the_print_view_lists_the_roster(as_player, world):
    html = as_player.get(f"/warbands/{world.warband.pk}/print/").content.decode()
    assert "Brother Anselm" in html
    assert "Trench Sword" in html
    assert "Fallen Pilgrim" not in html


def test_the_print_view_gives_each_stat_its_own_column(as_player, world):
    """ "S P E C I A L" in one header over "5 5 5 5 5 5 5" wrapped apart on paper; a column each lines them up."""
    use_preset_for(world.campaign, "strength")
    html = as_player.get(f"/warbands/{world.warband.pk}/print/").content.decode()
    for letter, name in zip(
        "SPECIAL",
        ["Strength", "Perception", "Endurance", "Charisma", "Intelligence", "Agility", "Luck"],
        strict=True,
    ):
        assert f'<th class="stat"><abbr title="{name}">{letter}</abbr></th>' in html
    # Brother Anselm, the one active fighter: every stat of the profile in its own column (M, S.P.E.C.I.A.L.,
    # Health, Harm Limit: 10, campaigns/profiles.py), where Movement, Health and Harm Limit were plain cells.
    assert html.count('<td class="stat">') == 10
    # A phone scrolls the sheet, not the page; the keyboard reaches it too (axe: scrollable-region-focusable).
    assert '<div class="table-scroll" tabindex="0"' in html


def test_a_trench_crusade_print_view_has_its_own_profile(as_player, world):
    world.anselm.ranged, world.anselm.armour, world.anselm.base_size = 1, -1, 32
    world.anselm.save()
    html = as_player.get(f"/warbands/{world.warband.pk}/print/").content.decode()
    for name, short in [("Movement", "M"), ("Ranged", "R"), ("Melee", "Me"), ("Armour", "A"), ("Base", "B")]:
        assert f'<th class="stat"><abbr title="{name}">{short}</abbr></th>' in html
    cells = re.findall(r'<td class="stat">([^<]*)</td>', html)
    assert cells == ["6″", "+1D", "0", "-1", "32mm"]
    assert "Strength" not in html


def test_the_roster_row_shows_the_campaigns_profile(as_player, world):
    world.anselm.melee = 2
    world.anselm.save()
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert '<abbr title="Melee">Me</abbr> +2D' in html
    assert "S5 P5" not in html
    use_preset_for(world.campaign, "strength")
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert "S5 P5 E5 C5 I5 A5 L5" in html
    assert '<abbr title="Melee">' not in html


def test_the_roster_page_prints_without_its_reminders(as_player, world):
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    assert '<div class="card attention no-print">' in html  # "post-game waiting" is for the screen


def test_the_cached_roster_shows_every_change_whoever_makes_it(as_player, world):
    """The roster's parts are cached under a digest of their rows: a write by any path (here straight to the
    database, as another app might) shows at once, and going back to an earlier state shows that state."""
    from rosters.models import Fighter as FighterModel

    path = f"/warbands/{world.warband.pk}/"

    def page() -> str:
        # CSRF tokens are masked afresh on every response; everything else must match.
        return re.sub(r"[A-Za-z0-9]{64}", "TOKEN", as_player.get(path).content.decode())

    first = page()
    assert page() == first  # the same rows, the same page

    FighterModel.objects.filter(pk=world.anselm.pk).update(xp=42)
    Item.objects.filter(pk=world.relic.pk).update(name="Reliquary of Saint Ludwin")
    changed = page()
    assert f'id="xp-{world.anselm.pk}" aria-label="XP of Brother Anselm">42</output>' in changed
    assert "Reliquary of Saint Ludwin" in changed
    assert "42</strong> XP" in changed  # the summary's total follows (Anselm is the only active fighter)

    FighterModel.objects.filter(pk=world.anselm.pk).update(xp=3)
    Item.objects.filter(pk=world.relic.pk).update(name="Holy Relic")
    assert page() == first


def test_the_cached_roster_differs_for_who_may_change_it(client, spectator, player, world):
    path = f"/warbands/{world.warband.pk}/"
    client.force_login(player)
    assert f"/fighters/{world.anselm.pk}/xp/" in client.get(path).content.decode()
    client.force_login(spectator)
    assert f"/fighters/{world.anselm.pk}/xp/" not in client.get(path).content.decode()


def test_a_purchase_the_strongbox_cannot_pay_is_summed_up_at_the_top_of_the_roster(as_player, world):
    """The refusal stood only beside the Add form, far below the fold on a phone: a summary at the top now links
    to it, announced (role="alert"), and the message still stands beside the form, marked for ledger.js."""
    response = as_player.post(
        f"/warbands/{world.warband.pk}/items/new/",
        {"name": "Siege Jezzail", "cost": "60", "holder": "arsenal", "pay": "on"},
    )
    assert response.status_code == 422
    html = response.content.decode()
    start = html.index('id="error-summary"')
    summary = html[start : html.index("</div>", start)]
    assert "holds 50 ducats: it cannot pay 60" in summary
    assert 'href="#add-item"' in summary
    assert start < html.index('id="warband-summary"')
    beside = html[html.index('id="add-item"') :]
    assert '<ul class="errorlist nonfield" data-refused aria-live="assertive"><li>' in beside
    assert not Item.objects.filter(name="Siege Jezzail").exists()


def test_an_unrefused_roster_has_no_error_summary(as_player, world):
    assert 'id="error-summary"' not in as_player.get(f"/warbands/{world.warband.pk}/").content.decode()


def _fallout(campaign, organiser):
    from campaigns.services.campaigns import campaign_update

    campaign_update(campaign=campaign, by=organiser, preset="fallout_factions", uses_limits=False)


def test_a_fallout_roster_shows_no_promotion_dice_glory_or_threshold(as_player, world, organiser):
    """Promotion Dice, Glory, the Threshold Value and Field Strength are Trench Crusade's: a Fallout: Factions
    crew's roster, with its post-game's own steps, shows its crew XP instead."""
    _fallout(world.campaign, organiser)
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    summary = html[html.index('id="warband-summary"') : html.index('id="warband-limits"')]
    assert "Failed Promotion Dice" not in summary
    assert "Glory" not in summary
    assert "crew XP" in summary
    assert "Threshold Value</li>" not in html
    assert "models (Field Strength)" not in html
    assert '<h2 id="warband-limits-title">Value</h2>' in html


def test_a_trench_crusade_roster_shows_no_crew_xp_until_harsh_lessons_is_on(as_player, world, organiser):
    from combat.services.post_game_switches import campaign_set_post_game_switches

    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    summary = html[html.index('id="warband-summary"') : html.index('id="warband-limits"')]
    assert "Failed Promotion Dice in a row" in summary
    assert "Glory" in summary
    assert "crew XP" not in summary
    # The summary is cached by the roster's digest: a switch changed must show at once all the same.
    own = set(rules.preset_switches_on("trench_crusade"))
    campaign_set_post_game_switches(
        campaign=world.campaign, on=(own - {"promotions", "glory"}) | {"harsh-lessons"}, by=organiser
    )
    html = as_player.get(f"/warbands/{world.warband.pk}/").content.decode()
    summary = html[html.index('id="warband-summary"') : html.index('id="warband-limits"')]
    assert "Failed Promotion Dice in a row" not in summary
    assert "Glory" not in summary
    assert "crew XP" in summary


def test_the_warband_forms_ask_for_crew_xp_only_with_harsh_lessons_on(as_player, world, organiser):
    create = as_player.get(f"/campaigns/{world.campaign.pk}/warbands/new/").content.decode()
    edit = as_player.get(f"/warbands/{world.warband.pk}/edit/").content.decode()
    assert "Crew XP" not in create
    assert "Crew XP" not in edit
    assert "Glory" in create
    assert "its Threshold Value rises from it" in create
    _fallout(world.campaign, organiser)
    create = as_player.get(f"/campaigns/{world.campaign.pk}/warbands/new/").content.decode()
    assert "Crew XP" in create
    assert 'name="glory"' not in create
    assert "Threshold Value" not in create
    response = as_player.post(
        f"/campaigns/{world.campaign.pk}/warbands/new/", {"name": "Vault Dwellers", "crew_xp": 2}
    )
    assert response.status_code == 302
    assert world.campaign.warbands.get(name="Vault Dwellers").crew_xp == 2


def test_the_print_view_and_the_campaign_page_speak_of_glory_and_crew_xp_as_the_campaign_uses_them(
    as_player, world, organiser
):
    printed = as_player.get(f"/warbands/{world.warband.pk}/print/").content.decode()
    assert "Glory:</strong>" in printed
    assert "Crew XP" not in printed
    assert '<th class="num">Glory</th>' in as_player.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    _fallout(world.campaign, organiser)
    printed = as_player.get(f"/warbands/{world.warband.pk}/print/").content.decode()
    assert "Crew XP:</strong>" in printed
    assert "Glory" not in printed
    campaign_page = as_player.get(f"/campaigns/{world.campaign.pk}/").content.decode()
    assert "Glory" not in campaign_page[campaign_page.index('id="warbands"') :]
