"""A long roster's first screen: the page shows the first FIRST_ROWS active fighters in full, ELITE
first, and leaves the others to one more request (htmx, as soon as the page has loaded) or to `?fighters=all`
(without JavaScript); its totals count every fighter all the same."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rosters.models import Fighter
from rosters.selectors.roster import FIRST_ROWS
from rosters.services import battlekit as battlekit_services
from rosters.services import injuries as injury_services

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
ROW = re.compile(r'id="fighter-row-(\d+)"')


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


def line_up(warband, make_fighter, count: int) -> list[Fighter]:
    """`count` fighters; every fifth one ELITE, the rest Troops, each with 1 XP more than the one before."""
    return [
        make_fighter(warband, f"Pilgrim {n:02}", elite=n % 5 == 0, xp=n, battle_scars=n % 2)
        for n in range(count)
    ]


def in_roster_order(fighters: list[Fighter]) -> list[int]:
    return [f.pk for f in sorted(fighters, key=lambda f: (not f.counts_as_elite, f.pk))]


def rows(html: str) -> list[int]:
    return [int(pk) for pk in ROW.findall(html)]


def test_a_roster_that_fits_shows_every_row_and_no_link(as_player, warband, make_fighter):
    fighters = line_up(warband, make_fighter, FIRST_ROWS)
    html = as_player.get(f"/warbands/{warband.pk}/").content.decode()
    assert rows(html) == in_roster_order(fighters)
    assert 'id="later-fighters"' not in html


def test_a_long_roster_shows_its_first_screen_and_a_link_to_the_others(as_player, warband, make_fighter):
    fighters = line_up(warband, make_fighter, FIRST_ROWS + 3)
    html = as_player.get(f"/warbands/{warband.pk}/").content.decode()
    order = in_roster_order(fighters)
    assert rows(html) == order[:FIRST_ROWS]
    later = re.search(r'<tr id="later-fighters"[^>]*>', html).group(0)
    assert f'hx-get="/warbands/{warband.pk}/?part=later"' in later
    assert 'hx-trigger="load"' in later
    assert 'hx-swap="outerHTML"' in later
    assert (
        f'<a href="/warbands/{warband.pk}/?fighters=all#fighter-rows">Show the other 3 fighters</a>' in html
    )


def test_the_totals_count_every_fighter_not_only_the_first_screen(as_player, warband, make_fighter):
    fighters = line_up(warband, make_fighter, FIRST_ROWS + 8)
    html = as_player.get(f"/warbands/{warband.pk}/").content.decode()
    summary = html[
        html.index('id="warband-summary"') : html.index("</section>", html.index('id="warband-summary"'))
    ]
    elite = sum(1 for f in fighters if f.counts_as_elite)
    assert f'<strong class="num">{len(fighters)}</strong> fighters ({elite} ELITE)' in summary
    assert f'<strong class="num">{sum(f.xp for f in fighters)}</strong> XP' in summary
    assert f'<strong class="num">{sum(f.battle_scars for f in fighters)}</strong> Battle Scars' in summary


def test_the_later_part_holds_the_other_rows_in_roster_order(as_player, warband, make_fighter, player):
    fighters = line_up(warband, make_fighter, FIRST_ROWS + 5)
    last = in_roster_order(fighters)[-1]
    injury_services.injury_add(
        fighter=Fighter.objects.get(pk=last), code="leg_wound", name="Leg Wound", effect="-1 Move", by=player
    )
    battlekit_services.item_create(
        warband=warband, fighter=Fighter.objects.get(pk=last), name="Shovel", by=player
    )
    response = as_player.get(f"/warbands/{warband.pk}/?part=later", **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert rows(html) == in_roster_order(fighters)[FIRST_ROWS:]
    assert "<html" not in html
    assert 'id="later-fighters"' not in html
    assert 'title="-1 Move">Leg Wound</span>' in html
    assert "Shovel" in html
    assert f'formaction="/fighters/{last}/xp/"' in html  # the owner's XP buttons, as on the first screen


def test_without_javascript_the_link_shows_the_whole_roster(as_player, warband, make_fighter):
    fighters = line_up(warband, make_fighter, FIRST_ROWS + 5)
    html = as_player.get(f"/warbands/{warband.pk}/?fighters=all").content.decode()
    assert rows(html) == in_roster_order(fighters)
    assert 'id="later-fighters"' not in html
    # The later part asked for without htmx is the page itself, not a loose fragment.
    page = as_player.get(f"/warbands/{warband.pk}/?part=later").content.decode()
    assert "<html" in page
    assert rows(page) == in_roster_order(fighters)[:FIRST_ROWS]


def test_removed_fighters_are_listed_whatever_the_first_screen(as_player, warband, make_fighter):
    line_up(warband, make_fighter, FIRST_ROWS + 2)
    gone = make_fighter(warband, "Fallen Pilgrim", status=Fighter.Status.DEAD)
    html = as_player.get(f"/warbands/{warband.pk}/").content.decode()
    assert f'id="removed-fighter-{gone.pk}"' in html
    assert f'id="fighter-row-{gone.pk}"' not in html


def test_a_spectator_gets_the_later_rows_without_buttons(client, spectator, warband, make_fighter):
    fighters = line_up(warband, make_fighter, FIRST_ROWS + 2)
    client.force_login(spectator)
    html = client.get(f"/warbands/{warband.pk}/?part=later", **HTMX).content.decode()
    assert rows(html) == in_roster_order(fighters)[FIRST_ROWS:]
    assert "/xp/" not in html
    assert "/edit/" not in html


def test_an_outsider_gets_no_later_rows(client, make_user, warband, make_fighter):
    line_up(warband, make_fighter, FIRST_ROWS + 2)
    client.force_login(make_user("stranger"))
    response = client.get(f"/warbands/{warband.pk}/?part=later", **HTMX)
    assert response.status_code == 404


def queries(client, path: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(path, **HTMX).status_code == 200
    return len(captured.captured_queries)


def test_the_first_screen_and_the_later_part_cost_the_same_queries_at_20_and_60_fighters(
    as_player, warband, make_fighter
):
    line_up(warband, make_fighter, 20)
    small = (
        queries(as_player, f"/warbands/{warband.pk}/"),
        queries(as_player, f"/warbands/{warband.pk}/?part=later"),
    )
    line_up(warband, make_fighter, 40)
    large = (
        queries(as_player, f"/warbands/{warband.pk}/"),
        queries(as_player, f"/warbands/{warband.pk}/?part=later"),
    )
    assert small == large
