"""The rows every request of the post-game wizard reads first, in statements written once per process from the
models: the warband's entry in the game with its game, campaign, warband, owner and the reader's membership
(`player_row`), the attempts (`attempt_rows`), the fighters with the game's Out of Action mark, their Injuries and
the warband's Battlekit (`fighter_rows`, `injury_rows`, `item_rows`), the rolls that count with the roll each one
stands in for, and the answers with their captor (`roll_rows`, `answer_rows`), the people they name
(`user_rows`), the Skill Advancement's picks and the skills its fighters have (`advancement_rows`, `skill_rows`),
the trades and Glory spends planned (`held_rows`).

Each returns the instances the ORM's queryset would (the one it names), related rows set as `select_related` sets
them. Every page and every write of the wizard makes these reads before any other work: the ORM built each
statement anew at each request, which took longer in Python than PostgreSQL took to run it.
"""

from __future__ import annotations

from functools import cache

from django.contrib.auth import get_user_model
from django.db import connection

from campaigns.models import Campaign, Game, GamePlayer, Membership, OutOfAction
from campaigns.plain_rows import Part, Statement, slices
from combat.models import DiceRoll, PostGame, PostGameAdvancement, PostGameFighter, PostGameRoll
from rosters.models import Fighter, Injury, Item, Skill, Warband


@cache
def _player_statement(*, locked: bool = False, others: bool = False) -> Statement:
    """The entry with its game, campaign, warband and owner; then the reader's membership, or `locked` (by the
    entry's id, its row locked) with, when asked, the other entries' post-game states of the game (`others`)."""
    user = get_user_model()
    parts = (Part(GamePlayer, "p"), Part(Game, "g"), Part(Campaign, "c"), Part(Warband, "w"), Part(user, "u"))
    p, g, c, w, u = parts
    joins = (
        f" FROM {p.table} JOIN {g.table} ON g.id = p.game_id JOIN {c.table} ON c.id = g.campaign_id"
        f" JOIN {w.table} ON w.id = p.warband_id JOIN {u.table} ON u.id = w.owner_id"
    )
    columns = ", ".join(part.columns for part in parts)
    # Every name comes from the models' own metadata, every value is a parameter.
    if not locked:
        member = Part(Membership, "m")
        sql = (
            f"SELECT {columns}, m.id, m.role{joins}"  # noqa: S608
            f" LEFT JOIN {member.table} ON m.campaign_id = c.id AND m.user_id = %s"
            " WHERE p.game_id = %s AND p.warband_id = %s ORDER BY p.id LIMIT 1"
        )
        return Statement(sql, parts)
    if others:
        state = GamePlayer._meta.get_field("post_game").column
        other = Part(GamePlayer, "o")
        columns += f", ARRAY(SELECT o.{connection.ops.quote_name(state)} FROM {other.table}"  # noqa: S608
        columns += " WHERE o.game_id = p.game_id AND o.id <> p.id ORDER BY o.id)"
    return Statement(f"SELECT {columns}{joins} WHERE p.id = %s FOR UPDATE OF p", parts)  # noqa: S608


def _player(statement: Statement, row: tuple) -> tuple[GamePlayer, tuple]:
    """The entry a row of `_player_statement` reads, its related rows set as `select_related` sets them, and the
    values after them."""
    at = slices(statement.parts)
    player, game, campaign, warband, owner = (part.load(row[at[n]]) for n, part in enumerate(statement.parts))
    Game.campaign.field.set_cached_value(game, campaign)
    Warband.owner.field.set_cached_value(warband, owner)
    GamePlayer.game.field.set_cached_value(player, game)
    GamePlayer.warband.field.set_cached_value(player, warband)
    return player, row[at[-1]]


def player_row(*, game_id: int, warband_id: int, user=None) -> GamePlayer | None:
    """`GamePlayer.objects.filter(game_id=, warband_id=).select_related("game__campaign", "warband__owner")
    .first()`; given `user`, with their membership of the campaign as `member_id` and `member_role` (None for an
    outsider: one membership per campaign and user)."""
    statement = _player_statement()
    found = statement.rows([getattr(user, "pk", None), game_id, warband_id])
    if not found:
        return None
    player, (member_id, member_role) = _player(statement, found[0])
    if user is not None:
        player.member_id, player.member_role = member_id, member_role
    return player


