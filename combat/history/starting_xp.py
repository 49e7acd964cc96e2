"""A late joiner's starting XP told in the history (CAMPAIGN_PHASE.md, late joiners): "Sister Agnes
started with 3 XP as a late joiner: Skill Advancement — Ranged 9, Deadeye".

`StartingXpFighter` is tracked by pghistory; only the Apply's update of a share, which stores its sentence in
`told`, is read here: the shares typed before the Apply change nothing on the roster. The fighters' XP and skills
the Apply writes are told by the roster's own sources, with the sentence as their reason. Registered from
`CombatConfig.ready()`.
"""

from __future__ import annotations

from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.teller import Teller


class StartingXpSource(Source):
    """The Apply's events of `StartingXpFighter` rows."""

    # The late joiner's own rank (below the tracker's 20, which stays the highest).
    name, event_label, rank, kind = "starting_xp", "combat.StartingXpFighterEvent", 15, "xp"

    def scope(self, f):
        fighters = (
            "e.fighter_id = %(f)s" if f.fighter_id is not None else "e.fighter_id IN (SELECT id FROM ft)"
        )
        return f"{fighters} AND e.pgh_label = 'update' AND e.told <> ''"

    def collect(self, row, ids):
        ids["fighters"].add((row.data or {}).get("fighter_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        if entry.fighter_id in look.fighters:
            entry.warband_id = as_int(look.fighters[entry.fighter_id].get("warband_id"))
        return None

    def tell(self, entry, look):
        t = Teller(entry, look)
        return [t.finish("xp", t.d.get("told") or "Started with XP as a late joiner")]
