"""What the tracker's views share: who may act on a board, the board's context, and refusals mapped to statuses.

Players whose warbands are in the game and the organiser act; every other member reads (and the board's poll
works for them); outsiders get 404 and anonymous users go to log in. A refused action answers 409 (the board
changed, or a step comes first: `TrackerConflict`, `TrackerBlocked`), 400 (any other `TrackerError`) or 422 (a
form that does not parse), with the page or partial that says why; base.html tells htmx to swap those in.
"""

from __future__ import annotations

import hashlib
from functools import cache as once

from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.http import QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django_htmx.http import reswap

from campaigns.access import can_manage_game, get_game_for_user, membership_read
from campaigns.models import Game
from combat.selectors.tracker import Board, tracker_board
from combat.selectors.tracker_attack import tracker_target_with_game
from combat.selectors.tracker_rows import BoardReads, board_with_game
from combat.services.tracker.errors import TrackerBlocked, TrackerConflict, TrackerError
from combat.services.tracker.keys import Sent

UNPROCESSABLE = 422
CONFLICT = 409
BAD_REQUEST = 400
POLL_SECONDS = 2
# A fighter id no board holds: each per-fighter URL is reversed once per page with it, then filled in per row.
_ANY_FIGHTER = 987654321
FIGHTER_LINKS = {
    "target": "tracker_target",
    "damage": "tracker_damage",
    "fatigue": "tracker_fatigue",
    "recover_harm": "tracker_recover_harm",
    "harm": "tracker_add_harm",
    "injury": "tracker_add_injury",
    "out_of_action": "tracker_out_of_action",
    "back_in_play": "tracker_back_in_play",
    "injury_form": "tracker_injury",
    "injury_roll": "tracker_injury_roll",
    "markers": "tracker_markers",
    "card": "tracker_card",
}
# At most this many cards named open by one request (`open=`): two crews' worth, and a bound on the parse.
MOST_OPEN_CARDS = 200


def refusal_status(error: TrackerError) -> int:
    """409 when the board changed under the form or a step comes first; 400 for any other refusal."""
    return CONFLICT if isinstance(error, TrackerConflict | TrackerBlocked) else BAD_REQUEST


def game_for(request, game_id: int, *, act: bool = False) -> tuple[Game, bool]:
    """The game and whether the user may act on its board (403 when `act` and they may not)."""
    game, membership = get_game_for_user(request.user, game_id)
    return game, _may_act(membership, game, act=act)


def _may_act(membership, game: Game, *, act: bool) -> bool:
    can_act = can_manage_game(membership, game)
    if act and not can_act:
        raise PermissionDenied(
            "Only the organiser and the players whose warbands are in this game act on its board."
        )
    return can_act


def target_for(request, game_id: int, fighter_id: int, *, act: bool = False):
    """The game, whether the user may act on its board (403 when `act` and they may not) and the fighter on it
    (None when it is not on this game's board): the fighter and its game in one query, as `game_for` asks."""
    target = tracker_target_with_game(game_id=game_id, fighter_id=fighter_id, viewer=request.user)
    if target is None:
        game, can_act = game_for(request, game_id, act=act)
        return game, can_act, None
    game = target.tracker.game
    return game, _may_act(membership_read(target, request.user, game), game, act=act), target


def board_for(request, game_id: int) -> tuple[Game, bool, BoardReads | None]:
    """The game, whether the user may act on its board, and what the board shows (its row, its fighters' rows and
    its log), in one round trip (`board_with_game`); a game with no board yet (or no such game) is asked as
    `game_for` asks, its board None. Read before the membership is checked, and shown only after."""
    reads = board_with_game(game_id=game_id, viewer=request.user)
    if reads is None:
        game, can_act = game_for(request, game_id)
        return game, can_act, None
    game = reads.tracker.game
    return game, _may_act(membership_read(reads.tracker, request.user, game), game, act=False), reads


def is_partial(request) -> bool:
    return bool(request.htmx) and not request.htmx.boosted


