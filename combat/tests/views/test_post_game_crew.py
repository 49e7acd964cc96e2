"""combat/views/post_game/crew.py and a Fallout: Factions campaign's post-game through its pages: Out of Action in
its own words, Harsh Lessons (RULING D-11), the Injuries carried on the roster, the Review; no Trench Crusade step
or table it did not switch on. Members read, the crew's owner and the organiser apply, an outsider gets 404."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from combat.services.post_game_switches import campaign_set_post_game_switches
from combat.tests.post_game_helpers import record_game
from rosters.models import Injury, Warband

pytestmark = pytest.mark.django_db

# Words only Trench Crusade's post-game says; a Fallout: Factions post-game shows none unless switched on.
TRENCH_CRUSADE_WORDS = [
    "Trauma Table",
    "Trauma Step",
    "Survival Roll",
    "Battle Scar",
    "Exploration",
    "Glory",
    "ducats",
]


@pytest.fixture
def ff(campaign, warband, rival_warband, make_fighter):
    Campaign.objects.filter(pk=campaign.pk).update(preset=Campaign.Preset.FALLOUT_FACTIONS)
    campaign.refresh_from_db()
    mags = make_fighter(warband, "Mags", champion=True, health=3)
    dusty = make_fighter(warband, "Dusty")
    Injury.objects.create(fighter=mags, code="injury", name="Injury")
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband, out_of_action=[mags])
    after.fighters = {"mags": mags, "dusty": dusty}
    return after


def url(after, name="post_game"):
    return reverse(name, args=[after.game.pk, after.player.warband_id])


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
@pytest.mark.parametrize("name", ["post_game_harsh_lessons", "post_game_injuries"])
def test_every_member_reads_the_crew_steps(client, ff, who, name, request):
    client.force_login(request.getfixturevalue(who))
    response = client.get(url(ff, name))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Mags" in html
    for words in TRENCH_CRUSADE_WORDS:
        assert words not in html, words


def test_an_outsider_gets_404(client, ff, outsider):
    client.force_login(outsider)
    assert client.get(url(ff, "post_game_harsh_lessons")).status_code == 404


@pytest.mark.parametrize(
    "name",
    [
        "post_game_troops",
        "post_game_elites",
        "post_game_experience",
        "post_game_exploration",
        "post_game_glory",
    ],
)
def test_a_trench_crusade_step_not_switched_on_is_no_page_here(client, ff, player, name):
    client.force_login(player)
    assert client.get(url(ff, name)).status_code == 404


def test_a_trench_crusade_campaign_has_no_harsh_lessons_page(
    client, campaign, warband, rival_warband, player
):
    after = record_game(campaign=campaign, warband=warband, rival_warband=rival_warband)
    client.force_login(player)
    assert client.get(url(after, "post_game_harsh_lessons")).status_code == 404


def test_the_whole_fallout_factions_post_game_through_its_pages(client, ff, player):
    client.force_login(player)
    page = client.get(url(ff, "post_game_out_of_action")).content.decode()
    assert "Incapacitated during the game" in page
    assert "Trauma" not in page
    bar = [
        words for words in ("Out of Action", "Harsh Lessons", "Injuries", "Review and apply") if words in page
    ]
    assert len(bar) == 4
    response = client.post(url(ff, "post_game_out_of_action"), {"fighters": [ff.fighters["mags"].pk]})
    assert response.status_code == 302
    assert response["Location"] == url(ff, "post_game_harsh_lessons")
    page = client.get(url(ff, "post_game_harsh_lessons")).content.decode()
    assert "Mags was Incapacitated: Iron Sepulchre earns 1 crew XP" in page
    assert 'id="crew-xp-after">1<' in page
    page = client.get(url(ff, "post_game_injuries")).content.decode()
    assert 'id="injuries-' in page
    assert "Go on: Review and apply" in page
    review = client.get(url(ff, "post_game_review")).content.decode()
    assert "Back: Injuries" in review
    assert 'id="review-harsh-lessons"' in review
    for words in TRENCH_CRUSADE_WORDS:
        assert words not in review, words
    assert client.post(url(ff, "post_game_apply")).status_code == 302
    assert Warband.objects.get(pk=ff.player.warband_id).crew_xp == 1
    overview = client.get(url(ff)).content.decode()
    assert 'id="summary-harsh-lessons"' in overview
    assert client.post(url(ff, "post_game_revert")).status_code == 302
    assert Warband.objects.get(pk=ff.player.warband_id).crew_xp == 0


def test_a_step_switched_on_shows_in_the_bar(client, ff, player, organiser):
    campaign_set_post_game_switches(
        campaign=ff.game.campaign, on=["trauma", "harsh-lessons", "injuries"], by=organiser
    )
    client.force_login(player)
    page = client.get(url(ff, "post_game_out_of_action")).content.decode()
    assert "Trauma Step" in page
    assert client.get(url(ff, "post_game_troops")).status_code == 200


# The page's read: the session, the user, the post-game's entry with the membership, the post-game (its attempts,
# fighters, Battlekit), the board's Harsh Lessons, the roster's Injuries; the same for 2 fighters as for 12.
# Harsh Lessons comes before the Injuries step and reads none of its part; neither reads the campaign's data, the
# trades or the warband's record, which only later steps need.
QUERIES = {"post_game_harsh_lessons": 8, "post_game_injuries": 9}


@pytest.mark.parametrize("name", sorted(QUERIES))
def test_the_crew_pages_cost_the_same_whatever_the_crew_s_size(
    client, ff, player, warband, make_fighter, django_assert_num_queries, name
):
    client.force_login(player)
    client.get(url(ff, name))
    with django_assert_num_queries(QUERIES[name]):
        assert client.get(url(ff, name)).status_code == 200
    for number in range(10):
        fighter = make_fighter(warband, f"Scav {number}", champion=number % 2 == 0)
        Injury.objects.create(fighter=fighter, code="injury", name="Injury")
    with django_assert_num_queries(QUERIES[name]):
        assert client.get(url(ff, name)).status_code == 200


def test_harsh_lessons_says_once_that_no_champion_fell(client, ff, player):
    """With no Champion taken Out of Action the page said so twice (its own line and the award's sentence) and
    showed the crew's XP going from 0 to 0."""
    quiet = record_game(
        campaign=ff.game.campaign, warband=ff.player.warband, rival_warband=ff.rival.warband, number=2
    )
    client.force_login(player)
    assert client.post(url(quiet, "post_game_out_of_action"), {"step": "out-of-action"}).status_code == 302
    page = client.get(url(quiet, "post_game_harsh_lessons")).content.decode()
    card = page[page.index('id="harsh-lessons"') :]
    card = card[: card.index("</article>")]
    assert card.count("Out of Action") + card.count("Incapacitated") == 1
    assert "None of Iron Sepulchre&#x27;s Champions was Incapacitated: no Harsh Lessons XP" in card
    assert "→" not in card
    assert 'Crew XP stays at <strong class="num" id="crew-xp-after">0</strong>.' in card
