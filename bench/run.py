"""`make bench`: every benchmark script in this folder, one after the other, figures printed as they come, then a
summary: each figure printed beside an aim, script by script, so a missed aim (the engine's odds of an Injury Roll
under 5 ms among them) is seen without scrolling back; and last, every aim met or missed, counted, the missed ones
and any script that stopped named again.

    python bench/run.py                      every bench/bench_*.py
    python bench/run.py bench_web growth     only the scripts whose names contain one of the words

An aim is a line a script prints that says `aim`; it is missed when it says `MISSED` or `OVER AIM` anywhere, met
when it says only `ok` (a line may go on after its verdict with another figure's `ok`). Every script prints its aims so, and the summary needs nothing from them but their output.
"""

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# A figure with its aim: "... (aim < 5 ms) ok", "aim 1.5x: ok"; "not aimed" lines are for comparison only.
AIMED = re.compile(r"\baim\b", re.IGNORECASE)
VERDICT = re.compile(r"(?<![\w-])(ok|MISSED|OVER AIM)(?![\w-])")


def aimed(lines: list[str]) -> list[str]:
    """The lines of a script's output that state a figure against its aim."""
    return [line.strip() for line in lines if AIMED.search(line) and "not aimed" not in line]


def summary(figures: dict[str, list[str]]) -> list[str]:
    """The summary printed last: each script's aimed figures under its name, or why there are none."""
    lines = ["== summary: every figure with its aim"]
    for name, output in figures.items():
        lines.append(name)
        lines.extend(f"  {line}" for line in aimed(output) or ["(no figure with an aim)"])
    return lines


def verdicts(figures: dict[str, list[str]]) -> list[tuple[str, bool, str]]:
    """(script, met, line) for every aimed figure that says whether its aim was met."""
    found = []
    for name, output in figures.items():
        for line in aimed(output):
            said = VERDICT.findall(line)
            if said:
                found.append((name, all(verdict == "ok" for verdict in said), line))
    return found


def tally(figures: dict[str, list[str]], stopped: dict[str, int]) -> list[str]:
    """The last lines: how many aims were met and missed, the missed ones again, and the scripts that stopped
    (their aims after that were never measured)."""
    found = verdicts(figures)
    missed = [(name, line) for name, met, line in found if not met]
    lines = [f"== {len(found) - len(missed)} aims met, {len(missed)} missed"]
    lines += [f"MISSED  {name}: {line}" for name, line in missed]
    lines += [f"STOPPED {name}: status {code}, its later aims not measured" for name, code in stopped.items()]
    return lines


def run(script: Path) -> tuple[int, list[str]]:
    """Run one script, printing its output as it comes and keeping it for the summary."""
    kept = []
    with subprocess.Popen(
        [sys.executable, "-u", str(script)], cwd=HERE.parent, stdout=subprocess.PIPE, text=True, bufsize=1
    ) as process:
        for line in process.stdout:
            print(line, end="", flush=True)
            kept.append(line)
    return process.returncode, kept


def main(words: list[str]) -> int:
    scripts = sorted(p for p in HERE.glob("bench_*.py"))
    if words:
        scripts = [script for script in scripts if any(word in script.stem for word in words)]
    if not scripts:
        print("No benchmark matches: bench/bench_*.py are the scripts.")
        return 0
    stopped = {}
    figures = {}
    for script in scripts:
        print(f"== {script.name}", flush=True)
        code, figures[script.name] = run(script)
        if code != 0:
            stopped[script.name] = code
    print("\n".join(summary(figures) + tally(figures, stopped)), flush=True)
    return 1 if stopped else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
