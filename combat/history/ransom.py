"""A Captured fighter's ransom told in the history (TRAUMA_TABLE.md 12; RULINGS T-6, T-8): the offer, its
withdrawal, the captor's acceptance or refusal, a "no ransom" declared, an answer the organiser reopened.

`PostGameFighter` is tracked by pghistory; only its events written by the ransom services (their context's
`action`) are read here: the other answers of a post-game (who took part, Glorious Deeds) are told by the roster's
own events at the Apply. Registered from `CombatConfig.ready()`.
"""

# ruff: noqa: S608 - the SQL below is assembled from constant action names only; every value is a query parameter.
from __future__ import annotations

from combat.rules.words import possessive
from rosters.history.lookups import as_int
from rosters.history.registry import Source
from rosters.history.teller import Teller

OFFER, WITHDRAW, ANSWER = "post_game.ransom_offer", "post_game.ransom_withdraw", "post_game.ransom_answer"
REOPEN = "post_game.ransom_reopen"
ACTIONS = (OFFER, WITHDRAW, ANSWER, REOPEN)


def _currency(t: Teller) -> str:
    return t.terms.currency if t.terms is not None else "ducats"


def _offer(t: Teller, fighter: str, captor: str) -> str:
    d = t.d
    if d.get("ransom_paid") is False:
        return f"No ransom offered for {fighter}: executed at the Apply (RULING T-6)"
    return f"{d.get('ransom_offer')} {_currency(t)} offered to {captor} as {possessive(fighter)} ransom"


def _answer(t: Teller, fighter: str, captor: str) -> str:
    d = t.d
    if d.get("ransom_paid"):
        return (
            f"{captor} accepted {d.get('ransom')} {_currency(t)} as {possessive(fighter)} ransom: "
            "Full Recovery at the Apply (RULING T-8)"
        )
    return (
        f"{captor} refused {d.get('ransom_offer')} {_currency(t)} as {possessive(fighter)} ransom: "
        "executed at the Apply (RULING T-6)"
    )


class RansomSource(Source):
    """The ransom's events of `PostGameFighter` rows."""

    # Below the tracker, whose board events are read last in a moment (combat/tests/history/test_registry.py).
    name, event_label, rank, kind = "ransom", "combat.PostGameFighterEvent", 9, "games"

    def scope(self, f):
        fighters = (
            "e.fighter_id = %(f)s" if f.fighter_id is not None else "e.fighter_id IN (SELECT id FROM ft)"
        )
        actions = ", ".join(f"'{action}'" for action in ACTIONS)
        return (
            f"{fighters} AND EXISTS (SELECT 1 FROM pghistory_context rc WHERE rc.id = e.pgh_context_id"
            f" AND rc.metadata->>'action' IN ({actions}))"
        )

    def collect(self, row, ids):
        for r in (row.data or {}, row.prev or {}):
            ids["fighters"].add(r.get("fighter_id"))
            ids["warbands"].add(r.get("captor_id"))

    def links(self, entry, look):
        entry.fighter_id = as_int(entry.data.get("fighter_id"))
        if entry.fighter_id in look.fighters:
            entry.warband_id = as_int(look.fighters[entry.fighter_id].get("warband_id"))
        return as_int(entry.context.get("game"))

    def tell(self, entry, look):
        t = Teller(entry, look)
        fighter = look.fighter(t.d.get("fighter_id"))
        captor_id = t.d.get("captor_id") or t.p.get("captor_id")
        captor = look.warband(captor_id) if captor_id is not None else "the captor"
        action = entry.action
        if action == WITHDRAW:
            text = f"The ransom offer for {fighter} was withdrawn"
        elif action == REOPEN:
            # The organiser's reason follows in brackets (Teller.finish): it names neither the fighter nor the game.
            text = f"The answer to the ransom offer for {fighter} was reopened: it waits for {captor} again"
        elif action == ANSWER:
            text = _answer(t, fighter, captor)
        else:
            text = _offer(t, fighter, captor)
        return [t.finish("games", text)]
