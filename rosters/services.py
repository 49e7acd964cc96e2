"""Writes for warbands, fighters, Injuries, Battlekit and games.

Every function is keyword-only and typed, runs in one transaction, `full_clean()`s every row before it saves it,
and records why in django-pghistory's context (`action`, `reason`, `campaign`, `warband`, `fighter`, `game`,
`user`), which the history feed and timelines read. Bad input raises `django.core.exceptions.ValidationError`
with a message a player can read, and nothing is written. Permission checks are the views' job (access.py).

Games live in `campaigns.models` but are written here: recording one needs the warbands and fighters that took
part, and `campaigns` may not import `rosters` (ARCHITECTURE.md: a write that gathers several apps lives in the
highest app it needs).

Other apps (the post-game wizard, the tracker) call these rather than writing roster rows themselves, so every
change is checked and explained in one place.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

import pghistory
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max

from campaigns.history_context import add_context, history_context
from campaigns.models import Campaign, Game, GamePlayer, OutOfAction
from rosters.models import (
    ELITE,
    FIGHTER_FIELDS,
    ITEM_FIELDS,
    WARBAND_FIELDS,
    Fighter,
    Injury,
    Item,
    Warband,
)

REMOVED_STATUSES = tuple(status for status in Fighter.Status.values if status != Fighter.Status.ACTIVE)


def _context(
    *,
    action: str,
    reason: str,
    by,
    warband: Warband | None = None,
    fighter: Fighter | None = None,
    game: Game | int | None = None,
    **extra: Any,
) -> pghistory.context:
    values: dict[str, Any] = {"action": action, "reason": reason, **extra}
    if warband is not None:
        values["warband"] = warband.pk
        values["campaign"] = warband.campaign_id
    if fighter is not None:
        values["fighter"] = fighter.pk
    if isinstance(game, Game):
        values["game"] = game.pk
        values["campaign"] = game.campaign_id
    elif game is not None:
        values["game"] = game
    return history_context(by=by, **values)


def _unknown(fields: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise TypeError(f"{what} has no field(s) {', '.join(unknown)}")


def _clean_keywords(keywords: Iterable[str]) -> list[str]:
    """Keywords upper-case, trimmed, each once, in the order given (ELITE, HEAVY, TWO-HANDED...)."""
    seen: list[str] = []
    for keyword in keywords:
        keyword = keyword.strip().upper()
        if keyword and keyword not in seen:
            seen.append(keyword)
    return seen


def _describe(fields: Iterable[str]) -> str:
    labels = {
        "fighter_type": "type",
        "harm_limit": "Harm Limit",
        "xp": "XP",
        "battle_scars": "Battle Scars",
        "crew_xp": "crew XP",
        "can_gain_xp": "XP gain",
        "misses_next_game": "misses next game",
        "unit_size": "unit size",
    }
    return ", ".join(labels.get(name, name.replace("_", " ")) for name in fields)


# -- warbands ---------------------------------------------------------------------------------------------------


@transaction.atomic
def warband_create(
    *,
    campaign: Campaign,
    owner,
    name: str,
    by,
    faction: str = "",
    notes: str = "",
    strongbox: int = 0,
    glory: int = 0,
    crew_xp: int = 0,
) -> Warband:
    """A new warband in the campaign, kept by `owner`."""
    warband = Warband(
        campaign=campaign,
        owner=owner,
        name=name.strip(),
        faction=faction.strip(),
        notes=notes.strip(),
        strongbox=strongbox,
        glory=glory,
        crew_xp=crew_xp,
    )
    warband.full_clean()
    with _context(action="warband.create", reason=f"{owner} founded the warband {warband.name}", by=by):
        warband.save()
        add_context(warband=warband.pk, campaign=campaign.pk)
    return warband


@transaction.atomic
def warband_update(*, warband: Warband, by, changes: Mapping[str, Any]) -> Warband:
    """Change a warband's name, faction, notes, Strongbox, Glory or crew XP (`changes` maps field to value)."""
    _unknown(changes, WARBAND_FIELDS, "A warband")
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    changed = []
    for name, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        if getattr(warband, name) != value:
            setattr(warband, name, value)
            changed.append(name)
    if not changed:
        return warband
    warband.full_clean()
    with _context(
        action="warband.update",
        reason=f"{by} changed {warband.name}'s {_describe(changed)}",
        by=by,
        warband=warband,
    ):
        warband.save(update_fields=changed)
    return warband


