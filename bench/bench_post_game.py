"""Speed of the post-game wizard: `python bench/bench_post_game.py` prints server time per step with its aim.

Server time measured in-process through Django's test Client (middleware, view, service, rules engine, template;
no network), for a warband with ten fighters taken Out of Action (four Troops, six ELITE, three pieces of
Battlekit each) among fourteen, on PostgreSQL:

- each page of the wizard as the owner opens it (Out of Action, Troops, ELITE fighters, Experience, Advancement,
  Promotions, Dismiss the wounded, Reinforcements, Exploration, Hire & Trade, Review);
- each write: confirming the Out of Action list, one roll typed in (a Troop's D6, an ELITE's D66), the
  Experience form, two skill charts picked, a Skill Advancement 2D6 typed in, the skill taken, the Promotion
  Dice assigned and one typed in, the dismissals, Reinforcements declined, the Exploration Dice, a recruit and a
  purchase planned in Hire & Trade, and the Apply of all ten fighters (one transaction: deaths, Injuries, Scars,
  Unfit For Duty, Battlekit to the Arsenal or lost, XP, skills, the promotion, the Location and the loot, the
  recruit and the purchase with their ledger entries);
- the spectator's poll of the live status, and the overview once applied.

Every run walks a fresh copy of the same post-game (seeded beforehand, then ANALYZE, docs/development.md), so each
request does the same work; the figures are the median and 95th percentile over the runs (the aim: p95
under 50 ms), the CPU time of this process (aim: p95 under 25 ms per step; the Apply under 40 ms, median, and at
most 30 queries), with the queries each request made, and each median as a multiple of the bare view's (config/urls.py
`/bench/plain`, the same middleware and no work), timed once per run among the steps, so a loaded machine shows
in both. The database is the bench's own `warband_bench_post_game` (bench/support.py: created and migrated when missing,
never the one `make run` uses); the script's own
rows are replaced on each run. It exits 0 whatever the figures, so `make bench` always shows them, and 1 only when
it cannot run. `BENCH_RUNS` sets the number of runs (default 30).
"""

from __future__ import annotations

import cProfile
import os
import pstats
import re
import sys
import time
from collections import defaultdict
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from support import bench_database_url, median_p95_ms, setup_django  # noqa: E402

BENCH_DATABASE = "warband_bench_post_game"
RUNS = int(os.environ.get("BENCH_RUNS", "30"))
# `BENCH_SHOW_QUERIES="write: Apply, ten fighters"` prints that request's SQL, to find what a budget spends.
SHOW_QUERIES = os.environ.get("BENCH_SHOW_QUERIES")
# `BENCH_PROFILE="page: Experience"` prints where that request's CPU time goes in the project's code (cProfile).
PROFILE = os.environ.get("BENCH_PROFILE")
WARM_UP = 3
AIM_MS = 50.0
# The aims on CPU time (this process's, Python's side): each step at p95, and the Apply's CPU and queries.
AIM_CPU_MS = 25.0
APPLY = "write: Apply, ten fighters"
AIM_APPLY_QUERIES = 30
AIM_APPLY_CPU_MS = 40.0
CAMPAIGN = "Bench: post-game"
BARE = "bare view (/bench/plain)"
# The same requests' CPU time in this process (Python: Django, the project, psycopg's side), which a loaded
# machine stretches far less than the wall time; PostgreSQL's own time is not in it.
CPU = "cpu: "
# The dice typed in for the ten fighters (RULING T-7): Troops die on 1-2 (T-2); ELITE D66 results from the table:
# Hand Wound, Dead, Robbed, Muscle Damage, Full Recovery, and a third Scar (Unfit For Duty, T-4).
TROOP_FACES = [[1], [2], [3], [6]]
ELITE_FACES = [[1, 4], [1, 1], [3, 6], [3, 4], [4, 4], [2, 5]]


