"""History pages: who may read them, their htmx parts, bad links, escaping, and a query count that does not grow."""

import datetime as dt
import re

import pghistory
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Game, GamePlayer
from rosters.models import Fighter
from rosters.services.battlekit import item_create, item_move
from rosters.services.fighters import fighter_adjust_xp, fighter_create
from rosters.services.games import GameEntry, game_record, game_start

pytestmark = pytest.mark.django_db
SENTENCE = re.compile(r'<span class="history-sentence">(.*?)</span>')


@pytest.fixture
def marcus(warband, player):
    return fighter_create(warband=warband, by=player, name="Brother Marcus", elite=True, xp=5)


@pytest.fixture
def game1(campaign, warband, rival_warband, organiser, marcus):
    return game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=[marcus]),
            GameEntry(warband=rival_warband, result="win"),
        ],
    )


def urls(campaign, warband, marcus, game1) -> list[str]:
    return [
        reverse("campaign_history", args=[campaign.pk]),
        reverse("campaign_history_csv", args=[campaign.pk]),
        reverse("warband_history", args=[warband.pk]),
        reverse("fighter_history", args=[marcus.pk]),
        reverse("warband_as_of", args=[warband.pk, game1.pk]),
    ]


def test_anonymous_visitors_are_sent_to_log_in(client, campaign, warband, marcus, game1):
    for url in urls(campaign, warband, marcus, game1):
        response = client.get(url)
        assert response.status_code == 302, url
        assert reverse("login") in response["Location"]


def test_outsiders_get_404(client, outsider, campaign, warband, marcus, game1):
    client.force_login(outsider)
    for url in urls(campaign, warband, marcus, game1):
        assert client.get(url).status_code == 404, url


@pytest.mark.parametrize("who", ["organiser", "player", "player2", "spectator"])
def test_every_member_reads_every_history_page(request, client, who, campaign, warband, marcus, game1):
    client.force_login(request.getfixturevalue(who))
    for url in urls(campaign, warband, marcus, game1):
        response = client.get(url)
        assert response.status_code == 200, url


def test_history_pages_take_no_writes(client, player, campaign, warband, marcus, game1):
    client.force_login(player)
    for url in urls(campaign, warband, marcus, game1):
        assert client.post(url).status_code == 405, url


def test_as_of_a_game_of_another_campaign_is_404(client, player, warband, organiser):
    from campaigns.models import Campaign

    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    game = Game.objects.create(campaign=other, number=1, played_on=dt.date(2026, 1, 1))
    client.force_login(player)
    assert client.get(reverse("warband_as_of", args=[warband.pk, game.pk])).status_code == 404


def test_the_feed_tells_the_story_grouped_by_game(client, player, campaign, warband, marcus, game1):
    client.force_login(player)
    response = client.get(reverse("campaign_history", args=[campaign.pk]))
    html = response.content.decode()
    assert "Brother Marcus was taken Out of Action in Game 1" in html
    assert 'class="history-game"' in html
    assert reverse("game_detail", args=[game1.pk]) in html
    assert 'id="history-poller"' in html


def test_the_filters_narrow_the_feed(client, player, campaign, warband, rival_warband, marcus, player2):
    fighter_create(warband=rival_warband, by=player2, name="Heretic Priest")
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    feed = client.get(url, {"warband": warband.pk}).content.decode().split('id="history-feed"')[1]
    assert "Brother Marcus" in feed
    assert "Heretic Priest" not in feed
    html = client.get(url, {"kind": "xp"}).content.decode()
    assert "No change matches these filters." in html


def test_a_filter_from_another_campaign_is_refused(client, player, campaign, organiser):
    from campaigns.models import Campaign
    from rosters.models import Warband

    other = Campaign.objects.create(name="Elsewhere", created_by=organiser)
    foreign = Warband.objects.create(campaign=other, owner=organiser, name="Foreign")
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    assert client.get(url, {"warband": foreign.pk}).status_code == 400
    assert client.get(url, {"kind": "everything"}).status_code == 400
    assert client.get(url, {"fighter": "x"}).status_code == 400


def test_a_game_the_campaign_does_not_have_is_said_in_place_of_the_feed(client, player, campaign):
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    response = client.get(url, {"game": 99}, headers={"HX-Request": "true", "HX-Target": "history-feed"})
    assert response.status_code == 422
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="history-feed"')
    assert "There is no Game 99 in this campaign." in html
    assert client.get(url, {"game": 99}).status_code == 400


