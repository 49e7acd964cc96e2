"""What a fighter keeps told as history: Battlekit, Injuries and skills (registered by rosters, with
roster_events.py's fighters and warbands in its `ROSTER_SOURCES`)."""

from __future__ import annotations

from rosters.history.entries import Change
from rosters.history.lookups import as_int
from rosters.history.registry import Ids, Source
from rosters.history.roster_rows import event_rows, fighter_warband, in_warbands
from rosters.history.teller import Teller
from rosters.words import possessive

# -- Battlekit --------------------------------------------------------------------------------------------------


def holder_name(t: Teller, fighter_id, warband_id) -> str:
    if fighter_id is None:
        return f"{possessive(t.look.warband(warband_id))} {t.terms.arsenal}"
    return t.look.fighter(fighter_id)


def item_moved(t: Teller, item: str, holder: str, diff: dict) -> Change:
    d, old_fighter, old_warband = t.d, t.p.get("fighter_id"), t.p.get("warband_id")
    if "warband_id" in diff:
        src, dst = t.look.warband(old_warband), t.look.warband(d.get("warband_id"))
    else:
        # "the Arsenal" reads better than "Iron Sepulchre's Arsenal" when the item stays in its warband.
        src = f"the {t.terms.arsenal}" if old_fighter is None else holder_name(t, old_fighter, old_warband)
        dst = f"the {t.terms.arsenal}" if d.get("fighter_id") is None else holder
    return t.finish("battlekit", f"{item} moved from {src} to {dst}")


def item_changes(t: Teller, item: str, holder: str) -> list[Change]:
    d, diff, out = t.d, t.diff(), []
    if "fighter_id" in diff or "warband_id" in diff:
        out.append(item_moved(t, item, holder, diff))
    if "name" in diff:
        out.append(t.finish("battlekit", f"{diff['name'][0]} is now called {diff['name'][1]}"))
    if "keywords" in diff:
        kw = ", ".join(d.get("keywords") or []) or "none"
        out.append(t.finish("battlekit", f"{possessive(item)} keywords are now {kw}"))
    if "notes" in diff:
        out.append(t.finish("battlekit", f"{possessive(item)} notes were edited"))
    if "removable" in diff:
        text = f"{item} can be removed again" if d.get("removable") else f"{item} can no longer be removed"
        out.append(t.finish("battlekit", text))
    return out


class ItemSource(Source):
    name, event_label, rank, kind = "item", "rosters.ItemEvent", 0, "battlekit"

    def scope(self, f):
        held = " AND (e.fighter_id = %(f)s OR p.fighter_id = %(f)s)" if f.fighter_id is not None else ""
        return in_warbands(f) + held

    def collect(self, row, ids):
        for r in event_rows(row):
            ids["fighters"].add(r.get("fighter_id"))
            ids["warbands"].add(r.get("warband_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        entry.warband_id = as_int(entry.data.get("warband_id"))
        if entry.fighter_id is None and entry.prev:
            entry.fighter_id = as_int(entry.prev.get("fighter_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        item = d.get("name", "an item")
        holder = holder_name(t, d.get("fighter_id"), d.get("warband_id"))
        if label == "insert" and d.get("fighter_id") is None:
            return t.told("battlekit", f"{{who}} added {item} to {holder}", f"{item} was added to {holder}")
        if label == "insert":
            return t.told("battlekit", f"{{who}} gave {item} to {holder}", f"{holder} got {item}")
        if label == "delete" and entry.action in ("fighter.remove", "post_game.apply"):
            # Lost with a fighter who left the roster, or to the Trauma Table (RULING T-6, Robbed).
            return [t.finish("battlekit", f"{item} was lost with {holder}")]
        if label == "delete":
            return t.told(
                "battlekit", f"{{who}} removed {item} from {holder}", f"{item} was lost from {holder}"
            )
        return item_changes(t, item, holder) or [t.finish("battlekit", f"{item} was updated")]


# -- Injuries ---------------------------------------------------------------------------------------------------


class InjurySource(Source):
    name, event_label, rank, kind = "injury", "rosters.InjuryEvent", 1, "injuries"

    def scope(self, f):
        return "e.fighter_id = %(f)s" if f.fighter_id is not None else "e.fighter_id IN (SELECT id FROM ft)"

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids: Ids):
        for r in event_rows(row):
            ids["fighters"].add(r.get("fighter_id"))
            ids["games"].add(r.get("game_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        fighter_warband(entry, look)
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        fighter = look.fighter(d.get("fighter_id"))
        injury = d.get("name") or d.get("code") or "an Injury"
        if label == "insert":
            roll = f" (D66 {d['d66']})" if d.get("d66") else ""
            return [t.finish("injuries", f"{fighter} suffered {injury}{roll}")]
        if label == "delete":
            return [t.finish("injuries", f"{injury} was removed from {fighter}")]
        diff = t.diff()
        if "name" in diff:
            return [t.finish("injuries", f"{possessive(fighter)} {diff['name'][0]} is now {diff['name'][1]}")]
        return [t.finish("injuries", f"{possessive(fighter)} {injury} was corrected")]


# -- skills ------------------------------------------------------------------------------------------


class SkillSource(Source):
    """A skill a fighter learnt (the post-game's Advancement step, or by hand), told with where it came from."""

    name, event_label, rank, kind = "skill", "rosters.SkillEvent", 13, "xp"

    def scope(self, f):
        return "e.fighter_id = %(f)s" if f.fighter_id is not None else "e.fighter_id IN (SELECT id FROM ft)"

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids: Ids):
        for r in event_rows(row):
            ids["fighters"].add(r.get("fighter_id"))
            ids["games"].add(r.get("game_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        fighter_warband(entry, look)
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        fighter = look.fighter(d.get("fighter_id"))
        skill = d.get("name") or d.get("code") or "a skill"
        if label == "insert":
            game = look.game(d.get("game_id"))
            where = [
                part
                for part in (d.get("chart"), f"Game {game.number}" if game and game.number else None)
                if part
            ]
            told = f" ({', '.join(where)})" if where else ""
            # "Sister Agnes learnt Deadeye (Ranged 9, Game 3)"
            return [t.finish("xp", f"{fighter} learnt {skill}{told}")]
        if label == "delete":
            return [t.finish("xp", f"{skill} was struck off {fighter}")]
        return [t.finish("xp", f"{possessive(fighter)} {skill} was corrected")]
