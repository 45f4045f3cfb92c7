"""The golden dump: every finding qcgrade raises over every input the project keeps, as one text.

A change to what the grader reads is safe when this dump stays byte-identical
except for the findings the change means to alter. The inputs:

- every clean fixture section (``fixtures/``) and every honest-corpus section
  (``tests/corpora/honest/``), each with its slice;
- every grading case of the red-team corpus (``tests/corpora/redteam/``), the
  per-check cases (``tests/cases/``) and the grounding case files
  (``tests/grounding/``);
- every injection of every defect class into every fixture section, seeds
  0 to 4 (what the gate grades).

Each is graded with every check on (tier 1, tier 2 and grounding). With
``--reading`` the dump also lists what the reader sees in each input: its
sentences, numerals and markers, so a change to the reading shows before it
reaches a finding.

Usage (from the repository root)::

    python tests/golden/golden.py                 # write tests/golden/findings.txt
    python tests/golden/golden.py --check         # exit 1 and show the difference when it changed
    python tests/golden/golden.py -o before.txt --reading
    python tests/golden/golden.py -j 2            # on two processes; the bytes are the same

``tests/test_golden.py`` runs ``--check`` (marker ``slow``).
"""

from __future__ import annotations

import argparse
import difflib
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parents[2]
TESTS = ROOT / "tests"
GOLDEN = Path(__file__).resolve().parent / "findings.txt"
SEEDS = range(5)

#: One input: its name in the dump, the section text, its slice (JSON text) and what to grade with.
Input = tuple[str, str, str]


def _toml(path: Path) -> dict[str, Any]:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def _pairs(root: Path, label: str) -> Iterator[Input]:
    for md in sorted(root.rglob("*.md")):
        if md.name.lower() in ("readme.md", "baseline.md"):
            continue
        beside = md.with_suffix(".json")
        if beside.is_file():
            name = md.relative_to(root).with_suffix("").as_posix()
            yield f"{label}/{name}", md.read_text(encoding="utf-8"), beside.read_text(encoding="utf-8")


def _fixture_slice(name: str) -> str:
    return (ROOT / "fixtures" / f"{name}.json").read_text(encoding="utf-8")


def _cases() -> Iterator[Input]:
    case_slice = (TESTS / "cases" / "slice.json").read_text(encoding="utf-8")
    for path in sorted((TESTS / "cases").glob("*.toml")):
        data = _toml(path)
        for kind in ("pass", "fail"):
            for case in data.get(kind, []):
                if "text" in case:
                    yield f"cases/{path.stem}/{kind}/{case['name']}", case["text"], case_slice
    redteam = TESTS / "corpora" / "redteam"
    for path in sorted(redteam.glob("*.toml")):
        for case in _toml(path).get("case", []):
            if "text" not in case:
                continue
            if "slice_json" in case:
                evidence = case["slice_json"]
            else:
                evidence = (redteam / case.get("slice", "slice.json")).read_text(encoding="utf-8")
            yield f"redteam/{path.stem}/{case['name']}", case["text"], evidence
    for path in sorted((TESTS / "grounding").glob("*.toml")):
        for number, case in enumerate(_toml(path).get("case", [])):
            if "text" not in case:
                continue
            if "slice_json" in case:
                evidence = case["slice_json"]
            elif "slice" in case:
                evidence = _fixture_slice(case["slice"])
            else:
                continue  # a numeral-level case (not_values.toml): no section to grade
            yield f"grounding/{path.stem}/{case.get('name', number)}", case["text"], evidence


def inputs() -> list[Input]:
    """Every graded input but the injections, in a fixed order."""
    found = [*_pairs(ROOT / "fixtures", "fixtures"), *_pairs(TESTS / "corpora" / "honest", "honest"), *_cases()]
    names = [name for name, _, _ in found]
    duplicates = sorted({name for name in names if names.count(name) > 1})
    if duplicates:  # a name is the key a diff is read by
        raise SystemExit(f"golden: duplicate input names: {duplicates[:5]}")
    return found


def _describe(name: str, text: str, evidence: str, reading: bool) -> str:
    import qcgrade

    out = [f"## {name}"]
    try:
        report = qcgrade.grade(text, evidence, tier2=True, grounding=True)
    except qcgrade.QcgradeError as exc:
        out.append(f"  error {type(exc).__name__}: {exc}")
        return "\n".join(out)
    for f in report.findings:
        out.append(f"  {f.check} [{f.rule}] {f.start}:{f.end} {f.line}:{f.column} {f.message} | {text[f.start : f.end]!r}")
    if reading:
        out.extend(_reading(text))
    return "\n".join(out)


def _reading(text: str) -> list[str]:
    from qcgrade import parse_section

    section = parse_section(text)
    lines = [f"  sentence {s.start}:{s.end} {s.kind} {text[s.start : s.end][:60]!r}" for s in section.sentences]
    lines += [f"  numeral {n.start}:{n.end} s{n.sentence} {n.text!r} [{n.rule}]" for n in section.numerals]
    for marker in (*section.citations, *section.metric_tags, *section.xrefs):
        lines.append(f"  {marker.kind} {marker.start}:{marker.end} s{marker.sentence} {marker.id!r} vouches={marker.vouches}")
    return lines


def _injected(name: str, text: str, evidence: str, reading: bool) -> list[str]:
    from qcgrade.injectors import DEFECTS, EXTENDED_DEFECTS, NotApplicable, UncleanSection, inject

    blocks = []
    for defect in dict.fromkeys((*DEFECTS, *EXTENDED_DEFECTS)):
        for seed in SEEDS:
            label = f"inject/{name}/{defect}/{seed}"
            try:
                injection = inject(text, evidence, defect, seed=seed)
            except (NotApplicable, UncleanSection) as exc:
                blocks.append(f"## {label}\n  not injected: {type(exc).__name__}")
                continue
            blocks.append(_describe(label, injection.text, evidence, reading))
    return blocks


def _one(job: tuple[str, str, str, bool, bool]) -> str:
    name, text, evidence, reading, injections = job
    if injections:
        return "\n".join(_injected(name, text, evidence, reading))
    return _describe(name, text, evidence, reading)


def dump(reading: bool = False, jobs: int = 1) -> str:
    """The whole dump as one text (the same bytes whatever ``jobs`` is)."""
    found = inputs()
    work = [(name, text, evidence, reading, False) for name, text, evidence in found]
    work += [(name, text, evidence, reading, True) for name, text, evidence in found if name.startswith("fixtures/")]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            blocks = list(pool.map(_one, work, chunksize=16))
    else:
        blocks = [_one(job) for job in work]
    return "\n".join(blocks) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", type=Path, default=GOLDEN, help="where to write the dump (default: %(default)s)")
    parser.add_argument("--check", action="store_true", help="compare with the committed dump instead of writing it")
    parser.add_argument("--reading", action="store_true", help="also list each input's sentences, numerals and markers")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="processes to grade on")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    text = dump(reading=args.reading, jobs=args.jobs)
    if args.check:
        before = args.output.read_text(encoding="utf-8")
        if before == text:
            print(f"golden: {text.count(chr(10) + '## ') + 1} gradings, unchanged")
            return 0
        diff = difflib.unified_diff(before.splitlines(), text.splitlines(), str(args.output), "now", n=1, lineterm="")
        sys.stdout.writelines(line + "\n" for line in diff)
        return 1
    args.output.write_text(text, encoding="utf-8")
    print(f"golden: {text.count(chr(10) + '## ') + 1} gradings written to {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