class _FighterLinks(dict):
    """A fighter's links, each written when first read (`links.target` as links["target"], the template's first
    lookup): a folded line kept whole reads none of them, and a board at rest is mostly such lines."""

    def __init__(self, parts: dict[str, tuple[str, str]], board_url: str, fighter_id: int):
        super().__init__()
        self.parts, self.board_url, self.fighter_id = parts, board_url, fighter_id

    def __missing__(self, key: str) -> str:
        fighter_id = self.fighter_id
        if (
            key == "open"
        ):  # without JavaScript a compact card opens, and an opened one folds, by loading the board
            link = f"{self.board_url}?open={fighter_id}#fighter-{fighter_id}"
        elif key == "fold":
            link = f"{self.board_url}#fighter-{fighter_id}"
        else:
            head, tail = self.parts[key]
            link = f"{head}{fighter_id}{tail}"
        self[key] = link
        return link


def _link_fighters(board: Board | None, game: Game) -> None:
    """Each fighter's links (its page, Fatigue, Recover Harm), by `reverse`; reversed once per page and filled in
    per fighter, since the board is rendered for every phone at the table at every change."""
    if board is None:
        return
    parts = {
        key: tuple(
            reverse(name, kwargs={"game_id": game.pk, "fighter_id": _ANY_FIGHTER}).split(str(_ANY_FIGHTER))
        )
        for key, name in FIGHTER_LINKS.items()
    }
    board_url = reverse("tracker", kwargs={"game_id": game.pk})
    for crew in board.crews:
        for fighter in crew.fighters:
            fighter.links = _FighterLinks(parts, board_url, fighter.id)


# The board's folded lines (`compact-card` of templates/combat/tracker.html), each kept under the digest of what it
# shows (`Board.folded_card_keys`): never stale, and holding no secret of anyone's (no CSRF token, no version).
FOLDED_CARD = "combat/tracker.html#folded-card"
FOLDED_CARD_SECONDS = 60 * 60 * 24


@once
def _board_markup() -> str:
    """A digest of the board's template, so a changed line markup never meets lines cached from the old one."""
    source = get_template("combat/tracker.html").template.source
    return hashlib.blake2b(source.encode(), digest_size=8).hexdigest()


# The folded lines this process drew or read last: each key names what its line shows, so a line kept here is never
# stale either, and a board at rest is drawn with no round trip to the shared cache. Emptied when full.
_FOLDED_HERE: dict[str, str] = {}
MOST_FOLDED_HERE = 4096


def _fold_cards(board: Board, context: dict) -> None:
    """Each folded line of the board from this process's memory, else from the shared cache in one read, the
    missing ones drawn and kept in both: a board of two crews at rest is thirty such lines, drawn for every phone
    at the table at every change."""
    keys = board.folded_card_keys(markup=_board_markup())
    if not keys:
        return
    found = {key: html for key in keys if (html := _FOLDED_HERE.get(key)) is not None}
    if len(found) < len(keys):
        found.update(cache.get_many([key for key in keys if key not in found]))
    template = None
    drawn = {}
    for key, fighter in keys.items():
        html = found.get(key)
        if html is None:
            template = template or get_template(FOLDED_CARD)
            html = drawn[key] = template.render({**context, "f": fighter})
        fighter.folded_html = mark_safe(html)  # noqa: S308 - our template's output, escaped when drawn
    if drawn:
        cache.set_many(drawn, FOLDED_CARD_SECONDS)
    if len(_FOLDED_HERE) + len(found) > MOST_FOLDED_HERE:
        _FOLDED_HERE.clear()
    _FOLDED_HERE.update(found)
    _FOLDED_HERE.update(drawn)


def opened_cards(request) -> list[int]:
    """The cards the page shows opened (`open=3,7`, in the query or the form; ledger.js sends those the page
    shows whole), so a board drawn again keeps them open. Anything but fighter ids is left out."""
    values = request.GET.getlist("open") + (request.POST.getlist("open") if request.method == "POST" else [])
    ids = [part for value in values for part in value.split(",")[:MOST_OPEN_CARDS]]
    return [int(part) for part in ids[:MOST_OPEN_CARDS] if part.isdigit() and len(part) < 10]