@transaction.atomic
def warband_adjust(
    *, warband: Warband, by, reason: str, strongbox: int = 0, glory: int = 0, crew_xp: int = 0, **context: Any
) -> Warband:
    """Add to (or take from) the Strongbox, Glory and crew XP; none may go below 0.

    For the post-game (a ransom moving ducats between Strongboxes) and the tracker (Harsh Lessons crew XP); extra
    keyword arguments (`game=`, `roll=`, `step=`, `action=`) go into the history context.
    """
    warband = Warband.objects.select_for_update().get(pk=warband.pk)
    changed = []
    for name, delta in (("strongbox", strongbox), ("glory", glory), ("crew_xp", crew_xp)):
        if delta:
            setattr(warband, name, getattr(warband, name) + delta)
            changed.append(name)
    if not changed:
        return warband
    if warband.strongbox < 0:
        raise ValidationError(
            f"{warband.name} has only {warband.strongbox - strongbox} in the Strongbox; it cannot go below 0."
        )
    warband.full_clean()
    action = context.pop("action", "warband.adjust")
    with _context(action=action, reason=reason, by=by, warband=warband, **context):
        warband.save(update_fields=changed)
    return warband


# -- fighters ---------------------------------------------------------------------------------------------------


def _elite_keywords(keywords: list[str], elite: bool | None) -> list[str]:
    if elite is None:
        return keywords
    keywords = [keyword for keyword in keywords if keyword != ELITE]
    return [ELITE, *keywords] if elite else keywords


@transaction.atomic
def fighter_create(*, warband: Warband, by, name: str, elite: bool | None = None, **fields: Any) -> Fighter:
    """A new fighter on the warband's roster. `elite` adds or takes away the ELITE keyword (RULING T-1); the other
    keyword arguments are Fighter fields (fighter_type, keywords, champion, the S.P.E.C.I.A.L. stats, health,
    harm_limit, movement, unit_size, xp, battle_scars, can_gain_xp, misses_next_game)."""
    _unknown(fields, FIGHTER_FIELDS, "A fighter")
    fields["keywords"] = _elite_keywords(_clean_keywords(fields.get("keywords", ())), elite)
    fighter = Fighter(warband=warband, name=name.strip(), **fields)
    if isinstance(fighter.fighter_type, str):
        fighter.fighter_type = fighter.fighter_type.strip()
    fighter.full_clean()
    with _context(
        action="fighter.create", reason=f"{fighter.name} joined {warband.name}", by=by, warband=warband
    ):
        fighter.save()
        add_context(fighter=fighter.pk)
    return fighter


