"""The in-game tracker told as a battle report: one sentence per action on the board, grouped under its game.

Registered with the history from `CombatConfig.ready()`; what each board event holds is read by
`combat/history/tracker_steps.py`.
"""

# ruff: noqa: S608 - the SQL below is assembled from table names in Django's model metadata only; every value is
# passed as a query parameter.
from __future__ import annotations

from django.apps import apps

from combat.history.tracker_steps import FighterMove, TrackerStep, load_tracker_steps, step_ids
from combat.rules import injury_board
from combat.rules.words import possessive
from rosters.history.entries import Change, HistoryFilter
from rosters.history.lookups import Lookups, as_int, as_ints
from rosters.history.registry import Source
from rosters.history.teller import plural as _plural


def _and(names: list[str]) -> str:
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


class TrackerTeller:
    """The sentence of one tracker event."""

    def __init__(self, entry, look: Lookups):
        self.entry = entry
        self.look = look
        steps = look.state.get(TrackerSource.name) or {}
        self.step: TrackerStep = steps.get(entry.cursor.pgh_id) or TrackerStep()
        self.game = look.game(entry.context.get("game") or entry.data.get("game_id"))

    # -- the target an entry links to -----------------------------------------------------------------------------

    @property
    def fighter_id(self) -> int | None:
        step = self.step
        target = as_int(step.context.get("fighter"))
        if target is not None:
            return target
        if step.kind == "confusion_friends":
            return as_int((step.game_before.get("pending") or {}).get("incapacitated"))
        return step.moves[0].fighter_id if step.moves else None

    # -- the tail: who, where, the dice ---------------------------------------------------------------------------

    def _dice(self) -> str | None:
        rolls = [self.look.rolls[r] for r in self.step.rolls if r in self.look.rolls]
        if not rolls:
            return None
        parts = []
        for roll in rolls:
            faces = ", ".join(str(face) for face in roll.faces)
            words = (
                f"rolled {faces} on the server"
                if roll.source == "server"
                else f"{faces} entered from the table"
            )
            # A roll that no longer counts says so, unless the step's own "undone" says it.
            if roll.later and not (roll.status == "undone" and self.step.undone):
                words += f", {roll.later}"
            parts.append(words)
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
        crews = [look.warband(w) for w in as_ints(self.entry.data.get("harsh_lessons") or [])]
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
        if kind == "out_of_action":  # a board with no Endurance (combat/rules/board_rules.py, seed 003)
            return f"{self._name(self.fighter_id)} was taken Out of Action{self._by()}"
        if kind in ("injury_roll", "blood", "blessing", "down"):
            return self._trench_crusade(kind)
        if kind == "back_in_play":
            return f"{self._name(self.fighter_id)} was back in play: the Out of Action mark taken back"
        return (self.entry.reason or "").strip() or "An action on the board"

    def _trench_crusade(self, kind: str) -> str:
        """An Injury Roll told from its stored record (RULING I-8), in the fighter's name as the history knows it;
        a marker tap from the sentence stored with it (TC_IN_GAME.md)."""
        context = self.step.context
        record = context.get("injury")
        if kind == "injury_roll" and isinstance(record, dict):
            try:
                return injury_board.injury_words(record, name=self._name(self.fighter_id)) + self._by()
            except (KeyError, TypeError, ValueError):
                pass  # a record from another shape: the sentence stored with it
        told = str(context.get("told") or self.entry.reason or "").strip().rstrip(".")
        return told or "An action on the board"

    def _name(self, fighter_id) -> str:
        return self.look.fighter(fighter_id)

    def _by(self) -> str:
        """Who did it, when the players said (the "By" of Out of Action, an Injury Roll, typed Damage)."""
        attacker_id = as_int(self.step.context.get("attacker"))
        return f" by {self._name(attacker_id)}" if attacker_id is not None else ""

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
        target_id = as_int(step.context.get("fighter"))
        target = self._name(target_id)
        damage = as_int(step.context.get("damage"))
        attacker_id = as_int(step.context.get("attacker"))
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
                    f"{possessive(attacker)} attack on {target} missed: no Hit"
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
            head = f"{target} took {amount}" + (f" from {self._name(attacker_id)}" if attacker_id else "")
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
        before = set(as_ints(self.step.game_before.get("harsh_lessons") or []))
        after = as_ints(self.step.game_after.get("harsh_lessons") or [])
        crews = [self.look.warband(w) for w in after if w not in before]
        return f"; Harsh Lessons: +1 XP for {_and(crews)}" if crews else ""

    def _friends(self) -> str:
        step = self.step
        incapacitated = self._name((step.game_before.get("pending") or {}).get("incapacitated"))
        pending = step.game_after.get("pending") or {}
        due = (pending.get("sequence") or {}).get("due") or []
        names = [self._name(as_int(friend.get("id"))) for friend in due if isinstance(friend, dict)]
        if not names:
            return f'No friend was within 3" of {incapacitated}: no Confusion Test'
        tests = "a Confusion Test" if len(names) == 1 else "Confusion Tests"
        return f'{_and(names)} within 3" of {incapacitated}: {tests} (2I)'

    def _confusion(self, kind: str) -> str:
        step = self.step
        friend_id = as_int(step.context.get("fighter"))
        name = self._name(friend_id)
        move = step.move_of(friend_id)
        head = f"{possessive(name)} Confusion Test"
        if kind == "confusion_choice":
            if move is not None and move.became("fled"):
                return f"{head}: Confused — Fled, out of play but not Out of Action"
            if move is not None and move.delta("fatigue") > 0:
                return f"{head}: Confused — took 1 Fatigue, now {move.after.get('fatigue')}"
            return f"{head}: Confused"
        if move is not None and move.became("fled"):
            return f"{head}: Fled — Exhausted, it could not Take Fatigue"
        awaiting = ((step.game_after.get("pending") or {}).get("sequence") or {}).get("awaiting") or {}
        if as_int((awaiting.get("friend") or {}).get("id")) == friend_id:
            return f"{head}: failed — Confused, to Flee or Take Fatigue"
        return f"{head}: passed"

    def _fatigue(self) -> str:
        step = self.step
        fighter_id = as_int(step.context.get("fighter"))
        name, move = self._name(fighter_id), step.move_of(fighter_id)
        if move is None:
            return (self.entry.reason or "").strip() or f"{possessive(name)} Fatigue changed"
        now = move.after.get("fatigue")
        if move.delta("fatigue") > 0:
            return f"{name} took 1 Fatigue, now {now}{' (Exhausted)' if now == 2 else ''}"
        return f"{name} lost 1 Fatigue, now {now}"

    def _recover(self) -> str:
        fighter_id = as_int(self.step.context.get("fighter"))
        move = self.step.move_of(fighter_id)
        now = f", now {move.after.get('harm')}" if move is not None else ""
        return f"{self._name(fighter_id)} Recovered 1 Harm{now}"


