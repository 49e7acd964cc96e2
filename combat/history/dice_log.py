"""The dice log's rolls, named in the history's sentences ("rolled by Bob on the server").

Services name the rolls behind a write in its history context (`roll`); this source reads them for the page in
the history's one lookup query, with the fighter who rolled (the attacker of an Attack Test), and registers from
`CombatConfig.ready()`.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from django.contrib.auth import get_user_model

from combat.models import DiceRoll
from rosters.history.lookups import Lookups, Person, Roll, _as_ints, id_list
from rosters.history.registry import LookupPart, Source


def _read(found: dict[int, dict], look: Lookups) -> None:
    for pk, data in found.items():
        roller = Person(data["first_name"], data["username"]) if data.get("username") else None
        look.rolls[pk] = Roll(
            data.get("fighter_id"),
            data.get("purpose") or "",
            data.get("source") or "",
            roller,
            tuple(data.get("faces") or ()),
        )


class DiceLogSource(Source):
    name = "dice_log"

    def load(self, rows, ids):
        rolls = ids.setdefault("rolls", set())
        for row in rows:
            rolls.update(_as_ints((row.context or {}).get("roll")))

    def lookup_parts(self):
        rolls, users = DiceRoll._meta.db_table, get_user_model()._meta.db_table
        yield LookupPart(
            kind="roll",
            sql=f"""SELECT 'roll', r.id, jsonb_build_object(
                'fighter_id', r.fighter_id, 'purpose', r.purpose, 'source', r.source, 'faces', r.faces,
                'first_name', u.first_name, 'username', u.username)
            FROM {rolls} r LEFT JOIN {users} u ON u.id = r.rolled_by_id WHERE r.id = ANY(%(rolls)s)""",
            fighters=f"SELECT fighter_id FROM {rolls} WHERE id = ANY(%(rolls)s) AND fighter_id IS NOT NULL",
            params=lambda ids: {"rolls": id_list(ids.get("rolls", ()))},
            read=_read,
        )
