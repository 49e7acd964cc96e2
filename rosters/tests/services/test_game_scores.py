"""rosters/services/game_scores.py: a game's results and Victory Points corrected at any time, with a reason; the
standings (RULING W-2) and the history follow."""

import datetime

import pytest

from campaigns.models import Game, GamePlayer
from rosters.selectors.campaigns import campaign_page
from rosters.services.errors import GameLocked, RosterRefused
from rosters.services.game_scores import SideScore, game_score_correct
from rosters.services.games import GameEntry, game_post_game_mark, game_record, game_start
from rosters.tests.history.helpers import sentences

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(campaign, player, warband, rival_warband):
    return game_record(
        campaign=campaign,
        by=player,
        played_on=datetime.date(2025, 3, 1),
        entries=[
            GameEntry(warband, "win", victory_points=4),
            GameEntry(rival_warband, "loss", victory_points=6),
        ],
    )


def scores(game):
    return {p.warband.name: (p.result, p.victory_points) for p in GamePlayer.objects.filter(game=game)}


def test_a_score_is_corrected_after_the_post_game_started_and_the_standings_follow(
    game, campaign, organiser, player, warband, rival_warband
):
    game_post_game_mark(player=game.players.get(warband=warband), state="in_progress", by=player)
    # RULING W-2: Victory Points rank first: Heretic Legion leads on 6 VP to 4.
    assert [row.warband.name for row in campaign_page(campaign=campaign).leaderboard][0] == "Heretic Legion"

    game_score_correct(
        game=game,
        by=organiser,
        scores={warband.pk: SideScore("win", 9)},
        reason="the objective counted double",
    )

    assert scores(game) == {"Iron Sepulchre": ("win", 9), "Heretic Legion": ("loss", 6)}
    leaderboard = campaign_page(campaign=campaign).leaderboard
    assert [(row.warband.name, row.warband.victory_points) for row in leaderboard] == [
        ("Iron Sepulchre", 9),
        ("Heretic Legion", 6),
    ]


def test_the_history_tells_the_correction_with_its_reason(game, campaign, organiser, warband, rival_warband):
    game_score_correct(
        game=game,
        by=organiser,
        scores={warband.pk: SideScore("draw", 4), rival_warband.pk: SideScore("draw", 5)},
        # A reason naming the warband is still told: the standings moved with it.
        reason="Iron Sepulchre's last objective was contested",
    )
    found = sentences(campaign, kind="games")
    why = "(corrected: Iron Sepulchre's last objective was contested)"
    assert f"Iron Sepulchre's result in Game 1: win → draw {why} — by olga_organiser" in found
    assert f"Heretic Legion's result in Game 1: loss → draw {why} — by olga_organiser" in found
    assert f"Heretic Legion's Victory Points in Game 1: 6 → 5 {why} — by olga_organiser" in found
    assert not [s for s in found if "Iron Sepulchre's Victory Points" in s]  # unchanged, not told


@pytest.mark.parametrize(
    ("score", "reason", "error"),
    [
        (SideScore("win", -1), "typo", "from 0 to 100"),
        (SideScore("win", 101), "typo", "from 0 to 100"),
        (SideScore("won", 3), "typo", "win, loss or draw"),
        (SideScore("win", 5), "   ", "Say why the score changes"),
        (SideScore("loss", 5), "typo", "A draw is a draw|Not every warband"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(
    game, organiser, warband, rival_warband, score, reason, error
):
    side = rival_warband if score.result == "loss" else warband
    other = {warband.pk: SideScore("draw", 0)} if score.result == "loss" else {}
    with pytest.raises(RosterRefused, match=error):
        game_score_correct(game=game, by=organiser, scores={side.pk: score, **other}, reason=reason)
    assert scores(game) == {"Iron Sepulchre": ("win", 4), "Heretic Legion": ("loss", 6)}


def test_a_game_still_being_played_takes_its_score_at_its_end(
    campaign, player, organiser, warband, rival_warband
):
    playing = game_start(
        campaign=campaign, by=player, played_on=datetime.date(2025, 3, 1), warbands=[warband, rival_warband]
    )
    with pytest.raises(GameLocked, match="still being played"):
        game_score_correct(game=playing, by=organiser, scores={warband.pk: SideScore("win", 3)}, reason="x")
    assert Game.objects.get(pk=playing.pk).status == Game.Status.IN_PROGRESS


def test_a_warband_not_in_the_game_is_refused(game, organiser, campaign, make_user):
    from rosters.models import Warband

    other = Warband.objects.create(campaign=campaign, owner=organiser, name="Stray Band")
    with pytest.raises(RosterRefused, match="a warband that played this game"):
        game_score_correct(game=game, by=organiser, scores={other.pk: SideScore("win", 1)}, reason="x")