class TrackerSource(Source):
    """The board's events (one per action, undo, start and end of a game on the tracker)."""

    # Rank 20 (the highest of every source): the last rank of a moment, above every other.
    # Ranks 13 to 19 are the later post-battle steps' and the Strongbox ledger's.
    name, event_label, rank, kind = "tracker", "combat.TrackerGameEvent", 20, "ingame"

    def scope(self, f: HistoryFilter) -> str | None:
        # A board deleted with its game is not an action at the table.
        scope = "e.pgh_label <> 'delete' AND e.game_id IN (SELECT id FROM gm)"
        if f.fighter_id is None:
            return scope
        # The fighter's row changed by the action (the target, a Confusion Test), or the fighter named in its
        # context (the target, the attacker).
        fighter_events = apps.get_model("combat.TrackerFighterEvent")._meta.db_table
        return (
            scope
            + f""" AND (
            EXISTS (SELECT 1 FROM {fighter_events} tf
                    WHERE tf.pgh_context_id = e.pgh_context_id AND tf.fighter_id = %(f)s)
            OR EXISTS (SELECT 1 FROM pghistory_context tc WHERE tc.id = e.pgh_context_id
                       AND %(fs)s IN (tc.metadata->>'fighter', tc.metadata->>'attacker')))"""
        )

    def game_scope(self) -> str:
        return " OR e.game_id = %(gi)s"

    def collect(self, row, ids):
        ids["games"].update((r or {}).get("game_id") for r in (row.data, row.prev))

    def load(self, rows, ids):
        steps = load_tracker_steps([row.pgh_id for row in rows if row.src == self.rank])
        step_ids(steps, ids)
        return steps

    def links(self, entry, look):
        entry.fighter_id = TrackerTeller(entry, look).fighter_id
        if entry.fighter_id in look.fighters:
            entry.warband_id = as_int(look.fighters[entry.fighter_id].get("warband_id"))
        return as_int(entry.data.get("game_id"))

    def tell(self, entry, look):
        return TrackerTeller(entry, look).changes()