def test_a_fighter_outside_the_chosen_warband_is_refused(
    client, player, campaign, warband, rival_warband, player2
):
    heretic = fighter_create(warband=rival_warband, by=player2, name="Heretic Priest")
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    response = client.get(url, {"warband": warband.pk, "fighter": heretic.pk})
    assert response.status_code == 400
    assert "not in the chosen warband" in response.content.decode()


def test_a_mangled_page_link_is_a_400_with_a_reason(client, player, campaign):
    client.force_login(player)
    response = client.get(reverse("campaign_history", args=[campaign.pk]), {"before": "not-a-cursor"})
    assert response.status_code == 400
    assert "That page link is not valid" in response.content.decode()


def test_older_pages_by_link_and_by_htmx(client, player, campaign, warband):
    for n in range(60):
        Fighter.objects.create(warband=warband, name=f"Recruit {n:02d}")
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    first = client.get(url)
    older = first.context["page"].older
    assert older
    assert f"before={older}" in first.content.decode()
    plain = client.get(url, {"before": older})
    assert plain.status_code == 200
    assert "Back to the newest" in plain.content.decode()
    fragment = client.get(url, {"before": older}, headers={"HX-Request": "true"})
    html = fragment.content.decode()
    assert "<html" not in html
    assert 'id="history-more"' in html
    shown_first = set(SENTENCE.findall(first.content.decode()))
    shown_next = set(SENTENCE.findall(html))
    assert shown_next
    assert shown_first.isdisjoint(shown_next)
    assert len(shown_first | shown_next) >= 61  # 60 recruits, the warband and the campaign's own events


@pytest.mark.django_db(transaction=True)
def test_polling_prepends_only_new_changes(client, player, campaign, warband):
    Fighter.objects.create(warband=warband, name="Old Hand")
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    page = client.get(url).context["page"]
    htmx = {"HX-Request": "true", "HX-Target": "history-entries"}
    assert client.get(url, {"after": page.newest}, headers=htmx).status_code == 204
    Fighter.objects.create(warband=warband, name="New Blood")
    response = client.get(url, {"after": page.newest}, headers=htmx)
    html = response.content.decode()
    assert response.status_code == 200
    assert "New Blood joined Iron Sepulchre" in html
    assert "Old Hand" not in html
    assert 'hx-swap-oob="true"' in html  # the poller comes back with the new cursor


def test_the_campaign_page_slot_and_the_fighter_card_slot(client, player, campaign, warband, marcus):
    client.force_login(player)
    latest = client.get(reverse("campaign_history", args=[campaign.pk]), {"part": "latest"})
    assert "Brother Marcus" in latest.content.decode()
    assert "<html" not in latest.content.decode()
    timeline = client.get(reverse("fighter_history", args=[marcus.pk]), {"part": "timeline"})
    assert "Pat" in timeline.content.decode() or "pat_player" in timeline.content.decode()
    assert 'id="fighter-timeline-entries"' in timeline.content.decode()


def test_names_with_script_tags_are_shown_as_text(client, player, campaign, warband, game1):
    fighter_create(warband=warband, by=player, name="<script>alert('x')</script>")
    client.force_login(player)
    for url in (
        reverse("campaign_history", args=[campaign.pk]),
        reverse("warband_history", args=[warband.pk]),
        reverse("warband_as_of", args=[warband.pk, game1.pk]),
    ):
        html = client.get(url).content.decode()
        assert "<script>alert(" not in html, url
    assert (
        "&lt;script&gt;alert(" in client.get(reverse("campaign_history", args=[campaign.pk])).content.decode()
    )


def test_the_csv_has_every_change_and_defuses_formulas(client, player, campaign, warband, marcus):
    fighter_create(warband=warband, by=player, name="=HYPERLINK(1)")
    fighter_adjust_xp(fighter=marcus, delta=2, by=player)
    client.force_login(player)
    response = client.get(reverse("campaign_history_csv", args=[campaign.pk]))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    body = b"".join(response.streaming_content).decode()
    lines = body.splitlines()
    assert lines[0].startswith("When,Game,Warband,Fighter,Kind,Change,Who")
    assert any("Brother Marcus gained 2 XP (now 7)" in line and ",xp," in line for line in lines)
    assert "'=HYPERLINK(1)" in body
    assert ",=HYPERLINK" not in body


def _feed_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def _busy_campaign(warband, rival_warband, game, player, size: int):
    """`size` fighters, each with XP, an Injury in the game's post-game and a piece of Battlekit moved."""
    for n in range(size):
        band = warband if n % 2 else rival_warband
        fighter = fighter_create(warband=band, by=player, name=f"Fighter {n}")
        with pghistory.context(action="post_game.apply", game=game.pk, warband=band.pk, user=player.pk):
            Fighter.objects.filter(pk=fighter.pk).update(xp=n + 1)
            fighter.injuries.create(code="14", name="Hand Wound", game=game, d66=14)
        item = item_create(warband=band, fighter=fighter, name=f"Blade {n}", by=player)
        item_move(item=item, to_fighter=None, by=player)


