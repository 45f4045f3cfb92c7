"""What does grounding cost? Tier 1 + grounding against tier 1 alone, same sections, same run.

Run: ``python benchmarks/bench_grounding.py [--rounds N]``

Every clean fixture section, as written (the sizes a composer produces) and
cut or repeated to 5 and 20 KB, graded against its own slice, alternating
between ``grade(text, slice)`` and ``grade(text, slice, grounding=True)``
within each round. The shared machine is noisy, so the figure that matters
is the ratio, the median of per-round ratios. Target: grounding adds at
most 30% (a ratio of 1.30 or less).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_grade import corpus, resize  # noqa: E402

from qcgrade import grade  # noqa: E402

SIZES: tuple[int | None, ...] = (None, 5_000, 20_000)  # None: each section as written


def timed(items: list[tuple[str, object]], grounding: bool) -> float:
    start = time.perf_counter()
    for text, evidence in items:
        grade(text, evidence, grounding=grounding)  # type: ignore[arg-type]
    return time.perf_counter() - start


def measure(rounds: int) -> dict[str, dict[str, float]]:
    pairs = corpus()
    results: dict[str, dict[str, float]] = {}
    for size in SIZES:
        items = [(text if size is None else resize(text, size), evidence) for text, evidence in pairs]
        for grounding in (False, True):  # warm caches: slices, slice facts, compiled patterns
            timed(items, grounding)
        ratios, tier1_ms, grounded_ms = [], [], []
        for i in range(rounds):
            # Alternate which goes first, so drift in machine load cancels out.
            if i % 2:
                t_ground, t_tier1 = timed(items, True), timed(items, False)
            else:
                t_tier1, t_ground = timed(items, False), timed(items, True)
            ratios.append(t_ground / t_tier1)
            tier1_ms.append(1e3 * t_tier1 / len(items))
            grounded_ms.append(1e3 * t_ground / len(items))
        name = "as written" if size is None else f"{size // 1000}KB"
        results[name] = {
            "sections": len(items),
            "mean_chars": sum(len(t) for t, _ in items) / len(items),
            "tier1_ms": statistics.median(tier1_ms),
            "grounding_ms": statistics.median(grounded_ms),
            "ratio": statistics.median(ratios),
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = measure(args.rounds)
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return
    print(f"{'size':>10} {'sections':>8} {'chars':>7} {'tier 1 ms':>9} {'+grounding ms':>13} {'ratio':>6}")
    for name, row in results.items():
        print(
            f"{name:>10} {row['sections']:>8} {row['mean_chars']:>7.0f} {row['tier1_ms']:>9.3f} "
            f"{row['grounding_ms']:>13.3f} {row['ratio']:>5.2f}x"
        )


if __name__ == "__main__":
    main()
