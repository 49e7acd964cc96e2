"""Writes for games: recording one (finished, or started for the tracker), correcting, finishing, deleting it,
and moving a warband's post-game state.

Games live in `campaigns.models` but are written here: recording one needs the warbands and fighters that took
part, and `campaigns` may not import `rosters` (docs/architecture.md: a write that gathers several apps lives in the
highest app it needs)."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django.db import transaction
from django.db.models import Max

from campaigns.history_context import add_context
from campaigns.models import Campaign, Game, GamePlayer, OutOfAction
from combat.rules.words import possessive
from rosters.models import Fighter, Warband
from rosters.services.common import change_context
from rosters.services.errors import GameLocked, RosterRefused


@dataclass(frozen=True)
class GameEntry:
    """One warband's part in a game: its result (win, loss, draw; empty while the game is played) and the fighters
    taken Out of Action."""

    warband: Warband
    result: str = ""
    out_of_action: Sequence[Fighter] = ()
    victory_points: int = 0  # the scenario's Victory Points (0..VICTORY_POINTS_MAX, RULING W-2)


def game_is_editable(*, game: Game) -> bool:
    """A game's results and Out of Action marks can change until any of its post-games starts."""
    if game.status == Game.Status.IN_PROGRESS:
        return True
    if game.status != Game.Status.RECORDED:
        return False
    return all(player.post_game == GamePlayer.PostGame.PENDING for player in game.players.all())


def _check_entries(
    campaign: Campaign,
    entries: Sequence[GameEntry],
    *,
    finished: bool,
    keep: set[int],
    playing: frozenset[int] = frozenset(),
) -> None:
    """`keep`: fighters marked Out of Action already (a correction keeps them though they are off the roster);
    `playing`: the warbands in the game already (one disbanded since still finishes the game it played)."""
    warband_ids = [entry.warband.pk for entry in entries]
    if len(warband_ids) < 2:
        raise RosterRefused("A game needs at least two warbands.")
    if len(set(warband_ids)) != len(warband_ids):
        raise RosterRefused("A warband can take part in a game only once.")
    for entry in entries:
        if entry.warband.campaign_id != campaign.pk:
            raise RosterRefused(f"{entry.warband.name} is not in {campaign.name}.")
        # "A warband may be disbanded at the end of any game; a new one starts in its place." (CAMPAIGN_PHASE.md)
        if entry.warband.disbanded_at is not None and entry.warband.pk not in playing:
            on = entry.warband.disbanded_at
            raise RosterRefused(
                f"{entry.warband.name} was disbanded on {on.day} {on:%b %Y}: it plays no more games."
            )
        if entry.result not in ("", *GamePlayer.Result.values):
            raise RosterRefused(f"{entry.result!r} is not a result (win, loss or draw).")
        if finished and not entry.result:
            raise RosterRefused(f"Give {possessive(entry.warband.name)} result: win, loss or draw.")
        for fighter in entry.out_of_action:
            if fighter.warband_id != entry.warband.pk:
                raise RosterRefused(f"{fighter.name} is not in {entry.warband.name}.")
            if not fighter.is_active and fighter.pk not in keep:
                raise RosterRefused(
                    f"{fighter.name} is not on the active roster ({fighter.get_status_display()})."
                )
    results = [entry.result for entry in entries]
    if finished and all(result == GamePlayer.Result.WIN for result in results):
        raise RosterRefused("Not every warband can win the same game.")
    if finished and len(results) == 2 and results.count(GamePlayer.Result.DRAW) == 1:
        raise RosterRefused("A draw is a draw for both warbands.")


def _write_entries(game: Game, entries: Sequence[GameEntry]) -> None:
    """Make the game's participants, results and Out of Action marks exactly `entries`."""
    existing = {player.warband_id: player for player in GamePlayer.objects.filter(game=game)}
    wanted = {entry.warband.pk for entry in entries}
    for warband_id, player in existing.items():
        if warband_id not in wanted:
            player.delete()
    for entry in entries:
        player = existing.get(entry.warband.pk)
        if player is None:
            player = GamePlayer(
                game=game, warband=entry.warband, result=entry.result, victory_points=entry.victory_points
            )
            player.full_clean()
            player.save()
        elif (player.result, player.victory_points) != (entry.result, entry.victory_points):
            player.result, player.victory_points = entry.result, entry.victory_points
            player.full_clean()
            player.save(update_fields=["result", "victory_points"])
        marked = {mark.fighter_id: mark for mark in OutOfAction.objects.filter(player=player)}
        wanted_fighters = {fighter.pk for fighter in entry.out_of_action}
        for fighter_id, mark in marked.items():
            if fighter_id not in wanted_fighters:
                mark.delete()
        for fighter in entry.out_of_action:
            if fighter.pk not in marked:
                mark = OutOfAction(player=player, fighter=fighter)
                mark.full_clean()
                mark.save()