def board_context(
    request,
    game: Game,
    can_act: bool,
    *,
    board=None,
    error: str | None = None,
    attempt: dict | None = None,
    tracker=None,
    rows=None,
    reads: BoardReads | None = None,
) -> dict:
    """`tracker`: the board's row as an action just committed it, which the board need not read again; `rows`:
    the only fighters' rows to show, as that action left them (the board then holds those alone); `reads`: the
    board's row, rows and log as `board_for` read them."""
    if board is None and reads is not None:
        board = tracker_board(
            game=game, viewer=request.user, tracker=reads.tracker, rows=reads.rows, log=reads.log
        )
    elif board is None:
        board = tracker_board(game=game, viewer=request.user, tracker=tracker, rows=rows)
    _link_fighters(board, game)
    if board is not None:
        picked = {attempt["fighter"]: str(attempt["damage"])} if attempt else None
        board.open_cards(opened_cards(request), picked=picked)
    context = {
        "csrf_field": format_html(
            '<input type="hidden" name="csrfmiddlewaretoken" value="{}">', get_token(request)
        ),
        "game": game,
        "campaign": game.campaign,
        "terms": game.campaign.terms,
        "board": board,
        "can_act": can_act and board is not None and not board.tracker.ended and game.status == "in_progress",
        "can_start": can_act and board is None and game.status == Game.Status.IN_PROGRESS,
        "error": error,
        "poll_seconds": POLL_SECONDS,
        "post_game": _post_game_links(game, board),
        # A refused quick Damage: what was picked, shown again beside the refusal on its fighter's card.
        "attempt": attempt,
        # An answer to htmx goes to a page that runs JavaScript: no list for pages without it.
        "scripted": is_partial(request),
    }
    if board is not None:
        _fold_cards(board, context)
    return context


def _post_game_links(game: Game, board) -> list[tuple[str, str]]:
    if board is None or not board.tracker.ended:
        return []
    return [
        (crew.warband.name, reverse("post_game", kwargs={"game_id": game.pk, "warband_id": crew.warband.pk}))
        for crew in board.crews
    ]


def render_board(
    request, game: Game, can_act: bool, *, error: str | None = None, status: int = 200, attempt=None
):
    context = board_context(request, game, can_act, error=None if attempt else error, attempt=attempt)
    if attempt:
        attempt["error"] = error
    if not is_partial(request):
        return render(request, "combat/tracker.html", context, status=status)
    return out_of_band(
        render(request, "combat/tracker.html#tracker-live", {**context, "live_oob": True}, status=status)
    )


def out_of_band(response):
    """An answer to a form of the board, every part of it out of band (`hx-swap-oob`, found by its id), and
    nothing swapped into the form's own target.

    Taps outrun answers: two taps sent together, or a tap while the poll is out, and the first answer to come
    swaps the board, taking the other tap's form out of the page. htmx finds a target (or an HX-Retarget) from the
    form that sent the request, so it would find nothing and drop that answer (`htmx:targetError`); an
    out-of-band part is looked up in the page itself once its sender is gone (htmx 2's swap). So every answer
    lands wherever the board is now; ledger.js keeps an answer from an older board from replacing a newer one.
    """
    return reswap(response, "none")


def card_asked(request) -> int | None:
    """The fighter whose card an htmx form asked to swap (`hx-target="#fighter-N"`), or None."""
    target = request.htmx.target if request.htmx else None
    if target and target.startswith("fighter-") and target[len("fighter-") :].isdigit():
        return int(target[len("fighter-") :])
    return None