def seed(runs: int):
    """One campaign; per run a warband of fourteen fighters, ten of them Out of Action in its own recorded game."""
    from django.contrib.auth import get_user_model
    from django.db import connection

    from campaigns.models import Campaign, Game, GamePlayer, Membership, OutOfAction
    from combat.services.campaign_data import campaign_data_copy_demo
    from rosters.models import Fighter, Item, Warband

    users = get_user_model()
    Campaign.objects.filter(name=CAMPAIGN).delete()
    users.objects.filter(username__startswith="bench_post_game_").delete()
    pat = users.objects.create_user("bench_post_game_pat", password="bench-password-not-secret")  # noqa: S106
    quinn = users.objects.create_user("bench_post_game_quinn", password="bench-password-not-secret")  # noqa: S106
    sam = users.objects.create_user("bench_post_game_sam", password="bench-password-not-secret")  # noqa: S106
    campaign = Campaign.objects.create(name=CAMPAIGN, created_by=pat)
    # The demo's made-up skill charts and Location tables, so the later steps have dice to roll.
    campaign_data_copy_demo(campaign=campaign, by=pat)
    for user, role in ((pat, "organiser"), (quinn, "player"), (sam, "spectator")):
        Membership.objects.create(campaign=campaign, user=user, role=role)
    rival = Warband.objects.create(campaign=campaign, owner=quinn, name="Heretic Legion", strongbox=40)
    scenarios = []
    for number in range(1, runs + 1):
        warband = Warband.objects.create(
            campaign=campaign, owner=pat, name=f"Iron Sepulchre {number}", strongbox=60, glory=8
        )
        troops = [Fighter(warband=warband, name=f"Troop {index}") for index in range(7)]
        elites = [
            Fighter(
                warband=warband,
                name=f"Elite {index}",
                keywords=["ELITE"],
                xp=index,
                battle_scars=2 * (index == 5),
            )
            for index in range(7)
        ]
        fighters = Fighter.objects.bulk_create(troops + elites)
        Item.objects.bulk_create(
            Item(warband=warband, fighter=fighter, name=f"Kit {kit}", keywords=["HEAVY"] if kit == 0 else [])
            for fighter in fighters
            for kit in range(3)
        )
        game = Game.objects.create(
            campaign=campaign, number=number, played_on=date(2026, 11, 28), status="recorded", created_by=pat
        )
        player = GamePlayer.objects.create(game=game, warband=warband, result="loss")
        GamePlayer.objects.create(game=game, warband=rival, result="win")
        # Four Troops and six ELITE of the seven each; five ELITE are left after it, so the Promotion Pool has
        # dice (RULING P-5: none at 6 ELITE).
        out = fighters[:4] + fighters[7:13]
        OutOfAction.objects.bulk_create(OutOfAction(player=player, fighter=fighter) for fighter in out)
        scenarios.append((player, out[:4], out[4:]))
    with connection.cursor() as cursor:
        # The last run's rows were deleted above: VACUUM clears them, so every run reads tables of the same shape
        # (dead rows left to autovacuum slowed the later runs' reads), and ANALYZE plans them (docs/development.md).
        cursor.execute("VACUUM ANALYZE")
    return pat, sam, scenarios


def later_steps(timed, troops, elites) -> None:
    """The steps after Experience: Advancement, Promotions, Dismiss the wounded, every request timed."""
    timed("page: Advancement", "GET", "post_game_advancement")
    # Elite 0 (0 + 1 + 1 for the Glorious Deed) and Elite 3 (3 + 1) reach 2 and 4 XP: one card each (RULING X-1).
    for fighter in (elites[0], elites[3]):
        card = {"fighter": fighter.pk, "number": 1}
        charts = {**card, "do": "charts", "first_chart": "ranged", "second_chart": "stealth_speed"}
        timed("write: two skill charts picked", "POST", "post_game_advancement", charts)
        for die, (first, second) in ((1, (4, 5)), (2, (3, 3))):
            data = {**card, "do": "roll", "die": die, "mode": "enter", "first": first, "second": second}
            timed("write: a Skill Advancement 2D6 typed in", "POST", "post_game_advancement", data)
        pick = {**card, "do": "pick", "skill": "long_shadow_shot"}
        timed("write: the skill taken", "POST", "post_game_advancement", pick)
    timed("page: Promotions", "GET", "post_game_promotions")
    # The pool: 1 + 1 for the Glorious Deed (RULING P-1), one die each for the two Troops that survived.
    survivors = troops[2:]
    assign = {"action": "assign", "extra": 0, **{f"dice_{fighter.pk}": 1 for fighter in survivors}}
    timed("write: the Promotion Dice assigned", "POST", "post_game_promotions", assign)
    for sequence, (fighter, face) in enumerate(zip(survivors, (3, 2), strict=True), start=1):
        die = {"action": "roll", "fighter": fighter.pk, "sequence": sequence, "mode": "enter", "first": face}
        timed("write: a Promotion Die typed in", "POST", "post_game_promotions", die)
    timed("page: Dismiss the wounded", "GET", "post_game_dismiss")
    timed("write: nobody dismissed", "POST", "post_game_dismiss", {})
    # Reinforcements (the warband, worth 0, is under its Threshold Value, RULING C-4), declined here.
    timed("page: Reinforcements", "GET", "post_game_reinforcements")
    timed("write: Reinforcements declined", "POST", "post_game_reinforcements", {"action": "decline"})