def _sit_out(game: Game, entries: Sequence[GameEntry]) -> None:
    """A fighter that "misses the next game" (Minor Wound, TRAUMA_TABLE.md 35) sits this one out: clear it."""
    for fighter in Fighter.objects.select_for_update().filter(
        warband__in=[entry.warband.pk for entry in entries],
        misses_next_game=True,
        status=Fighter.Status.ACTIVE,
    ):
        fighter.misses_next_game = False
        fighter.full_clean()
        fighter.save(update_fields=["misses_next_game"])


def _next_number(campaign: Campaign) -> int:
    # The campaign row is locked first, so two games recorded at once get different numbers; the counter only
    # goes up, so a deleted game's number is not given to the next one (its history keeps meaning that game).
    # Games made elsewhere (the admin) are counted too.
    locked = Campaign.objects.select_for_update().only("last_game_number").get(pk=campaign.pk)
    highest = Game.objects.filter(campaign=campaign).aggregate(top=Max("number"))["top"] or 0
    number = max(locked.last_game_number, highest) + 1
    Campaign.objects.filter(pk=campaign.pk).update(last_game_number=number)
    return number


def _game_reason(game: Game, entries: Sequence[GameEntry], verb: str) -> str:
    parts = []
    for entry in entries:
        result = f" ({GamePlayer.Result(entry.result).label.lower()})" if entry.result else ""
        parts.append(f"{entry.warband.name}{result}")
    return f"{verb} Game {game.number}: {' v '.join(parts)}"


def _new_game(
    *,
    campaign: Campaign,
    by,
    played_on: date,
    entries: Sequence[GameEntry],
    scenario: str,
    notes: str,
    status: str,
    action: str,
    verb: str,
) -> Game:
    """Number, validate and save a new game with its warbands (one transaction, the caller's)."""
    if campaign.status == Campaign.Status.ARCHIVED:
        raise RosterRefused(f"{campaign.name} is archived: no new games.")
    _check_entries(campaign, entries, finished=status == Game.Status.RECORDED, keep=set())
    game = Game(
        campaign=campaign,
        number=_next_number(campaign),
        played_on=played_on,
        scenario=scenario.strip(),
        notes=notes.strip(),
        status=status,
        created_by=by,
    )
    game.full_clean()
    with change_context(action=action, reason=_game_reason(game, entries, verb), by=by):
        game.save()
        add_context(game=game.pk, campaign=campaign.pk)
        _write_entries(game, entries)
        _sit_out(game, entries)
    return game


@transaction.atomic
def game_record(
    *,
    campaign: Campaign,
    by,
    played_on: date,
    entries: Sequence[GameEntry],
    scenario: str = "",
    notes: str = "",
) -> Game:
    """Record a finished game: who played, each warband's result, the fighters taken Out of Action. Each warband's
    post-game then waits (GamePlayer.post_game pending). Games are numbered 1, 2, ... per campaign."""
    return _new_game(
        campaign=campaign,
        by=by,
        played_on=played_on,
        entries=entries,
        scenario=scenario,
        notes=notes,
        status=Game.Status.RECORDED,
        action="game.record",
        verb="Recorded",
    )


@transaction.atomic
def game_start(
    *,
    campaign: Campaign,
    by,
    played_on: date,
    warbands: Sequence[Warband],
    scenario: str = "",
    notes: str = "",
) -> Game:
    """A game about to be played with the tracker (status in progress); the tracker ends it with game_finish."""
    return _new_game(
        campaign=campaign,
        by=by,
        played_on=played_on,
        entries=[GameEntry(warband=warband) for warband in warbands],
        scenario=scenario,
        notes=notes,
        status=Game.Status.IN_PROGRESS,
        action="game.start",
        verb="Started",
    )


def _playing(game: Game) -> frozenset[int]:
    return frozenset(GamePlayer.objects.filter(game=game).values_list("warband_id", flat=True))


def _locked_game(game: Game) -> Game:
    return Game.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=game.pk)


def _check_rolled_scenario(game: Game, scenario: str | None) -> None:
    """A scenario rolled on its stage's table stands as rolled: its dice are in the log and the
    next game's roll reads it (CAMPAIGN_PHASE.md: "a warband should not play the same scenario twice in a row")."""
    if scenario is None or not game.scenario or scenario.strip() == game.scenario:
        return
    rolled = getattr(
        game, "scenario_roll", None
    )  # the roll's row, when the table was rolled (a reverse one-to-one)
    if rolled is not None and rolled.scenario == game.scenario:
        raise RosterRefused(
            {"scenario": f"Game {game.number}'s scenario was rolled: {game.scenario}. It stays as rolled."}
        )


