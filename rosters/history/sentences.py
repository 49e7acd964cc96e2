"""Sentences: each pghistory event told as one or more sentences, with who, why, the game and the roll."""

from __future__ import annotations

import re

from campaigns.terms import terms_for
from rosters.history.entries import Change, HistoryEntry
from rosters.history.lookups import _as_int, _as_ints, _load_lookups, _Lookups, display_name
from rosters.history.sources import SOURCE_BY_RANK, Cursor, sort_rank
from rosters.history.tracker import load_tracker_steps, tracker_changes, tracker_ids, tracker_target

# --------------------------------------------------------------------------------------------------------------
# Sentences
# --------------------------------------------------------------------------------------------------------------

STAT_LABELS = {
    "strength": "Strength",
    "perception": "Perception",
    "endurance": "Endurance",
    "charisma": "Charisma",
    "intelligence": "Intelligence",
    "agility": "Agility",
    "luck": "Luck",
    "health": "Health",
    "harm_limit": "Harm Limit",
    "movement": "Movement",
    "unit_size": "models in the unit",
}
STATUS_SENTENCES = {
    "active": "{name} is back on the active roster",
    "dead": "{name} died",
    "unfit_for_duty": "{name} is Unfit For Duty",
    "blinded": "{name} was Blinded",
    "executed": "{name} was executed",
    "retired": "{name} retired",
}
GAME_STATUS = {
    "in_progress": "in progress",
    "recorded": "recorded",
    "post_game": "post-game in progress",
    "done": "post-game done",
}
RESULTS = {"win": "win", "loss": "loss", "draw": "draw", "": "no result"}
ROLES = {"organiser": "organiser", "player": "player", "spectator": "spectator"}
# Roll purposes that explain a kind of change (the post-game's Survival and Trauma rolls, Bitter Lessons' D3...).
ROLL_PURPOSES = {
    "injuries": ("trauma", "survival", "injur"),
    "scars": ("trauma", "survival", "scar"),
    "roster": ("trauma", "survival"),
    "xp": ("xp", "lesson", "experience"),
    "strongbox": ("ransom", "robbed", "trauma"),
    "battlekit": ("trauma", "robbed"),
}


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _signed(n: int, gained: str, lost: str, unit: str) -> str:
    return f"{gained if n > 0 else lost} {abs(n)} {unit}"


