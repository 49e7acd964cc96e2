"""Who may see and change a campaign: one helper per resource, as every view asks (docs/architecture.md).

- Outsiders get 404 for a campaign they are not a member of: they cannot even learn that it exists.
- Spectators and players read everything in their campaign.
- Players change their own warbands and the games those warbands played; organisers change everything.
- A spectator reads only, even a player made spectator who still owns a warband: the warband waits for a player
  (its owner changes it again once made a player again; the organiser changes it meanwhile). Ownership gives
  writes only to a player (docs/architecture.md, "Who may do what").
Warbands, fighters and games have their own helpers in the app that owns them, built on these.
"""

import functools

import pghistory.models
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Exists, OuterRef, Subquery
from django.http import Http404

from campaigns.models import BattleReport, Campaign, Game, GamePlayer, Membership, OutOfAction
from campaigns.plain_rows import Part


def _row(sql: str, params: list):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


@functools.cache
def _membership_statement() -> tuple[str, Part]:
    membership = Part(Membership, "m")
    # Only the models' own names go into the text; the ids are parameters.
    sql = f"SELECT {membership.columns} FROM {membership.table} WHERE m.campaign_id = %s AND m.user_id = %s"  # noqa: S608
    return sql, membership


def membership_of(user, campaign: Campaign) -> Membership | None:
    """The user's membership of `campaign` (a member has one), None for anyone else."""
    if not user.is_authenticated:
        return None
    sql, columns = _membership_statement()
    row = _row(sql, [campaign.pk, user.pk])
    if row is None:
        return None
    membership = columns.load(row)
    Membership.campaign.field.set_cached_value(membership, campaign)
    return membership


@functools.cache
def _campaign_statement() -> tuple[str, Part, Part]:
    campaign, membership = Part(Campaign, "c"), Part(Membership, "m")
    # Only the models' own names go into the text; the ids are parameters.
    sql = (
        f"SELECT {campaign.columns}, {membership.columns} FROM {membership.table}"  # noqa: S608
        f" JOIN {campaign.table} ON c.id = m.campaign_id WHERE m.campaign_id = %s AND m.user_id = %s"
    )
    return sql, campaign, membership


def get_campaign_for_user(user, campaign_id: int, *, manage: bool = False) -> tuple[Campaign, Membership]:
    """The campaign and the user's membership; 404 for non-members, 403 when `manage` and not its organiser. One
    statement, as `Membership.objects.select_related("campaign")` reads them (a member has one membership of a
    campaign)."""
    row = None
    user_id = getattr(user, "pk", None)
    if user_id is not None:
        sql, campaign_columns, membership_columns = _campaign_statement()
        row = _row(sql, [int(campaign_id), user_id])
    if row is None:
        raise Http404("No such campaign.")
    campaign = campaign_columns.load(row[: len(campaign_columns.names)])
    membership = membership_columns.load(row[len(campaign_columns.names) :])
    Membership.campaign.field.set_cached_value(membership, campaign)
    if manage and membership.role != Membership.Role.ORGANISER:
        raise PermissionDenied("Only the campaign's organiser can change this.")
    return campaign, membership


@functools.cache
def _game_statement() -> tuple[str, Part, Part]:
    game, campaign = Part(Game, "g"), Part(Campaign, "c")
    # Only the models' own names go into the text; the id is a parameter.
    sql = (
        f"SELECT {game.columns}, {campaign.columns} FROM {game.table}"  # noqa: S608
        f" JOIN {campaign.table} ON c.id = g.campaign_id WHERE g.id = %s"
    )
    return sql, game, campaign


def get_game_for_user(user, game_id: int, *, manage: bool = False) -> tuple[Game, Membership]:
    """A game of a campaign the user belongs to; `manage` asks for its organiser or a player who took part. The
    game is read with its campaign in one statement, as `select_related("campaign")` reads them."""
    sql, game_columns, campaign_columns = _game_statement()
    row = _row(sql, [int(game_id)])
    if row is None:
        raise Http404("No such game.")
    game = game_columns.load(row[: len(game_columns.names)])
    Game.campaign.field.set_cached_value(game, campaign_columns.load(row[len(game_columns.names) :]))
    return game, game_membership(user, game, manage=manage)


@functools.cache
def _game_membership_statement() -> tuple[str, Part]:
    membership = Part(Membership, "m")
    players = connection.ops.quote_name(GamePlayer._meta.db_table)
    warbands = connection.ops.quote_name(GamePlayer.warband.field.related_model._meta.db_table)
    # Only the models' own names go into the text; the ids are parameters.
    sql = (
        f"SELECT {membership.columns}, EXISTS (SELECT 1 FROM {players} p"  # noqa: S608
        f" JOIN {warbands} w ON w.id = p.warband_id WHERE p.game_id = %s AND w.owner_id = m.user_id)"
        f" FROM {membership.table} WHERE m.campaign_id = %s AND m.user_id = %s"
    )
    return sql, membership


