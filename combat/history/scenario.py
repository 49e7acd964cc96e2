"""A game's scenario roll told in the history: "Olga rolled Game 3's scenario on the Early
table: Lantern Run (D6 2 found Salt the Crater, played last: rolled again; then 5)".

`GameScenario` is tracked by pghistory: the insert is the first die, each update the next one; the faces only
grow. The game's own update (its `scenario` filled in) is told by rosters' game source. Registered from
`CombatConfig.ready()`.
"""

from __future__ import annotations

from combat.rules.campaign_scenarios import STAGE_NAMES
from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.teller import Teller

# Rank 17 (the coordinator's free rank for this branch): below the tracker's 20, which stays the highest.
RANK = 17


def _faces(faces: list, new_from: int) -> str:
    return ", ".join(str(face) for face in faces[new_from:])


class ScenarioSource(Source):
    name, event_label, rank, kind = "scenario", "combat.GameScenarioEvent", RANK, "games"

    def scope(self, f):
        # The game's: in the campaign's feed and in the story of each warband that played it.
        return None if f.fighter_id is not None else "e.game_id IN (SELECT id FROM gm)"

    def game_scope(self):
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids):
        ids["games"].add((row.data or {}).get("game_id"))

    def links(self, entry, look):
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        if entry.label == "delete":
            return []  # gone with its game, which the game's own event tells
        t = Teller(entry, look)
        d = t.d
        game = look.game(d.get("game_id"))
        title = game.title if game is not None and game.number is not None else "the game"
        stage = STAGE_NAMES.get(d.get("stage"), str(d.get("stage")))
        faces = list(d.get("faces") or [])
        before = len(t.p.get("faces") or []) if entry.label == "update" else 0
        dice = f"D6 {_faces(faces, before)}"
        if d.get("scenario"):
            rerolled = " after rerolls" if len(faces) > 1 else ""
            done = (
                f"{{who}} rolled {title}'s scenario on the {stage} table: {d['scenario']} ({dice}{rerolled})"
            )
            passive = (
                f"{title}'s scenario was rolled on the {stage} table: {d['scenario']} ({dice}{rerolled})"
            )
            return t.told("games", done, passive)
        again = "a scenario a warband of the game played last, to roll again"
        return t.told(
            "games",
            f"{{who}} rolled {dice} for {title}'s scenario: {again}",
            f"{dice} for {title}'s scenario found {again}",
        )
