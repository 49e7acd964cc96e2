"""The roster's own events told as history: fighters and warbands here, Battlekit, Injuries and skills in
kit_events.py; `ROSTER_SOURCES` is all five, as rosters registers them."""

from __future__ import annotations

import re

from campaigns.profiles import TRENCH_CRUSADE_PROFILE
from rosters.history import registry
from rosters.history.entries import Change, HistoryEntry
from rosters.history.kit_events import (
    InjurySource,
    ItemSource,
    SkillSource,
    holder_name,
    item_changes,
    item_moved,
)
from rosters.history.lookups import Lookups, as_int
from rosters.history.registry import Source
from rosters.history.roster_rows import event_rows, fighter_warband, in_warbands
from rosters.history.teller import Teller, signed
from rosters.models import has_elite_keyword  # the ELITE keyword read as the roster reads it (RULING T-1)
from rosters.words import possessive

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
    "ranged": "Ranged",
    "melee": "Melee",
    "armour": "Armour",
    "base_size": "Base",
    "unit_size": "models in the unit",
}
# Trench Crusade's stats read as the rules write them ("Ranged 0 → +1D"), from the profile (campaigns/profiles.py).
WRITTEN_AS = {stat.field: stat for stat in TRENCH_CRUSADE_PROFILE.stats if stat.field != "movement"}
STATUS_SENTENCES = {
    "active": "{name} is back on the active roster",
    "dead": "{name} died",
    "unfit_for_duty": "{name} is Unfit For Duty",
    "blinded": "{name} was Blinded",
    "executed": "{name} was executed",
    "retired": "{name} retired",
    # CAMPAIGN_PHASE.md: "a player may also dismiss any fighter with 2 or more Battle Scars".
    "dismissed": "{name} was dismissed",
}
# Which kind each changed column of an update belongs to; columns not listed are bookkeeping (ids, created_at).
FIGHTER_FIELDS = {
    "status": "roster",
    "misses_next_game": "roster",
    "warband_id": "roster",
    "xp": "xp",
    "battle_scars": "scars",
    "name": "profile",
    "fighter_type": "profile",
    "keywords": "profile",
    "champion": "profile",
    "strength": "profile",
    "perception": "profile",
    "endurance": "profile",
    "charisma": "profile",
    "intelligence": "profile",
    "agility": "profile",
    "luck": "profile",
    "health": "profile",
    "harm_limit": "profile",
    "movement": "profile",
    "ranged": "profile",
    "melee": "profile",
    "armour": "profile",
    "base_size": "profile",
    "unit_size": "profile",
    "can_gain_xp": "profile",
    "cost": "profile",
}
WARBAND_FIELDS = {
    "strongbox": "strongbox",
    "glory": "strongbox",
    "crew_xp": "xp",
    "name": "profile",
    "faction": "profile",
    "notes": "profile",
    "owner_id": "profile",
    "starting_value": "profile",
    "disbanded_at": "profile",
}

# -- fighters ---------------------------------------------------------------------------------------------------


def _fighter_changes(t: Teller, name: str, warband: str, diff: dict) -> list[Change]:
    out: list[Change] = []
    if "xp" in diff:
        old, new = diff["xp"]
        why = _why(t.entry, t.look, "xp")
        why = f"; {why}" if why else ""
        out.append(t.finish("xp", f"{name} {signed(new - old, 'gained', 'lost', 'XP')} (now {new}{why})"))
    if "battle_scars" in diff:
        old, new = diff["battle_scars"]
        n = new - old
        what = "a Battle Scar" if abs(n) == 1 else f"{abs(n)} Battle Scars"
        out.append(t.finish("scars", f"{name} {'gained' if n > 0 else 'lost'} {what} (now {new})"))
    if "status" in diff:
        sentence = STATUS_SENTENCES.get(diff["status"][1], "{name} is now " + str(diff["status"][1]))
        out.append(t.finish("roster", sentence.format(name=name)))
    if "misses_next_game" in diff:
        text = f"{name} will miss the next game" if diff["misses_next_game"][1] else f"{name} is fit to play"
        out.append(t.finish("roster", text))
    if "warband_id" in diff:
        old, new = diff["warband_id"]
        out.append(t.finish("roster", f"{name} moved from {t.look.warband(old)} to {warband}"))
    return out


