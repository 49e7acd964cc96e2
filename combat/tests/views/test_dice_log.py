"""The dice log page: every roll with who, when, server or entered, faces and purpose; members only."""

import itertools
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from combat.models import DiceRoll

pytestmark = pytest.mark.django_db
ROW = re.compile(r'<tr id="roll-(\d+)">')


def roll(campaign, **fields):
    values = {"source": "server", "sides": 6, "faces": [3], "purpose": "survival"}
    values.update(fields)
    return DiceRoll.objects.create(campaign=campaign, **values)


def test_anonymous_visitors_are_sent_to_log_in(client, campaign):
    response = client.get(reverse("campaign_dice_log", args=[campaign.pk]))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]


def test_outsiders_get_404(client, outsider, campaign):
    client.force_login(outsider)
    assert client.get(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 404


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
def test_every_member_reads_it(request, client, who, campaign):
    client.force_login(request.getfixturevalue(who))
    assert client.get(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 200


def test_it_takes_no_writes(client, player, campaign):
    client.force_login(player)
    assert client.post(reverse("campaign_dice_log", args=[campaign.pk])).status_code == 405


def test_it_shows_who_when_how_the_faces_and_what_for(
    client, player, player2, campaign, warband, make_fighter
):
    player.first_name = "Pat"
    player.save()
    marcus = make_fighter(warband, "Brother Marcus", elite=True)
    roll(
        campaign,
        warband=warband,
        fighter=marcus,
        rolled_by=player,
        faces=[1, 4],
        purpose="trauma",
        label="D66 14",
    )
    roll(campaign, rolled_by=player2, source="entered", sides=10, faces=[7, 2], purpose="attack")
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert "Trauma roll" in html
    assert "Brother Marcus" in html
    assert "D66 14" in html
    assert ">D66<" in html
    assert "1 4" in html
    assert "Pat" in html
    assert "rolled by the server" in html
    assert "entered from the table" in html
    assert "2D10" in html
    assert "quinn_player" in html
    # Newest first.
    ids = [int(i) for i in ROW.findall(html)]
    assert ids == sorted(ids, reverse=True)


def test_other_campaigns_rolls_stay_out(client, player, campaign, organiser):
    from campaigns.models import Campaign

    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = roll(other, label="foreign roll")
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert f'id="roll-{foreign.pk}"' not in html


def test_pages_by_keyset_cover_every_roll_once(client, player, campaign):
    made = [roll(campaign, faces=[n % 6 + 1]).pk for n in range(120)]
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    seen, params = [], {}
    while True:
        response = client.get(url, params)
        assert response.status_code == 200
        seen += [int(i) for i in ROW.findall(response.content.decode())]
        older = response.context["page"].older
        if not older:
            break
        params = {"before": older}
    assert seen == sorted(made, reverse=True)


def test_the_older_rolls_come_as_an_htmx_fragment(client, player, campaign):
    for _ in range(55):
        roll(campaign)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    older = client.get(url).context["page"].older
    html = client.get(url, {"before": older}, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in html
    assert len(ROW.findall(html)) == 5
    assert 'id="dice-log-more"' in html


def test_filters_by_game_and_warband(client, player, campaign, warband, rival_warband):
    from datetime import date

    from campaigns.models import Game

    game = Game.objects.create(campaign=campaign, number=1, played_on=date(2026, 5, 1))
    ours = roll(campaign, game=game, warband=warband)
    theirs = roll(campaign, game=game, warband=rival_warband)
    loose = roll(campaign)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    html = client.get(url, {"warband": warband.pk}).content.decode()
    assert f'id="roll-{ours.pk}"' in html
    assert f'id="roll-{theirs.pk}"' not in html
    html = client.get(url, {"game": game.number}).content.decode()
    assert f'id="roll-{loose.pk}"' not in html
    assert f'id="roll-{theirs.pk}"' in html


def test_bad_links_are_400s_with_a_reason(client, player, campaign):
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"before": "yesterday"})
    assert response.status_code == 400
    assert "That page link is not valid" in response.content.decode()
    assert client.get(url, {"game": "12345678"}).status_code == 400


def test_the_page_runs_the_same_queries_for_few_and_many_rolls(
    client, player, campaign, warband, make_fighter
):
    fighter = make_fighter(warband, "Brother Marcus")
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    for _ in range(3):
        roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for _ in range(80):
        roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(few) == len(many) <= 10


def test_a_game_the_campaign_does_not_have_is_said_in_place_of_the_log(client, player, campaign):
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"game": 7}, headers={"HX-Request": "true", "HX-Target": "dice-log"})
    assert response.status_code == 422
    assert "There is no Game 7 in this campaign." in response.content.decode()


