"""The one owner of what the shared cache keeps: every key, every token, and every invalidation.

Every key the site keeps in the shared cache, who names it, and what makes it stale:

- `page-gen:<user>`, every page of one user (`generation_key`): replaced here after their account (or a fellow
  member's) was saved, and after a write request of theirs that told this module nothing (the net);
- `page-gen:site`, every page of every user (`SITE_KEY`): replaced here after a write through the admin;
- `page-scope:<kind>:<id>`, the pages of one campaign, warband or fighter (`scope_key`): replaced here after a
  board action (`board_changed`), the campaign's after any other write to it too (`campaign_changed`);
- `page-scope:within:<campaign>`, every roster and fighter's card of one campaign (`within_key`), and
  `page-scope:dashboard:<user>`, one user's dashboard: replaced here after any write to the campaign (of one of
  the user's campaigns) but a board action (`campaign_changed`);
- `page:<digest>`, a kept page (config/page_cache.py): stale when a token above read with it moved, or its user's
  `access_state` did;
- `tracker-version:<game>`, the board's version (combat/selectors/tracker_poll.py): never stale, written anew by
  the board's own writes under the board's row lock, in their transaction, so it never goes back;
- `game-access:<game>` and `game-reader:<game>:<session>`, the tracker poll's readers (combat/access_cache.py):
  replaced here after any write to the campaign but a board action (`campaign_changed`);
- the template fragments (`{% cache %}`: the roster page whole and its parts and rows, a fighter's card whole, the
  campaign page, the history feed's groups; and `tracker-card:`, the board's folded lines,
  combat/views/tracker_common.py): never stale, keyed on what they show (the roster's digest and each row's key,
  rosters/selectors/roster.py; the card's digest, rosters/selectors/fighters.py; the campaign page's version, which
  PostgreSQL's triggers move on in the writing transaction, rosters/migrations/0006; the digest of the feed's page
  as read, rosters/history/entries.py; each line's own digest); the roster's and the card's hold no CSRF token
  (rosters/templatetags/csrf_slots.py fills each request's own in);
- the sessions (Django's `cached_db`) and config/throttling.py's counts: Django's, and their own windows.

Everything, all at once, by `forget_everything` (config/cache.py) after a restore. The keys a lower app reads are
named in that app (combat's, which may not import config), and replaced from here only.

## The page cache's tokens

A page a member reads (the roster, the campaign page, a fighter's card, the history feed, the statistics, the
dashboard) shows one campaign of theirs (the dashboard: every campaign of theirs) and their own account, nothing
else. `config/page_cache.py` stores a rendered page under the tokens it read before rendering, and serves it only
while they are still the same. Each page is kept under:

- its user's generation and the site's token, for what every page shows (the user's name in the header, the
  names of fellow members);
- its own scope's: the campaign its address names (its page, feed, statistics), the warband (its roster) or the
  fighter (the card), as rosters.views.common.cacheable's `scope` names the URL argument; the dashboard's of its
  user;
- for a roster or a card, also its campaign's `within_key`: the address names the warband or fighter, not the
  campaign, so the page holds that key, read from the database before the view renders (with the access state,
  `access_state_and_campaign`), and a process guesses it from what it read last (`guessed_campaign`) to fetch
  it with the other tokens at once.

Who replaces them, always after the write has committed (`transaction.on_commit`), so a page rendered from the old
rows can never be stored under the new token. No service calls any of this: the history context every service
opens says, as it closes, what the write touched (`campaign_written` of campaigns/signals.py: the campaign, the
game, the action), and this module decides how far that reaches:

- a board action (`board_only`: a tap on the tracker, which writes only the board's tables) replaces the scope
  tokens of the pages that show the board (`board_changed`): its campaign's, its crews' and their fighters', so
  a Damage sends down the render path only the pages that show it;
- every other write of campaign state (`campaign_changed`): the campaign's own scope, its `within_key` (every
  roster and card of it: a write may name its warband or fighter, but a roster and a card show the campaign's
  name, switches and limits too, so the whole campaign is the reach that is sure) and the dashboard
  of each member and of the writer; and the tracker poll's remembered readers of the campaign's games. Not the
  members' pages of their other campaigns, nor anyone's generation;
- the user whose own account changed (name, e-mail, password, active or not; Django's `post_save` of the user):
  theirs and their fellow members' generations;
- whoever sent a write request that told this module nothing (no history context named a campaign or a game, no
  user was saved: a refused form, a logout; `listening`, config/page_cache.py): their generation, a net under the
  rest. A write request that did tell leaves the sender's other campaigns' pages kept;
- a write through the admin, which knows nothing of campaigns: every page of every user (`SITE_KEY`).

Those replacements follow every write that goes through Django. A write that does not (`User.objects.filter(...)
.update(is_active=False)`, no signal; a user or a membership deleted or a role changed by SQL) would leave the
token as it was, so the token alone never decides that a user may still be given a page. Each kept page also
holds its user's `access_state`: one digest of what decides which of these pages they may load (the account
exists and is active, its password, from which the session's auth hash is made, and every campaign they belong
to with their role), read from the database in one indexed query before the view renders, and read again before
a kept page is served (config/page_cache.py). Why a read of the truth rather than a token a database trigger
would replace: a trigger keeps a number in a table, which costs the same one query to read, so nothing is won,
while a trigger can be missed (a table it is not on, TRUNCATE, a restore) and this read cannot. A demoted or
removed member, a deactivated or deleted user is then sent down the full path, which answers as a fresh load does
(403, 404, the login page); a member taken out, or whose role changed, needs no token of their own replaced for it:
every kept page of theirs, of every campaign, is rendered again.

A reader that finds no token adds one (`cache.add`), so two readers agree and a writer's newer token wins. A
token lives for the cache's timeout; a lost one only costs the next page a render. Only a cache every process
shares is trusted (`settings.CACHE_IS_SHARED`, Redis): in a worker's own memory another worker's write would
never replace the token. Without one, nothing is cached and nothing here does anything.

It lives in config/, the top, which may read every app; config/apps.py connects it to campaigns/signals.py and to
the user's `post_save`, and the pages it may keep are marked with rosters.views.common.cacheable.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
import secrets
from collections.abc import Iterable, Iterator

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction

from combat import access_cache


def enabled() -> bool:
    return settings.CACHE_IS_SHARED


def generation_key(user_id: int | str) -> str:
    return f"page-gen:{user_id}"


# One token for every page of every user, replaced by a write that names no campaign the way the services do (the
# admin's): rare, and then every kept page is rendered again.
SITE_KEY = "page-gen:site"


def scope_key(kind: str, pk: int | str) -> str:
    """The token of the pages that show one campaign, warband or fighter (`kind`), whoever reads them; or of one
    user's dashboard (`DASHBOARD`), or of every page of a campaign's warbands and fighters (`WITHIN`)."""
    return f"page-scope:{kind}:{pk}"


# The kinds of scope besides the campaign, warband and fighter an address names: a user's dashboard, which shows
# every campaign of theirs; and every roster and fighter's card of one campaign, which any write to the campaign
# but a board action replaces (a roster's address names its warband, not its campaign).
DASHBOARD = "dashboard"
WITHIN = "within"


def within_key(campaign_id: int | str) -> str:
    """The token of every page of the warbands and fighters of one campaign."""
    return scope_key(WITHIN, campaign_id)


def generations(user_id: int | str, *scopes: str) -> tuple[str | None, ...]:
    """This user's token, the site's and each of `scopes` (`scope_key`), as they are now (each made when there is
    none)."""
    keys = [generation_key(user_id), SITE_KEY, *scopes]
    for key in keys:
        cache.add(key, secrets.token_hex(8))
    found = cache.get_many(keys)
    return tuple(found.get(key) for key in keys)


@functools.cache
def _campaign_sql(kind: str) -> str:
    """The campaign of one warband or fighter, from the models' own tables, as a subquery of the access state's."""
    from rosters.models import Fighter, Warband

    quote = connection.ops.quote_name
    # Only the models' own table names go into the text; the id is a parameter.
    if kind == "warband":
        sql = "SELECT w.campaign_id FROM {warbands} w WHERE w.id = %s"
    else:
        sql = (
            "SELECT w.campaign_id FROM {fighters} f JOIN {warbands} w ON w.id = f.warband_id WHERE f.id = %s"
        )
    return sql.format(warbands=quote(Warband._meta.db_table), fighters=quote(Fighter._meta.db_table))


# What this process last read of which campaign a warband or fighter is in: only a guess of which `within_key` to
# fetch with a kept page's other tokens. A kept page holds the keys it was kept under, read from the database
# (`access_state_and_campaign`), and is served only when they are the ones it names; a wrong guess costs one more
# round trip.
_GUESSES: dict[tuple[str, int], int] = {}
_MOST_GUESSES = 50_000


def guessed_campaign(kind: str, pk: int | str) -> int | None:
    """The campaign this process last read warband or fighter `pk` to be in, if it did."""
    return _GUESSES.get((kind, int(pk)))


def remember_campaign(kind: str, pk: int | str, campaign_id: int) -> None:
    """A kept page's own word of the campaign its warband or fighter is in, for the next guess."""
    if len(_GUESSES) >= _MOST_GUESSES:
        _GUESSES.clear()
    _GUESSES[(kind, int(pk))] = campaign_id


