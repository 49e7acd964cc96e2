"""What every roster write shares: the history context it records, and the cleaning of what it is given."""

from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

from campaigns.history_context import history_context
from campaigns.models import Game
from rosters.models import Fighter, Warband


def change_context(
    *,
    action: str,
    reason: str,
    by,
    warband: Warband | None = None,
    fighter: Fighter | None = None,
    game: Game | int | None = None,
    **extra: Any,
) -> AbstractContextManager:
    """The history context of one roster write: what was done and why, by whom, and the campaign, warband,
    fighter and game it touched, as the feed and timelines read them (rosters/history/)."""
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


def refuse_unknown(fields: Mapping[str, Any], allowed: Sequence[str], what: str) -> None:
    """A caller's mistake, not a player's: a field the row has not (or may not be changed by this service)."""
    unknown = sorted(set(fields) - set(allowed))
    if unknown:
        raise TypeError(f"{what} has no field(s) {', '.join(unknown)}")


def clean_keywords(keywords: Iterable[str]) -> list[str]:
    """Keywords upper-case, trimmed, each once, in the order given (ELITE, HEAVY, TWO-HANDED...)."""
    seen: list[str] = []
    for keyword in keywords:
        keyword = keyword.strip().upper()
        if keyword and keyword not in seen:
            seen.append(keyword)
    return seen


def describe_fields(fields: Iterable[str]) -> str:
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
