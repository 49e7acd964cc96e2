"""The post-game told in the history: why a Strongbox moved, and each fighter's result after the Apply.

The post-game Apply (`combat/services/post_game.py`) writes under `pghistory.context(action="post_game.apply",
game=..., warband=..., roll=[...], ransoms={...})` and stores a summary of what it did on its `PostGame` row;
the roster's own events (XP, Injuries, Battlekit, the Strongbox) are told by their sources, and this one adds
what only the post-game knows (each fighter's result, each spend of Glory). Registered from `CombatConfig.ready()`.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

import datetime as dt

from campaigns.models import GamePlayer
from combat.models import PostGame
from combat.selectors.post_game.steps import step
from rosters.history import registry
from rosters.history.entries import Change
from rosters.history.lookups import Lookups, as_int
from rosters.history.registry import LookupPart, Source

APPLY = "post_game.apply"


def _read(found: dict[int, dict], look: Lookups) -> None:
    """(game id, warband id) -> the applied post-games' (applied_at, summary), oldest first."""
    post_games: dict[tuple[int, int], list] = {}
    for row in found.values():
        key = (row.get("game_id"), row.get("warband_id"))
        summary = row.get("summary") if isinstance(row.get("summary"), dict) else {}
        # The same attempt applied again (after a revert, a correction) keeps its earlier Applies.
        for done in [*(summary.get("earlier") or []), {**summary, "applied_at": row.get("applied_at")}]:
            try:
                applied_at = dt.datetime.fromisoformat(done["applied_at"])
            except (TypeError, ValueError, KeyError):
                continue
            post_games.setdefault(key, []).append((applied_at, done))
    for attempts in post_games.values():
        attempts.sort(key=lambda attempt: attempt[0])
    look.state[PostGameSource.name] = post_games


def _params(ids) -> dict:
    applies = sorted((g, w) for g, w in ids.get("post_games", ()) if g is not None and w is not None)
    return {"pg_games": [g for g, _w in applies], "pg_warbands": [w for _g, w in applies]}


def summary(look: Lookups, game_id, warband_id, at: dt.datetime) -> dict:
    """The summary the post-game Apply written at `at` stored (`PostGame.summary`): the first applied at or after
    the moment its transaction began."""
    key = (as_int(game_id), as_int(warband_id))
    attempts = (look.state.get(PostGameSource.name) or {}).get(key, [])
    return next((summary for applied_at, summary in attempts if applied_at >= at), None) or {}


class PostGameSource(Source):
    name = "post_game"

    def load(self, rows, ids):
        applies = ids.setdefault("post_games", set())
        for row in rows:
            context = row.context or {}
            if context.get("action") != APPLY:
                continue
            applies.add((as_int(context.get("game")), as_int(context.get("warband"))))
            if registry.by_rank(row.src).name == "player":
                data = row.data or {}
                applies.add((as_int(data.get("game_id")), as_int(data.get("warband_id"))))

    def lookup_parts(self):
        yield LookupPart(
            kind="post_game",
            sql=f"""SELECT 'post_game', pg.id, jsonb_build_object(
                'game_id', gp.game_id, 'warband_id', gp.warband_id, 'applied_at', pg.applied_at,
                'summary', pg.summary)
            FROM {PostGame._meta.db_table} pg JOIN {GamePlayer._meta.db_table} gp ON gp.id = pg.player_id
            WHERE pg.applied_at IS NOT NULL
              AND (gp.game_id, gp.warband_id) IN (SELECT * FROM unnest(%(pg_games)s::bigint[], %(pg_warbands)s::bigint[]))""",
            params=_params,
            read=_read,
        )

    def explain(self, entry, look, what):
        """Why a post-game moved this warband's ducats: the Apply's context may say, per warband, "ransom for
        Brother Marcus" (TRAUMA_TABLE.md 12, Captured). Older contexts, and other writes, have no `ransoms`. Why
        it changed a fighter's XP: `_xp_words`."""
        if what == "xp" and entry.source == "fighter":
            return _xp_words(entry, look)
        if what != "strongbox" or entry.source != "warband":
            return None
        ransoms = entry.context.get("ransoms")
        if isinstance(ransoms, dict):
            why = ransoms.get(str(entry.obj_id))
            return "; ".join(str(part) for part in why if part) if isinstance(why, list | tuple) else why
        if entry.action != APPLY:
            return None
        # Without it, the reason the Apply stored in its summary for this warband's Strongbox, if any.
        done = summary(look, entry.context.get("game"), entry.context.get("warband"), entry.at)
        return next(
            (
                box.get("reason")
                for box in done.get("strongboxes") or []
                if isinstance(box, dict) and box.get("warband") == entry.data.get("name")
            ),
            None,
        )

    def undone(self, entry, look) -> str:
        """An Apply's sentences after a Revert took it back: "undone by Pat" (the Revert stored who on the
        attempt's earlier Applies). An Apply taken back by a correction is told by the correction instead."""
        if entry.action != APPLY:
            return ""
        done = summary(look, entry.context.get("game"), entry.context.get("warband"), entry.at)
        who = done.get("undone_by")
        return f"undone by {who}" if isinstance(who, str) and who else ""

    def follow_up(self, entry, look, teller) -> list[Change]:
        """Each fighter's result as the Apply stored it in its summary ("Castigator Voss: D66 12, Captured, ransom
        paid — counts as Full Recovery ..."), with the dice behind it: the Trauma Step told, not worked out again."""
        if entry.source != "player" or entry.action != APPLY:
            return []
        done = summary(look, entry.data.get("game_id"), entry.data.get("warband_id"), entry.at)
        rolls = teller.context_rolls()
        out = []
        for fighter in done.get("fighters") or []:
            words = fighter.get("explanation") if isinstance(fighter, dict) else None
            if not isinstance(words, str) or not words.strip():
                continue
            own = [roll for roll in rolls if roll.fighter_id == fighter.get("id")]
            out.append(teller.finish("games", words.strip().rstrip("."), rolls=own))
        return out + _glory_spends(done, teller)


def _xp_words(entry, look) -> str | None:
    """Why the Apply changed a fighter's XP, as its summary stored it ("+1 for taking part and surviving as ELITE;
    +1 for at least one Glorious Deed", RULING X-4). A summary from before X-4 stored no such words: its XP stood
    as the group applied it, and the history says no more than it did then."""
    if entry.action != APPLY:
        return None
    done = summary(look, entry.context.get("game"), entry.context.get("warband"), entry.at)
    for fighter in done.get("fighters") or []:
        if (
            isinstance(fighter, dict)
            and fighter.get("id") == entry.obj_id
            and isinstance(fighter.get("xp"), str)
        ):
            return fighter["xp"].strip() or None
    return None


def _glory_spends(done: dict, teller) -> list[Change]:
    """Each spend of Use Glory (CAMPAIGN_PHASE.md step 7) as the Apply stored it, one line each beside the Glory's
    own change: "Use Glory: Glory Item Saint's Finger for 4 Glory (Brother Marcus)"."""
    spends = done.get("glory_spends")
    if not isinstance(spends, list):
        return []
    title = step("glory").title  # the step's name, as the wizard's bar says it
    return [
        teller.finish("games", f"{title}: {words.strip()}")
        for words in spends
        if isinstance(words, str) and words.strip()
    ]