@functools.cache
def _access_sql(campaign_of: str | None = None) -> str:
    """The access state's query, built once from the models' own tables (Django's query compiler would cost a kept
    page ten times the query itself); with `campaign_of` ("warband" or "fighter"), the campaign of one of them in
    the same query (`_campaign_sql`)."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Membership

    users, members = get_user_model()._meta.db_table, Membership._meta.db_table
    # Only the models' own table names go into the text; the ids are parameters.
    sql = "SELECT u.is_active, u.password, array_agg(m.campaign_id ORDER BY m.campaign_id), "
    sql += "array_agg(m.role ORDER BY m.campaign_id)"
    if campaign_of is not None:
        sql += ", (" + _campaign_sql(campaign_of) + ")"
    sql += " FROM {users} u LEFT JOIN {members} m ON m.user_id = u.id WHERE u.id = %s GROUP BY u.id"
    return sql.format(users=connection.ops.quote_name(users), members=connection.ops.quote_name(members))


def _digest(row) -> str:
    return hashlib.blake2b(repr(tuple(row[:4])).encode(), digest_size=16).hexdigest()


def access_state(user_id: int | str) -> str | None:
    """A digest of what decides which pages the user may load now, from the database in one query; None when the
    user no longer exists. See the module's docstring."""
    with connection.cursor() as cursor:
        cursor.execute(_access_sql(), [int(user_id)])
        row = cursor.fetchone()
    return None if row is None else _digest(row)


