"""The Locations a warband found by Exploration told as history (CAMPAIGN_PHASE.md "Looting and Exploration",
RULING E-4): "Iron Sepulchre found the Drowned Chapel (Rare, score 17) in Game 3". Registered by rosters, whose
table it is (`rosters.FoundLocation`); the post-game's Apply writes it, its Revert deletes it."""

from __future__ import annotations

from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.roster_rows import in_warbands
from rosters.history.teller import Teller
from rosters.words import possessive

TABLE_WORDS = {"common": "Common", "rare": "Rare", "legendary": "Legendary"}


def _the(name: str) -> str:
    return name if name.lower().startswith("the ") else f"the {name}"


class FoundLocationSource(Source):
    """`FoundLocation` rows: found (insert), struck off again (delete: a post-game reverted or corrected)."""

    # The Exploration step's rank (below the tracker's 20, above the post-game's own rows).
    name, event_label, rank, kind = "found_location", "rosters.FoundLocationEvent", 14, "games"

    def scope(self, f):
        # A Location is the warband's, no fighter's: a fighter's timeline leaves it out.
        return None if f.fighter_id is not None else in_warbands(f)

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids):
        for data in (row.data or {}, row.prev or {}):
            ids["warbands"].add(data.get("warband_id"))
            ids["games"].add(data.get("game_id"))

    def links(self, entry, look):
        entry.warband_id = as_int(entry.data.get("warband_id"))
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        d = t.d
        warband = look.warband(d.get("warband_id"))
        location = _the(d.get("name") or "a Location")
        game = look.game(d.get("game_id"))
        in_game = f" in {game.title}" if game is not None and game.number is not None else ""
        table = TABLE_WORDS.get(d.get("table"), d.get("table") or "")
        if entry.label == "delete":
            text = f"{location[0].upper()}{location[1:]} is no longer on {possessive(warband)} record"
            return [t.finish("games", text)]
        if entry.label == "insert":
            return [
                t.finish("games", f"{warband} found {location} ({table}, score {d.get('score')}){in_game}")
            ]
        return [t.finish("games", f"{possessive(warband)} record of {location} was corrected")]
