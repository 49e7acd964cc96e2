"""The campaign's events told as history: the campaign, its members, its games, who played and who fell.

`campaigns` sits below `rosters` and may not import it (docs/architecture.md), so `rosters` registers its tables.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from django.apps import apps

from campaigns.terms import terms_for
from rosters.history import registry
from rosters.history.entries import Change
from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.roster_rows import in_warbands
from rosters.history.teller import Teller
from rosters.words import possessive, post_game_switch

GAME_STATUS = {
    "in_progress": "in progress",
    "recorded": "recorded",
    "post_game": "post-game in progress",
    "done": "post-game done",
}
RESULTS = {"win": "win", "loss": "loss", "draw": "draw", "": "no result"}
# A correction of a game's score at any time (rosters/services/game_scores.py): told with its reason, always.
SCORE_ACTION = "game.score"
ROLES = {"organiser": "organiser", "player": "player", "spectator": "spectator"}
GAME_STEPS = {
    ("in_progress", "recorded"): "{title} was played to its end",
    ("recorded", "post_game"): "{title}'s post-games started",
    ("post_game", "done"): "Every post-game of {title} is done",
    ("done", "post_game"): "A post-game of {title} was reopened",
    # Every post-game is pending again: the one that was under way was undone (perhaps one of two, the other never
    # started), so the sentence says where the game stands, not how many were undone.
    ("post_game", "recorded"): "No post-game of {title} is under way any more",
}


def _game_title(t: Teller, game_id) -> str:
    game = t.look.game(game_id)
    return game.title if game else "a game"


def _rows(row) -> tuple[dict, dict]:
    return row.data or {}, row.prev or {}


def _campaign_wide(f) -> bool:
    return f.warband_id is None and f.fighter_id is None


# -- who played a game ------------------------------------------------------------------------------------------


def _follow_ups(t: Teller) -> list[Change]:
    return [change for source in registry.sources() for change in source.follow_up(t.entry, t.look, t)]


def _score_changes(t: Teller, warband: str, game: str, diff: dict) -> list[Change]:
    """A result or Victory Points changed. A correction of the score (`game.score`, at any time) always says its
    reason, even one that names the warband: the standings move with it (RULING W-2)."""
    told = []
    if "result" in diff:
        old, new = (RESULTS.get(v or "", v) for v in diff["result"])
        told.append(f"{possessive(warband)} result in {game}: {old} → {new}")
    if "victory_points" in diff:
        old, new = diff["victory_points"]
        told.append(f"{possessive(warband)} Victory Points in {game}: {old or 0} → {new}")
    reason = (t.entry.reason or "").strip()
    if t.entry.action == SCORE_ACTION and reason:
        return [t.finish("games", f"{text} (corrected: {reason})", reason=False) for text in told]
    return [t.finish("games", text) for text in told]


def _player_changes(t: Teller, warband: str, game: str) -> list[Change]:
    diff = t.diff()
    out = _score_changes(t, warband, game, diff)
    if "post_game" in diff:
        new = diff["post_game"][1]
        text = {
            "in_progress": f"{warband} started its post-game of {game}",
            "done": f"{warband} finished its post-game of {game}",
            "pending": f"{possessive(warband)} post-game of {game} was reopened",
        }.get(new, f"{possessive(warband)} post-game of {game}: {new}")
        out.append(t.finish("games", text))
        if new == "done":
            # What a source knows of the finished post-game (each fighter's Trauma result) follows it.
            out.extend(_follow_ups(t))
    return out


class PlayerSource(Source):
    name, event_label, rank, kind = "player", "campaigns.GamePlayerEvent", 6, "games"

    def scope(self, f):
        return None if f.fighter_id is not None else in_warbands(f)

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids):
        for r in _rows(row):
            ids["warbands"].add(r.get("warband_id"))
            ids["games"].add(r.get("game_id"))

    def links(self, entry, look):
        entry.warband_id = as_int(entry.data.get("warband_id"))
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        warband = look.warband(d.get("warband_id"))
        game = _game_title(t, d.get("game_id"))
        if label == "insert" and not d.get("result"):
            # A game started to be played on the tracker: its results come at its end.
            return [t.finish("games", f"{warband} takes part in {game}")]
        if label == "insert":
            result = f" ({RESULTS.get(d.get('result', ''), d.get('result'))})"
            return [t.finish("games", f"{warband} played {game}{result}")]
        if label == "delete":
            return [t.finish("games", f"{warband} was taken off {game}")]
        return _player_changes(t, warband, game) or [
            t.finish("games", f"{possessive(warband)} entry in {game} was corrected")
        ]


class OutOfActionSource(Source):
    name, event_label, rank, kind = "out_of_action", "campaigns.OutOfActionEvent", 2, "games"

    def scope(self, f):
        return "e.fighter_id = %(f)s" if f.fighter_id is not None else "e.fighter_id IN (SELECT id FROM ft)"

    def game_scope(self):
        players = apps.get_model("campaigns.GamePlayer")._meta.db_table
        return (
            f" OR e.player_id IN (SELECT id FROM {players} WHERE game_id = %(gi)s"
            f" UNION SELECT pgh_obj_id FROM {registry.by_name('player').table} WHERE game_id = %(gi)s)"
        )

    def collect(self, row, ids):
        for r in _rows(row):
            ids["fighters"].add(r.get("fighter_id"))
            ids["players"].add(r.get("player_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        if entry.fighter_id in look.fighters:
            entry.warband_id = as_int(look.fighters[entry.fighter_id].get("warband_id"))
        player = look.players.get(as_int(entry.data.get("player_id")) or -1) or {}
        if as_int(entry.context.get("game")) is None or entry.warband_id is None:
            # Without a game in its context the mark belongs to its game player's game and warband.
            entry.warband_id = as_int(player.get("warband_id"))
        return as_int(player.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        fighter = look.fighter(t.d.get("fighter_id"))
        player = look.players.get(as_int(t.d.get("player_id")) or -1) or {}
        game = _game_title(t, player.get("game_id"))
        if entry.label == "delete":
            return [t.finish("games", f"{fighter} is no longer marked Out of Action in {game}")]
        return [t.finish("games", f"{fighter} was taken Out of Action in {game}")]


# -- games ------------------------------------------------------------------------------------------------------


def _game_changes(t: Teller, title: str) -> list[Change]:
    diff, out = t.diff(), []
    if "status" in diff:
        old, new = diff["status"]
        step = GAME_STEPS.get((old, new))
        text = (
            step.format(title=title)
            if step
            else f"{title}: {GAME_STATUS.get(old, old)} → {GAME_STATUS.get(new, new)}"
        )
        out.append(t.finish("games", text))
    if "number" in diff:
        out.append(t.finish("games", f"Game {diff['number'][0]} is now {title}"))
    edited = {"played_on", "scenario", "notes"} & diff.keys()
    # A scenario rolled on the table ("scenario.roll") is told by the roll's own sentence, not again here.
    if edited == {"scenario"} and t.entry.action == "scenario.roll":
        edited = set()
    if edited:
        out.append(t.finish("games", f"{title}'s details were edited"))
    return out


class GameSource(Source):
    name, event_label, rank, kind = "game", "campaigns.GameEvent", 7, "games"

    def scope(self, f):
        return "e.campaign_id = %(c)s" if _campaign_wide(f) else None

    def game_scope(self):
        return " OR e.pgh_obj_id = %(gi)s"

    def links(self, entry, look):
        return entry.obj_id

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        title = f"Game {d.get('number')}"
        if label == "insert":
            scenario = f" ({d['scenario']})" if d.get("scenario") else ""
            if d.get("status") == "in_progress":
                return t.told("games", f"{{who}} started {title}{scenario}", f"{title}{scenario} was started")
            return t.told("games", f"{{who}} recorded {title}{scenario}", f"{title}{scenario} was recorded")
        if label == "delete":
            return t.told("games", f"{{who}} deleted {title}", f"{title} was deleted")
        return _game_changes(t, title) or [t.finish("games", f"{title} was updated")]


# -- members and the campaign ---------------------------------------------------------------------------------


class MembershipSource(Source):
    name, event_label, rank, kind = "membership", "campaigns.MembershipEvent", 5, "campaign"

    def scope(self, f):
        return "e.campaign_id = %(c)s" if _campaign_wide(f) else None

    def collect(self, row, ids):
        ids["users"].update(r.get("user_id") for r in _rows(row))

    def tell(self, entry, look):
        t = Teller(entry, look)
        member = look.user(t.d.get("user_id")) or "someone"
        role = ROLES.get(t.d.get("role"), t.d.get("role"))
        if entry.label == "insert":
            return [t.finish("campaign", f"{member} joined the campaign as {role}", who_in_text=True)]
        if entry.label == "delete":
            return [t.finish("campaign", f"{member} left the campaign")]
        return [t.finish("campaign", f"{member} is now {role}")]


def _share_token(old, new) -> str:
    if not old:
        return "A read-only link was shared"
    return "The read-only link was revoked" if not new else "The read-only link was replaced"


def _switch_name(key: str) -> str:
    try:
        return post_game_switch(key).name
    except ValueError:
        return key  # a switch the engine no longer knows: its key, as stored


def _post_game_switches(old, new) -> str:
    """The post-game's house rules that changed, in the engine's names; a switch dropped went back to the game's
    own steps (its preset's, a word a player does not use)."""
    old, new = old or {}, new or {}
    words = [
        f"{_switch_name(key)} switched {'on' if on else 'off'}"
        for key, on in sorted(new.items())
        if old.get(key) != on
    ]
    words += [f"{_switch_name(key)} back to the game's own steps" for key in sorted(old) if key not in new]
    return "Post-game steps (house rules): " + ("; ".join(words) or "the game's own steps")


def _campaign_changes(t: Teller) -> list[Change]:
    diff, out = t.diff(), []
    # Tokens and codes are secrets: the history says they changed, never what they are.
    if "share_token" in diff:
        out.append(t.finish("campaign", _share_token(*diff["share_token"])))
    if "invitation_code" in diff:
        out.append(t.finish("campaign", "The invitation link was renewed"))
    if "name" in diff:
        out.append(t.finish("campaign", f"The campaign is now called {diff['name'][1]}"))
    if "scar_limit" in diff:
        old, new = diff["scar_limit"]
        out.append(t.finish("campaign", f"Battle Scar limit {old} → {new}"))
    if "house_trauma_table" in diff:
        text = (
            "The campaign's own Trauma Table was edited"
            if diff["house_trauma_table"][1]
            else "The campaign went back to the default Trauma Table"
        )
        out.append(t.finish("campaign", text))
    if "post_game_switches" in diff:
        # The sentence tells the switches; the write's reason says them again ("Post-game house rules: ...").
        out.append(t.finish("campaign", _post_game_switches(*diff["post_game_switches"]), reason=False))
    if "preset" in diff:
        old, new = (terms_for(v).game for v in diff["preset"])
        out.append(t.finish("campaign", f"Rules preset {old} → {new}"))
    if "status" in diff:
        archived = diff["status"][1] == "archived"
        out.append(
            t.finish("campaign", "The campaign was archived" if archived else "The campaign is active again")
        )
    if "description" in diff:
        out.append(t.finish("campaign", "The campaign's description was edited"))
    return out


class CampaignSource(Source):
    name, event_label, rank, kind, holder_level = "campaign", "campaigns.CampaignEvent", 8, "campaign", 0

    def scope(self, f):
        return "e.pgh_obj_id = %(c)s" if _campaign_wide(f) else None

    def tell(self, entry, look):
        t = Teller(entry, look)
        name = t.d.get("name")
        if entry.label == "insert":
            return t.told(
                "campaign", f"{{who}} created the campaign {name}", f"The campaign {name} was created"
            )
        if entry.label == "delete":
            return [t.finish("campaign", f"The campaign {name} was deleted")]
        return _campaign_changes(t) or [t.finish("campaign", "The campaign's settings were changed")]


CAMPAIGN_SOURCES = (OutOfActionSource, MembershipSource, PlayerSource, GameSource, CampaignSource)