def access_state_and_campaign(user_id: int | str, kind: str, pk: int | str) -> tuple[str | None, int | None]:
    """`access_state`, and in the same query the campaign of warband or fighter `pk` (`kind`), from the database:
    the page of a warband or a fighter is kept under its campaign's `within_key`. None for a user or a warband or
    fighter that does not exist."""
    with connection.cursor() as cursor:
        cursor.execute(_access_sql(kind), [int(pk), int(user_id)])
        row = cursor.fetchone()
    if row is None:
        return None, None
    campaign = row[4]
    if campaign is not None:
        remember_campaign(kind, pk, campaign)
    return _digest(row), campaign


def _replace(user_ids: Iterable[int]) -> None:
    tokens = {generation_key(user_id): secrets.token_hex(8) for user_id in set(user_ids)}
    if tokens:
        cache.set_many(tokens)


class _Once:
    """A replacement waiting for the commit, known by what it replaces (nested history contexts each tell it)."""

    def __init__(self, key: tuple, callback) -> None:
        self.key, self.callback, self.ran = key, callback, False

    def __call__(self) -> None:
        self.ran = True
        self.callback()


def _after_commit(callback, key: tuple | None = None) -> None:
    # Now outside a transaction; inside, once the outermost one commits (dropped if it rolls back). The same `key`
    # waiting, not run yet, is enough: it is dropped only with a savepoint the later ask is in too.
    if key is not None and connection.in_atomic_block:
        if any(isinstance(f, _Once) and f.key == key and not f.ran for _, f, _ in connection.run_on_commit):
            return
        callback = _Once(key, callback)
    transaction.on_commit(callback)


def people_changed(*, user_id: int) -> None:
    """A user's own row changed (name, e-mail, password, active or not): their pages and those of everyone who
    shares a campaign with them (pages show members by name), once it commits."""
    if not enabled():
        return

    def replace() -> None:
        from campaigns.models import Membership

        shared = Membership.objects.filter(campaign__memberships__user_id=user_id).values_list(
            "user_id", flat=True
        )
        _replace([user_id, *shared])

    _after_commit(replace)


def users_changed(*user_ids: int | None) -> None:
    """These users' pages show something else once the current transaction commits."""
    ids = [user_id for user_id in user_ids if user_id is not None]
    if enabled() and ids:
        _after_commit(lambda: _replace(ids))


# The board's own actions (combat/services/tracker/) write nothing but the board: its fighters' state, the game's
# pending step and shooting, its action log and the dice log. The tracker's start and the end of the game write the
# game and the rosters too (the dashboard's games being played, results, Harsh Lessons' crew XP), so they are not.
BOARD_ACTIONS = "tracker."
NOT_BOARD_ONLY = frozenset({"tracker.start", "tracker.end_game"})


def board_only(action: str | None) -> bool:
    """Whether a write under `action` changed nothing but its game's board."""
    return action is not None and action.startswith(BOARD_ACTIONS) and action not in NOT_BOARD_ONLY


