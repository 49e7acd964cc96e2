"""`make bench` (bench/run.py) ends with a summary of every figure beside its aim; the engine's script prints the
odds of the biggest Injury Roll a player can build against its 5 ms aim, and the summary carries it."""

import importlib.util
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"


def load_run():
    spec = importlib.util.spec_from_file_location("bench_run", BENCH / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_summary_keeps_each_aimed_figure_under_its_script():
    run = load_run()
    lines = run.summary(
        {
            "bench_rules.py": [
                "injury_odds, a 31-dice Bloodbath, computed: 0.308 ms (aim < 5 ms) ok\n",
                "warming up\n",
            ],
            "bench_growth.py": [
                "   after one fighter's XP changed, not aimed:\n",
                "x ratio 1.1  aim <= 1.5 ok\n",
            ],
            "bench_empty.py": ["nothing measured\n"],
        }
    )
    assert lines == [
        "== summary: every figure with its aim",
        "bench_rules.py",
        "  injury_odds, a 31-dice Bloodbath, computed: 0.308 ms (aim < 5 ms) ok",
        "bench_growth.py",
        "  x ratio 1.1  aim <= 1.5 ok",
        "bench_empty.py",
        "  (no figure with an aim)",
    ]


def test_the_engines_bench_prints_the_injury_odds_with_the_5_ms_aim_and_the_summary_has_it(capsys):
    run = load_run()
    code, output = run.run(BENCH / "bench_rules.py")
    assert code == 0
    (injury,) = [line for line in output if line.startswith("injury_odds")]
    assert "(aim < 5 ms)" in injury
    assert f"  {injury.strip()}" in run.summary({"bench_rules.py": output})
    assert injury in capsys.readouterr().out  # printed as it came, too


def test_it_ends_with_every_aim_met_or_missed_counted_and_the_missed_named_again():
    run = load_run()
    figures = {
        "bench_web.py": [
            "roster, 50 fighters, render path: 0.19x the authenticated view (aim >= 0.35x) MISSED\n",
            "roster, 50 fighters, cache hit: 2.41x the authenticated view (aim >= 1.0x) ok\n",
            "make run, dashboard, render path: the deployed 0.74x its throughput (aim <= 1.5x) ok\n",
        ],
        "bench_history.py": [
            "   feed  median 900.0 ms   aim 150 ms: OVER AIM\n",
            "(over an aim: reported)\n",
        ],
        "bench_growth.py": ["history feed  ratio 1.10  aim <= 1.5 ok\n"],
        "bench_tracker.py": ["board page: median 41.0 ms, p95 55.0 ms (aim < 30 ms) MISSED; size 30 KB ok\n"],
    }
    assert run.tally(figures, {"bench_growth.py": 1}) == [
        "== 3 aims met, 3 missed",
        "MISSED  bench_web.py: roster, 50 fighters, render path: 0.19x the authenticated view (aim >= 0.35x) MISSED",
        "MISSED  bench_history.py: feed  median 900.0 ms   aim 150 ms: OVER AIM",
        "MISSED  bench_tracker.py: board page: median 41.0 ms, p95 55.0 ms (aim < 30 ms) MISSED; size 30 KB ok",
        "STOPPED bench_growth.py: status 1, its later aims not measured",
    ]
