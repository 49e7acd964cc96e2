"""What bench_web.py measures beyond requests per second: the bytes of first loads, compressed, and two
gunicorn instances sharing one database and one Redis.

- `tracker_game()`: a game in progress between two of the bench's warbands, with its board (made once, reused).
- `first_load_bytes()`: each page as a browser first loads it, the HTML gzip-compressed (GZipMiddleware) and the
  static files it names brotli-compressed (WhiteNoise), against the aim of 35 KB.
- `two_instances()`: a login on instance A used on instance B; a Damage on A seen by a poll on B, with the delay.
  The Damage is undone at the end, so every run finds the board as the last one left it.
"""

from __future__ import annotations

import gzip
import html
import http.cookiejar
import re
import time
import urllib.parse
import urllib.request

FIRST_LOAD_AIM = 35 * 1024
BENCH_PASSWORD = "bench-password-not-secret"  # noqa: S105 - the bench's own user in the bench's own database
# What a browser fetches on a first load: the stylesheets, the scripts and one favicon (the first `rel="icon"`;
# the PNG twins and the home-screen icon are fetched only by browsers that cannot use it, or on "add to home").
STYLES_AND_SCRIPTS = re.compile(r'<(?:link rel="stylesheet" href|script src)="(/static/[^"]+)"')
FAVICON = re.compile(r'<link rel="icon" href="(/static/[^"]+)"')
CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CSRF_HEADER = re.compile(r'"X-CSRFToken": "([^"]+)"')
# The board's own poll, as the page asks it (its version and layout): a changed poll can then send only the changed
# cards out of band (combat/selectors/tracker_poll.py); without the layout it sends the whole board.
BOARD_POLL = re.compile(r'hx-get="([^"]*/tracker/board/\?version=\d+[^"]*)"')


# The board the tracker's figures are taken on: two crews of 15, the issue's own reference board; and the roster's
# 50 Pilgrims against the 12 Heretics, larger than any game is played, whose first load is printed for comparison.
BOARD_SIDES = ("Bench Crew 1", "Bench Crew 2")
LARGE_BOARD_SIDES = ("Bench Pilgrims", "Bench Heretics")


def tracker_game(campaign, player, sides: tuple[str, str] = BOARD_SIDES) -> dict:
    """A game in progress between the two warbands named, with its board (made once, reused), the id of the
    second side's first fighter, and the player's password set."""
    import datetime

    from campaigns.models import Game, GamePlayer
    from campaigns.services.games import campaign_next_game_number
    from combat.models import TrackerGame
    from combat.services.tracker.board import tracker_start
    from rosters.models import Warband

    player.set_password(BENCH_PASSWORD)
    player.save(update_fields=["password"])
    warbands = [Warband.objects.get(campaign=campaign, name=name) for name in sides]
    game = (
        Game.objects.filter(campaign=campaign, status=Game.Status.IN_PROGRESS, players__warband=warbands[0])
        .filter(players__warband=warbands[1])
        .first()
    )
    if game is None:
        number = campaign_next_game_number(campaign=campaign)
        game = Game.objects.create(
            campaign=campaign,
            number=number,
            played_on=datetime.date(2025, 6, 1),
            status=Game.Status.IN_PROGRESS,
        )
        for warband in warbands:
            GamePlayer.objects.create(game=game, warband=warband)
    tracker = TrackerGame.objects.filter(game=game).first() or tracker_start(game=game, by=player)
    target = tracker.fighters.filter(fighter__warband=warbands[1]).order_by("id").first()
    return {
        "game": game.pk,
        "version": tracker.version,
        "target": target.fighter_id,
        "board": f"/games/{game.pk}/tracker/",
        "poll": f"/games/{game.pk}/tracker/board/?version={tracker.version}",
    }


def _request(url: str, headers: dict, data: bytes | None = None) -> urllib.request.Request:
    return urllib.request.Request(url, data=data, headers=headers)  # noqa: S310 - http://127.0.0.1 only


def _get(url: str, headers: dict) -> tuple[int, bytes, dict]:
    request = _request(url, headers)
    try:
        with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 - 127.0.0.1 only
            return response.status, response.read(), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, error.read(), dict(error.headers)


