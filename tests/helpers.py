"""Shared test helpers: paths to the case data and the fixture corpus (import as `helpers`)."""

from __future__ import annotations

import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
CASES = Path(__file__).resolve().parent / "cases"
FIXTURES = ROOT / "fixtures"


def load_toml(path: Path) -> dict:
    with path.open("rb") as handle:
        return tomllib.load(handle)


def fixture_pairs() -> list[tuple[Path, Path]]:
    """Every clean fixture section with its slice, sorted."""
    pairs = []
    for md in sorted(FIXTURES.rglob("*.md")):
        if md.name == "README.md":
            continue
        slice_path = md.with_suffix(".json")
        if slice_path.is_file():
            pairs.append((md, slice_path))
    return pairs
