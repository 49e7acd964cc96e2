"""A campaign's data told in the history: "Olga saved the Common Locations, v3: 12 rows".

Each save of combat/services/campaign_data.py inserts one version (`CampaignDataSet`), tracked by pghistory under
the context `action="campaign_data.save"`, with the note as its reason when the organiser wrote one. A version is
never edited, so only inserts are told; the update a deleted account leaves (its `created_by` set to NULL) and the
deletes of a deleted campaign are not changes to the data. Registered from `CombatConfig.ready()`.
"""

from __future__ import annotations

from combat.campaign_data_io import title
from combat.models.campaign_data import PATRON_SKILLS
from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.teller import Teller, plural

# Ranks order one transaction's events (rosters/history/sources.py); a save of campaign data is a transaction of
# its own, so any free rank below the tracker's would do (its board's events stay the last rank of a moment,
# combat/tests/history/test_registry.py). 11, with the tracker at 12, leaves 9 and 10 to the sources other
# branches add (the ransom offers, the battle reports): no two sources may share a rank.
RANK = 11


def _warband_id(kind) -> int | None:
    head, _, rest = str(kind or "").partition(":")
    return as_int(rest) if head == PATRON_SKILLS else None


class CampaignDataSource(Source):
    name, event_label, rank, kind = "campaign_data", "combat.CampaignDataSetEvent", RANK, "campaign"

    def scope(self, f):
        if f.warband_id is not None or f.fighter_id is not None:
            return None
        return "e.pgh_label = 'insert' AND e.campaign_id = %(c)s"

    def collect(self, row, ids):
        warband_id = _warband_id((row.data or {}).get("kind"))
        if warband_id is not None:
            ids["warbands"].add(warband_id)

    def links(self, entry, look):
        entry.warband_id = _warband_id(entry.data.get("kind"))
        return None

    def tell(self, entry, look):
        t = Teller(entry, look)
        kind = str(t.d.get("kind") or "")
        warband_id = _warband_id(kind)
        words = title(kind, warband=look.warband(warband_id) if warband_id is not None else "")
        rows = t.d.get("rows") if isinstance(t.d.get("rows"), list) else []
        saved = f"{words}, v{t.d.get('version')}: {plural(len(rows), 'row')}"
        return t.told("campaign", f"{{who}} saved {saved}", f"{saved[0].upper()}{saved[1:]} was saved")
