"""The money steps' tests share these: a planned trade in one call, the ledger's sum, and a
starting entry so the ledger explains every ducat of the fixtures' Strongboxes."""

from combat.models import PostGameTrade
from combat.services.post_game.reinforcements import post_game_reinforcement_add
from combat.services.post_game.trade import post_game_trade_add
from combat.tests.promotion_helpers import fresh_player
from rosters.models import LedgerCause, StrongboxEntry


def opening_entry(warband) -> None:
    """The fixture's Strongbox as the ledger's first entry (a warband starts with its Strongbox)."""
    StrongboxEntry.objects.create(
        warband=warband,
        ducats=warband.strongbox,
        balance=warband.strongbox,
        glory_balance=warband.glory,
        cause=LedgerCause.START,
    )


def ledger_sum(warband) -> int:
    return sum(StrongboxEntry.objects.filter(warband=warband).values_list("ducats", flat=True))


def entries(warband, game) -> list[tuple[str, int]]:
    rows = StrongboxEntry.objects.filter(warband=warband, game=game).order_by("id")
    return [(row.cause, row.ducats) for row in rows]


def buy(after, by, name, cost, *, holder=None, keywords=(), removable=True, reinforcements=False):
    trade = PostGameTrade(
        kind=PostGameTrade.Kind.BUY,
        name=name,
        cost=cost,
        holder=holder,
        keywords=list(keywords),
        removable=removable,
    )
    add = post_game_reinforcement_add if reinforcements else post_game_trade_add
    return add(player=fresh_player(after), by=by, trade=trade)


def recruit(after, by, name, cost, *, fighter_type="", keywords=(), reinforcements=False):
    trade = PostGameTrade(
        kind=PostGameTrade.Kind.RECRUIT,
        name=name,
        cost=cost,
        fighter_type=fighter_type,
        keywords=list(keywords),
    )
    add = post_game_reinforcement_add if reinforcements else post_game_trade_add
    return add(player=fresh_player(after), by=by, trade=trade)


def sell(after, by, item):
    trade = PostGameTrade(kind=PostGameTrade.Kind.SELL, name="", cost=0, sold_item_id=item.pk)
    return post_game_trade_add(player=fresh_player(after), by=by, trade=trade)


def glory_sum(warband) -> int:
    return sum(StrongboxEntry.objects.filter(warband=warband).values_list("glory", flat=True))


def glory_entries(warband, game) -> list[tuple[str, int]]:
    rows = StrongboxEntry.objects.filter(warband=warband, game=game).exclude(glory=0).order_by("id")
    return [(row.cause, row.glory) for row in rows]


def spend(after, by, kind, name, glory, **fields):
    """One spend of Glory planned (combat/services/post_game/glory.py): `kind` "item", "mercenary" or "benefit"."""
    from combat.models import PostGameGlory
    from combat.services.post_game.glory import post_game_glory_add

    return post_game_glory_add(
        player=fresh_player(after), by=by, spend=PostGameGlory(kind=kind, name=name, glory=glory, **fields)
    )


def glory_opening_entry(warband, glory: int) -> None:
    """The fixture's Glory, and its Strongbox, as the ledger's first entry."""
    warband.glory = glory
    warband.save(update_fields=["glory"])
    StrongboxEntry.objects.create(
        warband=warband,
        ducats=warband.strongbox,
        glory=glory,
        balance=warband.strongbox,
        glory_balance=glory,
        cause=LedgerCause.START,
    )
