"""`make bench`: every benchmark script in this folder, one after the other, figures printed as they come."""

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    scripts = sorted(p for p in HERE.glob("bench_*.py"))
    if not scripts:
        print("No benchmarks yet: later issues add bench/bench_*.py scripts.")
        return 0
    failed = 0
    for script in scripts:
        print(f"== {script.name}", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        failed += result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