def first_load_bytes(port: int, pages: dict[str, str], cookie: str) -> dict[str, dict]:
    """Per page: the HTML raw and gzipped, the static files it names brotli'd (each file counted once)."""
    base = f"http://127.0.0.1:{port}"
    figures = {}
    for name, path in pages.items():
        status, body, headers = _get(base + path, {"Cookie": cookie, "Accept-Encoding": "gzip, br"})
        if status != 200 or headers.get("Content-Encoding") != "gzip":
            raise RuntimeError(f"{path} answered {status} with encoding {headers.get('Content-Encoding')!r}")
        html = gzip.decompress(body)
        static = 0
        text = html.decode()
        assets = set(STYLES_AND_SCRIPTS.findall(text)) | set(FAVICON.findall(text)[:1])
        for asset in sorted(assets):
            _, data, _ = _get(base + asset, {"Accept-Encoding": "br, gzip"})
            static += len(data)
        figures[name] = {"raw": len(html), "html": len(body), "static": static, "total": len(body) + static}
    return figures


def report_bytes(figures: dict[str, dict], compared: tuple[str, ...] = ()) -> None:
    """The first loads against the aim; those named in `compared` are printed beside them, not aimed."""
    print(f"{'first load (compressed)':28} {'raw KB':>8} {'HTML KB':>8} {'static':>8} {'total':>8}")
    for name, row in figures.items():
        verdict = "ok" if row["total"] < FIRST_LOAD_AIM else "MISSED"
        aim = "(for comparison, not aimed)" if name in compared else f"(first load, aim < 35 KB) {verdict}"
        print(
            f"{name:28} {row['raw'] / 1024:8.1f} {row['html'] / 1024:8.1f} {row['static'] / 1024:8.1f} "
            f"{row['total'] / 1024:8.1f}  {aim}"
        )


class Browser:
    """One browser's cookies against one instance (urllib with a cookie jar; redirects followed)."""

    def __init__(self, port: int, jar: http.cookiejar.CookieJar | None = None) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.jar = jar if jar is not None else http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def get(self, path: str, headers: dict | None = None) -> tuple[int, bytes]:
        try:
            with self.opener.open(_request(self.base + path, headers or {}), timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def post(self, path: str, fields: dict, headers: dict | None = None) -> tuple[int, bytes]:
        data = urllib.parse.urlencode(fields).encode()
        request = _request(self.base + path, headers or {}, data)
        try:
            with self.opener.open(request, timeout=10) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()


def two_instances(port_a: int, port_b: int, game: dict) -> list[tuple[str, bool, str]]:
    """A login on A used on B; a Damage on A seen by B's poll (the delay); the Damage undone on A."""
    a = Browser(port_a)
    _, page = a.get("/accounts/login/")
    token = CSRF_FIELD.search(page.decode()).group(1)
    a.post(
        "/accounts/login/",
        {"csrfmiddlewaretoken": token, "username": "bench_player", "password": BENCH_PASSWORD},
        {"Referer": a.base + "/accounts/login/"},
    )
    b = Browser(port_b, a.jar)  # the same cookies, sent to the other instance
    status, dashboard = b.get("/")
    logged_in = status == 200 and b"Log out" in dashboard
    results = [("a login on A used on B", logged_in, f"B answered {status}")]

    _, board = a.get(game["board"])
    csrf = CSRF_HEADER.search(board.decode()).group(1)
    poll = html.unescape(
        BOARD_POLL.search(board.decode()).group(1)
    )  # what B's page polls, the layout with it
    phone = {"HX-Request": "true", "Accept-Encoding": "gzip"}
    _, before = b.get(poll, phone)
    version = int(re.search(r"\?version=(\d+)", poll).group(1))
    damage_url = f"{game['board']}fighters/{game['target']}/damage/"
    headers = {"X-CSRFToken": csrf, "HX-Request": "true", "Accept-Encoding": "gzip", "Referer": a.base}
    # As the card's Quick Damage posts it: from the board, its card the target of the swap.
    card = {**headers, "HX-Target": f"fighter-{game['target']}"}
    status, answer = a.post(damage_url, {"version": version, "damage": 1, "from": "board"}, card)
    done = time.perf_counter()
    seen, delay = False, 0.0
    while time.perf_counter() - done < 5:
        poll_status, changed = b.get(poll, phone)
        if poll_status == 200:
            seen, delay = True, time.perf_counter() - done
            break
        time.sleep(0.01)
    results.append(
        (
            "a Damage on A seen by a poll on B",
            status == 200 and seen,
            f"Damage answered {status}; seen after {delay * 1000:.0f} ms"
            if seen
            else f"Damage answered {status}",
        )
    )
    if seen:
        results.append(
            (
                "one Damage's bytes, compressed",
                True,
                f"the answer {len(answer) / 1024:.1f} KB + another phone's changed poll {len(changed) / 1024:.1f} KB",
            )
        )
    a.post(f"{game['board']}undo/", {"version": version + 1}, headers)
    return results