class _Teller:
    """Builds the sentences of one event: the change itself, then who and why from its context."""

    def __init__(self, entry: HistoryEntry, lookups: _Lookups):
        self.entry = entry
        self.look = lookups
        self.terms = lookups.terms
        self.d = entry.data
        self.p = entry.prev or {}

    # -- the tail: reason, game, roll, who ----------------------------------------------------------------------

    def _rolls_for(self, kind: str) -> list:
        rolls = [self.look.rolls[r] for r in _as_ints(self.entry.context.get("roll")) if r in self.look.rolls]
        if not rolls:
            return []
        fighter_id = self.entry.fighter_id
        if fighter_id is not None:
            rolls = [r for r in rolls if r.fighter_id == fighter_id]
        elif len(rolls) > 1:
            rolls = [r for r in rolls if r.fighter_id is None]
        words = ROLL_PURPOSES.get(kind)
        if words is None:
            return []
        return [r for r in rolls if any(w in (r.purpose or "").lower() for w in words)]

    def _roll_phrase(self, kind: str, rolls: list | None = None) -> tuple[str | None, set[str]]:
        rolls = self._rolls_for(kind) if rolls is None else rolls
        if not rolls:
            return None, set()
        parts, rollers = [], set()
        for source in ("server", "entered"):
            by = sorted({display_name(r.rolled_by) for r in rolls if r.source == source and r.rolled_by})
            if not any(r.source == source for r in rolls):
                continue
            rollers.update(by)
            who = f" by {' and '.join(by)}" if by else ""
            parts.append(
                f"rolled{who} on the server" if source == "server" else f"entered{who} from the table"
            )
        return ", ".join(parts), rollers

    def _game_phrase(self) -> str | None:
        action = self.entry.action or ""
        game = self.look.game(self.entry.context.get("game"))
        if game is None:
            return None
        title = game.title
        if action == "post_game.apply":
            return f"post-game of {title}"
        if action == "post_game.revert":
            return f"post-game of {title} undone"
        if action.startswith("tracker."):
            return f"during {title}"
        if action == "game.record":
            return f"recording {title}"
        return title

    def _restates(self, reason: str) -> bool:
        """Whether a reason only says again what the sentence says.

        Services record a reason for every write, and when the player typed none it is a sentence of their own
        naming what changed ("Brother Marcus gained 2 XP (now 7)", "Recorded Game 3: ..."). A reason a player
        gives ("ransom for Brother Marcus" on the Strongbox, "killed the Heretic Priest" on XP) names neither the
        row that changed nor the game, and is shown.
        """
        entry, look = self.entry, self.look
        names = {self.d.get("name"), self.p.get("name")}
        if entry.source in ("fighter", "injury", "item", "out_of_action") and entry.fighter_id is not None:
            names.add(look.fighter(entry.fighter_id))
        if entry.source in ("warband", "player"):
            names.add(look.warband(entry.warband_id))
        # Services' own reasons start with who did it ("olga_organiser made a new invitation link").
        for user_id in (entry.context.get("user"), self.d.get("user_id"), self.d.get("owner_id")):
            person = look.users.get(_as_int(user_id) or -1)
            if person is not None:
                names.update({person.get_username(), display_name(person)})
        for game in (entry.game, look.game(entry.context.get("game"))):
            if game is not None and game.number is not None:
                names.add(game.title)
        text = reason.lower()
        return any(
            name and len(name) > 1 and re.search(rf"\b{re.escape(name.lower())}\b", text) for name in names
        )

    def finish(self, kind: str, text: str, *, who_in_text: bool = False, rolls: list | None = None) -> Change:
        sentence = text
        reason = (self.entry.reason or "").strip()
        game_phrase = self._game_phrase()
        if reason and not self._restates(reason):
            # "gained 2 XP (now 7)" + reason reads "gained 2 XP (now 7; killed an ELITE)".
            sentence = f"{sentence[:-1]}; {reason})" if sentence.endswith(")") else f"{sentence} ({reason})"
        roll_phrase, rollers = self._roll_phrase(kind, rolls)
        who = self.entry.who
        tail = []
        game = self.look.game(self.entry.context.get("game"))
        if game_phrase and not re.search(rf"\b{re.escape(game.title.lower())}\b", text.lower()):
            tail.append(game_phrase)
        if who and not who_in_text and who not in rollers:
            if tail:
                tail[0] = f"{tail[0]} by {who}"
            else:
                tail.append(f"by {who}")
        if roll_phrase:
            tail.append(roll_phrase)
        if tail:
            sentence = f"{sentence} — {', '.join(tail)}"
        return Change(kind=kind, text=text, sentence=sentence)

    def subject(self, done: str, passive: str) -> tuple[str, bool]:
        """'Pat added X' when the context knows who, 'X was added' when it does not."""
        if self.entry.who:
            return done.format(who=self.entry.who), True
        return passive, False

    # -- per table ----------------------------------------------------------------------------------------------

    def changes(self) -> list[Change]:
        name = self.entry.source
        if name == "tracker":
            return tracker_changes(self.entry, self.look)
        return getattr(self, f"_{name}")()

    def _diff(self) -> dict[str, tuple]:
        return {
            k: (self.p.get(k), v)
            for k, v in self.d.items()
            if not k.startswith("pgh_") and k in self.p and self.p.get(k) != v
        }

    def _fighter(self) -> list[Change]:
        d, label = self.d, self.entry.label
        name = d.get("name", "A fighter")
        warband = self.look.warband(d.get("warband_id"))
        if label == "insert":
            kind_of = f" ({d['fighter_type']})" if d.get("fighter_type") else ""
            text, who_in = self.subject(
                f"{{who}} added {name}{kind_of} to {warband}", f"{name}{kind_of} joined {warband}"
            )
            return [self.finish("roster", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} removed {name} from {warband}", f"{name} left {warband}")
            return [self.finish("roster", text, who_in_text=who_in)]
        diff = self._diff()
        out: list[Change] = []
        if "xp" in diff:
            old, new = diff["xp"]
            out.append(self.finish("xp", f"{name} {_signed(new - old, 'gained', 'lost', 'XP')} (now {new})"))
        if "battle_scars" in diff:
            old, new = diff["battle_scars"]
            n = new - old
            what = "a Battle Scar" if abs(n) == 1 else f"{abs(n)} Battle Scars"
            out.append(self.finish("scars", f"{name} {'gained' if n > 0 else 'lost'} {what} (now {new})"))
        if "status" in diff:
            sentence = STATUS_SENTENCES.get(diff["status"][1], "{name} is now " + str(diff["status"][1]))
            out.append(self.finish("roster", sentence.format(name=name)))
        if "misses_next_game" in diff:
            text = (
                f"{name} will miss the next game" if diff["misses_next_game"][1] else f"{name} is fit to play"
            )
            out.append(self.finish("roster", text))
        if "warband_id" in diff:
            old, new = diff["warband_id"]
            out.append(self.finish("roster", f"{name} moved from {self.look.warband(old)} to {warband}"))
        out.extend(self._fighter_profile(name, diff))
        return out or [self.finish("profile", f"{name} was updated")]

    def _fighter_profile(self, name: str, diff: dict) -> list[Change]:
        out = []
        if "name" in diff:
            out.append(self.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "fighter_type" in diff:
            old, new = diff["fighter_type"]
            out.append(self.finish("profile", f"{name}'s type: {old or 'none'} → {new or 'none'}"))
        if "keywords" in diff:
            old, new = set(diff["keywords"][0] or []), set(diff["keywords"][1] or [])
            parts = [f"gained {k}" for k in sorted(new - old)] + [f"lost {k}" for k in sorted(old - new)]
            if parts:
                out.append(self.finish("profile", f"{name} {' and '.join(parts)}"))
        if "champion" in diff:
            elite = self.terms.elite
            text = f"{name} became a {elite}" if diff["champion"][1] else f"{name} is no longer a {elite}"
            out.append(self.finish("profile", text))
        if "can_gain_xp" in diff:
            text = f"{name} can gain XP again" if diff["can_gain_xp"][1] else f"{name} can no longer gain XP"
            out.append(self.finish("profile", text))
        stats = [
            f"{label} {'none' if diff[k][0] is None else diff[k][0]} → {'none' if diff[k][1] is None else diff[k][1]}"
            for k, label in STAT_LABELS.items()
            if k in diff
        ]
        if stats:
            out.append(self.finish("profile", f"{name}: {', '.join(stats)}"))
        return out

    def _warband(self) -> list[Change]:
        d, label, t = self.d, self.entry.label, self.terms
        name = d.get("name", f"A {t.warband}")
        if label == "insert":
            faction = f" ({d['faction']})" if d.get("faction") else ""
            if self.entry.action == "warband.import":
                text, who_in = self.subject(
                    f"{{who}} imported the {t.warband} {name}{faction} from a file",
                    f"The {t.warband} {name}{faction} was imported from a file",
                )
                return [self.finish("roster", text, who_in_text=who_in)]
            text, who_in = self.subject(
                f"{{who}} founded the {t.warband} {name}{faction}",
                f"The {t.warband} {name}{faction} was founded",
            )
            return [self.finish("roster", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} disbanded {name}", f"{name} was disbanded")
            return [self.finish("roster", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "strongbox" in diff:
            old, new = diff["strongbox"]
            why = self._ransom()
            why = f" ({why})" if why else ""
            out.append(self.finish("strongbox", f"{name}: {t.strongbox} {old} → {new} {t.currency}{why}"))
        if "glory" in diff:
            old, new = diff["glory"]
            out.append(self.finish("strongbox", f"{name}: {t.glory} {old} → {new}"))
        if "crew_xp" in diff:
            old, new = diff["crew_xp"]
            out.append(
                self.finish("xp", f"{name} {_signed(new - old, 'gained', 'lost', 'crew XP')} (now {new})")
            )
        if "name" in diff:
            out.append(self.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "faction" in diff:
            out.append(
                self.finish("profile", f"{name}'s faction: {diff['faction'][0]} → {diff['faction'][1]}")
            )
        if "notes" in diff:
            out.append(self.finish("profile", f"{name}'s notes were edited"))
        if "owner_id" in diff:
            out.append(self.finish("profile", f"{name} now belongs to {self.look.user(diff['owner_id'][1])}"))
        return out or [self.finish("profile", f"{name} was updated")]

    def _ransom(self) -> str:
        """Why a post-game moved this warband's ducats: the Apply's context may say, per warband, "ransom for
        Brother Marcus" (TRAUMA_TABLE.md 12, Captured). Older contexts, and other writes, have no `ransoms`."""
        ransoms = self.entry.context.get("ransoms")
        why = None
        if isinstance(ransoms, dict):
            why = ransoms.get(str(self.entry.obj_id))
            if isinstance(why, list | tuple):
                why = "; ".join(str(part) for part in why if part)
        elif self.entry.action == "post_game.apply":
            # Without it, the reason the Apply stored in its summary for this warband's Strongbox, if any.
            ctx = self.entry.context
            summary = self.look.post_game_summary(ctx.get("game"), ctx.get("warband"), self.entry.at) or {}
            why = next(
                (
                    box.get("reason")
                    for box in summary.get("strongboxes") or []
                    if isinstance(box, dict) and box.get("warband") == self.d.get("name")
                ),
                None,
            )
        if not isinstance(why, str):
            return ""
        # Inside the sentence's own brackets, "ransom for Brother Marcus (from Iron Sepulchre)" reads "ransom for
        # Brother Marcus, from Iron Sepulchre".
        return re.sub(r"\s*\(([^()]*)\)", r", \1", why).strip()

    def _post_game_results(self) -> list[Change]:
        """Each fighter's result as the Apply stored it in its summary ("Castigator Voss: D66 12, Captured, ransom
        paid — counts as Full Recovery ..."), with the dice behind it: the Trauma Step told, not worked out again."""
        d = self.d
        summary = self.look.post_game_summary(d.get("game_id"), d.get("warband_id"), self.entry.at) or {}
        out = []
        rolls = [self.look.rolls[r] for r in _as_ints(self.entry.context.get("roll")) if r in self.look.rolls]
        for fighter in summary.get("fighters") or []:
            words = fighter.get("explanation") if isinstance(fighter, dict) else None
            if not isinstance(words, str) or not words.strip():
                continue
            own = [roll for roll in rolls if roll.fighter_id == fighter.get("id")]
            out.append(self.finish("games", words.strip().rstrip("."), rolls=own))
        return out

    def _holder(self, fighter_id, warband_id) -> str:
        if fighter_id is None:
            return f"{self.look.warband(warband_id)}'s {self.terms.arsenal}"
        return self.look.fighter(fighter_id)

    def _item(self) -> list[Change]:
        d, label, t = self.d, self.entry.label, self.terms
        item = d.get("name", "an item")
        holder = self._holder(d.get("fighter_id"), d.get("warband_id"))
        if label == "insert":
            text, who_in = (
                self.subject(f"{{who}} added {item} to {holder}", f"{item} was added to {holder}")
                if d.get("fighter_id") is None
                else self.subject(f"{{who}} gave {item} to {holder}", f"{holder} got {item}")
            )
            return [self.finish("battlekit", text, who_in_text=who_in)]
        if label == "delete" and self.entry.action in ("fighter.remove", "post_game.apply"):
            # Lost with a fighter who left the roster, or to the Trauma Table (RULING T-6, Robbed).
            return [self.finish("battlekit", f"{item} was lost with {holder}")]
        if label == "delete":
            text, who_in = self.subject(
                f"{{who}} removed {item} from {holder}", f"{item} was lost from {holder}"
            )
            return [self.finish("battlekit", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "fighter_id" in diff or "warband_id" in diff:
            old_fighter = self.p.get("fighter_id")
            old_warband = self.p.get("warband_id")
            if "warband_id" in diff:
                src = f"{self.look.warband(old_warband)}"
                dst = f"{self.look.warband(d.get('warband_id'))}"
            else:
                src, dst = self._holder(old_fighter, old_warband), holder
                # "the Arsenal" reads better than "Iron Sepulchre's Arsenal" when the item stays in its warband.
                src = f"the {t.arsenal}" if old_fighter is None else src
                dst = f"the {t.arsenal}" if d.get("fighter_id") is None else dst
            out.append(self.finish("battlekit", f"{item} moved from {src} to {dst}"))
        if "name" in diff:
            out.append(self.finish("battlekit", f"{diff['name'][0]} is now called {diff['name'][1]}"))
        if "keywords" in diff:
            kw = ", ".join(d.get("keywords") or []) or "none"
            out.append(self.finish("battlekit", f"{item}'s keywords are now {kw}"))
        if "notes" in diff:
            out.append(self.finish("battlekit", f"{item}'s notes were edited"))
        if "removable" in diff:
            text = (
                f"{item} can be removed again" if d.get("removable") else f"{item} can no longer be removed"
            )
            out.append(self.finish("battlekit", text))
        return out or [self.finish("battlekit", f"{item} was updated")]

    def _injury(self) -> list[Change]:
        d, label = self.d, self.entry.label
        fighter = self.look.fighter(d.get("fighter_id"))
        injury = d.get("name") or d.get("code") or "an Injury"
        if label == "insert":
            roll = f" (D66 {d['d66']})" if d.get("d66") else ""
            return [self.finish("injuries", f"{fighter} suffered {injury}{roll}")]
        if label == "delete":
            return [self.finish("injuries", f"{injury} was removed from {fighter}")]
        diff = self._diff()
        if "name" in diff:
            return [self.finish("injuries", f"{fighter}'s {diff['name'][0]} is now {diff['name'][1]}")]
        return [self.finish("injuries", f"{fighter}'s {injury} was corrected")]

    def _player_game(self, game_id) -> str:
        game = self.look.game(game_id)
        return game.title if game else "a game"

    def _player(self) -> list[Change]:
        d, label = self.d, self.entry.label
        warband = self.look.warband(d.get("warband_id"))
        game = self._player_game(d.get("game_id"))
        if label == "insert":
            if not d.get("result"):
                # A game started to be played on the tracker: its results come at its end.
                return [self.finish("games", f"{warband} takes part in {game}")]
            result = f" ({RESULTS.get(d.get('result', ''), d.get('result'))})"
            return [self.finish("games", f"{warband} played {game}{result}")]
        if label == "delete":
            return [self.finish("games", f"{warband} was taken off {game}")]
        diff, out = self._diff(), []
        if "result" in diff:
            old, new = (RESULTS.get(v or "", v) for v in diff["result"])
            out.append(self.finish("games", f"{warband}'s result in {game}: {old} → {new}"))
        if "post_game" in diff:
            new = diff["post_game"][1]
            text = {
                "in_progress": f"{warband} started its post-game of {game}",
                "done": f"{warband} finished its post-game of {game}",
                "pending": f"{warband}'s post-game of {game} was reopened",
            }.get(new, f"{warband}'s post-game of {game}: {new}")
            out.append(self.finish("games", text))
            if new == "done" and self.entry.action == "post_game.apply":
                out.extend(self._post_game_results())
        return out or [self.finish("games", f"{warband}'s entry in {game} was corrected")]

    def _out_of_action(self) -> list[Change]:
        d, label = self.d, self.entry.label
        fighter = self.look.fighter(d.get("fighter_id"))
        player = self.look.players.get(_as_int(d.get("player_id")) or -1) or {}
        game = self._player_game(player.get("game_id"))
        if label == "delete":
            return [self.finish("games", f"{fighter} is no longer marked Out of Action in {game}")]
        return [self.finish("games", f"{fighter} was taken Out of Action in {game}")]

    def _game(self) -> list[Change]:
        d, label = self.d, self.entry.label
        title = f"Game {d.get('number')}"
        if label == "insert":
            scenario = f" ({d['scenario']})" if d.get("scenario") else ""
            if d.get("status") == "in_progress":
                text, who_in = self.subject(
                    f"{{who}} started {title}{scenario}", f"{title}{scenario} was started"
                )
                return [self.finish("games", text, who_in_text=who_in)]
            text, who_in = self.subject(
                f"{{who}} recorded {title}{scenario}", f"{title}{scenario} was recorded"
            )
            return [self.finish("games", text, who_in_text=who_in)]
        if label == "delete":
            text, who_in = self.subject(f"{{who}} deleted {title}", f"{title} was deleted")
            return [self.finish("games", text, who_in_text=who_in)]
        diff, out = self._diff(), []
        if "status" in diff:
            old, new = diff["status"]
            text = {
                ("in_progress", "recorded"): f"{title} was played to its end",
                ("recorded", "post_game"): f"{title}'s post-games started",
                ("post_game", "done"): f"Every post-game of {title} is done",
                ("done", "post_game"): f"A post-game of {title} was reopened",
                ("post_game", "recorded"): f"{title}'s post-games were all undone",
            }.get((old, new), f"{title}: {GAME_STATUS.get(old, old)} → {GAME_STATUS.get(new, new)}")
            out.append(self.finish("games", text))
        if "number" in diff:
            out.append(self.finish("games", f"Game {diff['number'][0]} is now {title}"))
        if {"played_on", "scenario", "notes"} & diff.keys():
            out.append(self.finish("games", f"{title}'s details were edited"))
        return out or [self.finish("games", f"{title} was updated")]

    def _membership(self) -> list[Change]:
        d, label = self.d, self.entry.label
        member = self.look.user(d.get("user_id")) or "someone"
        role = ROLES.get(d.get("role"), d.get("role"))
        if label == "insert":
            return [self.finish("campaign", f"{member} joined the campaign as {role}", who_in_text=True)]
        if label == "delete":
            return [self.finish("campaign", f"{member} left the campaign")]
        return [self.finish("campaign", f"{member} is now {role}")]

    def _campaign(self) -> list[Change]:
        d, label = self.d, self.entry.label
        if label == "insert":
            text, who_in = self.subject(
                f"{{who}} created the campaign {d.get('name')}", f"The campaign {d.get('name')} was created"
            )
            return [self.finish("campaign", text, who_in_text=who_in)]
        if label == "delete":
            return [self.finish("campaign", f"The campaign {d.get('name')} was deleted")]
        diff, out = self._diff(), []
        # Tokens and codes are secrets: the history says they changed, never what they are.
        if "share_token" in diff:
            old, new = diff["share_token"]
            text = (
                "A read-only link was shared"
                if not old
                else ("The read-only link was revoked" if not new else "The read-only link was replaced")
            )
            out.append(self.finish("campaign", text))
        if "invitation_code" in diff:
            out.append(self.finish("campaign", "The invitation link was renewed"))
        if "name" in diff:
            out.append(self.finish("campaign", f"The campaign is now called {diff['name'][1]}"))
        if "scar_limit" in diff:
            old, new = diff["scar_limit"]
            out.append(self.finish("campaign", f"Battle Scar limit {old} → {new}"))
        if "house_trauma_table" in diff:
            text = (
                "The campaign's own Trauma Table was edited"
                if diff["house_trauma_table"][1]
                else "The campaign went back to the default Trauma Table"
            )
            out.append(self.finish("campaign", text))
        if "preset" in diff:
            old, new = (terms_for(v).game for v in diff["preset"])
            out.append(self.finish("campaign", f"Rules preset {old} → {new}"))
        if "status" in diff:
            text = (
                "The campaign was archived"
                if diff["status"][1] == "archived"
                else "The campaign is active again"
            )
            out.append(self.finish("campaign", text))
        if "description" in diff:
            out.append(self.finish("campaign", "The campaign's description was edited"))
        return out or [self.finish("campaign", "The campaign's settings were changed")]


def _entry_links(entry: HistoryEntry, look: _Lookups) -> None:
    """The game, warband and fighter an entry belongs to (for grouping, links and roll matching)."""
    d, name = entry.data, entry.source
    game_id = _as_int(entry.context.get("game"))
    if name == "fighter":
        entry.fighter_id, entry.warband_id = entry.obj_id, _as_int(d.get("warband_id"))
    elif name in ("injury", "item", "out_of_action"):
        entry.fighter_id = _as_int(d.get("fighter_id"))
        if name == "item":
            entry.warband_id = _as_int(d.get("warband_id"))
            if entry.fighter_id is None and entry.prev:
                entry.fighter_id = _as_int(entry.prev.get("fighter_id"))
        elif entry.fighter_id in look.fighters:
            entry.warband_id = _as_int(look.fighters[entry.fighter_id].get("warband_id"))
    elif name == "warband":
        entry.warband_id = entry.obj_id
    elif name == "tracker":
        entry.fighter_id = tracker_target(entry, look)
        if entry.fighter_id in look.fighters:
            entry.warband_id = _as_int(look.fighters[entry.fighter_id].get("warband_id"))
    if name == "player":
        entry.warband_id = _as_int(d.get("warband_id"))
    if game_id is None:
        if name == "game":
            game_id = entry.obj_id
        elif name in ("player", "injury", "tracker"):
            game_id = _as_int(d.get("game_id"))
        elif name == "out_of_action":
            player = look.players.get(_as_int(d.get("player_id")) or -1) or {}
            game_id = _as_int(player.get("game_id"))
            entry.warband_id = _as_int(player.get("warband_id"))
    if name == "out_of_action" and entry.warband_id is None:
        player = look.players.get(_as_int(d.get("player_id")) or -1) or {}
        entry.warband_id = _as_int(player.get("warband_id"))
    entry.game = look.game(game_id)
    if entry.warband_id is not None:
        entry.warband_name = entry.data.get("name") if name == "warband" else look.warband(entry.warband_id)
    if entry.fighter_id is not None:
        entry.fighter_name = entry.data.get("name") if name == "fighter" else look.fighter(entry.fighter_id)


def describe_events(rows: list[tuple], *, campaign, kind: str | None = None) -> list[HistoryEntry]:
    """Turn event rows (as `_fetch_events` returns them) into entries with their sentences."""
    steps = load_tracker_steps(rows)
    look = _load_lookups(rows, terms_for(campaign.preset), extra=tracker_ids(steps))
    look.tracker = steps
    entries = []
    for src, pgh_id, at, label, obj_id, context, data, prev in rows:
        source = SOURCE_BY_RANK[src]
        context = context or {}
        entry = HistoryEntry(
            cursor=Cursor(at=at, rank=sort_rank(source, label), pgh_id=pgh_id),
            source=source.name,
            label=label,
            obj_id=obj_id,
            at=at,
            context=context,
            data=data or {},
            prev=prev,
            who=look.user(context.get("user")),
            action=context.get("action") if isinstance(context.get("action"), str) else None,
            reason=context.get("reason") if isinstance(context.get("reason"), str) else None,
        )
        _entry_links(entry, look)
        changes = _Teller(entry, look).changes()
        entry.changes = [c for c in changes if kind is None or c.kind == kind] or changes
        entries.append(entry)
    return entries
