"""How bench_web.py prints its figures and its aims.

Every aim is one line that says `aim` and ends in `ok` or `MISSED`, the form bench/run.py collects into the table
`make bench` ends with. The ratios are throughputs (requests per second) of one run: a page's against the
authenticated view's on the same server, or the deployed server's against `make run`'s, loaded in turn.
"""

from __future__ import annotations

# Aims, on the render path at 4 connections, as a share of the authenticated view's throughput.
RENDER_AIM = 0.35
BOARD_AIM = 0.2
# The cache-hit path and the 204 poll: at least the authenticated view's throughput.
KEPT_AIM = 1.0
# `make run`'s defaults: the deployed server at most this many times faster on the same page.
MAKE_RUN_AIM = 1.5
BASELINE = "authenticated view"
BARE = "bare view (no session)"
BOARD = "tracker board 15 v 15, render path"
POLL = "tracker poll, unchanged (204)"


def verdict(met: bool) -> str:
    return "ok" if met else "MISSED"


def _figures(row: dict | None, baseline: float) -> str:
    if row is None:
        return f"{'':>7} {'':>7} {'':>7} {'':>6}"
    return f"{row['rps']:7.0f} {row['p50']:7.1f} {row['p99']:7.1f} {row['rps'] / baseline:6.2f}"


def report_table(results: dict[str, dict[str, dict]], connections: int) -> None:
    """One line per load: each server's req/s, p50 and p99 (ms) and ratio to its authenticated view."""
    servers = list(results)
    print(f"-- {connections} connections; ratios against each server's own {BASELINE}")
    head = " | ".join(f"{server[:31]:>31}" for server in servers)
    print(f"{'':40} {head}")
    print(f"{'':40} " + " | ".join(f"{'req/s':>7} {'p50':>7} {'p99':>7} {'ratio':>6}" for _ in servers))
    for name in results[servers[0]]:
        cells = [_figures(results[server].get(name), results[server][BASELINE]["rps"]) for server in servers]
        errors = sum(results[server][name]["errors"] for server in servers if name in results[server])
        print(f"{name:40} " + " | ".join(cells) + (f"  ({errors} non-2xx)" if errors else ""))


def report_aims(results: dict[str, dict], title: str) -> None:
    """The deployed server's aims: every render path against the authenticated view, the cache hits and the poll."""
    baseline = results[BASELINE]["rps"]
    print(f"-- aims of {title}, against its {BASELINE} ({baseline:.0f} req/s)")
    for name, row in results.items():
        if name in (BASELINE, BARE):
            continue
        ratio = row["rps"] / baseline
        aim = KEPT_AIM
        if name.endswith("render path"):
            aim = BOARD_AIM if name == BOARD else RENDER_AIM
        errors = f", {row['errors']} non-2xx" if row["errors"] else ""
        print(
            f"{name}: {ratio:.2f}x the {BASELINE}{errors} (aim >= {aim}x) {verdict(ratio >= aim and not errors)}"
        )


def report_make_run(deployed: dict[str, dict], make_run: dict[str, dict]) -> None:
    """`make run`'s defaults against the deployed settings, page by page."""
    print(
        f"-- make run's defaults against the deployed settings (aim: the deployed at most {MAKE_RUN_AIM}x faster)"
    )
    for name, row in deployed.items():
        if name == BARE or name not in make_run:
            continue
        ratio = row["rps"] / make_run[name]["rps"]
        print(
            f"make run, {name}: the deployed {ratio:.2f}x its throughput "
            f"({row['rps']:.0f} against {make_run[name]['rps']:.0f} req/s) (aim <= {MAKE_RUN_AIM}x) "
            f"{verdict(ratio <= MAKE_RUN_AIM)}"
        )


def report_crowd(title: str, results: list[tuple[str, dict]], crowd: int, seconds: int) -> None:
    print(f"-- {title}: {crowd} connections, {seconds} s each (aim: zero non-2xx, zero socket errors)")
    for name, figures in results:
        sockets = figures.get("socket_errors", 0)
        print(
            f"{name} at {crowd} connections: {figures['rps']:.0f} req/s, p99 {figures['p99']:.1f} ms, "
            f"{figures['errors']} non-2xx, {sockets} socket errors (aim 0) "
            f"{verdict(figures['errors'] == 0 and sockets == 0)}"
        )