@transaction.atomic
def game_update(
    *,
    game: Game,
    by,
    entries: Sequence[GameEntry],
    played_on: date | None = None,
    scenario: str | None = None,
    notes: str | None = None,
) -> Game:
    """Correct a recorded game (results, Out of Action, date, scenario, notes) before any post-game starts, or
    finish a game in progress by hand (it becomes recorded)."""
    game = _locked_game(game)
    if not game_is_editable(game=game):
        raise GameLocked(
            f"Game {game.number}'s post-game has started: its results and Out of Action marks cannot change now."
        )
    already_out = set(OutOfAction.objects.filter(player__game=game).values_list("fighter_id", flat=True))
    _check_entries(game.campaign, entries, finished=True, keep=already_out, playing=_playing(game))
    was_in_progress = game.status == Game.Status.IN_PROGRESS
    _check_rolled_scenario(game, scenario)
    for name, value in (("played_on", played_on), ("scenario", scenario), ("notes", notes)):
        if value is not None:
            setattr(game, name, value.strip() if isinstance(value, str) else value)
    game.status = Game.Status.RECORDED
    game.full_clean()
    verb = "Finished" if was_in_progress else "Corrected"
    with change_context(
        action="game.finish" if was_in_progress else "game.update",
        reason=_game_reason(game, entries, verb),
        by=by,
        game=game,
    ):
        game.save()
        _write_entries(game, entries)
    return game


@transaction.atomic
def game_finish(*, game: Game, by, entries: Sequence[GameEntry], reason: str = "", **context: Any) -> Game:
    """End a game in progress with its results and the fighters taken Out of Action (the tracker's end of game).
    Each warband's post-game then waits."""
    game = _locked_game(game)
    if game.status != Game.Status.IN_PROGRESS:
        raise GameLocked(f"Game {game.number} is not in progress.")
    _check_entries(game.campaign, entries, finished=True, keep=set(), playing=_playing(game))
    game.status = Game.Status.RECORDED
    game.full_clean()
    with change_context(
        action=context.pop("action", "game.finish"),
        reason=reason or _game_reason(game, entries, "Finished"),
        by=by,
        game=game,
        **context,
    ):
        game.save(update_fields=["status"])
        _write_entries(game, entries)
    return game


def game_post_game_mark(
    *,
    player: GamePlayer,
    state: str,
    by,
    reason: str = "",
    locked: bool = False,
    others: Sequence[str] | None = None,
    **context: Any,
) -> GamePlayer:
    """Move a warband's post-game to `state` (pending, in_progress, done) and the game's status with it: recorded
    while every post-game waits, done when every one is done, post-game in progress otherwise.

    `locked`: the caller's transaction already holds the game (read with its campaign) and this entry (with its
    warband) locked, as the post-game's Apply does; they are not read again. With them, `others` may give the
    other warbands' post-game states of the game, read since the game was locked (not read once more)."""
    if state not in GamePlayer.PostGame.values:
        raise RosterRefused(f"{state!r} is not a post-game state.")
    if locked:
        if not transaction.get_connection().in_atomic_block:
            raise ValueError("A post-game marked with its rows locked needs the caller's transaction.")
        return _mark(player, player.game, state, by=by, reason=reason, others=others, **context)
    with transaction.atomic():
        game = _locked_game(player.game)
        player = (
            GamePlayer.objects.select_for_update(of=("self",)).select_related("warband").get(pk=player.pk)
        )
        player.game = game  # the row locked above: held, so not looked for again when the entry is checked
        return _mark(player, game, state, by=by, reason=reason, **context)


def _mark(
    player: GamePlayer, game: Game, state: str, *, by, reason: str, others=None, **context: Any
) -> GamePlayer:
    if game.status == Game.Status.IN_PROGRESS:
        raise GameLocked(f"Game {game.number} is still being played: its post-game cannot start yet.")
    players = (
        list(others)
        if others is not None
        else GamePlayer.objects.filter(game=game).exclude(pk=player.pk).values_list("post_game", flat=True)
    )
    states = [*players, state]
    if all(value == GamePlayer.PostGame.PENDING for value in states):
        status = Game.Status.RECORDED
    elif all(value == GamePlayer.PostGame.DONE for value in states):
        status = Game.Status.DONE
    else:
        status = Game.Status.POST_GAME
    label = GamePlayer.PostGame(state).label.lower()
    with change_context(
        action=context.pop("action", "post_game.mark"),
        reason=reason or f"{possessive(player.warband.name)} post-game of Game {game.number}: {label}",
        by=by,
        game=game,
        warband=player.warband,
        **context,
    ):
        if player.post_game != state:
            player.post_game = state
            # Only the state moves: the game and the warband, and so their pair's uniqueness, are as they were.
            player.full_clean(exclude=["game", "warband"])
            player.save(update_fields=["post_game"])
        if game.status != status:
            game.status = status
            # Only the status moves: the campaign and the game's number, and so their uniqueness, are as they were.
            game.full_clean(exclude=["campaign", "number"])
            game.save(update_fields=["status"])
    return player


@transaction.atomic
def game_delete(*, game: Game, by) -> None:
    """Delete a game entered by mistake, before any post-game of it starts."""
    game = _locked_game(game)
    if not game_is_editable(game=game):
        raise GameLocked(f"Game {game.number}'s post-game has started: undo the post-game first.")
    with change_context(action="game.delete", reason=f"{by} deleted Game {game.number}", by=by, game=game):
        game.delete()
