"""What the post-game's money steps' writes share: a planned trade checked and stored, and the
Apply's and the Revert's parts for purchases, sales, Battlekit given up and the ledger.

The Apply writes each purchase (a fighter recruited, Battlekit bought) and each sale (the Battlekit deleted, its
before-image kept), and one ledger entry per move (rosters.services.strongbox.ledger_entries), the warband's row
locked, in the Apply's one transaction. The Revert deletes what the Apply created, puts back what it deleted
(same id, same fields) and writes one entry taking each of the Apply's back: a ledger entry is never deleted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError

from combat.models import PostGameTrade
from combat.selectors.post_game.money import TradeLine, after_trauma
from combat.services.post_game.attempt import PostGameError
from combat.services.post_game.bulk import NewRows, update_rows, write_new_rows
from combat.services.post_game.images import from_image, image
from rosters.models import Fighter, Item, StrongboxEntry, Warband
from rosters.services.common import clean_keywords
from rosters.services.errors import RosterRefused
from rosters.services.strongbox import ledger_entries, ledger_rows

if TYPE_CHECKING:
    from combat.selectors.post_game.state import PostGameState


def checked_trade(trade: PostGameTrade) -> PostGameTrade:
    """The model's own limits (name length, cost range, keywords), in plain words, before it is stored."""
    trade.name = " ".join((trade.name or "").split())
    trade.fighter_type = " ".join((trade.fighter_type or "").split())
    try:
        trade.keywords = clean_keywords(trade.keywords)
        trade.full_clean(exclude=["post_game", "holder"], validate_constraints=False)
        if trade.kind == PostGameTrade.Kind.RECRUIT:
            # The fighter's own limits (its name, type, keywords, profile) before it is recruited.
            fighter = Fighter(
                name=trade.name, fighter_type=trade.fighter_type, cost=trade.cost, **_profile(trade)
            )
            fighter.keywords = list(trade.keywords)
            fighter.full_clean(exclude=["warband"], validate_unique=False, validate_constraints=False)
    except (ValidationError, RosterRefused) as error:
        messages = error.messages if isinstance(error, ValidationError) else [str(error)]
        raise PostGameError(" ".join(messages)) from error
    return trade


PROFILE_FIELDS = ("movement", "health", "harm_limit")


def _profile(trade: PostGameTrade) -> dict[str, Any]:
    return {name: trade.profile[name] for name in PROFILE_FIELDS if name in (trade.profile or {})}


def write_purchases(state: PostGameState, lines: Sequence[TradeLine]) -> dict[str, NewRows]:
    """The fighters recruited and the Battlekit bought, created with the Apply's other new rows; their ids are
    kept for the Revert."""
    recruits = [
        Fighter(
            warband=state.warband,
            name=line.trade.name,
            fighter_type=line.trade.fighter_type,
            keywords=list(line.trade.keywords),
            cost=line.trade.cost,
            **_profile(line.trade),
        )
        for line in lines
        if line.trade.kind == PostGameTrade.Kind.RECRUIT
    ]
    kit = [
        Item(
            warband=state.warband,
            fighter_id=line.trade.holder_id,
            name=line.trade.name,
            keywords=list(line.trade.keywords),
            removable=line.trade.removable,
            cost=line.trade.cost,
        )
        for line in lines
        if line.trade.kind == PostGameTrade.Kind.BUY
    ]
    for row in (*recruits, *kit):
        row.full_clean(exclude=["warband", "fighter"], validate_unique=False, validate_constraints=False)
    return {"fighters_created": NewRows(Fighter, recruits), "items_created": NewRows(Item, kit)}


def delete_items(ids: Sequence[int]) -> list[dict[str, Any]]:
    """Battlekit sold or given up, deleted; returns the before-images the Revert recreates them from."""
    rows = list(Item.objects.select_for_update().filter(pk__in=ids).order_by("pk"))
    images = [image(row) for row in rows]
    Item.objects.filter(pk__in=[row.pk for row in rows]).delete()
    return images


class LedgerMoves(list):
    """The ledger's moves of one step's Apply part, a list of its entries as the Revert reads them, filled in
    (with their ids) by `write_ledger_moves` once every part has asked for its own: the Apply then locks the
    warband, writes the entries and saves the Strongbox and the Glory once, not once per step."""

    def __init__(self, moves: list[tuple[str, int, str]], *, glory: bool):
        super().__init__()
        self.moves = moves
        self.glory = glory


def post_moves(
    state: PostGameState, moves: list[tuple[str, int, str]], *, glory: bool = False
) -> list[dict[str, Any]]:
    """The moves to write as ledger entries of the warband, its Strongbox (or, `glory`, its Glory) moved with them
    (refused, the whole Apply rolled back, when one would leave it below 0), in the order the parts ask: the
    entries as the Revert reads them, filled in when the Apply writes them all (`write_ledger_moves`)."""
    return LedgerMoves(moves, glory=glory)


def ledger_moves_in(parts: Mapping[str, Any]) -> list[LedgerMoves]:
    """The ledger moves the Apply's parts asked for (each part's own entries: `{"trade_part": {"entries": ...}}`),
    in the parts' order."""
    return [
        value
        for part in parts.values()
        if isinstance(part, Mapping)
        for value in part.values()
        if isinstance(value, LedgerMoves)
    ]