def test_the_feed_runs_the_same_queries_for_few_and_many_events(
    client, player, campaign, warband, rival_warband, game1
):
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    _busy_campaign(warband, rival_warband, game1, player, 2)
    few = _feed_queries(client, url)
    _busy_campaign(warband, rival_warband, game1, player, 40)
    many = _feed_queries(client, url)
    assert few == many
    # The session, the user, the membership, the filter's warbands with their fighters (one query), the page's
    # events, their rows, and the names the sentences use.
    assert many <= 7
    # The same holds for the warband timeline (its warband, its games, its fighters) and a filtered feed.
    assert _feed_queries(client, reverse("warband_history", args=[warband.pk])) <= 9
    assert _feed_queries(client, f"{url}?kind=xp&warband={warband.pk}") <= 7


def test_a_post_game_done_shows_in_the_warband_timeline(client, player, campaign, warband, game1):
    entry = GamePlayer.objects.get(game=game1, warband=warband)
    with pghistory.context(action="post_game.apply", game=game1.pk, warband=warband.pk, user=player.pk):
        entry.post_game = "done"
        entry.save()
    client.force_login(player)
    html = client.get(reverse("warband_history", args=[warband.pk])).content.decode()
    assert "Iron Sepulchre finished its post-game of Game 1" in html
    assert reverse("warband_as_of", args=[warband.pk, game1.pk]) in html


def test_the_feed_offers_in_game_actions_and_strikes_out_an_undone_one(
    client, player, player2, campaign, warband, rival_warband, make_fighter
):
    from combat.services.tracker.board import tracker_start, tracker_undo
    from combat.services.tracker.damage import tracker_apply_damage

    # Damage on a single model: Fallout: Factions' board (a Trench Crusade one marks Out of Action instead).
    campaign.preset = campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    game = game_start(
        campaign=campaign, by=player, played_on=dt.date(2026, 6, 1), warbands=[warband, rival_warband]
    )
    brick = make_fighter(warband, "Brick", endurance=6, health=3)
    tracker = tracker_start(game=game, by=player)
    tracker_apply_damage(game=game, target_id=brick.pk, damage=2, by=player2, version=tracker.version)
    tracker_undo(game=game, by=player, version=tracker.version + 1)
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    html = client.get(url, {"kind": "ingame"}).content.decode()
    assert '<option value="ingame" selected>In game</option>' in html
    assert "<del>Brick took 2 Damage: 1 Harm (quinn_player, on the tracker in Game 1)</del>" in html
    assert '<span class="badge warn">undone by pat_player</span>' in html
    assert "pat_player undid “Brick took 2 Damage: 1 Harm” (on the tracker in Game 1)" in html
    body = b"".join(client.get(reverse("campaign_history_csv", args=[campaign.pk]), {"kind": "ingame"}))
    assert (
        "Brick took 2 Damage: 1 Harm (quinn_player, on the tracker in Game 1) [undone by pat_player]"
        in body.decode()
    )


# Transactional: the tracker's actions come after the game started, as they do at the table.
@pytest.mark.django_db(transaction=True)
def test_a_game_being_played_is_shown_as_such_in_the_feed_the_warband_history_and_its_as_of_page(
    client, player, player2, campaign, warband, rival_warband, make_fighter
):
    from combat.services.tracker.board import tracker_start
    from combat.services.tracker.damage import tracker_apply_damage

    # Damage on a single model: Fallout: Factions' board (a Trench Crusade one marks Out of Action instead).
    campaign.preset = campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    brick = make_fighter(warband, "Brick", endurance=6, health=3)
    game = game_start(
        campaign=campaign, by=player, played_on=dt.date(2026, 6, 1), warbands=[warband, rival_warband]
    )
    tracker = tracker_start(game=game, by=player)
    tracker_apply_damage(game=game, target_id=brick.pk, damage=2, by=player2, version=tracker.version)
    client.force_login(player)
    feed = client.get(reverse("campaign_history", args=[campaign.pk])).content.decode()
    assert '<span class="badge warn">being played</span>' in feed
    timeline = client.get(reverse("warband_history", args=[warband.pk])).content.decode()
    assert (
        f'<a class="tap" href="{reverse("warband_as_of", args=[warband.pk, game.pk])}">In Game 1</a>'
        in timeline
    )
    page = client.get(reverse("warband_as_of", args=[warband.pk, game.pk])).content.decode()
    assert "<h1>Iron Sepulchre in Game 1, being played</h1>" in page
    assert "The game is still being played: this is the roster as it went into it." in page
    assert "Brick took 2 Damage: 1 Harm (quinn_player, on the tracker in Game 1)" in page