def _render_card(request, game: Game, can_act: bool, fighter_id: int, tracker=None, row=None):
    """Only what an action on one fighter changed: its card, and out of band the last action with its Undo, the
    game log and the board's version. None when more changed (a step waits, a shooting is open, the fighter left
    play) or when the page did not have the version just before this action (the other phone acted in between):
    then the whole board is swapped, so the page never jumps past a change it was not sent.
    `tracker` and `row`: the board's row and the fighter's as the action just left them, so neither is read
    again, and the card is drawn from a board of that fighter alone, as a changed poll draws its cards."""
    rows = None
    if row is not None and tracker is not None and row.fighter_id == fighter_id:
        if tracker.pending or tracker.shooting or tracker.ended:
            return None
        rows = [row]
    context = board_context(request, game, can_act, tracker=tracker, rows=rows)
    board = context["board"]
    fighter = board.by_id.get(fighter_id) if board else None
    if fighter is None or not fighter.in_play or board.pending or board.shooting or board.tracker.ended:
        return None
    if request.POST.get("version", "") != str(board.version - 1):
        return None
    fighter.opened = True  # acted on: its actions stay in sight
    context["f"] = fighter
    return out_of_band(render(request, "combat/tracker.html#card-swap", context))


def done(request, game: Game, can_act: bool, *, action=None, row=None):
    """After an action: the fighter's card (htmx asked for it), the live partial (htmx), else back to the board
    (POST, redirect, GET). `action`: the action just committed, whose board row is not read again; `row`: the
    row of the fighter it acted on, as the action saved it."""
    if not is_partial(request):
        return redirect("tracker", game_id=game.pk)
    fighter_id = card_asked(request)
    if fighter_id is not None:
        tracker = action.tracker if action is not None else None
        response = _render_card(request, game, can_act, fighter_id, tracker, row)
        if response is not None:
            return response
    return render_board(request, game, can_act)


def refused(request, game: Game, can_act: bool, error: TrackerError, *, attempt: dict | None = None):
    """A refused action: the board as it is now, with the reason (beside what was typed), and nothing changed."""
    return render_board(
        request, game, can_act, error=error.message, status=refusal_status(error), attempt=attempt
    )


REFUSED_KEY = "tracker_refused"


def refused_on_board(request, game: Game, can_act: bool, *, error: str, status: int, attempt: dict):
    """A quick Damage from a card refused: htmx gets the board with what was picked beside the reason; without
    JavaScript the board's own URL is loaded again (POST, redirect, GET) with the same, so a reload sends nothing.
    The reason waits in the session for that one GET (a flash, as django.contrib.messages keeps its own)."""
    if is_partial(request):
        return render_board(request, game, can_act, error=error, status=status, attempt=attempt)
    request.session[REFUSED_KEY] = {"game": game.pk, "fighter": attempt["fighter"], "error": error}
    query = QueryDict(mutable=True)
    query.update({"refused": attempt["fighter"], "damage": attempt["damage"]})
    url = reverse("tracker", kwargs={"game_id": game.pk})
    return redirect(f"{url}?{query.urlencode()}#fighter-{attempt['fighter']}")


def refused_attempt(request, game: Game) -> dict | None:
    """The refused quick Damage the board's URL names (`?refused=<fighter>&damage=<N>`) with its reason, kept
    for this one GET; None when the URL names none (or the reason was already shown)."""
    fighter = request.GET.get("refused", "")
    if not fighter.isdigit():
        return None
    flash = request.session.get(REFUSED_KEY) or {}
    if flash.get("game") != game.pk or flash.get("fighter") != int(fighter):
        return None
    del request.session[REFUSED_KEY]
    return {
        "fighter": int(fighter),
        "damage": request.GET.get("damage", "")[:10],
        "error": flash.get("error", ""),
    }


def sent_with(data: dict) -> Sent | None:
    """The idempotency key a queued tap came with, or None for a tap sent as it was made."""
    key = data.get("key")
    return Sent(key=key, batch=data.get("batch") or "") if key else None


def form_error(form) -> str:
    errors = [str(message) for message in form.non_field_errors()]
    for name, field_errors in form.errors.items():
        if name == "__all__":
            continue
        label = form.fields[name].label if name in form.fields else name
        errors.extend(
            f"{label}: {message}" if name == "version" else str(message) for message in field_errors
        )
    return " ".join(errors) or "Check the form."
