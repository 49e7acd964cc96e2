"""The in-game tracker told as a battle report: one sentence per action on the board, grouped under its game.

The tracker (combat/services.py, "In-game tracker") keeps a game's board in `combat.TrackerGame` and
`combat.TrackerFighter`, both tracked by django-pghistory, and logs every action in `combat.TrackerAction` with
the rows it changed as they were before (for Undo). Each action, each undo and the end of the game bump the
board's `version`, so each leaves exactly one TrackerGame event: that event is the feed's entry (source
"tracker", kind "ingame"), and this module tells it from what was stored at the time, never from the rules again:

- the action's kind, who undid it and when: its TrackerAction row (the one whose `version`, or `undone_version`
  for an undo, is the event's);
- each fighter before the action: the action's before-image; after it: the TrackerFighter events written in the
  same context (a row the action did not change has no event, and is unchanged);
- the Damage and the attacker: the context (`damage`, `attacker`), else the Attack Test's roll in the dice log;
- the dice: the dice log rows the context names;
- the end of the game: the Out of Action marks written in its context, and the board's Harsh Lessons.

Like the dice log, these tables live in `combat`, above `rosters` (ARCHITECTURE.md): they are read by label.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from dataclasses import dataclass, field

from django.apps import apps
from django.db import connection

from rosters.history.entries import Change
from rosters.history.lookups import _as_int, _as_ints, _json, _Lookups
from rosters.history.sources import SOURCE_BY_NAME, SOURCE_BY_RANK

STATE = ("harm", "injuries", "fatigue", "status", "models_left", "lost_hp")


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


def load_tracker_steps(rows: list[tuple]) -> dict[int, TrackerStep]:
    """The TrackerStep of every tracker event on the page, keyed by its pgh_id: one query, none without them."""
    pgh_ids = [row[1] for row in rows if SOURCE_BY_RANK[row[0]].name == "tracker"]
    if not pgh_ids:
        return {}
    events = SOURCE_BY_NAME["tracker"].table
    actions = apps.get_model("combat.TrackerAction")._meta.db_table
    fighter_events = apps.get_model("combat.TrackerFighterEvent")._meta.db_table
    marks = SOURCE_BY_NAME["out_of_action"].table
    # `og` is the event of the action itself: the same as `own` for an action, the earlier one for an undo. The
    # rows an action changed were saved in its transaction and context, so at its time.
    sql = f"""
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
                        'lost_hp', f.lost_hp) ORDER BY f.pgh_id), '[]'::jsonb)
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
    with connection.cursor() as db:
        db.execute(sql, {"p": pgh_ids})
        found = db.fetchall()
    steps = {}
    for pgh_id, action, context, game_after, after_rows, marked, version in found:
        action, context, game_after = _json(action), _json(context), _json(game_after)
        after_rows, marked = _json(after_rows) or [], _json(marked) or []
        step = TrackerStep(out_of_action=[m for m in marked if m is not None])
        if action:
            step.kind = action.get("kind")
            step.is_undo = action.get("version") != version
            step.undone = action.get("undone_at") is not None
            step.undone_by = action.get("undone_by")
            step.context = context or {}
            step.rolls = [r for r in action.get("rolls") or [] if isinstance(r, int)]
            step.game_after = game_after or {}
            before = {}
            for image in action.get("before") or []:
                if image.get("table") == "game":
                    step.game_before = image.get("values") or {}
                elif image.get("table") == "fighter":
                    before[image.get("id")] = image.get("values") or {}
            after = {row["id"]: row for row in after_rows}
            step.moves = [
                FighterMove(
                    fighter_id=after[row_id]["fighter_id"],
                    before=values,
                    after={name: after[row_id].get(name) for name in STATE},
                )
                for row_id, values in before.items()
                if row_id in after
            ]
        steps[pgh_id] = step
    return steps


def tracker_ids(steps: dict[int, TrackerStep]) -> dict[str, set]:
    """The users, fighters, warbands and rolls the steps' sentences name (for `_load_lookups`)."""
    ids: dict[str, set] = {"users": set(), "fighters": set(), "warbands": set(), "rolls": set()}
    for step in steps.values():
        ids["users"].add(step.undone_by)
        ids["rolls"].update(step.rolls)
        ids["fighters"].update(m.fighter_id for m in step.moves)
        ids["fighters"].update(step.out_of_action)
        for key in ("fighter", "attacker"):
            ids["fighters"].add(_as_int(step.context.get(key)))
        pending = step.game_before.get("pending") or {}
        ids["fighters"].add(_as_int(pending.get("incapacitated")))
        for lessons in (step.game_before.get("harsh_lessons"), step.game_after.get("harsh_lessons")):
            ids["warbands"].update(_as_ints(lessons or []))
    return {kind: {i for i in values if i is not None} for kind, values in ids.items()}


# --------------------------------------------------------------------------------------------------------------
# Sentences
# --------------------------------------------------------------------------------------------------------------


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else (plural or word + 's')}"


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


