"""What the history holds about each action on the tracker's board, read for a page of the feed in one query.

The tracker (`combat/services/tracker.py`) keeps a game's board in `TrackerGame` and `TrackerFighter`, both
tracked by django-pghistory, and logs every action in `TrackerAction` with the rows it changed as they were before
(for Undo). Each action, each undo and the end of the game bump the board's `version`, so each leaves exactly one
TrackerGame event: that event is the feed's entry (source "tracker", kind "ingame"), told from what was stored at
the time, never from the rules again:

- the action's kind, who undid it and when: its TrackerAction row (the one whose `version`, or `undone_version`
  for an undo, is the event's);
- each fighter before the action: the action's before-image; after it: the TrackerFighter events written in the
  same context (a row the action did not change has no event, and is unchanged);
- the Damage and the attacker: the context (`damage`, `attacker`), else the Attack Test's roll in the dice log;
- the dice: the dice log rows the context names;
- the end of the game: the Out of Action marks written in its context, and the board's Harsh Lessons.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection

from combat.models.tracker import FIGHTER_STATE_FIELDS
from rosters.history.lookups import as_int, as_ints, json_value

STATE = FIGHTER_STATE_FIELDS


@dataclass(frozen=True)
class FighterMove:
    """One fighter's row on the board, before and after an action."""

    fighter_id: int | None
    before: dict
    after: dict

    def delta(self, name: str) -> int:
        return int(self.after.get(name) or 0) - int(self.before.get(name) or 0)

    def became(self, status: str) -> bool:
        return self.before.get("status") != status and self.after.get("status") == status


@dataclass
class TrackerStep:
    """What the history holds about one TrackerGame event: an action (or its undo), the start or the end."""

    kind: str | None = (
        None  # TrackerAction.kind; None for the start, the end, or an action no longer on record
    )
    is_undo: bool = False  # the event is the undo of the action
    undone_by: int | None = None  # the action was undone since, by this user
    undone: bool = False
    context: dict = field(default_factory=dict)  # the action's own context (for an undo: the undone action's)
    rolls: list[int] = field(default_factory=list)
    moves: list[FighterMove] = field(default_factory=list)
    game_before: dict = field(default_factory=dict)  # the board's pending step and Harsh Lessons before
    game_after: dict = field(default_factory=dict)  # ... and after the action
    out_of_action: list[int] = field(default_factory=list)  # fighters the end of the game took Out of Action

    def move_of(self, fighter_id: int | None) -> FighterMove | None:
        return next((m for m in self.moves if m.fighter_id == fighter_id), None)


def _table(label: str) -> str:
    return apps.get_model(label)._meta.db_table


def _steps_sql() -> str:
    """One row per board event: its action (`a`), the action's own event (`og`: the same as `own` for an action,
    the earlier one for an undo) and context, the fighter rows it changed (saved in its transaction and context,
    so at its time) and the Out of Action marks written with it."""
    events, actions = _table("combat.TrackerGameEvent"), _table("combat.TrackerAction")
    fighter_events, marks = _table("combat.TrackerFighterEvent"), _table("campaigns.OutOfActionEvent")
    return f"""
        SELECT own.pgh_id,
            CASE WHEN a.id IS NOT NULL THEN jsonb_build_object(
                'kind', a.kind, 'version', a.version, 'rolls', a.rolls, 'before', a.before,
                'undone_at', a.undone_at, 'undone_by', a.undone_by_id, 'undone_version', a.undone_version)
            END,
            oc.metadata,
            CASE WHEN og.pgh_id IS NOT NULL
                THEN jsonb_build_object('pending', og.pending, 'harsh_lessons', og.harsh_lessons) END,
            (SELECT coalesce(jsonb_agg(jsonb_build_object(
                        'id', f.pgh_obj_id, 'fighter_id', f.fighter_id, 'harm', f.harm, 'injuries', f.injuries,
                        'fatigue', f.fatigue, 'status', f.status, 'models_left', f.models_left,
                        'lost_hp', f.lost_hp, 'blood', f.blood, 'blessings', f.blessings, 'down', f.down,
                        'tough_used', f.tough_used) ORDER BY f.pgh_id), '[]'::jsonb)
             FROM {fighter_events} f
             WHERE f.pgh_context_id = og.pgh_context_id AND f.pgh_created_at = og.pgh_created_at
               AND f.pgh_label = 'update'),
            (SELECT coalesce(jsonb_agg(o.fighter_id ORDER BY o.pgh_id), '[]'::jsonb)
             FROM {marks} o
             WHERE o.pgh_context_id = own.pgh_context_id AND o.pgh_created_at = own.pgh_created_at
               AND o.pgh_label = 'insert'),
            own.version
        FROM {events} own
        LEFT JOIN LATERAL (
            SELECT * FROM {actions} a
            WHERE a.tracker_id = own.pgh_obj_id AND (a.version = own.version OR a.undone_version = own.version)
            ORDER BY a.version DESC LIMIT 1
        ) a ON TRUE
        LEFT JOIN LATERAL (
            SELECT * FROM {events} g
            WHERE g.pgh_obj_id = a.tracker_id AND g.version = a.version AND g.pgh_label = 'update'
            ORDER BY g.pgh_id LIMIT 1
        ) og ON TRUE
        LEFT JOIN pghistory_context oc ON oc.id = og.pgh_context_id
        WHERE own.pgh_id = ANY(%(p)s)
    """