# --- What counts -----------------------------------------------------------------------------


# A struck roll's <tr> carries its mark's classes after its id.
ANY_ROW = re.compile(r'<tr id="roll-(\d+)"')


def row_of(html: str, roll) -> str:
    """The <tr> of one roll in the page."""
    match = re.search(rf'<tr id="roll-{roll.pk}"[^>]*>.*?</tr>', html, re.S)
    assert match, f"roll {roll.pk} is not on the page"
    return match.group(0)


def test_each_mark_is_shown_with_who_why_and_its_replacement(client, player, organiser, campaign):
    from combat.tests.dice_helpers import strike

    organiser.first_name = "Olga"
    organiser.save()
    counted = roll(campaign, faces=[5])
    voided = roll(campaign, faces=[6])
    corrected = roll(campaign, source="entered", faces=[4])
    undone = roll(campaign, faces=[2], purpose="attack")
    instead = strike(voided, "voided", by=organiser, reason="rolled before the game was recorded", faces=[3])
    right = strike(corrected, "corrected", by=player, reason="typo", faces=[1])
    strike(undone, "undone", by=player, reason="Undo of: Kit takes Damage 2")
    client.force_login(player)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    assert 'class="roll-struck' not in row_of(html, counted)
    assert "counts" in row_of(html, counted)
    row = row_of(html, voided)
    assert 'class="roll-struck roll-voided"' in row
    assert "Voided by Olga at " in row
    assert "rolled before the game was recorded" in row
    assert f"#roll-{instead.pk}" in row
    row = row_of(html, corrected)
    assert 'class="roll-struck roll-corrected"' in row
    assert "Corrected by pat_player at " in row
    assert "typo" in row
    assert 'right faces\n    <a class="roll-replacement"' in row
    assert f"#roll-{right.pk}" in row
    row = row_of(html, undone)
    assert "Undone: tracker Undo by pat_player" in row
    assert "Undo of: Kit takes Damage 2" in row
    # The rolls that count instead say which roll they replace, linked to where it stands in the log.
    assert "Replaces" in row_of(html, instead)
    assert f"#roll-{voided.pk}" in row_of(html, instead)
    assert "(voided)" in row_of(html, instead)
    assert "(corrected)" in row_of(html, right)


def test_the_link_to_a_replacement_opens_the_page_that_holds_it(client, player, organiser, campaign):
    from combat.tests.dice_helpers import strike

    old = roll(campaign, faces=[6])
    new = strike(old, "voided", by=organiser, faces=[3])
    for _ in range(60):
        roll(campaign)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    first = client.get(url).content.decode()
    assert f'id="roll-{old.pk}"' not in first
    older = client.get(url, {"before": client.get(url).context["page"].older})
    link = re.search(rf'href="([^"]+)#roll-{new.pk}"', row_of(older.content.decode(), old)).group(1)
    landed = client.get(link)
    assert landed.status_code == 200
    assert int(ANY_ROW.findall(landed.content.decode())[0]) == new.pk


def test_filters_by_status_with_game_and_warband_and_keeps_it_on_the_next_page(
    client, player, player2, campaign, warband, rival_warband
):
    from combat.tests.dice_helpers import strike

    ours = [roll(campaign, warband=warband) for _ in range(55)]
    for made in ours:
        strike(made, "undone", by=player)
    theirs = roll(campaign, warband=rival_warband)
    strike(theirs, "undone", by=player2)
    counted = roll(campaign, warband=warband)
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"status": "struck", "warband": warband.pk})
    page_one = [int(i) for i in ANY_ROW.findall(response.content.decode())]
    assert counted.pk not in page_one
    assert theirs.pk not in page_one
    assert len(page_one) == 50
    more = response.context["more_url"]
    assert "status=struck" in more
    assert f"warband={warband.pk}" in more
    page_two = [int(i) for i in ANY_ROW.findall(client.get(more).content.decode())]
    assert sorted(page_one + page_two, reverse=True) == sorted((r.pk for r in ours), reverse=True)
    html = client.get(url, {"status": "counts"}).content.decode()
    assert ANY_ROW.findall(html) == [str(counted.pk)]
    html = client.get(url, {"status": "voided"}).content.decode()
    assert "No rolls match this filter." in html


@pytest.mark.parametrize("value", ["lucky", "COUNTS", "0"])
def test_a_status_the_log_does_not_have_is_a_400_with_a_reason(client, player, campaign, value):
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    response = client.get(url, {"status": value})
    assert response.status_code == 400
    assert f"“{value}” is not one of the choices" in response.content.decode()
    swapped = client.get(url, {"status": value}, headers={"HX-Request": "true", "HX-Target": "dice-log"})
    assert swapped.status_code == 422
    assert "<html" not in swapped.content.decode()


