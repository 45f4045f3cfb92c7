"""How long does ``qcgrade check`` take to start? Against ``python -c pass``, in the same run.

Run: ``python benchmarks/bench_startup.py [--rounds N]``

Each round starts, alternately, a bare interpreter (``python -c pass``),
``python -m qcgrade check`` on the bundled clean example, ``python -m qcgrade
checks`` and ``python -c "import qcgrade"``, and records wall time. The
machines here are shared and noisy, so the figure that matters is the ratio
to the bare interpreter, the median of per-round ratios; the absolute
medians are printed beside it for reference. ``modules`` counts the
qcgrade modules and the heavy third-party ones a plain ``import qcgrade``
loads (asyncio and the audit's HTML stack should not be among them).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "qcgrade" / "demo"

COMMANDS: dict[str, list[str]] = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "import qcgrade": [sys.executable, "-c", "import qcgrade"],
    "qcgrade checks": [sys.executable, "-m", "qcgrade", "checks"],
    "qcgrade check (one file)": [
        sys.executable,
        "-m",
        "qcgrade",
        "check",
        str(DEMO / "clean.md"),
        "--slice",
        str(DEMO / "slice.json"),
    ],
}


# Users start from compiled bytecode (pip writes it; so does the first run),
# so the children may write and read it whatever this shell says.
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _time(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT, env=ENV)
    return time.perf_counter() - start


def loaded_modules() -> dict[str, object]:
    probe = (
        "import sys, json, qcgrade; m = sorted(sys.modules);"
        "print(json.dumps({'qcgrade': sum(x.startswith('qcgrade') for x in m),"
        "'asyncio': 'asyncio' in m, 'rich': 'rich' in m, 'click': 'click' in m}))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT, env=ENV)
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    for argv in COMMANDS.values():  # warm the bytecode and file caches
        _time(argv)
    times: dict[str, list[float]] = {name: [] for name in COMMANDS}
    ratios: dict[str, list[float]] = {name: [] for name in COMMANDS}
    for _ in range(args.rounds):
        base = _time(COMMANDS["python -c pass"])
        times["python -c pass"].append(base)
        for name, argv in COMMANDS.items():
            if name == "python -c pass":
                continue
            elapsed = _time(argv)
            times[name].append(elapsed)
            ratios[name].append(elapsed / base)
    print(f"start-up over {args.rounds} rounds (median; ratio = median of per-round ratios to python -c pass)")
    for name in COMMANDS:
        median = statistics.median(times[name])
        ratio = f"{statistics.median(ratios[name]):6.1f}x" if ratios[name] else "   1.0x"
        print(f"  {name:<26} {median * 1000:7.1f} ms  {ratio}")
    print("import qcgrade loads:", json.dumps(loaded_modules(), sort_keys=True))


if __name__ == "__main__":
    main()