def test_the_roster_as_of_a_game_names_glory_and_crew_xp_as_the_campaign_uses_them(
    client, player, campaign, warband, game1
):
    client.force_login(player)
    url = reverse("warband_as_of", args=[warband.pk, game1.pk])
    then = client.get(url).content.decode()
    then = then[then.index('id="as-of-roster"') :]
    assert "Glory: <strong" in then
    assert "Crew XP" not in then
    campaign.preset = "fallout_factions"
    campaign.save(update_fields=["preset"])
    then = client.get(url).content.decode()
    then = then[then.index('id="as-of-roster"') :]
    assert "Crew XP: <strong" in then
    assert "Glory" not in then


def test_the_feeds_cached_groups_follow_an_undo_and_a_game_that_ends(
    client, player, player2, campaign, warband, rival_warband, make_fighter
):
    """The groups' HTML is kept under a digest of what they show: a line undone since, or its game ended, is drawn
    again."""
    from combat.services.tracker.board import tracker_start, tracker_undo
    from combat.services.tracker.damage import tracker_apply_damage

    campaign.preset = campaign.Preset.FALLOUT_FACTIONS
    campaign.save(update_fields=["preset"])
    game = game_start(
        campaign=campaign, by=player, played_on=dt.date(2026, 6, 1), warbands=[warband, rival_warband]
    )
    brick = make_fighter(warband, "Brick", endurance=6, health=3)
    tracker = tracker_start(game=game, by=player)
    tracker_apply_damage(game=game, target_id=brick.pk, damage=2, by=player2, version=tracker.version)
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])
    first = client.get(url, {"kind": "ingame"}).content.decode()
    again = client.get(url, {"kind": "ingame"}).content.decode()
    assert first.split('id="history-entries"')[1] == again.split('id="history-entries"')[1]
    assert "<del>" not in first
    assert '<span class="badge warn">being played</span>' in first
    tracker_undo(game=game, by=player, version=tracker.version + 1)
    undone = client.get(url, {"kind": "ingame"}).content.decode()
    assert "<del>Brick took 2 Damage: 1 Harm (quinn_player, on the tracker in Game 1)</del>" in undone
    Game.objects.filter(pk=game.pk).update(status=Game.Status.DONE)
    ended = client.get(url, {"kind": "ingame"}).content.decode()
    assert '<span class="badge warn">being played</span>' not in ended
    assert "played 1 Jun 2026" in ended


def test_a_pages_digest_is_its_content(campaign, warband, player):
    from rosters.history.entries import Change, HistoryPage
    from rosters.history.feed import history_page

    fighter_create(warband=warband, by=player, name="Sister Ama")
    page = history_page(campaign=campaign)
    again = history_page(campaign=campaign)
    assert page.digest == again.digest
    entry = again.entries[0]
    entry.changes = [Change(c.kind, c.text, c.sentence, undone="undone by Pat") for c in entry.changes]
    assert HistoryPage(entries=again.entries, older=None, newest=None).digest != page.digest


def test_the_feeds_kept_lines_and_filter_follow_a_renamed_fighter_and_player(
    client, player, campaign, warband, marcus
):
    """The feed's lines are kept under a digest of what they are told from, and its filter box under one of its
    choices: a name changed behind the services' backs (no history context, no page token) shows at once, as a
    page drawn afresh shows it."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache

    item_create(warband=warband, fighter=marcus, name="Blade", by=player)
    client.force_login(player)
    url = reverse("campaign_history", args=[campaign.pk])

    def shown() -> str:  # the page below its header, which holds the request's own CSRF token
        html = client.get(url).content.decode()
        return html[html.index("<h1>") :]

    first = shown()
    assert first == shown()
    Fighter.objects.filter(pk=marcus.pk).update(name="Brother Lucan")
    get_user_model().objects.filter(pk=player.pk).update(first_name="Quintus")
    renamed = shown()
    assert renamed != first
    filters = renamed[renamed.index('id="history-filters"') : renamed.index('id="history-feed"')]
    assert f'<option value="{marcus.pk}">Brother Lucan</option>' in filters
    assert "Brother Marcus" not in filters
    feed = renamed[renamed.index('id="history-entries"') :]
    assert "Quintus" in feed
    cache.clear()
    assert shown() == renamed