@pytest.mark.parametrize("count", [1, 60])
def test_the_page_with_marks_runs_a_fixed_number_of_queries(
    client, player, organiser, campaign, warband, make_fighter, django_assert_num_queries, count
):
    from combat.tests.dice_helpers import strike

    fighter = make_fighter(warband, "Brother Marcus")
    kinds = itertools.cycle(["undone", "voided", "corrected", None])
    made = 0
    while made < count:
        kind = next(kinds)
        if kind in ("voided", "corrected") and count - made < 2:
            kind = None  # no room left for its replacement
        struck = roll(campaign, warband=warband, fighter=fighter, rolled_by=player)
        made += 1
        if kind:
            strike(struck, kind, by=organiser, reason="why")
            made += kind != "undone"  # a voided or corrected roll brings its replacement
    client.force_login(player)
    url = reverse("campaign_dice_log", args=[campaign.pk])
    client.get(url)  # the session and the user, cached as for any later page
    with django_assert_num_queries(QUERIES_PER_PAGE):
        response = client.get(url, {"status": ""})
    # A page holds 50 rolls: 60 fill it, with a link to the older ten.
    assert len(ANY_ROW.findall(response.content.decode())) == min(count, 50)
    assert (response.context["more_url"] is not None) == (count > 50)


# The session, the user, the membership with its campaign, the warbands of the filter, the rolls with who struck
# them, and their replacements and the rolls they replace: the same for 1 roll as for 60.
QUERIES_PER_PAGE = 6


# --- A warband's roll history ------------------------------------------------------------------------------------


def test_a_warbands_roll_history_shows_only_its_rolls_with_their_marks(
    client, spectator, player, organiser, campaign, warband, rival_warband
):
    from combat.tests.dice_helpers import strike

    ours = roll(campaign, warband=warband, faces=[4])
    right = strike(ours, "corrected", by=player, reason="typo", faces=[1])
    theirs = roll(campaign, warband=rival_warband)
    client.force_login(spectator)
    response = client.get(reverse("warband_dice_log", args=[warband.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert f"{warband.name}: rolls" in html
    assert set(ANY_ROW.findall(html)) == {str(ours.pk), str(right.pk)}
    assert theirs.pk not in [int(i) for i in ANY_ROW.findall(html)]
    assert "Corrected by pat_player" in row_of(html, ours)
    # Its filter has no warband to choose (the page is the warband's), and keeps the status filter.
    assert 'name="warband"' not in html
    html = client.get(reverse("warband_dice_log", args=[warband.pk]), {"status": "counts"}).content.decode()
    assert ANY_ROW.findall(html) == [str(right.pk)]


def test_a_warbands_roll_history_is_for_members_only(client, outsider, warband):
    url = reverse("warband_dice_log", args=[warband.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert client.get(reverse("warband_dice_log", args=[987654])).status_code == 404
    assert client.post(url).status_code in (404, 405)


def test_the_warband_page_and_its_history_link_to_its_rolls(client, player, warband):
    client.force_login(player)
    url = reverse("warband_dice_log", args=[warband.pk])
    assert url in client.get(reverse("warband_detail", args=[warband.pk])).content.decode()
    assert url in client.get(reverse("warband_history", args=[warband.pk])).content.decode()


def test_undo_on_the_tracker_page_marks_the_rolls_undone_in_the_log(
    client, player, campaign, warband, rival_warband, make_fighter
):
    from django.utils.html import escape

    from combat.models import TrackerGame
    from combat.selectors.tracker_attack import AttackTest
    from combat.services.tracker.damage import tracker_roll_attack
    from combat.tests.tracker_helpers import setup_game

    table = setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )
    action = tracker_roll_attack(
        game=table.game,
        target_id=table["Kit"].pk,
        attack=AttackTest(dice=2, stat=5),
        faces=[1, 2],
        by=player,
        version=0,
    )
    client.force_login(player)
    version = TrackerGame.objects.get(game=table.game).version
    response = client.post(reverse("tracker_undo", args=[table.game.pk]), {"version": version})
    assert response.status_code in (200, 302)
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk])).content.decode()
    row = row_of(html, DiceRoll.objects.get(pk=action.rolls[0]))
    assert 'class="roll-struck roll-undone"' in row
    assert "Undone: tracker Undo by pat_player at " in row
    assert escape(f"Undo of: {action.summary}") in row
    html = client.get(reverse("campaign_dice_log", args=[campaign.pk]), {"status": "counts"}).content.decode()
    assert ANY_ROW.findall(html) == []