def game_membership(user, game: Game, *, manage: bool = False) -> Membership:
    """The user's membership of the campaign of `game` (a row already read, with its campaign); 404 for an
    outsider, 403 when `manage` and they may not change it. Whether a player's warband took part is read in the
    same statement, so `can_manage_game` asks nothing more (a board's every tap asks it)."""
    row = None
    if user.is_authenticated:
        sql, columns = _game_membership_statement()
        row = _row(sql, [game.pk, game.campaign_id, user.pk])
    if row is None:
        raise Http404("No such game.")
    membership = columns.load(row[:-1])
    membership.took_part = row[-1]
    membership.read_for_game = game.pk
    if manage and not can_manage_game(membership, game):
        raise PermissionDenied("Only the organiser or a player whose warband took part can change this game.")
    return membership


def membership_columns(user, *, game: str) -> dict:
    """What `game_membership` reads, as annotations of a query whose rows reach a game by the path `game`, so a
    view that reads such a row anyway (a fighter on a game's board) asks nothing more: the user's membership of
    the game's campaign and whether a warband of theirs took part. `membership_read` turns them into the answer."""
    memberships = Membership.objects.filter(
        campaign_id=OuterRef(f"{game}__campaign_id"), user_id=user.pk
    ).order_by("joined_at")
    took_part = GamePlayer.objects.filter(game_id=OuterRef(f"{game}_id"), warband__owner_id=user.pk)
    return {
        "member_id": Subquery(memberships.values("pk")[:1]),
        "member_role": Subquery(memberships.values("role")[:1]),
        "member_took_part": Exists(took_part),
    }


def membership_read(row, user, game: Game) -> Membership:
    """The membership `membership_columns` read with `row` (of `game`), as `game_membership` answers: 404 for an
    outsider."""
    if getattr(row, "member_id", None) is None:
        raise Http404("No such game.")
    membership = Membership(pk=row.member_id, campaign=game.campaign, user=user, role=row.member_role)
    membership._state.adding = False
    membership.took_part = row.member_took_part
    membership.read_for_game = game.pk
    return membership


def can_manage_game(membership: Membership, game: Game) -> bool:
    """The organiser, or a player (not a spectator, even one who owns a warband) whose warband took part."""
    if membership.role == Membership.Role.ORGANISER:
        return True
    if membership.role != Membership.Role.PLAYER:
        return False
    if getattr(membership, "read_for_game", None) == game.pk:
        return membership.took_part  # read with the membership, for this very game (`game_membership`)
    return game.players.filter(warband__owner_id=membership.user_id).exists()


def can_set_game_side(membership: Membership | None, game: Game, warband) -> bool:
    """Who sets a warband's side of a game (whether it took part, its result, its fighters Out of Action): the
    organiser, every side; a player, only their own warband's. Marking the opponent's fighters Out of Action would
    feed the opponent's Trauma rolls."""
    if membership is None:
        return False
    if membership.role == Membership.Role.ORGANISER:
        return True
    return membership.role == Membership.Role.PLAYER and warband.owner_id == membership.user_id


def can_delete_game(membership: Membership | None, game: Game) -> bool:
    """A player who took part deletes a game entered by mistake; once another app keeps records of it (a tracker
    board, a post-game, dice rolled for it), deleting it would take those with it: the organiser's alone."""
    if membership is None or not can_manage_game(membership, game):
        return False
    return membership.role == Membership.Role.ORGANISER or not game_has_records_elsewhere(game)


def game_has_records_elsewhere(game: Game) -> bool:
    """Whether rows of any other model point at the game or its players, beyond the game's own result rows and
    its history. Asked through the relations Django knows, so `campaigns` names no other app's table."""
    own = {GamePlayer, OutOfAction, BattleReport}  # the game's own rows, gone with it
    for model, rows in ((Game, Game.objects.filter(pk=game.pk)), (GamePlayer, game.players.all())):
        for relation in model._meta.related_objects:
            related = relation.related_model
            if related in own or issubclass(related, pghistory.models.Event) or relation.many_to_many:
                continue
            if related._default_manager.filter(**{f"{relation.field.name}__in": rows}).exists():
                return True
    return False


def can_record_games(membership: Membership | None) -> bool:
    """Organisers and players record games (a player one their own warband played in); spectators only read."""
    return membership is not None and membership.role in (Membership.Role.ORGANISER, Membership.Role.PLAYER)


def can_keep_warbands(membership: Membership | None) -> bool:
    """Organisers and players found warbands in a campaign; spectators only read."""
    return can_record_games(membership)


def is_organiser(membership: Membership | None) -> bool:
    return membership is not None and membership.role == Membership.Role.ORGANISER


def can_write_report(membership: Membership | None, game: Game) -> bool:
    """Who writes a game's battle report: any participant, that is a player whose warband took part,
    and the organiser."""
    return membership is not None and can_manage_game(membership, game)


def can_edit_report(membership: Membership | None, report: BattleReport) -> bool:
    """A battle report is edited by the organiser, or by its author while a player (a spectator reads only)."""
    if membership is None:
        return False
    if membership.role == Membership.Role.ORGANISER:
        return True
    return membership.role == Membership.Role.PLAYER and report.author_id == membership.user_id
