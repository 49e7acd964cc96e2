"""Battle reports told in the campaign's feed: "Pat wrote the battle report “The Last Stand”", under
its game's heading, which links to the game page where the report is read.

`campaigns` sits below `rosters` and may not import it (docs/architecture.md), so `rosters` registers its table.
"""

from __future__ import annotations

from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.teller import Teller


def _title(value) -> str:
    return f"“{value}”" if value else "(untitled)"


class BattleReportSource(Source):
    # Rank 10, below the tracker's: the board keeps the last rank of a moment (its end of game above its marks).
    name, event_label, rank, kind = "battle_report", "campaigns.BattleReportEvent", 10, "games"

    def scope(self, f):
        # A report is the game's: in the campaign's feed and in the story of each warband that played it.
        return None if f.fighter_id is not None else "e.game_id IN (SELECT id FROM gm)"

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids):
        for r in (row.data or {}, row.prev or {}):
            ids["games"].add(r.get("game_id"))

    def links(self, entry, look):
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        title = _title(t.d.get("title"))
        if entry.label == "insert":
            return t.told(
                "games", f"{{who}} wrote the battle report {title}", f"The battle report {title} was written"
            )
        if entry.label == "delete":
            return [t.finish("games", f"The battle report {title} was deleted with its game")]
        diff = t.diff()
        if "title" in diff:
            old = _title(diff["title"][0])
            return t.told(
                "games",
                f"{{who}} edited the battle report {old}, now {title}",
                f"The battle report {old} is now {title}",
            )
        return t.told(
            "games", f"{{who}} edited the battle report {title}", f"The battle report {title} was edited"
        )
