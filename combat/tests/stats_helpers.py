"""A campaign played game by game through the board, for the statistics' tests: each game set up, its fighters
marked Out of Action with who did it, ended with its results and Victory Points, and its post-game marked applied.

Iron Sepulchre (Brick, an ELITE; Vera; Rusty) meets Heretic Legion (Mags, an ELITE; Fidus; Kit) five times. What
the statistics must say is worked out by hand from FIVE_GAMES, next to it.
"""

from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from campaigns.models import Game, GamePlayer
from combat.models import PostGame
from combat.services.tracker.board import tracker_start, tracker_undo
from combat.services.tracker.end import tracker_end_game
from combat.services.tracker.out_of_action import tracker_out_of_action


@dataclass(frozen=True)
class Played:
    """One game: each side's result and Victory Points, and who was taken Out of Action by whom (None: nobody
    said). `wrong_first`: a mark first given to the wrong attacker, undone, then given again."""

    iron: tuple[str, int]
    heretic: tuple[str, int]
    out: tuple[tuple[str, str | None], ...] = ()
    wrong_first: tuple[str, str] | None = None


FIVE_GAMES = (
    Played(("win", 3), ("loss", 1), out=(("Vera", "Mags"),)),
    Played(("loss", 0), ("win", 4), out=(("Brick", "Kit"), ("Rusty", "Mags"))),
    Played(("draw", 2), ("draw", 2), out=(("Kit", "Brick"),), wrong_first=("Kit", "Vera")),
    Played(("win", 5), ("loss", 0), out=(("Fidus", "Brick"), ("Mags", "Vera"))),
    Played(("loss", 1), ("win", 3), out=(("Vera", None), ("Kit", "Brick"))),
)


def _mark(game: Game, fighters: dict, victim: str, attacker: str | None, by) -> None:
    tracker_out_of_action(
        game=game,
        target_id=fighters[victim].pk,
        taken=True,
        by=by,
        version=game.tracker.version,
        attacker_id=fighters[attacker].pk if attacker else None,
    )
    game.tracker.refresh_from_db()


def play(campaign, number: int, played: Played, *, iron, heretic, fighters: dict, by) -> Game:
    """Game `number` played on the board and ended; its post-games marked applied (the moment its value is read)."""
    game = Game.objects.create(
        campaign=campaign, number=number, played_on=date(2026, 11, number), status=Game.Status.IN_PROGRESS
    )
    sides = {
        iron: GamePlayer.objects.create(game=game, warband=iron),
        heretic: GamePlayer.objects.create(game=game, warband=heretic),
    }
    tracker_start(game=game, by=by)
    game.refresh_from_db()
    if played.wrong_first:
        _mark(game, fighters, *played.wrong_first, by)
        tracker_undo(game=game, by=by, version=game.tracker.version)
        game.tracker.refresh_from_db()
    for victim, attacker in played.out:
        _mark(game, fighters, victim, attacker, by)
    tracker_end_game(
        game=game,
        results={sides[iron].pk: played.iron[0], sides[heretic].pk: played.heretic[0]},
        victory_points={sides[iron].pk: played.iron[1], sides[heretic].pk: played.heretic[1]},
        by=by,
        version=game.tracker.version,
    )
    for side in sides.values():
        PostGame.objects.create(
            player=side, status=PostGame.Status.APPLIED, applied_at=timezone.now(), snapshot={}
        )
    return game


def crews(warband, rival_warband, make_fighter) -> dict:
    return {
        "Brick": make_fighter(warband, "Brick", elite=True, cost=60),
        "Vera": make_fighter(warband, "Vera", cost=30),
        "Rusty": make_fighter(warband, "Rusty", cost=20),
        "Mags": make_fighter(rival_warband, "Mags", elite=True, cost=70),
        "Fidus": make_fighter(rival_warband, "Fidus", cost=25),
        "Kit": make_fighter(rival_warband, "Kit", cost=15),
    }
