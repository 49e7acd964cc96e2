"""Speed of the in-game tracker: `python bench/bench_tracker.py` prints its figures with their aims.

Server time measured in-process through Django's test Client (middleware, view, service, template; no network),
for a game between two warbands of 15 fighters each on PostgreSQL:

- apply Damage: the round trip of the "type the Damage" form's POST, answered by a redirect to the board;
- the board page that redirect leads to;
- the board's refresh: the poll after another phone changed the board (the live partial, rendered);
- the poll while nothing changed (204, no body);
- the bytes of a changed poll (one fighter damaged by the other phone) at 15 and at 200 fighters per crew: the
  changed card alone with the last action and the game log, beside the whole live partial a
  page without the layout in its poll still gets;
- the bytes of the board page of two crews of 15 at full strength, each a compact card (aim: under 60 KB).

Each figure is the median and the 95th percentile of many requests (aim: under 30 ms). Between two timed
Damages an untimed undo puts the board back, so every request does the same work. The database is
the bench's own `warband_bench_tracker` (bench/support.py: created and migrated when missing, never the one
`make run` uses); the script's own rows are replaced on each run. It exits 0 whatever the figures, so `make bench`
always shows them, and 1 only when it cannot run.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, median_p95_ms, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_tracker"
FIGHTERS = 15
BYTES_AT = (15, 200)  # fighters per crew for the changed poll's bytes
SAMPLES = 200
WARM_UP = 20
AIM_MS = 30.0
AIM_BOARD_BYTES = 60 * 1024


def load_game(size: int = FIGHTERS):
    """Two players, two warbands of `size` fighters, a game in progress with its board (the previous run's
    go)."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from campaigns.models import Campaign, Game, GamePlayer, Membership
    from combat.services.tracker.board import tracker_start
    from rosters.models import Fighter, Warband

    users = get_user_model()
    Campaign.objects.filter(name="Bench: tracker").delete()
    users.objects.filter(username__startswith="bench_tracker_").delete()
    pat = users.objects.create_user("bench_tracker_pat", password="bench-password-not-secret")  # noqa: S106
    quinn = users.objects.create_user("bench_tracker_quinn", password="bench-password-not-secret")  # noqa: S106
    campaign = Campaign.objects.create(name="Bench: tracker", preset="fallout_factions", created_by=pat)
    Membership.objects.create(campaign=campaign, user=pat, role=Membership.Role.ORGANISER)
    Membership.objects.create(campaign=campaign, user=quinn, role=Membership.Role.PLAYER)
    game = Game.objects.create(
        campaign=campaign, number=1, played_on="2026-11-30", status=Game.Status.IN_PROGRESS
    )
    targets = []
    for owner, name in ((pat, "Alex's crew"), (quinn, "Sam's crew")):
        warband = Warband.objects.create(campaign=campaign, owner=owner, name=name)
        GamePlayer.objects.create(game=game, warband=warband)
        fighters = Fighter.objects.bulk_create(
            Fighter(
                warband=warband,
                name=f"{name} fighter {number}",
                champion=number == 0,
                endurance=6,
                health=2 + number % 3,
                unit_size=5 if number == size - 1 else 1,
            )
            for number in range(size)
        )
        targets.append(fighters[1])
    tracker_start(game=game, by=pat)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")  # docs/development.md: fresh tables, JIT and plans behave once analysed
    return game, pat, quinn, targets


def report(label: str, samples: list[tuple[float, float]]) -> str:
    """Wall-clock median and p95 against the aim, and the median CPU time of this process (Python's share of
    the work, steadier than the wall clock on a busy machine; PostgreSQL's time is not in it)."""
    median, p95 = median_p95_ms([wall for wall, _ in samples])
    cpu, _ = median_p95_ms([cpu for _, cpu in samples])
    verdict = "ok" if median < AIM_MS and p95 < AIM_MS else "MISSED"
    return (
        f"{label}: median {median:.1f} ms, p95 {p95:.1f} ms (aim < {AIM_MS:.0f} ms) {verdict}; "
        f"CPU median {cpu:.1f} ms"
    )


