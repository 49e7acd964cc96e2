"""What every sentence of the feed shares: the change itself, then who and why from its context (the tail)."""

from __future__ import annotations

import re

from campaigns.people import display_name
from rosters.history.entries import Change, HistoryEntry
from rosters.history.lookups import Lookups, as_int, as_ints

# Roll purposes that explain a kind of change (the post-game's Survival and Trauma rolls, Bitter Lessons' D3...).
ROLL_PURPOSES = {
    "injuries": ("trauma", "survival", "injur"),
    "scars": ("trauma", "survival", "scar"),
    "roster": ("trauma", "survival"),
    "xp": ("xp", "lesson", "experience"),
    "strongbox": ("ransom", "robbed", "trauma"),
    "battlekit": ("trauma", "robbed"),
}

# The writes that strike a roll and tell it themselves: a correction of typed dice, a void by the organiser.
STRIKING_ACTIONS = frozenset({"post_game.correct", "post_game.void"})


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def signed(n: int, gained: str, lost: str, unit: str) -> str:
    return f"{gained if n > 0 else lost} {abs(n)} {unit}"


def _says(text: str, name: str) -> bool:
    """Whether `text` holds `name` as whole words. The plain `in` first: most names are not in the text at all,
    and a pattern compiled for each name and line was a good part of a page's sentences' time."""
    return name in text and re.search(rf"\b{re.escape(name)}\b", text) is not None


class Teller:
    """Builds the sentences of one event: the change itself, then who and why from its context."""

    def __init__(self, entry: HistoryEntry, lookups: Lookups):
        self.entry = entry
        self.look = lookups
        self.terms = lookups.terms
        self.d = entry.data
        self.p = entry.prev or {}

    # -- the tail: reason, game, roll, who ----------------------------------------------------------------------

    def context_rolls(self) -> list:
        """The rolls the event's context names, as the page's lookups hold them."""
        return [self.look.rolls[r] for r in as_ints(self.entry.context.get("roll")) if r in self.look.rolls]

    def _rolls_for(self, kind: str) -> list:
        rolls = self.context_rolls()
        if not rolls:
            return []
        fighter_id = self.entry.fighter_id
        if fighter_id is not None:
            rolls = [r for r in rolls if r.fighter_id == fighter_id]
        elif len(rolls) > 1:
            rolls = [r for r in rolls if r.fighter_id is None]
        words = ROLL_PURPOSES.get(kind)
        if words is None:
            return []
        return [r for r in rolls if any(w in (r.purpose or "").lower() for w in words)]

    def _roll_phrase(self, kind: str, rolls: list | None = None) -> tuple[str | None, set[str]]:
        rolls = self._rolls_for(kind) if rolls is None else rolls
        if not rolls:
            return None, set()
        parts, rollers = [], set()
        for source in ("server", "entered"):
            by = sorted({display_name(r.rolled_by) for r in rolls if r.source == source and r.rolled_by})
            if not any(r.source == source for r in rolls):
                continue
            rollers.update(by)
            who = f" by {' and '.join(by)}" if by else ""
            parts.append(
                f"rolled{who} on the server" if source == "server" else f"entered{who} from the table"
            )
        # A roll that no longer counts says so: "..., later corrected to 1 by Pat (typo)" -- but
        # not in the correction's or the void's own sentences, which tell it already ("D66 corrected 14 → 11: typo").
        if (self.entry.action or "") not in STRIKING_ACTIONS:
            parts.extend(sorted({r.later for r in rolls if getattr(r, "later", "")}))
        return ", ".join(parts), rollers

    def _game_phrase(self) -> str | None:
        action = self.entry.action or ""
        game = self.look.game(self.entry.context.get("game"))
        if game is None:
            return None
        title = game.title
        if action == "post_game.apply":
            return f"post-game of {title}"
        if action == "post_game.revert":
            return f"post-game of {title} undone"
        if action in ("post_game.correct", "post_game.void"):
            return f"post-game of {title} corrected"
        if action.startswith("tracker."):
            return f"during {title}"
        if action == "game.record":
            return f"recording {title}"
        return title

    def _restates(self, reason: str) -> bool:
        """Whether a reason only says again what the sentence says.

        Services record a reason for every write, and when the player typed none it is a sentence of their own
        naming what changed ("Brother Marcus gained 2 XP (now 7)", "Recorded Game 3: ..."). A reason a player
        gives ("ransom for Brother Marcus" on the Strongbox, "killed the Heretic Priest" on XP) names neither the
        row that changed nor the game, and is shown.
        """
        entry, look = self.entry, self.look
        names = {self.d.get("name"), self.p.get("name")}
        if entry.source in ("fighter", "injury", "item", "out_of_action") and entry.fighter_id is not None:
            names.add(look.fighter(entry.fighter_id))
        if entry.source in ("warband", "player"):
            names.add(look.warband(entry.warband_id))
        # Services' own reasons start with who did it ("olga_organiser made a new invitation link").
        for user_id in (entry.context.get("user"), self.d.get("user_id"), self.d.get("owner_id")):
            person = look.users.get(as_int(user_id) or -1)
            if person is not None:
                names.update({person.get_username(), display_name(person)})
        for game in (entry.game, look.game(entry.context.get("game"))):
            if game is not None and game.number is not None:
                names.add(game.title)
        text = reason.lower()
        return any(name and len(name) > 1 and _says(text, name.lower()) for name in names)

    def _tail(self, kind: str, text: str, *, who_in_text: bool, rolls: list | None) -> list[str]:
        roll_phrase, rollers = self._roll_phrase(kind, rolls)
        game_phrase = self._game_phrase()
        who = self.entry.who
        tail = []
        game = self.look.game(self.entry.context.get("game"))
        if game_phrase and not _says(text.lower(), game.title.lower()):
            tail.append(game_phrase)
        if who and not who_in_text and who not in rollers:
            if tail:
                tail[0] = f"{tail[0]} by {who}"
            else:
                tail.append(f"by {who}")
        if roll_phrase:
            tail.append(roll_phrase)
        return tail

    def finish(
        self,
        kind: str,
        text: str,
        *,
        who_in_text: bool = False,
        rolls: list | None = None,
        reason: bool = True,
    ) -> Change:
        """The sentence with the write's reason (unless `reason` is False: the text already tells it) and its
        tail: the game, who, the dice."""
        sentence = text
        reason = (self.entry.reason or "").strip() if reason else ""
        if reason and not self._restates(reason):
            # "gained 2 XP (now 7)" + reason reads "gained 2 XP (now 7; killed an ELITE)".
            sentence = f"{sentence[:-1]}; {reason})" if sentence.endswith(")") else f"{sentence} ({reason})"
        tail = self._tail(kind, text, who_in_text=who_in_text, rolls=rolls)
        if tail:
            sentence = f"{sentence} — {', '.join(tail)}"
        return Change(kind=kind, text=text, sentence=sentence)

    def subject(self, done: str, passive: str) -> tuple[str, bool]:
        """'Pat added X' when the context knows who, 'X was added' when it does not."""
        if self.entry.who:
            return done.format(who=self.entry.who), True
        return passive, False

    def told(self, kind: str, done: str, passive: str) -> list[Change]:
        """One sentence with its subject: 'Pat added X' or 'X was added'."""
        text, who_in = self.subject(done, passive)
        return [self.finish(kind, text, who_in_text=who_in)]

    def diff(self) -> dict[str, tuple]:
        return {
            k: (self.p.get(k), v)
            for k, v in self.d.items()
            if not k.startswith("pgh_") and k in self.p and self.p.get(k) != v
        }
