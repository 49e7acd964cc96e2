"""A game at the table for the tracker's tests: the seed's crews from 000 "Damage Examples", and snapshots.

Alex's crew (the player's warband): Brick, a Master (Champion, Endurance 6), with Vera and Rusty.
Sam's crew (the second player's): Fidus, a Good Boy (Endurance 3, Health 1), Double-Joe, a Security Guard,
Mags (a Champion) and Kit.
"""

import re
from dataclasses import dataclass
from datetime import date

import pytest

from campaigns.models import Game, GamePlayer
from combat.models import TrackerFighter, TrackerGame
from combat.services.tracker.board import tracker_start
from combat.services.tracker.damage import tracker_apply_damage
from rosters.models import Fighter, Warband


@dataclass
class Table:
    game: Game
    alex: GamePlayer  # the player's crew
    sam: GamePlayer  # the second player's crew
    fighters: dict

    def __getitem__(self, name: str):
        return self.fighters[name]

    def tracked(self, name: str) -> TrackerFighter:
        return TrackerFighter.objects.get(tracker__game=self.game, fighter=self.fighters[name])

    @property
    def version(self) -> int:
        return TrackerGame.objects.get(game=self.game).version

    @property
    def tracker(self) -> TrackerGame:
        return TrackerGame.objects.get(game=self.game)


def setup_game(
    *,
    campaign,
    warband,
    rival_warband,
    make_fighter,
    by,
    number: int = 1,
    start: bool = True,
    preset: str = "fallout_factions",
) -> Table:
    """The seed's crews on a board; a Fallout: Factions campaign unless `preset` says otherwise (a Trench Crusade
    board marks Out of Action instead of single-model Damage, combat/rules/board_rules.py)."""
    campaign.preset = preset
    campaign.save(update_fields=["preset"])
    game = Game.objects.create(
        campaign=campaign, number=number, played_on=date(2026, 11, 30), status=Game.Status.IN_PROGRESS
    )
    alex = GamePlayer.objects.create(game=game, warband=warband)
    sam = GamePlayer.objects.create(game=game, warband=rival_warband)
    fighters = {
        "Brick": make_fighter(
            warband, "Brick", fighter_type="Master", champion=True, endurance=6, health=3, strength=7
        ),
        "Vera": make_fighter(warband, "Vera", endurance=4, health=2, intelligence=5),
        "Rusty": make_fighter(warband, "Rusty", endurance=4, health=1, intelligence=3),
        "Fidus": make_fighter(rival_warband, "Fidus", fighter_type="Good Boy", endurance=3, health=1),
        "Double-Joe": make_fighter(
            rival_warband, "Double-Joe", fighter_type="Security Guard", endurance=4, health=2, intelligence=5
        ),
        "Mags": make_fighter(rival_warband, "Mags", champion=True, endurance=5, health=2, intelligence=6),
        "Kit": make_fighter(rival_warband, "Kit", endurance=4, health=1, intelligence=4),
    }
    if start:
        tracker_start(game=game, by=by)
    return Table(game, alex, sam, fighters)


def crews_of(
    size: int, *, campaign, player, player2, number: int = 1, preset: str = "fallout_factions"
) -> tuple[Game, Fighter]:
    """A game in progress between two new crews of `size` fighters each, on a started board, and the second
    crew's "Fighter 1" (the one the tests damage). A Fallout: Factions campaign unless `preset` says otherwise:
    its single models take Damage."""
    campaign.preset = preset
    campaign.save(update_fields=["preset"])
    game = Game.objects.create(
        campaign=campaign, number=number, played_on=date(2026, 11, 30), status=Game.Status.IN_PROGRESS
    )
    for owner in (player, player2):
        crew = Warband.objects.create(
            campaign=campaign, owner=owner, name=f"Crew {number} of {owner.username}"
        )
        GamePlayer.objects.create(game=game, warband=crew)
        fighters = Fighter.objects.bulk_create(
            Fighter(warband=crew, name=f"Fighter {index}", endurance=6, health=2) for index in range(size)
        )
    tracker_start(game=game, by=player)
    return game, fighters[1]


STATE = (
    "harm",
    "injuries",
    "fatigue",
    "status",
    "models_left",
    "lost_hp",
    "blood",
    "blessings",
    "down",
    "tough_used",
)


def snapshot(game: Game) -> dict:
    """Everything the board holds, to compare before and after (the version excepted: it only grows)."""
    tracker = TrackerGame.objects.get(game=game)
    rows = TrackerFighter.objects.filter(tracker=tracker).order_by("fighter_id").values("fighter_id", *STATE)
    return {
        "pending": tracker.pending,
        "harsh_lessons": list(tracker.harsh_lessons),
        "ended_at": tracker.ended_at,
        "fighters": [dict(row) for row in rows],
    }


def events_of(obj) -> list:
    """The django-pghistory events of one row, oldest first, with their context."""
    model = type(obj).pgh_event_model
    return list(model.objects.filter(pgh_obj_id=obj.pk).select_related("pgh_context").order_by("pgh_id"))


@pytest.fixture
def tc_table(campaign, warband, rival_warband, make_fighter, player):
    """The same crews on a Trench Crusade board (no Endurance: Out of Action marks), with a unit of 3 models of 2
    Health Points each, "The Choir", in Alex's warband."""
    choir = make_fighter(warband, "The Choir", unit_size=3, health=2)
    table = setup_game(
        campaign=campaign,
        warband=warband,
        rival_warband=rival_warband,
        make_fighter=make_fighter,
        by=player,
        preset="trench_crusade",
    )
    table.fighters["The Choir"] = choir
    return table


@pytest.fixture
def table(campaign, warband, rival_warband, make_fighter, player):
    """The seed's two crews on a started board (the `table` of every tracker test; conftests re-export it)."""
    return setup_game(
        campaign=campaign, warband=warband, rival_warband=rival_warband, make_fighter=make_fighter, by=player
    )


def damage(table, name, amount, by, **extra):
    """Damage typed in against a fighter of the table, on the board's current version."""
    return tracker_apply_damage(
        game=table.game, target_id=table[name].pk, damage=amount, by=by, version=table.version, **extra
    )


def board_url(table, rest=""):
    return f"/games/{table.game.pk}/tracker/{rest}"


def target_url(table, name, rest=""):
    return board_url(table, f"fighters/{table[name].pk}/{rest}")


def text(response) -> str:
    return response.content.decode()


def answers_whole_board(response) -> bool:
    """Whether an htmx answer is the board's whole live part out of band, found by its id wherever the board is
    when the answer comes, with nothing swapped into the form's own target (combat/views/tracker_common.py,
    `out_of_band`): a form a swap took out of the page meanwhile still has its answer land."""
    return (
        response.headers.get("HX-Reswap") == "none"
        and "HX-Retarget" not in response.headers
        and re.match(r'\s*<section id="tracker-live" [^>]*hx-swap-oob="true"', text(response)) is not None
    )