class HeldWarbands:
    """Warbands' rows the Apply holds locked, with the ledger's entries built for them and not yet written: all
    are written by `write_ledger_moves`, at the Apply's end, in one statement, each warband saved once."""

    def __init__(self):
        self.rows: dict[int, Warband] = {}
        self.fields: dict[int, set[str]] = {}
        self.entries: list[tuple[list[StrongboxEntry], list[dict[str, Any]], str]] = []

    def hold(self, warband: Warband, entries: list[StrongboxEntry], written: list[dict], field: str) -> None:
        """`entries` of `warband` (its `field` moved in memory), listed in `written` as the Revert reads them
        once they are written."""
        self.rows[warband.pk] = warband
        self.fields.setdefault(warband.pk, set()).add(field)
        self.entries.append((entries, written, "glory" if field == "glory" else "ducats"))

    def write(self, new_rows: Sequence[NewRows] = ()) -> None:
        """The entries, with the Apply's other new rows (one statement), then each warband's row."""
        entries = NewRows(
            StrongboxEntry, [entry for entries, _written, _amount in self.entries for entry in entries]
        )
        write_new_rows([*new_rows, entries])
        for entries, written, amount in self.entries:
            written.extend(
                {"id": e.pk, "cause": e.cause, amount: getattr(e, amount), "reason": e.reason}
                for e in entries
            )
        # One statement for the warbands whose same columns moved (a ransom's payer and captor together).
        groups: dict[tuple[str, ...], list[Warband]] = {}
        for pk, fields in self.fields.items():
            groups.setdefault(tuple(sorted(fields)), []).append(self.rows[pk])
        for fields, rows in groups.items():
            update_rows(Warband, rows, fields)


def write_ledger_moves(
    state: PostGameState,
    asked: Sequence[LedgerMoves],
    *,
    held: HeldWarbands,
    new_rows: Sequence[NewRows] = (),
) -> None:
    """Every part's moves written in the order asked, each from the balance the moves before it left, with the
    entries `held` waits to write: the warband's row locked once (not again when held), the entries in one
    statement with the parts' `new_rows`, each warband saved once."""
    asked = [moves for moves in asked if any(amount for _cause, amount, _reason in moves.moves)]
    if asked:
        warband = held.rows.get(state.warband.pk)
        if warband is None:
            warband = Warband.objects.select_for_update().get(pk=state.warband.pk)
        for moves in asked:
            try:
                built = ledger_rows(warband=warband, moves=moves.moves, game=state.game, glory=moves.glory)
            except RosterRefused as error:
                raise PostGameError(str(error)) from None
            field, amount = ("glory", "glory") if moves.glory else ("strongbox", "ducats")
            setattr(warband, field, getattr(warband, field) + sum(getattr(entry, amount) for entry in built))
            held.hold(warband, built, moves, field)
    held.write(new_rows)


def _take_back_glory(warband: Warband, recorded: list[dict[str, Any]], *, refusal: str) -> None:
    """The Glory entries answered by entries of the opposite sign (refused when the Glory gained is spent)."""
    moves = [(e["cause"], -e["glory"], f"Reverted: {e['reason']}") for e in reversed(recorded)]
    try:
        entries = ledger_entries(warband=warband, moves=moves, glory=True)
    except RosterRefused:
        raise PostGameError(refusal) from None
    warband.glory += sum(entry.glory for entry in entries)
    warband.save(update_fields=["glory"])


def take_back(part: Mapping[str, Any], *, refusal: str) -> None:
    """An Apply's money part taken back: the entries (ducats, then Glory) answered by entries of the opposite sign
    (refused with
    `refusal` when the Strongbox no longer holds what they took in), what it created deleted, what it deleted
    recreated exactly."""
    warband = Warband.objects.select_for_update().filter(pk=part["warband_id"]).first()
    recorded = part.get("entries") or []
    if warband is not None and recorded:
        moves = [(e["cause"], -e["ducats"], f"Reverted: {e['reason']}") for e in reversed(recorded)]
        try:
            entries = ledger_entries(warband=warband, moves=moves)
        except RosterRefused:
            raise PostGameError(refusal) from None
        warband.strongbox += sum(entry.ducats for entry in entries)
        warband.save(update_fields=["strongbox"])
    if warband is not None and part.get("glory_entries"):
        _take_back_glory(warband, part["glory_entries"], refusal=refusal)
    Item.objects.filter(pk__in=part.get("items_created") or []).delete()
    Fighter.objects.filter(pk__in=part.get("fighters_created") or []).delete()
    deleted = [values for values in part.get("items_deleted") or []]
    existing = set(Item.objects.filter(pk__in=[v["id"] for v in deleted]).values_list("pk", flat=True))
    missing = [values for values in deleted if values["id"] not in existing]
    recreated = Item.objects.bulk_create([Item(**from_image(Item, values)) for values in missing])
    # `created_at` is auto_now_add, which an insert always sets to now: write the original back.
    for item, values in zip(recreated, missing, strict=True):
        item.created_at = from_image(Item, values)["created_at"]
    if recreated:
        Item.objects.bulk_update(recreated, ["created_at"])


def check_holder(state: PostGameState, trade: PostGameTrade) -> None:
    """Battlekit bought goes to a fighter still on the roster after this post-game, or to the Arsenal."""
    if trade.kind != PostGameTrade.Kind.BUY or trade.holder_id is None:
        return
    active, _gone = after_trauma(state)
    if trade.holder_id not in active:
        raise PostGameError(
            "That fighter is not on the roster after this post-game: it cannot carry Battlekit."
        )
