"""`make bench`: every benchmark script in this folder, one after the other, figures printed as they come, then a
summary: each figure printed beside an aim, script by script, so a missed aim (the engine's odds of an Injury Roll
under 5 ms among them) is seen without scrolling back."""

import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# A figure with its aim: "... (aim < 5 ms) ok", "aim 1.5x: ok"; "not aimed" lines are for comparison only.
AIMED = re.compile(r"\baim\b", re.IGNORECASE)


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


def run(script: Path) -> tuple[int, list[str]]:
    """Run one script, printing its output as it comes and keeping it for the summary."""
    kept = []
    with subprocess.Popen(
        [sys.executable, str(script)], cwd=HERE.parent, stdout=subprocess.PIPE, text=True, bufsize=1
    ) as process:
        for line in process.stdout:
            print(line, end="", flush=True)
            kept.append(line)
    return process.returncode, kept


def main() -> int:
    scripts = sorted(p for p in HERE.glob("bench_*.py"))
    if not scripts:
        print("No benchmarks yet: later issues add bench/bench_*.py scripts.")
        return 0
    failed = 0
    figures = {}
    for script in scripts:
        print(f"== {script.name}", flush=True)
        code, figures[script.name] = run(script)
        failed += code != 0
    print("\n".join(summary(figures)), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