def money_steps(timed) -> None:
    """Hire & Trade after the Exploration: a recruit and a purchase from the Strongbox, the page passed;
    then Use Glory: a Glory Item for the Arsenal and another benefit, the page passed."""
    timed("page: Hire & Trade", "GET", "post_game_trade")
    recruit = {"action": "recruit", "recruit-name": "Yeoman Pell", "recruit-cost": 20}
    timed("write: a recruit planned", "POST", "post_game_trade", recruit)
    buy = {"action": "buy", "buy-name": "Grenades", "buy-cost": 15, "buy-holder": "arsenal"}
    timed("write: Battlekit bought", "POST", "post_game_trade", buy)
    timed("write: Hire & Trade done", "POST", "post_game_trade", {"action": "pass"})
    timed("page: Use Glory", "GET", "post_game_glory")
    item = {"action": "spend", "glory-kind": "item", "glory-name": "Saint's Finger", "glory-glory": 5}
    timed("write: a Glory Item planned", "POST", "post_game_glory", {**item, "glory-holder": "arsenal"})
    vow = {"action": "spend", "glory-kind": "benefit", "glory-name": "Vow", "glory-glory": 3}
    timed("write: another benefit planned", "POST", "post_game_glory", {**vow, "glory-benefit": "a vow kept"})
    timed("write: Use Glory done", "POST", "post_game_glory", {"action": "pass"})


def trauma_steps(timed, watcher, troops, elites) -> None:
    """The Trauma Step: Out of Action confirmed, each Troop's D6 and each ELITE's D66 typed in, a spectator polling."""
    timed("page: Out of Action", "GET", "post_game_out_of_action")
    timed(
        "write: confirm Out of Action",
        "POST",
        "post_game_out_of_action",
        {"fighters": [fighter.pk for fighter in troops + elites]},
    )
    timed("page: Troops", "GET", "post_game_troops")
    for fighter, faces in zip(troops, TROOP_FACES, strict=True):
        data = {
            "fighter": fighter.pk,
            "purpose": "survival",
            "sequence": 1,
            "step": "troops",
            "mode": "enter",
        }
        timed("write: a Troop's D6 typed in", "POST", "post_game_roll", {**data, "first": faces[0]})
    timed("page: ELITE fighters", "GET", "post_game_elites")
    for fighter, faces in zip(elites, ELITE_FACES, strict=True):
        data = {"fighter": fighter.pk, "purpose": "trauma", "sequence": 1, "step": "elites", "mode": "enter"}
        timed(
            "write: an ELITE's D66 typed in",
            "POST",
            "post_game_roll",
            {**data, "first": faces[0], "second": faces[1]},
        )
    timed("poll: the spectator's live status", "GET", "post_game_status", who=watcher)