def board_changed(*, campaign: int, game: int) -> None:
    """A board action on `game` of `campaign`, once it commits: the pages that show the board's state, and no
    other. The campaign's (its page, history feed and statistics: who did what to whom) and, of each warband in
    the game, its roster and every fighter's card (a fighter's timeline tells what they did and suffered). Not the
    other warbands' pages, nor any member's dashboard, nor another campaign's pages: they show nothing of a board."""
    if not enabled():
        return

    def replace() -> None:
        from campaigns.models import GamePlayer
        from rosters.models import Fighter

        warbands = list(GamePlayer.objects.filter(game_id=game).values_list("warband_id", flat=True))
        fighters = Fighter.objects.filter(warband_id__in=warbands).values_list("pk", "warband_id")
        scopes = {scope_key("campaign", campaign)}
        for fighter_id, warband_id in fighters:
            scopes.update({scope_key("fighter", fighter_id), scope_key("warband", warband_id)})
        # A warband with no fighter left is still named.
        scopes.update(scope_key("warband", warband_id) for warband_id in warbands)
        cache.set_many({key: secrets.token_hex(8) for key in scopes})

    _after_commit(replace, ("board", campaign, game))


def campaign_changed(*, campaign: int | None = None, game: int | None = None, by: int | None = None) -> None:
    """A write to `campaign` (or to `game`'s campaign) by `by`, once it commits: the pages that show the campaign,
    and no other. Its own pages (its page, history feed and statistics: `scope_key("campaign", ...)`), every
    roster and fighter's card of it (`within_key`), and the dashboard of each member and of the writer. Not the
    members' pages of their other campaigns. The members are read after the commit, so one who joined in that very
    write is among them; one taken out is not, and needs not be: their access state moved, so no page of theirs is
    served from the cache again (`access_state`). The tracker poll's remembered readers of the campaign's games
    (and of `game`, which the write may have deleted) are forgotten too (combat/access_cache.py): a member taken
    out, a role changed or a game deleted is such a write, and each reader passes the full check once more at its
    next poll."""
    if not enabled():
        return
    if campaign is None and game is None:
        users_changed(by)
        return

    def replace() -> None:
        from campaigns.models import Game, Membership

        campaign_id = campaign
        if campaign_id is None:
            campaign_id = Game.objects.filter(pk=game).values_list("campaign_id", flat=True).first()
        if campaign_id is None:  # a game gone with no word of its campaign: its writer's pages, as before
            _replace([by] if by is not None else [])
            access_cache.forget_readers(game_ids={game})
            return
        members = set(Membership.objects.filter(campaign_id=campaign_id).values_list("user_id", flat=True))
        scopes = {scope_key("campaign", campaign_id), within_key(campaign_id)}
        scopes.update(
            scope_key(DASHBOARD, user_id) for user_id in members | ({by} if by is not None else set())
        )
        cache.set_many({key: secrets.token_hex(8) for key in scopes})
        games = set(Game.objects.filter(campaign_id=campaign_id).values_list("pk", flat=True))
        access_cache.forget_readers(game_ids=games | ({game} if game is not None else set()))

    _after_commit(replace, ("campaign", campaign, game, by))


def everything_changed() -> None:
    """Every kept page of every user is rendered again once the current transaction commits."""
    if enabled():
        _after_commit(lambda: cache.set(SITE_KEY, secrets.token_hex(8)))


# What the write request being answered has told this module (config/page_cache.py's net): a list while the page
# cache answers one, appended to by the hooks below. A list rather than a flag, so a copy of the context (a thread
# that runs the view) appends to the same one.
_heard: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar("page_versions_heard", default=None)


@contextlib.contextmanager
def listening() -> Iterator[list[str]]:
    """While a write request is answered: what its writes told this module they touched (empty: nothing did)."""
    heard: list[str] = []
    token = _heard.set(heard)
    try:
        yield heard
    finally:
        _heard.reset(token)


def _note(what: str) -> None:
    heard = _heard.get()
    if heard is not None:
        heard.append(what)


def user_saved(sender, instance, **kwargs) -> None:
    _note("user")
    people_changed(user_id=instance.pk)


def on_campaign_written(sender, *, campaign=None, game=None, by=None, action=None, **kwargs) -> None:
    """campaigns.signals.campaign_written: a write to a campaign (or a game of it) by a user. A board action
    replaces the tokens of the pages that show the board; any other write those of the pages that show the
    campaign. A write that names neither its writer's pages, as the net does (config/page_cache.py)."""
    if campaign is None and game is None:
        users_changed(by)
        return
    _note("campaign")
    if board_only(action) and campaign is not None and game is not None:
        board_changed(campaign=campaign, game=game)
    else:
        campaign_changed(campaign=campaign, game=game, by=by)
