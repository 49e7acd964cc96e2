"""The statistics page's game-by-game series: where each warband stood after each game, and what it was worth.

The standings after game N rank the Victory Points and wins of games 1 to N by the engine's `rank_standings`
(RULING W-2), among the warbands that had played by then. A warband's value after game N is `warband_value`
(RULING C-2) of its roster as the history had it when the latest post-game of game N was applied: each fighter's
and each piece of Battlekit's last event at or before that moment (a game with no post-game applied yet has no
value point). Two queries read every such event of the campaign, however many games it has had.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Max

from campaigns.models import Campaign, GamePlayer
from combat.models import PostGame
from combat.rules import RosterFighter, rank_standings, warband_value
from rosters.models import Fighter, Item, Warband


@dataclass(frozen=True)
class Point:
    game: int
    place: int | None  # None: it had not played yet
    victory_points: int
    value: int | None  # None: the game's post-games are not all applied yet


@dataclass(frozen=True)
class WarbandSeries:
    warband: Warband
    points: tuple[Point, ...]


@dataclass(frozen=True)
class GameSeries:
    games: tuple[int, ...]
    warbands: tuple[WarbandSeries, ...]

    @property
    def has_values(self) -> bool:
        return any(point.value is not None for row in self.warbands for point in row.points)


def _places(numbers: list[int], warbands: list[Warband], entries) -> dict[tuple[int, int], tuple[int, int]]:
    """(warband, game number) -> (place, Victory Points so far), for the warbands that had played by then."""
    by_game: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for warband_id, _game_id, number, result, victory_points in entries:
        by_game[number].append((warband_id, result, victory_points))
    names = {warband.pk: warband.name for warband in warbands}
    points: dict[int, int] = defaultdict(int)
    wins: dict[int, int] = defaultdict(int)
    placed = {}
    for number in numbers:
        for warband_id, result, victory_points in by_game[number]:
            points[warband_id] += victory_points
            wins[warband_id] += result == GamePlayer.Result.WIN
        keyed: dict[tuple, list[int]] = defaultdict(list)
        rows = []
        for warband_id in sorted(points):
            keyed[(names[warband_id], points[warband_id], wins[warband_id])].append(warband_id)
            rows.append(
                {"warband": names[warband_id], "victory_points": points[warband_id], "wins": wins[warband_id]}
            )
        for place, standing in enumerate(rank_standings(rows), start=1):
            warband_id = keyed[(standing.warband, standing.victory_points, standing.wins)].pop(0)
            placed[(warband_id, number)] = (place, points[warband_id])
    return placed


def _moments(campaign: Campaign) -> dict[int, dt.datetime]:
    """Game number -> when its latest post-game was applied (games with none applied have no moment)."""
    rows = (
        PostGame.objects.filter(player__game__campaign=campaign, status=PostGame.Status.APPLIED)
        .values("player__game__number")
        .annotate(at=Max("applied_at"))
        .values_list("player__game__number", "at")
    )
    return dict(rows)


def _values(campaign: Campaign, moments: dict[int, dt.datetime]) -> dict[tuple[int, int], int]:
    """(warband, game number) -> the warband's value at the game's moment, replayed from the history's events."""
    if not moments:
        return {}
    fighter_events = Fighter.pgh_event_model.objects.filter(warband__campaign=campaign).values_list(
        "pgh_created_at", "pgh_id", "pgh_obj_id", "pgh_label", "warband_id", "cost", "status"
    )
    item_events = Item.pgh_event_model.objects.filter(warband__campaign=campaign).values_list(
        "pgh_created_at", "pgh_id", "pgh_obj_id", "pgh_label", "warband_id", "cost", "fighter_id"
    )
    events = sorted(
        [("fighter", *row) for row in fighter_events] + [("item", *row) for row in item_events],
        key=lambda row: (row[1], row[0], row[2]),
    )
    fighters: dict[int, tuple] = {}
    items: dict[int, tuple] = {}
    values = {}
    position = 0
    for number, moment in sorted(moments.items(), key=lambda pair: pair[1]):
        while position < len(events) and events[position][1] <= moment:
            kind, _at, _id, obj, label, warband_id, cost, extra = events[position]
            rows = fighters if kind == "fighter" else items
            if label == "delete":
                rows.pop(obj, None)
            else:
                rows[obj] = (warband_id, cost, extra)
            position += 1
        kit: dict[int, list[int]] = defaultdict(list)
        for _warband, cost, holder in items.values():
            if holder is not None:
                kit[holder].append(cost)
        rosters: dict[int, list[RosterFighter]] = defaultdict(list)
        for fighter_id, (warband_id, cost, status) in fighters.items():
            rosters[warband_id].append(
                RosterFighter(
                    cost=cost, battlekit=tuple(kit[fighter_id]), removed=status != Fighter.Status.ACTIVE
                )
            )
        for warband_id, roster in rosters.items():
            values[(warband_id, number)] = warband_value(roster)
    return values


def game_series(*, campaign: Campaign, warbands: list[Warband], entries) -> GameSeries:
    """Each warband's place and value after each game played (`entries`: the campaign's finished games' warband
    rows as (warband, game, number, result, Victory Points))."""
    numbers = sorted({number for _w, _g, number, _r, _v in entries})
    placed = _places(numbers, warbands, entries)
    values = _values(campaign, {n: at for n, at in _moments(campaign).items() if n in numbers})
    rows = []
    for warband in warbands:
        points = tuple(
            Point(
                game=number,
                place=placed.get((warband.pk, number), (None, 0))[0],
                victory_points=placed.get((warband.pk, number), (None, 0))[1],
                value=values.get((warband.pk, number)),
            )
            for number in numbers
        )
        rows.append(WarbandSeries(warband=warband, points=points))
    return GameSeries(games=tuple(numbers), warbands=tuple(rows))