def walk(client, watcher, player, troops, elites, samples, queries) -> None:
    """One post-game from step 1 to Apply, every request timed."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    def url(name):
        return reverse(name, args=[player.game_id, player.warband_id])

    def timed(label, method, name, data=None, *, who=client, expect=(200, 302)):
        profiler = cProfile.Profile() if label == PROFILE else None
        with CaptureQueriesContext(connection) as captured:
            start, cpu = time.perf_counter(), time.process_time()
            if profiler is not None:
                profiler.enable()
            response = who.post(url(name), data) if method == "POST" else who.get(url(name))
            elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
        if profiler is not None:
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(
                r"/(combat|rosters|campaigns|config)/", 25
            )
        if response.status_code not in expect:
            raise RuntimeError(f"{label}: HTTP {response.status_code}")
        samples[label].append(elapsed)
        samples[CPU + label].append(cpu)
        queries[label].append(len(captured))
        if label == SHOW_QUERIES:
            # pghistory puts its context before each statement in a history context: show the statement.
            shown = [
                re.sub(r"^SELECT set_config\(.*?\);\s*", "", query["sql"], flags=re.S) for query in captured
            ]
            print(f"{label}:", *(sql[:160] for sql in shown), sep="\n  ")

    # The bare view, once per walk: measured under the same load as the steps, it is what their ratios divide by.
    start = time.perf_counter()
    if client.get("/bench/plain").status_code != 200:
        raise RuntimeError("the bare view did not answer: BENCH_VIEWS=true routes it (config/urls.py)")
    samples[BARE].append(time.perf_counter() - start)
    queries[BARE].append(0)
    trauma_steps(timed, watcher, troops, elites)
    timed("page: Experience", "GET", "post_game_experience")
    timed("write: Experience", "POST", "post_game_experience", {f"deeds_{elites[0].pk}": 1})
    later_steps(timed, troops, elites)
    timed("page: Exploration", "GET", "post_game_exploration")
    # The server's dice: their number follows the warband's battles fought (RULING E-1).
    explore = {"action": "roll", "mode": "roll", "modifier": 1}
    timed("write: the Exploration Dice rolled", "POST", "post_game_exploration", explore)
    money_steps(timed)
    timed("page: Review", "GET", "post_game_review")
    timed(APPLY, "POST", "post_game_apply")
    timed("page: overview once applied", "GET", "post_game")


def print_cpu_aims(samples, queries, width: int) -> None:
    """The aims on CPU time, which a loaded machine stretches little: every step under AIM_CPU_MS at p95, and the
    Apply of ten fighters at most AIM_APPLY_QUERIES queries and under AIM_APPLY_CPU_MS of CPU (median)."""
    print(f"CPU time per step in this process, p95 of {RUNS} runs:")
    for label in samples:
        if label.startswith(CPU) or label == BARE:
            continue
        _, cpu_p95 = median_p95_ms(samples[CPU + label])
        verdict = "ok" if cpu_p95 < AIM_CPU_MS else "MISSED"
        print(f"  cpu {label:<{width}}  {cpu_p95:6.1f} ms  (aim p95 < {AIM_CPU_MS:.0f} ms) {verdict}")
    cpu, _ = median_p95_ms(samples[CPU + APPLY])
    most = max(queries[APPLY])
    print(f"{APPLY}:")
    verdict = "ok" if most <= AIM_APPLY_QUERIES else "OVER AIM"
    print(f"  queries  {most:6d}     (aim <= {AIM_APPLY_QUERIES}) {verdict}")
    verdict = "ok" if cpu < AIM_APPLY_CPU_MS else "MISSED"
    print(f"  cpu      {cpu:6.1f} ms  (aim median < {AIM_APPLY_CPU_MS:.0f} ms) {verdict}")


def main() -> int:
    os.environ["BENCH_VIEWS"] = "true"  # routes the bare view (config/urls.py)
    try:
        setup_django(bench_database_url(BENCH_DATABASE))
    except Exception as error:  # noqa: BLE001 - say why the bench cannot run, and fail
        print(f"bench_post_game: cannot reach the database ({error})")
        return 1
    from django.test import Client

    from combat.models import PostGame

    pat, sam, scenarios = seed(RUNS + WARM_UP)
    client, watcher = Client(), Client()
    client.force_login(pat)
    watcher.force_login(sam)
    samples: dict[str, list[float]] = defaultdict(list)
    queries: dict[str, list[int]] = defaultdict(list)
    for index, (player, troops, elites) in enumerate(scenarios):
        if index == WARM_UP:
            samples.clear()
            queries.clear()
        walk(client, watcher, player, troops, elites, samples, queries)
    applied = PostGame.objects.filter(
        player__in=[player for player, _, _ in scenarios], status="applied"
    ).count()
    if applied != len(scenarios):
        print(f"bench_post_game: only {applied} of {len(scenarios)} post-games were applied")
        return 1
    print(
        f"Post-game wizard, ten fighters Out of Action, {RUNS} runs (server time in-process, median / p95):"
    )
    width = max(len(label) for label in samples)
    bare, _ = median_p95_ms(samples[BARE])
    print(f"  {'':<{width}}  median     p95  cpu median  cpu p95  queries  x bare (median)")
    for label, values in list(samples.items()):
        if label.startswith(CPU):
            continue
        median, p95 = median_p95_ms(values)
        cpu, cpu_p95 = median_p95_ms(samples[CPU + label]) if CPU + label in samples else (0.0, 0.0)
        verdict = "" if label == BARE else (" ok" if p95 < AIM_MS else " MISSED")
        most = max(queries[label])
        print(
            f"  {label:<{width}}  {median:6.1f} ms  {p95:6.1f} ms  {cpu:6.1f} ms  {cpu_p95:6.1f} ms  {most:3d}"
            f"  {median / bare:6.1f}x{'' if label == BARE else f'  (aim p95 < {AIM_MS:.0f} ms)'}{verdict}"
        )
    print_cpu_aims(samples, queries, width)
    return 0


if __name__ == "__main__":
    sys.exit(main())
