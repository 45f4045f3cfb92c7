"""What does grounding cost? Tier 1 + grounding against tier 1 alone, same sections, same run.

Run: ``python benchmarks/bench_grounding.py [--rounds N] [--stages] [--per-check]``

Every clean fixture section, as written (the sizes a composer produces) and
cut or repeated to 5 and 20 KB, graded against its own slice, alternating
between ``grade(text, slice)`` and ``grade(text, slice, grounding=True)``
within each round. The shared machine is noisy, so the figure that matters
is the ratio, the median of per-round ratios. Target: grounding adds at
most 30% (a ratio of 1.30 or less). ``--stages`` also splits grounding's
cost on the sections as written into its stages, each as a share of tier 1
(the numerals' stage: what reading every numeral in one scan, as ``grade()``
does with grounding on, costs beyond tier 1's own scan of the uncited text).
``--per-check`` times tier 1 with each grounding check alone (``select`` and
``ignore`` let a user run just one), and with both.
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
from qcgrade.checks import CHECKS  # noqa: E402
from qcgrade.evidence import load_slice  # noqa: E402
from qcgrade.grounding import match  # noqa: E402
from qcgrade.options import Options  # noqa: E402
from qcgrade.reading.section import parse_section  # noqa: E402

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


STAGES = ("citing sentences", "their numerals", "value_mismatch", "polarity_mismatch")


def stages(rounds: int) -> dict[str, float]:
    """Each grounding stage's cost on a fresh parse, as a share of tier 1 (median over rounds)."""
    items = [(text, load_slice(evidence)) for text, evidence in corpus()]  # type: ignore[arg-type]
    options = Options.coerce(None).with_(grounding=True)
    tier1 = [c for c in CHECKS if c.tier == 1]
    value, polarity = (next(c for c in CHECKS if c.name == name) for name in ("value_mismatch", "polarity_mismatch"))
    shares: dict[str, list[float]] = {name: [] for name in STAGES}
    for _ in range(rounds):
        spent = dict.fromkeys(("tier 1", *STAGES), 0.0)
        for text, evidence in items:
            match.facts_for(evidence)  # the slice's facts are read once per slice, as in a reward loop
            t0 = time.perf_counter()
            section = parse_section(text)
            for check in tier1:
                list(check.run(section, evidence, options))
            tier1_alone = time.perf_counter() - t0
            # As grade() does with grounding on: every numeral in one scan, then tier 1
            # (which filters that list). What this costs beyond tier 1 alone is the numerals' stage.
            t0 = time.perf_counter()
            section = parse_section(text)
            _ = section.numerals
            for check in tier1:
                list(check.run(section, evidence, options))
            t1 = time.perf_counter()
            reading = match._reading(section, evidence)
            t2 = time.perf_counter()
            reading.numeral_list()  # filters the list read above
            t3 = time.perf_counter()
            list(value.run(section, evidence, options))
            t4 = time.perf_counter()
            list(polarity.run(section, evidence, options))
            t5 = time.perf_counter()
            numerals = (t1 - t0) - tier1_alone + (t3 - t2)
            for name, spent_here in zip(("tier 1", *STAGES), (tier1_alone, t2 - t1, numerals, t4 - t3, t5 - t4)):
                spent[name] += spent_here
        for name in STAGES:
            shares[name].append(spent[name] / spent["tier 1"])
    return {name: statistics.median(values) for name, values in shares.items()}


PER_CHECK = {
    "value_mismatch alone": Options(grounding=True, ignore=frozenset({"polarity_mismatch"})),
    "polarity_mismatch alone": Options(grounding=True, ignore=frozenset({"value_mismatch"})),
    "both": Options(grounding=True),
}


def per_check(rounds: int) -> dict[str, float]:
    """Tier 1 plus each grounding check alone, and both, as ratios to tier 1 (sections as written)."""
    items = [(text, load_slice(evidence)) for text, evidence in corpus()]  # type: ignore[arg-type]
    variants = {"tier 1": Options(), **PER_CHECK}

    def timed_with(options: Options) -> float:
        start = time.perf_counter()
        for text, evidence in items:
            grade(text, evidence, options)
        return time.perf_counter() - start

    for options in variants.values():
        timed_with(options)  # warm caches
    spent: dict[str, list[float]] = {name: [] for name in variants}
    for i in range(rounds):
        order = list(variants) if i % 2 else list(variants)[::-1]  # drift in machine load cancels out
        for name in order:
            spent[name].append(timed_with(variants[name]))
    return {name: statistics.median(a / b for a, b in zip(spent[name], spent["tier 1"])) for name in PER_CHECK}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--stages", action="store_true", help="also split grounding's cost into its stages")
    parser.add_argument("--per-check", action="store_true", help="also time each grounding check alone")
    args = parser.parse_args()
    results = measure(args.rounds)
    split = stages(args.rounds) if args.stages else None
    checks = per_check(args.rounds) if args.per_check else None
    if args.json:
        extra = {key: value for key, value in (("stages", split), ("per_check", checks)) if value}
        print(json.dumps({"sizes": results, **extra} if extra else results, indent=2, sort_keys=True))
        return
    print(f"{'size':>10} {'sections':>8} {'chars':>7} {'tier 1 ms':>9} {'+grounding ms':>13} {'ratio':>6}")
    for name, row in results.items():
        print(
            f"{name:>10} {row['sections']:>8} {row['mean_chars']:>7.0f} {row['tier1_ms']:>9.3f} "
            f"{row['grounding_ms']:>13.3f} {row['ratio']:>5.2f}x"
        )
    if split:
        print("\ngrounding's stages on the sections as written, as a share of tier 1:")
        for name, share in split.items():
            print(f"{name:>20} {100 * share:5.1f}%")
    if checks:
        print("\ntier 1 plus each grounding check, on the sections as written, as a ratio to tier 1:")
        for name, ratio in checks.items():
            print(f"{name:>24} {ratio:5.2f}x")


if __name__ == "__main__":
    main()