def timed(samples: list, keep: bool, call):
    """Run `call()`, adding its (wall, CPU) seconds to `samples` when `keep`; return what it returned."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = call()
    if keep:
        samples.append((time.perf_counter() - wall, time.process_time() - cpu))
    return result


def board_version(game) -> int:
    from combat.models import TrackerGame

    return TrackerGame.objects.filter(game=game).values_list("version", flat=True).get()


def time_requests(game, pat, quinn, target) -> tuple[list, list, list, list]:
    """The four round trips of the board, each sample on the same board (an untimed undo puts it back)."""
    from django.test import Client
    from django.urls import reverse

    from combat.services.tracker.board import tracker_undo

    phone, other_phone = Client(), Client()
    phone.force_login(pat)
    other_phone.force_login(quinn)
    poll = reverse("tracker_board", kwargs={"game_id": game.pk})
    htmx = {"HX-Request": "true"}
    url = reverse("tracker_damage", kwargs={"game_id": game.pk, "fighter_id": target.pk})
    apply, page, refresh, unchanged = [], [], [], []
    for sample in range(WARM_UP + SAMPLES):
        keep = sample >= WARM_UP
        current = board_version(game)
        data = {"version": current, "damage": 2}
        response = timed(apply, keep, lambda data=data: phone.post(url, data))
        assert response.status_code == 302, response.status_code
        shown = timed(page, keep, lambda location=response["Location"]: phone.get(location))
        assert shown.status_code == 200, shown.status_code
        tracker_undo(game=game, by=pat, version=current + 1)

        # The other phone polls with the version it last saw: the board changed (the undo), so it gets the partial.
        polled = timed(
            refresh, keep, lambda seen=current: other_phone.get(poll, {"version": seen}, headers=htmx)
        )
        assert polled.status_code == 200, polled.status_code
        quiet = timed(
            unchanged, keep, lambda seen=current + 2: other_phone.get(poll, {"version": seen}, headers=htmx)
        )
        assert quiet.status_code == 204, quiet.status_code
    return apply, page, refresh, unchanged


def time_service(game, pat, quinn, target) -> list:
    """A Damage applied and undone by the service alone, without HTTP: what the request adds around it."""
    from combat.services.tracker.board import tracker_undo
    from combat.services.tracker.damage import tracker_apply_damage

    service = []
    for _ in range(SAMPLES):
        current = board_version(game)
        timed(
            service,
            True,
            lambda seen=current: tracker_apply_damage(
                game=game, target_id=target.pk, damage=2, by=quinn, version=seen
            ),
        )
        tracker_undo(game=game, by=pat, version=current + 1)
    return service


def changed_poll_bytes(fighters: int) -> str:
    """The bytes of the other phone's poll after one Damage, raw and gzipped, card by card and whole."""
    import gzip
    import re

    from django.test import Client
    from django.urls import reverse

    from combat.services.tracker.damage import tracker_apply_damage

    game, pat, quinn, targets = load_game(fighters)
    phone = Client()
    phone.force_login(pat)
    page = phone.get(reverse("tracker", kwargs={"game_id": game.pk})).content.decode()
    live = page[page.index('id="tracker-live"') :]
    path, query = re.search(r'hx-get="([^"]+)"', live).group(1).replace("&amp;", "&").split("?")
    params = dict(part.split("=") for part in query.split("&"))
    tracker_apply_damage(game=game, target_id=targets[1].pk, damage=2, by=quinn, version=board_version(game))
    htmx = {"HX-Request": "true"}
    changed = phone.get(path, params, headers=htmx)
    whole = phone.get(path, {"version": params["version"]}, headers=htmx)
    assert changed.status_code == whole.status_code == 200, (changed.status_code, whole.status_code)
    assert changed.get("HX-Reswap") == "none", "the changed poll did not answer card by card"
    assert "HX-Reswap" not in whole, "the poll without a layout did not answer the whole board"
    sizes = [(len(answer.content), len(gzip.compress(answer.content))) for answer in (changed, whole)]
    (card, card_gz), (board, board_gz) = sizes
    return (
        f"changed poll, one fighter damaged, {fighters} fighters per crew: {card / 1024:.1f} KB "
        f"({card_gz / 1024:.1f} KB gzipped) card by card; the whole board {board / 1024:.1f} KB "
        f"({board_gz / 1024:.1f} KB gzipped)"
    )


def fresh_board_bytes() -> str:
    """The bytes of the board page of two crews at full strength, each fighter a compact card (aim: under 60 KB)."""
    from django.test import Client
    from django.urls import reverse

    game, pat, _, _ = load_game()
    phone = Client()
    phone.force_login(pat)
    page = phone.get(reverse("tracker", kwargs={"game_id": game.pk}))
    assert page.status_code == 200, page.status_code
    size = len(page.content)
    verdict = "ok" if size < AIM_BOARD_BYTES else "MISSED"
    return (
        f"the board page, two crews of {FIGHTERS} at full strength: {size / 1024:.1f} KB "
        f"(aim < {AIM_BOARD_BYTES // 1024} KB) {verdict}"
    )


def run() -> list[str]:
    game, pat, quinn, targets = load_game()
    target = targets[1]  # one of Sam's fighters, Damage 2 < Endurance 6: 1 Harm
    apply, page, refresh, unchanged = time_requests(game, pat, quinn, target)
    service = time_service(game, pat, quinn, target)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return [
        f"two warbands of {FIGHTERS} fighters, {SAMPLES} requests each, Django test Client in-process "
        f"(load average {load} on {os.cpu_count()} CPUs while it ran)",
        report("apply Damage: POST answered by its redirect", apply),
        report("the board page it leads to (GET)", page),
        report("board refresh after a change (poll, live partial)", refresh),
        report("poll, nothing changed (204)", unchanged),
        report("tracker_apply_damage service alone", service),
        *(changed_poll_bytes(fighters) for fighters in BYTES_AT),
        fresh_board_bytes(),
    ]


def main() -> int:
    try:
        setup_django(bench_database_url(BENCH_DATABASE))
    except Exception as error:  # no server, no rights: say so and stop
        print(f"bench_tracker: cannot use a bench database: {error}", file=sys.stderr)
        return 1
    for line in run():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