def _fighter_profile(t: Teller, name: str, diff: dict) -> list[Change]:
    out = []
    if "name" in diff:
        out.append(t.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
    if "fighter_type" in diff:
        old, new = diff["fighter_type"]
        out.append(t.finish("profile", f"{possessive(name)} type: {old or 'none'} → {new or 'none'}"))
    if "keywords" in diff:
        old, new = set(diff["keywords"][0] or []), set(diff["keywords"][1] or [])
        gained = sorted(new - old)
        if not has_elite_keyword(old) and has_elite_keyword(gained):
            # A Troop given the ELITE keyword is promoted (CAMPAIGN_PHASE.md, Promotions; RULING P-7).
            gained = [k for k in gained if not has_elite_keyword([k])]
            out.append(t.finish("profile", f"{name} was promoted to {t.terms.elite}"))
        parts = [f"gained {k}" for k in gained] + [f"lost {k}" for k in sorted(old - new)]
        if parts:
            out.append(t.finish("profile", f"{name} {' and '.join(parts)}"))
    if "champion" in diff:
        elite = t.terms.elite
        text = f"{name} became a {elite}" if diff["champion"][1] else f"{name} is no longer a {elite}"
        out.append(t.finish("profile", text))
    if "can_gain_xp" in diff:
        text = f"{name} can gain XP again" if diff["can_gain_xp"][1] else f"{name} can no longer gain XP"
        out.append(t.finish("profile", text))
    if "cost" in diff:
        old, new = diff["cost"]
        out.append(t.finish("profile", f"{possessive(name)} cost: {old} → {new} {t.terms.currency}"))
    stats = [
        f"{label} {_stat_value(k, diff[k][0])} → {_stat_value(k, diff[k][1])}"
        for k, label in STAT_LABELS.items()
        if k in diff
    ]
    if stats:
        out.append(t.finish("profile", f"{name}: {', '.join(stats)}"))
    return out


def _stat_value(field: str, value) -> str:
    if field in WRITTEN_AS:
        return WRITTEN_AS[field].shown(value)
    return "none" if value is None else str(value)


class FighterSource(Source):
    name, event_label, rank, holder_level = "fighter", "rosters.FighterEvent", 3, 2
    fields, row_kind = FIGHTER_FIELDS, "roster"

    def scope(self, f):
        return "e.pgh_obj_id = %(f)s" if f.fighter_id is not None else in_warbands(f)

    def collect(self, row, ids):
        ids["warbands"].update(r.get("warband_id") for r in event_rows(row))

    def links(self, entry, look):
        entry.fighter_id, entry.warband_id = entry.obj_id, as_int(entry.data.get("warband_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label = t.d, entry.label
        name = d.get("name", "A fighter")
        warband = look.warband(d.get("warband_id"))
        if label == "insert":
            kind_of = f" ({d['fighter_type']})" if d.get("fighter_type") else ""
            return t.told(
                "roster", f"{{who}} added {name}{kind_of} to {warband}", f"{name}{kind_of} joined {warband}"
            )
        if label == "delete":
            return t.told("roster", f"{{who}} removed {name} from {warband}", f"{name} left {warband}")
        diff = t.diff()
        out = _fighter_changes(t, name, warband, diff) + _fighter_profile(t, name, diff)
        return out or [t.finish("profile", f"{name} was updated")]


# -- warbands ---------------------------------------------------------------------------------------------------


def _why(entry: HistoryEntry, look: Lookups, what: str) -> str:
    """Why the event changed `what`, when a registered source knows (a post-game's ransom for the Strongbox)."""
    for source in registry.sources():
        why = source.explain(entry, look, what)
        if isinstance(why, str):
            # Inside the sentence's own brackets, "ransom for Brother Marcus (from Iron Sepulchre)" reads "ransom
            # for Brother Marcus, from Iron Sepulchre".
            return re.sub(r"\s*\(([^()]*)\)", r", \1", why).strip()
    return ""


def _warband_changes(t: Teller, name: str, diff: dict) -> list[Change]:
    terms, out = t.terms, []
    if "strongbox" in diff:
        old, new = diff["strongbox"]
        why = _why(t.entry, t.look, "strongbox")
        why = f" ({why})" if why else ""
        out.append(t.finish("strongbox", f"{name}: {terms.strongbox} {old} → {new} {terms.currency}{why}"))
    if "glory" in diff:
        old, new = diff["glory"]
        out.append(t.finish("strongbox", f"{name}: {terms.glory} {old} → {new}"))
    if "crew_xp" in diff:
        old, new = diff["crew_xp"]
        out.append(t.finish("xp", f"{name} {signed(new - old, 'gained', 'lost', 'crew XP')} (now {new})"))
    if "name" in diff:
        out.append(t.finish("profile", f"{diff['name'][0]} is now called {diff['name'][1]}"))
    if "faction" in diff:
        out.append(
            t.finish("profile", f"{possessive(name)} faction: {diff['faction'][0]} → {diff['faction'][1]}")
        )
    if "notes" in diff:
        out.append(t.finish("profile", f"{possessive(name)} notes were edited"))
    if "owner_id" in diff:
        out.append(t.finish("profile", f"{name} now belongs to {t.look.user(diff['owner_id'][1])}"))
    if "starting_value" in diff:
        old, new = diff["starting_value"]
        out.append(
            t.finish("profile", f"{possessive(name)} starting value: {old} → {new} {t.terms.currency}")
        )
    if diff.get("disbanded_at", (None, None))[1]:
        out.append(t.finish("profile", f"{name} was disbanded (it keeps its row in the standings)"))
    return out


class WarbandSource(Source):
    name, event_label, rank, holder_level = "warband", "rosters.WarbandEvent", 4, 1
    fields, row_kind = WARBAND_FIELDS, "roster"

    def scope(self, f):
        if f.fighter_id is not None:
            return None
        return "e.pgh_obj_id = %(w)s" if f.warband_id is not None else "e.campaign_id = %(c)s"

    def collect(self, row, ids):
        ids["users"].update(r.get("owner_id") for r in event_rows(row))

    def links(self, entry, look):
        entry.warband_id = entry.obj_id

    def tell(self, entry, look):
        t = Teller(entry, look)
        d, label, terms = t.d, entry.label, t.terms
        name = d.get("name", f"A {terms.warband}")
        if label == "insert":
            faction = f" ({d['faction']})" if d.get("faction") else ""
            if entry.action == "warband.import":
                return t.told(
                    "roster",
                    f"{{who}} imported the {terms.warband} {name}{faction} from a file",
                    f"The {terms.warband} {name}{faction} was imported from a file",
                )
            return t.told(
                "roster",
                f"{{who}} founded the {terms.warband} {name}{faction}",
                f"The {terms.warband} {name}{faction} was founded",
            )
        if label == "delete":
            return t.told("roster", f"{{who}} disbanded {name}", f"{name} was disbanded")
        return _warband_changes(t, name, t.diff()) or [t.finish("profile", f"{name} was updated")]


ROSTER_SOURCES = (ItemSource, InjurySource, FighterSource, WarbandSource, SkillSource)

# Kept importable from here, where they were first written (location_events.py and campaign_events.py read
# `in_warbands` from this module).
__all__ = [
    "FIGHTER_FIELDS",
    "ROSTER_SOURCES",
    "STATUS_SENTENCES",
    "STAT_LABELS",
    "WARBAND_FIELDS",
    "FighterSource",
    "InjurySource",
    "ItemSource",
    "SkillSource",
    "WarbandSource",
    "fighter_warband",
    "holder_name",
    "item_changes",
    "item_moved",
    "event_rows",
    "in_warbands",
]
