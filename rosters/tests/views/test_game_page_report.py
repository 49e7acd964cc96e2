"""The game page (rosters/views/games.py) with its battle report, who played, the result, Out of Action and each
warband's post-game state; and the report in the campaign's feed, escaped."""

import pytest

from campaigns.services import reports as report_services

pytestmark = pytest.mark.django_db

SCRIPT = '<script>alert("boom")</script>'
ESCAPED = "&lt;script&gt;alert(&quot;boom&quot;)&lt;/script&gt;"


def page(client, user, game) -> str:
    client.force_login(user)
    response = client.get(f"/games/{game.pk}/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_game_page_shows_who_played_the_result_and_the_post_game_state(client, spectator, world):
    html = page(client, spectator, world.game)
    assert "Iron Sepulchre" in html
    assert "played by pat_player" in html
    assert 'class="badge result-win">Win' in html
    assert "Brother Anselm" in html  # taken Out of Action
    assert f'href="/games/{world.game.pk}/post-game/{world.warband.pk}/"' in html
    assert f'href="/warbands/{world.warband.pk}/as-of/{world.game.pk}/"' in html


def test_a_participant_is_offered_to_write_the_report_a_spectator_is_not(client, player, spectator, world):
    assert "Write the battle report" in page(client, player, world.game)
    html = page(client, spectator, world.game)
    assert "No report yet." in html
    assert "Write the battle report" not in html


def test_the_report_is_shown_as_plain_text_with_its_line_breaks(client, spectator, player, world):
    report_services.report_write(
        game=world.game, by=player, title=f"Night {SCRIPT}", text=f"First line\nSecond {SCRIPT}\n<b>bold</b>"
    )
    html = page(client, spectator, world.game)
    assert SCRIPT not in html
    assert "<b>bold</b>" not in html
    assert f"Battle report: Night {ESCAPED}" in html
    assert f"First line<br>Second {ESCAPED}<br>&lt;b&gt;bold&lt;/b&gt;" in html
    assert "Written by pat_player" in html
    assert "Result: Iron Sepulchre win · Heretic Legion loss" in html
    assert "Edit the battle report" not in html


def test_only_the_author_and_the_organiser_are_offered_to_edit(client, player, player2, organiser, world):
    report_services.report_write(game=world.game, by=player, title="Ours", text="We won.")
    assert "Edit the battle report" in page(client, player, world.game)
    assert "Edit the battle report" in page(client, organiser, world.game)
    assert "Edit the battle report" not in page(client, player2, world.game)


def test_the_campaign_feed_tells_the_report_escaped_under_its_game(client, spectator, player, world):
    report_services.report_write(game=world.game, by=player, title=SCRIPT, text="x")
    client.force_login(spectator)
    html = client.get(f"/campaigns/{world.campaign.pk}/history/").content.decode()
    assert SCRIPT not in html
    assert f"wrote the battle report “{ESCAPED}”" in html
    assert f'href="/games/{world.game.pk}/"' in html