@transaction.atomic
def fighter_update(*, fighter: Fighter, by, changes: Mapping[str, Any], elite: bool | None = None) -> Fighter:
    """Change a fighter's name, type, keywords, stats, XP, Battle Scars... (`changes` maps field to value)."""
    _unknown(changes, FIGHTER_FIELDS, "A fighter")
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    changes = dict(changes)
    if "keywords" in changes or elite is not None:
        changes["keywords"] = _elite_keywords(
            _clean_keywords(changes.get("keywords", fighter.keywords)), elite
        )
    changed = []
    for name, value in changes.items():
        if isinstance(value, str):
            value = value.strip()
        if getattr(fighter, name) != value:
            setattr(fighter, name, value)
            changed.append(name)
    if not changed:
        return fighter
    fighter.full_clean()
    with _context(
        action="fighter.update",
        reason=f"{by} changed {fighter.name}'s {_describe(changed)}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        fighter.save(update_fields=changed)
    return fighter


@transaction.atomic
def fighter_adjust_xp(*, fighter: Fighter, delta: int, by, reason: str = "", **context: Any) -> Fighter:
    """Add `delta` XP (negative to take some away). XP never goes below 0, and a fighter that can no longer gain
    XP (Head Wound, TRAUMA_TABLE.md 22) gains none. The row is locked, so two quick taps both count."""
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    if delta == 0:
        return fighter
    if delta > 0 and not fighter.can_gain_xp:
        raise ValidationError(f"{fighter.name} can no longer gain XP (Head Wound).")
    if fighter.xp + delta < 0:
        raise ValidationError(f"{fighter.name} has {fighter.xp} XP; XP cannot go below 0.")
    fighter.xp += delta
    fighter.full_clean()
    with _context(
        action=context.pop("action", "xp.adjust"),
        reason=reason
        or f"{fighter.name} {'gained' if delta > 0 else 'lost'} {abs(delta)} XP (now {fighter.xp})",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        **context,
    ):
        fighter.save(update_fields=["xp"])
    return fighter


class Battlekit:
    """What happens to a removed fighter's Battlekit."""

    ARSENAL = "arsenal"  # goes to the warband's Arsenal (Unfit For Duty, retired: RULING T-4)
    LOST = "lost"  # lost with the fighter (Dead, Blinded, Executed: RULING T-6)
    KEPT = "kept"  # stays with the fighter's record (nothing moves)
    choices = ((ARSENAL, "to the Arsenal"), (LOST, "lost"), (KEPT, "kept with the fighter"))


@dataclass(frozen=True)
class Removal:
    fighter: Fighter
    moved_to_arsenal: tuple[int, ...] = ()
    lost: tuple[str, ...] = ()
    kept_in_place: tuple[str, ...] = ()


@transaction.atomic
def fighter_remove(
    *, fighter: Fighter, status: str, by, battlekit: str = Battlekit.ARSENAL, reason: str = ""
) -> Removal:
    """Take a fighter off the active roster with a status (dead, retired, ...). The row stays, with its history.

    Its Battlekit goes to the Arsenal, is lost (deleted), or stays with it; Battlekit that cannot be removed from
    the model is never moved to the Arsenal (RULING T-4) and stays with it.
    """
    if status not in REMOVED_STATUSES:
        raise ValidationError(f"{status!r} is not a way to leave the roster.")
    if battlekit not in (Battlekit.ARSENAL, Battlekit.LOST, Battlekit.KEPT):
        raise ValidationError(f"{battlekit!r} is not a choice for the Battlekit.")
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    old_status = fighter.status
    fighter.status = status
    fighter.full_clean()
    label = Fighter.Status(status).label
    moved: list[int] = []
    lost: list[str] = []
    kept: list[str] = []
    with _context(
        action="fighter.remove",
        reason=reason or f"{fighter.name} left the roster: {label}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        status_before=old_status,
    ):
        fighter.save(update_fields=["status"])
        for item in Item.objects.select_for_update().filter(fighter=fighter):
            if battlekit == Battlekit.ARSENAL and item.removable:
                item.fighter = None
                item.full_clean()
                item.save(update_fields=["fighter"])
                moved.append(item.pk)
            elif battlekit == Battlekit.LOST:
                lost.append(item.name)
                item.delete()
            else:
                kept.append(item.name)
    return Removal(
        fighter=fighter, moved_to_arsenal=tuple(moved), lost=tuple(lost), kept_in_place=tuple(kept)
    )


@transaction.atomic
def fighter_restore(*, fighter: Fighter, by, items: Iterable[int] = (), reason: str = "") -> Fighter:
    """Put a removed fighter back on the active roster (undo a removal). `items` are Battlekit ids to give back
    from the Arsenal (those still there and in this warband; others are left where they are)."""
    fighter = Fighter.objects.select_for_update(of=("self",)).select_related("warband").get(pk=fighter.pk)
    if fighter.is_active:
        return fighter
    old = fighter.get_status_display()
    fighter.status = Fighter.Status.ACTIVE
    fighter.full_clean()
    with _context(
        action="fighter.restore",
        reason=reason or f"{fighter.name} is back on the roster (was {old})",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        fighter.save(update_fields=["status"])
        for item in Item.objects.select_for_update().filter(
            pk__in=list(items), warband=fighter.warband, fighter__isnull=True
        ):
            item.fighter = fighter
            item.full_clean()
            item.save(update_fields=["fighter"])
    return fighter


# -- Injuries ---------------------------------------------------------------------------------------------------


@transaction.atomic
def injury_add(
    *,
    fighter: Fighter,
    by,
    code: str,
    name: str,
    effect: str = "",
    game: Game | None = None,
    d66: int | None = None,
    reason: str = "",
    **context: Any,
) -> Injury:
    """Record a Trauma Table result the fighter keeps (by hand, or from the post-game with `game` and `d66`)."""
    fighter = Fighter.objects.select_related("warband").get(pk=fighter.pk)
    if game is not None and game.campaign_id != fighter.warband.campaign_id:
        raise ValidationError("That game is not in this fighter's campaign.")
    injury = Injury(
        fighter=fighter, code=code.strip(), name=name.strip(), effect=effect.strip(), game=game, d66=d66
    )
    injury.full_clean()
    suffix = f" (D66 {d66})" if d66 else ""
    with _context(
        action=context.pop("action", "injury.add"),
        reason=reason or f"{fighter.name} suffered {injury.name}{suffix}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
        game=game,
        **context,
    ):
        injury.save()
    return injury


@transaction.atomic
def injury_remove(*, injury: Injury, by, reason: str = "") -> None:
    """Strike an Injury off (a mistake, or a rule that heals it)."""
    injury = Injury.objects.select_related("fighter__warband").get(pk=injury.pk)
    fighter = injury.fighter
    with _context(
        action="injury.remove",
        reason=reason or f"{by} struck {injury.name} off {fighter.name}",
        by=by,
        warband=fighter.warband,
        fighter=fighter,
    ):
        injury.delete()


# -- Battlekit --------------------------------------------------------------------------------------------------


def _holder_in_warband(warband: Warband, fighter: Fighter | None) -> None:
    if fighter is None:
        return
    if fighter.warband_id != warband.pk:
        raise ValidationError(f"{fighter.name} is not in {warband.name}.")
    if not fighter.is_active:
        raise ValidationError(f"{fighter.name} is not on the active roster ({fighter.get_status_display()}).")


@transaction.atomic
def item_create(
    *,
    warband: Warband,
    by,
    name: str,
    fighter: Fighter | None = None,
    notes: str = "",
    keywords: Iterable[str] = (),
    removable: bool = True,
) -> Item:
    """A piece of Battlekit, held by `fighter`, or in the Arsenal when `fighter` is None."""
    _holder_in_warband(warband, fighter)
    item = Item(
        warband=warband,
        fighter=fighter,
        name=name.strip(),
        notes=notes.strip(),
        keywords=_clean_keywords(keywords),
        removable=removable,
    )
    item.full_clean()
    where = fighter.name if fighter else "the Arsenal"
    with _context(
        action="item.create",
        reason=f"{item.name} added to {where}",
        by=by,
        warband=warband,
        fighter=fighter,
    ):
        item.save()
        add_context(item=item.pk)
    return item


@transaction.atomic
def item_update(*, item: Item, by, changes: Mapping[str, Any]) -> Item:
    """Change a piece of Battlekit's name, notes, keywords or whether it can be removed."""
    _unknown(changes, ITEM_FIELDS, "Battlekit")
    item = Item.objects.select_for_update().select_related("warband").get(pk=item.pk)
    changed = []
    for name, value in changes.items():
        if name == "keywords":
            value = _clean_keywords(value)
        elif isinstance(value, str):
            value = value.strip()
        if getattr(item, name) != value:
            setattr(item, name, value)
            changed.append(name)
    if not changed:
        return item
    item.full_clean()
    with _context(
        action="item.update",
        reason=f"{by} changed {item.name}'s {_describe(changed)}",
        by=by,
        warband=item.warband,
        item=item.pk,
    ):
        item.save(update_fields=changed)
    return item


@transaction.atomic
def item_move(*, item: Item, to_fighter: Fighter | None, by) -> Item:
    """Give Battlekit to a fighter of the same warband, or put it in the Arsenal (`to_fighter=None`).

    Battlekit that cannot be removed from the model stays with it (TRAUMA_TABLE.md, RULING T-4).
    """
    item = Item.objects.select_for_update(of=("self",)).select_related("warband", "fighter").get(pk=item.pk)
    _holder_in_warband(item.warband, to_fighter)
    if item.fighter_id == (to_fighter.pk if to_fighter else None):
        return item
    if item.fighter is not None and not item.removable:
        raise ValidationError(f"{item.name} cannot be removed from {item.fighter.name}.")
    source = item.fighter.name if item.fighter else "the Arsenal"
    target = to_fighter.name if to_fighter else "the Arsenal"
    item.fighter = to_fighter
    item.full_clean()
    with _context(
        action="item.move",
        reason=f"{item.name} moved from {source} to {target}",
        by=by,
        warband=item.warband,
        fighter=to_fighter,
        item=item.pk,
    ):
        item.save(update_fields=["fighter"])
    return item


@transaction.atomic
def item_delete(*, item: Item, by, reason: str = "") -> None:
    """Take Battlekit off the roster altogether (sold, lost, or entered by mistake)."""
    item = Item.objects.select_for_update(of=("self",)).select_related("warband", "fighter").get(pk=item.pk)
    where = item.fighter.name if item.fighter else "the Arsenal"
    with _context(
        action="item.delete",
        reason=reason or f"{item.name} taken off {where}",
        by=by,
        warband=item.warband,
        fighter=item.fighter,
        item=item.pk,
    ):
        item.delete()


# -- games ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameEntry:
    """One warband's part in a game: its result (win, loss, draw; empty while the game is played) and the fighters
    taken Out of Action."""

    warband: Warband
    result: str = ""
    out_of_action: Sequence[Fighter] = ()


def game_is_editable(game: Game) -> bool:
    """A game's results and Out of Action marks can change until any of its post-games starts."""
    if game.status == Game.Status.IN_PROGRESS:
        return True
    if game.status != Game.Status.RECORDED:
        return False
    return all(player.post_game == GamePlayer.PostGame.PENDING for player in game.players.all())


def _check_entries(
    campaign: Campaign, entries: Sequence[GameEntry], *, finished: bool, keep: set[int]
) -> None:
    warband_ids = [entry.warband.pk for entry in entries]
    if len(warband_ids) < 2:
        raise ValidationError("A game needs at least two warbands.")
    if len(set(warband_ids)) != len(warband_ids):
        raise ValidationError("A warband can take part in a game only once.")
    for entry in entries:
        if entry.warband.campaign_id != campaign.pk:
            raise ValidationError(f"{entry.warband.name} is not in {campaign.name}.")
        if entry.result not in ("", *GamePlayer.Result.values):
            raise ValidationError(f"{entry.result!r} is not a result (win, loss or draw).")
        if finished and not entry.result:
            raise ValidationError(f"Give {entry.warband.name}'s result: win, loss or draw.")
        for fighter in entry.out_of_action:
            if fighter.warband_id != entry.warband.pk:
                raise ValidationError(f"{fighter.name} is not in {entry.warband.name}.")
            if not fighter.is_active and fighter.pk not in keep:
                raise ValidationError(
                    f"{fighter.name} is not on the active roster ({fighter.get_status_display()})."
                )
    results = [entry.result for entry in entries]
    if finished and all(result == GamePlayer.Result.WIN for result in results):
        raise ValidationError("Not every warband can win the same game.")
    if finished and len(results) == 2 and results.count(GamePlayer.Result.DRAW) == 1:
        raise ValidationError("A draw is a draw for both warbands.")


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
            player = GamePlayer(game=game, warband=entry.warband, result=entry.result)
            player.full_clean()
            player.save()
        elif player.result != entry.result:
            player.result = entry.result
            player.full_clean()
            player.save(update_fields=["result"])
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
        raise ValidationError(f"{campaign.name} is archived: no new games.")
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
    with _context(action=action, reason=_game_reason(game, entries, verb), by=by):
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


def _locked_game(game: Game) -> Game:
    return Game.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=game.pk)


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
    if not game_is_editable(game):
        raise ValidationError(
            f"Game {game.number}'s post-game has started: its results and Out of Action marks cannot change now."
        )
    already_out = set(OutOfAction.objects.filter(player__game=game).values_list("fighter_id", flat=True))
    _check_entries(game.campaign, entries, finished=True, keep=already_out)
    was_in_progress = game.status == Game.Status.IN_PROGRESS
    for name, value in (("played_on", played_on), ("scenario", scenario), ("notes", notes)):
        if value is not None:
            setattr(game, name, value.strip() if isinstance(value, str) else value)
    game.status = Game.Status.RECORDED
    game.full_clean()
    verb = "Finished" if was_in_progress else "Corrected"
    with _context(
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
        raise ValidationError(f"Game {game.number} is not in progress.")
    _check_entries(game.campaign, entries, finished=True, keep=set())
    game.status = Game.Status.RECORDED
    game.full_clean()
    with _context(
        action=context.pop("action", "game.finish"),
        reason=reason or _game_reason(game, entries, "Finished"),
        by=by,
        game=game,
        **context,
    ):
        game.save(update_fields=["status"])
        _write_entries(game, entries)
    return game


@transaction.atomic
def game_post_game_mark(
    *, player: GamePlayer, state: str, by, reason: str = "", **context: Any
) -> GamePlayer:
    """Move a warband's post-game to `state` (pending, in_progress, done) and the game's status with it: recorded
    while every post-game waits, done when every one is done, post-game in progress otherwise."""
    if state not in GamePlayer.PostGame.values:
        raise ValidationError(f"{state!r} is not a post-game state.")
    game = _locked_game(player.game)
    if game.status == Game.Status.IN_PROGRESS:
        raise ValidationError(f"Game {game.number} is still being played: its post-game cannot start yet.")
    player = GamePlayer.objects.select_for_update(of=("self",)).select_related("warband").get(pk=player.pk)
    players = list(
        GamePlayer.objects.filter(game=game).exclude(pk=player.pk).values_list("post_game", flat=True)
    )
    states = [*players, state]
    if all(value == GamePlayer.PostGame.PENDING for value in states):
        status = Game.Status.RECORDED
    elif all(value == GamePlayer.PostGame.DONE for value in states):
        status = Game.Status.DONE
    else:
        status = Game.Status.POST_GAME
    label = GamePlayer.PostGame(state).label.lower()
    with _context(
        action=context.pop("action", "post_game.mark"),
        reason=reason or f"{player.warband.name}'s post-game of Game {game.number}: {label}",
        by=by,
        game=game,
        warband=player.warband,
        **context,
    ):
        if player.post_game != state:
            player.post_game = state
            player.full_clean()
            player.save(update_fields=["post_game"])
        if game.status != status:
            game.status = status
            game.full_clean()
            game.save(update_fields=["status"])
    return player


@transaction.atomic
def game_delete(*, game: Game, by) -> None:
    """Delete a game entered by mistake, before any post-game of it starts."""
    game = _locked_game(game)
    if not game_is_editable(game):
        raise ValidationError(f"Game {game.number}'s post-game has started: undo the post-game first.")
    with _context(action="game.delete", reason=f"{by} deleted Game {game.number}", by=by, game=game):
        game.delete()


# -- import from a file (issue 6) -------------------------------------------------------------------------------


@transaction.atomic
def warband_import(*, campaign: Campaign, owner, by, data: Mapping[str, Any]) -> Warband:
    """Recreate a warband from an export file's `warband` object (checked by `rosters.portability`) in
    `campaign`, kept by `owner`: its fighters with their Injuries and Battlekit, and its Arsenal, exactly. All of
    it or nothing: a row the database would refuse raises ValidationError and the transaction writes nothing."""
    from rosters.portability import FIGHTER_KEYS, INJURY_KEYS, ITEM_KEYS, WARBAND_KEYS

    warband = Warband(campaign=campaign, owner=owner, **{key: data[key] for key in WARBAND_KEYS})
    warband.full_clean()
    with _context(action="warband.import", reason=f"{owner} imported {warband.name} from a file", by=by):
        warband.save()
        add_context(warband=warband.pk, campaign=campaign.pk)
        injuries: list[Injury] = []
        items: list[Item] = []
        for row in data["fighters"]:
            fighter = Fighter(warband=warband, **{key: row[key] for key in FIGHTER_KEYS})
            # The warband and fighters were made just now: no need to ask the database they exist.
            fighter.full_clean(exclude=["warband"])
            fighter.save()
            injuries += [
                Injury(fighter=fighter, **{key: i[key] for key in INJURY_KEYS}) for i in row["injuries"]
            ]
            items += [
                Item(warband=warband, fighter=fighter, **{k: i[k] for k in ITEM_KEYS})
                for i in row["battlekit"]
            ]
        items += [
            Item(warband=warband, fighter=None, **{k: i[k] for k in ITEM_KEYS}) for i in data["arsenal"]
        ]
        for row in (*injuries, *items):
            row.full_clean(exclude=["fighter", "warband"])
        # In file order, so the ids (and the roster's order) follow the exported warband's.
        Injury.objects.bulk_create(injuries)
        Item.objects.bulk_create(items)
    return warband
