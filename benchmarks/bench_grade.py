"""How fast is grade()? Sections per second at 1, 5 and 20 KB, against baselines.

Run: ``python benchmarks/bench_grade.py [--rounds N]``

Sections are built from the fixture corpus: each clean fixture section is cut
or repeated (at paragraph boundaries) to the target size and graded against
its own slice. In the same run, alternating with grading, it times
markdown-it-py's full ``parse()`` (CommonMark plus tables) and one anchored
regex pass over the same text. Machines here are shared and noisy, so the
figures that matter are ratios, each the median of per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import regex
from markdown_it import MarkdownIt

from qcgrade import grade, load_slice

ROOT = Path(__file__).resolve().parent.parent
SIZES = (1_000, 5_000, 20_000)
# One anchored pass: every citation, tag, xref or digit run (the practical floor).
ONE_PASS = regex.compile(r"\[[A-Za-z][^\]\n]{0,40}\]|\{[a-z_][\w.]*\}|§\w+|\d+")


def corpus() -> list[tuple[str, object]]:
    pairs = []
    for md in sorted((ROOT / "fixtures").rglob("*.md")):
        slice_path = md.with_suffix(".json")
        if md.name != "README.md" and slice_path.is_file():
            pairs.append((md.read_text(encoding="utf-8"), load_slice(slice_path.read_bytes())))
    return pairs


def resize(text: str, size: int) -> str:
    """Paragraphs of ``text``, repeated as needed, until about ``size`` characters."""
    paragraphs = [p for p in text.split("\n\n") if p.strip()]
    out: list[str] = []
    total = 0
    i = 0
    while total < size:
        paragraph = paragraphs[i % len(paragraphs)]
        out.append(paragraph)
        total += len(paragraph) + 2
        i += 1
    return "\n\n".join(out) + "\n"


def timed(func, items) -> float:
    start = time.perf_counter()
    for item in items:
        func(item)
    return time.perf_counter() - start


def measure(rounds: int) -> dict[str, dict[str, float]]:
    md = MarkdownIt("commonmark").enable("table")
    pairs = corpus()
    results: dict[str, dict[str, float]] = {}
    for size in SIZES:
        items = [(resize(text, size), evidence) for text, evidence in pairs]
        texts = [text for text, _ in items]
        for text, evidence in items:  # warm caches (slice validation, regex compilation)
            grade(text, evidence)
        vs_parse, vs_regex, grade_rates = [], [], []
        for _ in range(rounds):
            t_grade = timed(lambda item: grade(*item), items)
            t_parse = timed(md.parse, texts)
            t_regex = timed(lambda t: ONE_PASS.findall(t), texts)
            vs_parse.append(t_grade / t_parse)
            vs_regex.append(t_grade / t_regex)
            grade_rates.append(len(items) / t_grade)
        results[f"{size // 1000}KB"] = {
            "sections": len(items),
            "mean_chars": sum(len(t) for t in texts) / len(texts),
            "grade_per_s": statistics.median(grade_rates),
            "grade_ms": 1e3 / statistics.median(grade_rates),
            "ratio_vs_markdown_it_parse": statistics.median(vs_parse),
            "ratio_vs_one_regex_pass": statistics.median(vs_regex),
        }
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    results = measure(args.rounds)
    if args.json:
        print(json.dumps(results, indent=2, sort_keys=True))
        return
    print(f"{'size':>5} {'sections':>8} {'chars':>7} {'grade/s':>9} {'ms':>6} {'vs parse()':>10} {'vs 1 regex':>10}")
    for name, row in results.items():
        print(
            f"{name:>5} {row['sections']:>8} {row['mean_chars']:>7.0f} {row['grade_per_s']:>9.0f} "
            f"{row['grade_ms']:>6.3f} {row['ratio_vs_markdown_it_parse']:>9.2f}x {row['ratio_vs_one_regex_pass']:>9.1f}x"
        )
    per_kb = [row["grade_ms"] / (row["mean_chars"] / 1000) for row in results.values()]
    print("ms per KB at each size (flat = linear):", " ".join(f"{v:.3f}" for v in per_kb))


if __name__ == "__main__":
    main()
