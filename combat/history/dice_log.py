"""The dice log's rolls, named in the history's sentences ("rolled by Bob on the server").

Services name the rolls behind a write in its history context (`roll`); this source reads them for the page in
the history's one lookup query, with the fighter who rolled (the attacker of an Attack Test) and, for a roll that
no longer counts, who struck it, why and the right faces; it registers from
`CombatConfig.ready()`.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from django.contrib.auth import get_user_model

from combat.models import DiceRoll, PostGameRoll
from rosters.history.lookups import Lookups, Person, Roll, as_ints, display_name, id_list
from rosters.history.registry import LookupPart, Source


def _later(data: dict) -> str:
    """A roll that no longer counts, as the feed says it: "later voided by Olga (wrong
    fighter)", "later corrected to 1 by Pat (typo)", "later undone by Pat"; "" for a roll that counts."""
    status = data.get("status") or "counted"
    if status == "counted":
        return ""
    words = f"later {status}"
    if status == "corrected" and data.get("new_faces"):
        words += " to " + ", ".join(str(face) for face in data["new_faces"])
    if data.get("status_username"):
        words += f" by {display_name(Person(data.get('status_first') or '', data['status_username']))}"
    reason = (data.get("status_reason") or "").strip()
    if status == "undone":
        # The reason of an undone roll is the service's own ("Undo of: <the action the sentence tells>"): say
        # only which way it was undone.
        reason = "post-game reverted" if data.get("post_game") else "tracker Undo"
    if reason:
        words += f" ({reason})"
    return words


def _read(found: dict[int, dict], look: Lookups) -> None:
    for pk, data in found.items():
        roller = Person(data["first_name"], data["username"]) if data.get("username") else None
        look.rolls[pk] = Roll(
            data.get("fighter_id"),
            data.get("purpose") or "",
            data.get("source") or "",
            roller,
            tuple(data.get("faces") or ()),
            data.get("status") or "counted",
            _later(data),
        )


class DiceLogSource(Source):
    name = "dice_log"

    def load(self, rows, ids):
        rolls = ids.setdefault("rolls", set())
        for row in rows:
            rolls.update(as_ints((row.context or {}).get("roll")))

    def lookup_parts(self):
        rolls, users = DiceRoll._meta.db_table, get_user_model()._meta.db_table
        post_game_rolls = PostGameRoll._meta.db_table
        yield LookupPart(
            kind="roll",
            sql=f"""SELECT 'roll', r.id, jsonb_build_object(
                'fighter_id', r.fighter_id, 'purpose', r.purpose, 'source', r.source, 'faces', r.faces,
                'first_name', u.first_name, 'username', u.username,
                'status', r.status, 'status_reason', r.status_reason, 'new_faces', n.faces,
                'status_first', s.first_name, 'status_username', s.username,
                'post_game', EXISTS(SELECT 1 FROM {post_game_rolls} p WHERE p.dice_roll_id = r.id))
            FROM {rolls} r LEFT JOIN {users} u ON u.id = r.rolled_by_id
                LEFT JOIN {users} s ON s.id = r.status_by_id LEFT JOIN {rolls} n ON n.id = r.replaced_by_id
            WHERE r.id = ANY(%(rolls)s)""",
            fighters=f"SELECT fighter_id FROM {rolls} WHERE id = ANY(%(rolls)s) AND fighter_id IS NOT NULL",
            params=lambda ids: {"rolls": id_list(ids.get("rolls", ()))},
            read=_read,
        )