def _moves(before_images: list, after_rows: list) -> tuple[dict, list[FighterMove]]:
    """The board's state before the action, and each fighter row it changed, before and after."""
    game_before, before = {}, {}
    for image in before_images:
        if image.get("table") == "game":
            game_before = image.get("values") or {}
        elif image.get("table") == "fighter":
            before[image.get("id")] = image.get("values") or {}
    after = {row["id"]: row for row in after_rows}
    moves = [
        FighterMove(
            fighter_id=after[row_id]["fighter_id"],
            before=values,
            after={name: after[row_id].get(name) for name in STATE},
        )
        for row_id, values in before.items()
        if row_id in after
    ]
    return game_before, moves


def _step(action, context, game_after, after_rows, marked, version) -> TrackerStep:
    action, context, game_after = json_value(action), json_value(context), json_value(game_after)
    after_rows, marked = json_value(after_rows) or [], json_value(marked) or []
    step = TrackerStep(out_of_action=[m for m in marked if m is not None])
    if action:
        step.kind = action.get("kind")
        step.is_undo = action.get("version") != version
        step.undone = action.get("undone_at") is not None
        step.undone_by = action.get("undone_by")
        step.context = context or {}
        step.rolls = [r for r in action.get("rolls") or [] if isinstance(r, int)]
        step.game_after = game_after or {}
        step.game_before, step.moves = _moves(action.get("before") or [], after_rows)
    return step


def load_tracker_steps(pgh_ids: list[int]) -> dict[int, TrackerStep]:
    """The TrackerStep of each board event, keyed by its pgh_id: one query, none without events."""
    if not pgh_ids:
        return {}
    with connection.cursor() as db:
        db.execute(_steps_sql(), {"p": pgh_ids})
        return {pgh_id: _step(*rest) for pgh_id, *rest in db.fetchall()}


def step_ids(steps: dict[int, TrackerStep], ids: dict[str, set]) -> None:
    """Add the users, fighters, warbands and rolls the steps' sentences name to the page's ids."""
    for kind in ("users", "fighters", "warbands", "rolls"):
        ids.setdefault(kind, set())
    for step in steps.values():
        ids["users"].add(step.undone_by)
        ids["rolls"].update(step.rolls)
        ids["fighters"].update(m.fighter_id for m in step.moves)
        ids["fighters"].update(step.out_of_action)
        for key in ("fighter", "attacker"):
            ids["fighters"].add(as_int(step.context.get(key)))
        pending = step.game_before.get("pending") or {}
        ids["fighters"].add(as_int(pending.get("incapacitated")))
        for lessons in (step.game_before.get("harsh_lessons"), step.game_after.get("harsh_lessons")):
            ids["warbands"].update(as_ints(lessons or []))