class TrackerTeller:
    """The sentence of one tracker event (`_Teller` hands it the entry)."""

    def __init__(self, entry, look: _Lookups):
        self.entry = entry
        self.look = look
        self.step: TrackerStep = look.tracker.get(entry.cursor.pgh_id) or TrackerStep()
        self.game = look.game(entry.context.get("game") or entry.data.get("game_id"))

    # -- the target an entry links to -----------------------------------------------------------------------------

    @property
    def fighter_id(self) -> int | None:
        step = self.step
        target = _as_int(step.context.get("fighter"))
        if target is not None:
            return target
        if step.kind == "confusion_friends":
            return _as_int((step.game_before.get("pending") or {}).get("incapacitated"))
        return step.moves[0].fighter_id if step.moves else None

    # -- the tail: who, where, the dice ---------------------------------------------------------------------------

    def _dice(self) -> str | None:
        rolls = [self.look.rolls[r] for r in self.step.rolls if r in self.look.rolls]
        if not rolls:
            return None
        parts = []
        for roll in rolls:
            faces = ", ".join(str(face) for face in roll.faces)
            parts.append(
                f"rolled {faces} on the server"
                if roll.source == "server"
                else f"{faces} entered from the table"
            )
        return "; ".join(parts)

    def _finish(self, text: str, *, dice: bool = True, names_game: bool = False) -> Change:
        where = "on the tracker"
        if self.game is not None and self.game.number is not None and not names_game:
            where += f" in {self.game.title}"
        who = self.entry.who
        tail = f"{who}, {where}" if who else where
        rolled = self._dice() if dice else None
        if rolled:
            tail += f"; {rolled}"
        undone = ""
        if self.step.undone and not self.step.is_undo:
            by = self.look.user(self.step.undone_by)
            undone = f"undone by {by}" if by else "undone"
        return Change(kind="ingame", text=text, sentence=f"{text} ({tail})", undone=undone)

    # -- per kind ---------------------------------------------------------------------------------------------------

    def changes(self) -> list[Change]:
        entry, step = self.entry, self.step
        title = self.game.title if self.game is not None else "the game"
        if entry.label == "insert":
            text = f"{title} began on the tracker"
            sentence = f"{text} (board set up by {entry.who})" if entry.who else text
            return [Change(kind="ingame", text=text, sentence=sentence)]
        if entry.data.get("ended_at") and not (entry.prev or {}).get("ended_at"):
            return [self._finish(self._end(title), dice=False, names_game=True)]
        if step.kind is None:
            # An action whose log went with its game, or a change made by hand: the reason the service recorded.
            reason = (entry.reason or "").strip()
            return [self._finish(reason or f"The board of {title} changed", dice=False)]
        text = self._action()
        if step.is_undo:
            who = self.entry.who
            said = f"“{text}”"
            text = f"{who} undid {said}" if who else f"Undone: {said}"
            # The undo's own tail: who undid it needs no repeating, and its dice are the undone action's.
            return [self._finish_undo(text)]
        return [self._finish(text)]

    def _finish_undo(self, text: str) -> Change:
        where = "on the tracker"
        if self.game is not None and self.game.number is not None:
            where += f" in {self.game.title}"
        return Change(kind="ingame", text=text, sentence=f"{text} ({where})")

    def _end(self, title: str) -> str:
        """000 "Incapacitation": the Incapacitated are taken Out of Action (the Fled are not, RULING D-9); each crew
        whose Champion was Incapacitated earned its Harsh Lessons XP (RULING D-11)."""
        step, look = self.step, self.look
        names = [look.fighter(f) for f in step.out_of_action]
        text = f"End of {title}: " + (
            f"{_and(names)} taken Out of Action" if names else "nobody taken Out of Action"
        )
        crews = [look.warband(w) for w in _as_ints(self.entry.data.get("harsh_lessons") or [])]
        if crews:
            text += f"; Harsh Lessons: +1 crew XP for {_and(crews)}"
        return text

    def _action(self) -> str:
        kind = self.step.kind
        if kind in ("attack", "damage", "tie"):
            return self._damage(kind)
        if kind == "confusion_friends":
            return self._friends()
        if kind in ("confusion_test", "confusion_choice"):
            return self._confusion(kind)
        if kind == "fatigue":
            return self._fatigue()
        if kind == "recover_harm":
            return self._recover()
        return (self.entry.reason or "").strip() or "An action on the board"

    def _name(self, fighter_id) -> str:
        return self.look.fighter(fighter_id)

    def _effect(self, move: FighterMove | None) -> tuple[str, str]:
        """What Damage did to the target's row, and how it ended: ("an Injury and 1 Harm", "Fidus is
        Incapacitated")."""
        if move is None:
            return "", ""
        name = self._name(move.fighter_id)
        parts = []
        removed = -move.delta("models_left")
        if removed > 0:
            left = move.after.get("models_left") or 0
            parts.append(f"{_plural(removed, 'model')} removed" + (f" ({left} left)" if left else ""))
        elif move.delta("lost_hp") > 0:
            parts.append(f"{_plural(move.delta('lost_hp'), 'lost Health Point')} carried")
        injuries, harm = move.delta("injuries"), move.delta("harm")
        if injuries > 0:
            parts.append("an Injury" if injuries == 1 else f"{injuries} Injuries")
        if harm > 0:
            parts.append(f"{harm} Harm")
        end = ""
        if move.became("incapacitated"):
            wiped = (move.before.get("models_left") or 1) > 1 and not move.after.get("models_left")
            end = f"{name} is wiped out" if wiped else f"{name} is Incapacitated"
        return " and ".join(parts), end

    def _damage(self, kind: str) -> str:
        step, look = self.step, self.look
        target_id = _as_int(step.context.get("fighter"))
        target = self._name(target_id)
        damage = _as_int(step.context.get("damage"))
        attacker_id = _as_int(step.context.get("attacker"))
        if kind == "attack" and attacker_id is None:
            # Before the context named the attacker, the Attack Test's roll did: it is stored with the attacker.
            attacker_id = next(
                (
                    look.rolls[r].fighter_id
                    for r in step.rolls
                    if r in look.rolls and look.rolls[r].fighter_id
                ),
                None,
            )
        effect, end = self._effect(step.move_of(target_id))
        amount = f"{damage} Damage" if damage is not None else "the Damage"
        if kind == "attack":
            attacker = self._name(attacker_id) if attacker_id is not None else None
            if damage == 0:
                return (
                    f"{attacker}'s attack on {target} missed: no Hit"
                    if attacker
                    else f"An attack on {target} missed"
                )
            hit = f" for {damage} Damage" if damage is not None else ""
            head = f"{attacker} hit {target}{hit}" if attacker else f"{target} was hit{hit}"
        elif kind == "tie":
            head = f"Equally close models ordered by the defending player, {target} took {amount}"
        else:
            if damage == 0:
                return f"{target} took no Damage: nothing happens"
            head = f"{target} took {amount}"
        text = head + (f": {effect}" if effect else "")
        if end:
            text += f" — {end}"
        elif not effect:
            pending = step.game_after.get("pending") or {}
            if pending.get("kind") == "tie":
                text += ": equally close models wait for the defending player's order"
            else:
                text += ": no effect"
        text += self._harsh_lessons()
        return text

    def _harsh_lessons(self) -> str:
        before = set(_as_ints(self.step.game_before.get("harsh_lessons") or []))
        after = _as_ints(self.step.game_after.get("harsh_lessons") or [])
        crews = [self.look.warband(w) for w in after if w not in before]
        return f"; Harsh Lessons: +1 XP for {_and(crews)}" if crews else ""

    def _friends(self) -> str:
        step = self.step
        incapacitated = self._name((step.game_before.get("pending") or {}).get("incapacitated"))
        pending = step.game_after.get("pending") or {}
        due = (pending.get("sequence") or {}).get("due") or []
        names = [self._name(_as_int(friend.get("id"))) for friend in due if isinstance(friend, dict)]
        if not names:
            return f'No friend was within 3" of {incapacitated}: no Confusion Test'
        tests = "a Confusion Test" if len(names) == 1 else "Confusion Tests"
        return f'{_and(names)} within 3" of {incapacitated}: {tests} (2I)'

    def _confusion(self, kind: str) -> str:
        step = self.step
        friend_id = _as_int(step.context.get("fighter"))
        name = self._name(friend_id)
        move = step.move_of(friend_id)
        head = f"{name}'s Confusion Test"
        if kind == "confusion_choice":
            if move is not None and move.became("fled"):
                return f"{head}: Confused — Fled, out of play but not Out of Action"
            if move is not None and move.delta("fatigue") > 0:
                return f"{head}: Confused — took 1 Fatigue, now {move.after.get('fatigue')}"
            return f"{head}: Confused"
        if move is not None and move.became("fled"):
            return f"{head}: Fled — Exhausted, it could not Take Fatigue"
        awaiting = ((step.game_after.get("pending") or {}).get("sequence") or {}).get("awaiting") or {}
        if _as_int((awaiting.get("friend") or {}).get("id")) == friend_id:
            return f"{head}: failed — Confused, to Flee or Take Fatigue"
        return f"{head}: passed"

    def _fatigue(self) -> str:
        step = self.step
        fighter_id = _as_int(step.context.get("fighter"))
        name, move = self._name(fighter_id), step.move_of(fighter_id)
        if move is None:
            return (self.entry.reason or "").strip() or f"{name}'s Fatigue changed"
        now = move.after.get("fatigue")
        if move.delta("fatigue") > 0:
            return f"{name} took 1 Fatigue, now {now}{' (Exhausted)' if now == 2 else ''}"
        return f"{name} lost 1 Fatigue, now {now}"

    def _recover(self) -> str:
        fighter_id = _as_int(self.step.context.get("fighter"))
        move = self.step.move_of(fighter_id)
        now = f", now {move.after.get('harm')}" if move is not None else ""
        return f"{self._name(fighter_id)} Recovered 1 Harm{now}"


def tracker_changes(entry, look: _Lookups) -> list[Change]:
    return TrackerTeller(entry, look).changes()


def tracker_target(entry, look: _Lookups) -> int | None:
    return TrackerTeller(entry, look).fighter_id