def locked_player_row(player_id: int, *, with_others: bool) -> GamePlayer | None:
    """`GamePlayer.objects.select_for_update(of=("self",)).select_related("game__campaign", "warband__owner")`'s
    entry of this id, locked; `with_others`: with `others_post_game`, the other entries' post-game states of the
    game by id."""
    statement = _player_statement(locked=True, others=with_others)
    found = statement.rows([player_id])
    if not found:
        return None
    player, rest = _player(statement, found[0])
    if with_others:
        (player.others_post_game,) = rest
    return player


def lock_game(game_id: int) -> bool:
    """The game's row locked for the rest of the transaction (`select_for_update`); False when there is none."""
    table = connection.ops.quote_name(Game._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s FOR UPDATE", [game_id])  # noqa: S608
        return cursor.fetchone() is not None


@cache
def _single(model, where: str, order: str) -> Statement:
    part = Part(model, "t")
    # Every name comes from the models' own metadata, every value is a parameter.
    return Statement(f"SELECT {part.columns} FROM {part.table} WHERE {where} ORDER BY {order}", (part,))  # noqa: S608


def _load_all(statement: Statement, params: list, tail: str = "") -> list:
    (part,) = statement.parts
    return [part.load(row) for row in statement.rows(params, tail)]


def attempt_rows(player: GamePlayer) -> list[PostGame]:
    """`PostGame.objects.filter(player=player).order_by("-attempt")`."""
    return _load_all(_single(PostGame, "t.player_id = %s", "t.attempt DESC"), [player.pk])


def live_attempt_row(player: GamePlayer) -> PostGame | None:
    """`PostGame.objects.filter(player=player).exclude(status=REVERTED).first()`: the attempt being filled in or
    applied (a reverted one is history)."""
    statement = _single(PostGame, "t.player_id = %s AND t.status <> %s", "t.player_id, t.attempt DESC")
    found = _load_all(statement, [player.pk, PostGame.Status.REVERTED.value], " LIMIT 1")
    return found[0] if found else None


def advancement_rows(live: PostGame) -> list[PostGameAdvancement]:
    """`PostGameAdvancement.objects.filter(post_game=live)` (in the model's order)."""
    statement = _single(PostGameAdvancement, "t.post_game_id = %s", "t.fighter_id, t.number")
    return _load_all(statement, [live.pk])


def skill_rows(fighter_ids: list[int]) -> list[tuple[int, str, str]]:
    """`Skill.objects.filter(fighter_id__in=fighter_ids).order_by("id").values_list("fighter_id", "code", "name")`."""
    table = connection.ops.quote_name(Skill._meta.db_table)
    with connection.cursor() as cursor:
        # The table's name comes from the model's own metadata, every value is a parameter.
        sql = f"SELECT fighter_id, code, name FROM {table} WHERE fighter_id = ANY(%s) ORDER BY id"  # noqa: S608
        cursor.execute(sql, [fighter_ids])
        return cursor.fetchall()


def user_rows(user_ids: set[int]) -> dict[int, object]:
    """`get_user_model().objects.in_bulk(user_ids)`: the people the rolls and answers name, by id."""
    statement = _single(get_user_model(), "t.id = ANY(%s)", "t.id")
    return {user.pk: user for user in _load_all(statement, [list(user_ids)])}


@cache
def _held_statement(model) -> Statement:
    parts = (Part(model, "t"), Part(Fighter, "h"))
    plan, holder = parts
    sql = (
        f"SELECT {plan.columns}, {holder.columns} FROM {plan.table}"  # noqa: S608
        f" LEFT JOIN {holder.table} ON h.id = t.holder_id WHERE t.post_game_id = %s ORDER BY t.id"
    )
    return Statement(sql, parts)


def held_rows(model, live: PostGame) -> list:
    """`model.objects.filter(post_game=live).select_related("holder").order_by("id")`: the trades or the Glory
    spends planned in the attempt (`PostGameTrade`, `PostGameGlory`), each with the fighter who will hold it."""
    return _with_related(_held_statement(model), [live.pk], model.holder.field)


def injury_rows(fighter_ids: list[int]) -> list[Injury]:
    """`Injury.objects.filter(fighter_id__in=fighter_ids).order_by("id")`."""
    return _load_all(_single(Injury, "t.fighter_id = ANY(%s)", "t.id"), [fighter_ids])


def item_rows(warband_id: int, *, for_update: bool) -> list[Item]:
    """`Item.objects.filter(warband_id=warband_id).order_by("pk")`, locked `for_update`."""
    tail = " FOR UPDATE" if for_update else ""
    return _load_all(_single(Item, "t.warband_id = %s", "t.id"), [warband_id], tail)


@cache
def _fighter_statement() -> Statement:
    part, mark = Part(Fighter, "f"), Part(OutOfAction, "o")
    # The game's mark joined on its condition (one per fighter and game), as a FilteredRelation joins it.
    sql = (
        f"SELECT {part.columns}, o.id FROM {part.table}"  # noqa: S608
        f" LEFT JOIN {mark.table} ON o.fighter_id = f.id AND o.player_id = %s"
        " WHERE f.warband_id = %s AND (f.status = %s OR o.id IS NOT NULL) ORDER BY f.id"
    )
    return Statement(sql, (part,))


def fighter_rows(player: GamePlayer, *, for_update: bool) -> list[Fighter]:
    """The warband's active fighters and those the game marked Out of Action, by id, each with
    `out_of_action_mark` (the mark's id, else None); locked `for_update` (the fighters' rows only)."""
    statement = _fighter_statement()
    tail = " FOR UPDATE OF f" if for_update else ""
    (part,) = statement.parts
    fighters = []
    for row in statement.rows([player.pk, player.warband_id, Fighter.Status.ACTIVE.value], tail):
        fighter = part.load(row[:-1])
        fighter.out_of_action_mark = row[-1]
        fighters.append(fighter)
    return fighters


@cache
def _roll_statement() -> Statement:
    parts = (Part(PostGameRoll, "r"), Part(DiceRoll, "d"), Part(DiceRoll, "x"))
    roll, dice, replaced = parts
    # The roll each one stands in for is the one whose `replaced_by` names it (`DiceRoll.replaces`).
    sql = (
        f"SELECT {', '.join(part.columns for part in parts)} FROM {roll.table}"  # noqa: S608
        f" JOIN {dice.table} ON d.id = r.dice_roll_id LEFT JOIN {replaced.table} ON x.replaced_by_id = d.id"
        " WHERE r.post_game_id = %s AND d.status = %s ORDER BY r.id"
    )
    return Statement(sql, parts)


def roll_rows(live: PostGame) -> list[PostGameRoll]:
    """`PostGameRoll.objects.filter(post_game=live, dice_roll__status=COUNTED).select_related("dice_roll__replaces")
    .order_by("id")`."""
    statement = _roll_statement()
    at = slices(statement.parts)
    roll_part, dice_part, replaced_part = statement.parts
    rolls = []
    for row in statement.rows([live.pk, DiceRoll.Status.COUNTED.value]):
        roll, dice, replaced = (
            roll_part.load(row[at[0]]),
            dice_part.load(row[at[1]]),
            replaced_part.load(row[at[2]]),
        )
        DiceRoll.replaces.related.set_cached_value(dice, replaced)
        if replaced is not None:
            DiceRoll.replaced_by.field.set_cached_value(replaced, dice)
        PostGameRoll.dice_roll.field.set_cached_value(roll, dice)
        DiceRoll.post_game_roll.related.set_cached_value(dice, roll)
        rolls.append(roll)
    return rolls


@cache
def _answer_statement() -> Statement:
    parts = (Part(PostGameFighter, "a"), Part(Warband, "w"))
    answer, captor = parts
    sql = (
        f"SELECT {answer.columns}, {captor.columns} FROM {answer.table}"  # noqa: S608
        f" LEFT JOIN {captor.table} ON w.id = a.captor_id WHERE a.post_game_id = %s ORDER BY a.fighter_id"
    )
    return Statement(sql, parts)


def answer_rows(live: PostGame) -> list[PostGameFighter]:
    """`PostGameFighter.objects.filter(post_game=live).select_related("captor")` (in the model's order)."""
    return _with_related(_answer_statement(), [live.pk], PostGameFighter.captor.field)


def _with_related(statement: Statement, params: list, relation) -> list:
    """Each row's first part, with the second (None where the left join found none) set on it through `relation`
    (a forward relation's field), as `select_related` sets it."""
    at = slices(statement.parts)
    own, related = statement.parts
    found = []
    for row in statement.rows(params):
        instance = own.load(row[at[0]])
        relation.set_cached_value(instance, related.load(row[at[1]]))
        found.append(instance)
    return found
