"""The campaign's events told as history (rosters/history/campaign_events.py): games, who played, members."""

import datetime as dt

import pghistory
import pytest

from campaigns.models import Campaign, GamePlayer, Membership
from rosters.history.entries import HistoryFilter
from rosters.history.feed import history_page
from rosters.services.games import GameEntry, game_post_game_mark, game_record
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


def test_a_recorded_game_and_its_out_of_action(campaign, warband, rival_warband, marcus, organiser):
    game = game_record(
        campaign=campaign,
        by=organiser,
        played_on=dt.date(2026, 5, 1),
        entries=[
            GameEntry(warband=warband, result="loss", out_of_action=[marcus]),
            GameEntry(warband=rival_warband, result="win"),
        ],
        scenario="Raid",
    )
    found = sentences(campaign, kind="games")
    assert "Olga recorded Game 1 (Raid)" in found
    assert "Iron Sepulchre played Game 1 (loss) — by Olga" in found
    assert "Brother Marcus was taken Out of Action in Game 1 — by Olga" in found
    page = history_page(campaign=campaign, filters=HistoryFilter(campaign_id=campaign.pk, kind="games"))
    assert {entry.game.id for entry in page.entries} == {game.pk}


def test_post_game_done_is_told_with_its_warband(campaign, warband, game3, player):
    player_entry = GamePlayer.objects.get(game=game3, warband=warband)
    with pghistory.context(action="post_game.apply", game=game3.pk, warband=warband.pk, user=player.pk):
        player_entry.post_game = "done"
        player_entry.save()
    assert "Iron Sepulchre finished its post-game of Game 3 — by Pat" in sentences(campaign, kind="games")


def test_members_and_share_links_never_show_secrets(campaign, organiser, outsider):
    outsider.first_name = "Otto"
    outsider.save()
    with pghistory.context(user=outsider.pk):
        Membership.objects.create(campaign=campaign, user=outsider, role="spectator")
    with pghistory.context(user=organiser.pk, action="campaign.share"):
        Campaign.objects.filter(pk=campaign.pk).update(share_token="secret-token-123")
    found = sentences(campaign, kind="campaign")
    assert "Otto joined the campaign as spectator" in found
    assert "A read-only link was shared — by Olga" in found
    assert not any("secret-token-123" in sentence for sentence in found)
    assert not any(campaign.invitation_code in sentence for sentence in sentences(campaign))


def test_one_of_two_post_games_undone_is_not_told_as_all_undone(campaign, warband, game3, player):
    """The feed said "Game 3's post-games were all undone" when the only one started was undone (the
    other warband's never began): the game is told as it stands."""
    entry = GamePlayer.objects.get(game=game3, warband=warband)
    game_post_game_mark(player=entry, state=GamePlayer.PostGame.IN_PROGRESS, by=player)
    game_post_game_mark(player=entry, state=GamePlayer.PostGame.PENDING, by=player)

    found = sentences(campaign, kind="games")
    assert not [sentence for sentence in found if "all undone" in sentence]
    assert any(sentence.startswith("No post-game of Game 3 is under way any more") for sentence in found)
    assert any(sentence.startswith("Game 3's post-games started") for sentence in found)
