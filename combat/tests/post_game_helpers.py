"""A game just played, for the post-game wizard's tests: who was taken Out of Action, dice typed in, snapshots.

The player's warband (Iron Sepulchre) met the second player's (Heretic Legion) in Game 1; the tests mark some of
the player's fighters Out of Action and type in the dice, so every outcome is known in advance.
"""

from dataclasses import dataclass
from datetime import date

from campaigns.models import Game, GamePlayer, OutOfAction
from combat.models import PostGameRoll
from combat.selectors.post_game.out_of_action import post_game_player
from combat.selectors.post_game.state import post_game_state
from combat.services.post_game.rolls import post_game_roll
from rosters.models import Fighter, Injury, Item, Warband


@dataclass
class AfterGame:
    game: Game
    player: GamePlayer  # the player's warband in the game
    rival: GamePlayer  # the second player's

    def refresh(self) -> "AfterGame":
        self.player = post_game_player(game_id=self.game.pk, warband_id=self.player.warband_id)
        self.rival = post_game_player(game_id=self.game.pk, warband_id=self.rival.warband_id)
        self.game.refresh_from_db()
        return self

    def state(self):
        return post_game_state(
            player=post_game_player(game_id=self.game.pk, warband_id=self.player.warband_id)
        )


def record_game(*, campaign, warband, rival_warband, out_of_action=(), number: int = 1) -> AfterGame:
    """Game `number` between the two warbands, recorded, with `out_of_action` fighters of the player's warband."""
    game = Game.objects.create(
        campaign=campaign,
        number=number,
        played_on=date(2026, 11, 28),
        status=Game.Status.RECORDED,
        created_by=campaign.created_by,
    )
    player = GamePlayer.objects.create(game=game, warband=warband, result=GamePlayer.Result.LOSS)
    rival = GamePlayer.objects.create(game=game, warband=rival_warband, result=GamePlayer.Result.WIN)
    for fighter in out_of_action:
        OutOfAction.objects.create(player=player, fighter=fighter)
    return AfterGame(game, player, rival).refresh()


def enter(after: AfterGame, fighter: Fighter, *faces: int, by):
    """Type in the next roll `fighter` needs (a D66 is two faces, tens first)."""
    needed = _needed(after, fighter)
    return post_game_roll(
        player=after.player,
        fighter_id=fighter.pk,
        purpose=needed.purpose,
        sequence=needed.sequence,
        faces=list(faces),
        by=by,
    )


def roll(after: AfterGame, fighter: Fighter, *, by):
    """Let the server roll the next roll `fighter` needs."""
    needed = _needed(after, fighter)
    return post_game_roll(
        player=after.player, fighter_id=fighter.pk, purpose=needed.purpose, sequence=needed.sequence, by=by
    )


def _needed(after: AfterGame, fighter: Fighter):
    state = after.state()
    casualty = next(casualty for casualty in state.casualties if casualty.id == fighter.pk)
    assert casualty.needed is not None, (
        f"{fighter.name} needs no roll: {casualty.explanation or casualty.problem}"
    )
    return casualty.needed


def casualty(after: AfterGame, fighter: Fighter):
    return next(casualty for casualty in after.state().casualties if casualty.id == fighter.pk)


def rolls_of(fighter: Fighter) -> list[PostGameRoll]:
    return list(PostGameRoll.objects.filter(fighter=fighter).select_related("dice_roll").order_by("id"))


def _rows(queryset) -> dict:
    # Every concrete field, the non-editable ones (created_at) included.
    return {
        row.pk: {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields} for row in queryset
    }


def roster_snapshot(*warbands: Warband) -> dict:
    """Every field of every fighter, piece of Battlekit and Injury of the warbands, and the warbands themselves
    (Strongbox included): what "exactly as it was" is checked against."""
    ids = [warband.pk for warband in warbands]
    return {
        "warbands": _rows(Warband.objects.filter(pk__in=ids).order_by("pk")),
        "fighters": _rows(Fighter.objects.filter(warband__in=ids).order_by("pk")),
        "items": _rows(Item.objects.filter(warband__in=ids).order_by("pk")),
        "injuries": _rows(Injury.objects.filter(fighter__warband__in=ids).order_by("pk")),
    }


def game_with(fighters_out, *, campaign, warband, rival_warband, number=1) -> AfterGame:
    return record_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        out_of_action=fighters_out,
        number=number,
    )


def kit(fighter: Fighter) -> list[str]:
    return sorted(Item.objects.filter(fighter=fighter).values_list("name", flat=True))


def arsenal(warband: Warband) -> list[str]:
    return sorted(Item.objects.filter(warband=warband, fighter__isnull=True).values_list("name", flat=True))


def full_game(after: AfterGame, fighters: dict, player) -> None:
    """Every roll of the `fighters` fixture's post-game: the Troop fights on, Hand Wound, Unfit For Duty."""
    enter(after, fighters["troop"], 1, by=player)
    enter(after, fighters["marcus"], 1, 4, by=player)
    enter(after, fighters["ada"], 2, 4, by=player)
