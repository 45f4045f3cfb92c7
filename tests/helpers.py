"""Shared test helpers: paths to the case data and the fixture corpus, a timer (import as `helpers`)."""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable
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


def copy_fixtures(tmp_path: Path, ids: tuple[str, ...]) -> Path:
    """A corpus folder under ``tmp_path`` holding copies of the named fixture sections and their slices."""
    root = tmp_path / "corpus"
    for ident in ids:
        for suffix in (".md", ".json"):
            target = root / f"{ident}{suffix}"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes((FIXTURES / f"{ident}{suffix}").read_bytes())
    return root


def fixture_sections() -> list[Path]:
    """Every clean fixture section's markdown (the folders' READMEs aside), sorted."""
    return [md for md in sorted(FIXTURES.rglob("*.md")) if md.name != "README.md"]


def fixture_pairs() -> list[tuple[Path, Path]]:
    """Every clean fixture section with its slice, sorted."""
    pairs = []
    for md in fixture_sections():
        slice_path = md.with_suffix(".json")
        if slice_path.is_file():
            pairs.append((md, slice_path))
    return pairs


def best_time(work: Callable[[], object], runs: int = 4) -> float:
    """Best of a few runs with the collector paused: load spikes only ever add time.

    For ratios only (say 4x the input against 1x, measured back to back):
    never compare the result with a fixed number of seconds.
    """
    best = float("inf")
    gc.collect()
    gc.disable()
    try:
        for _ in range(runs):
            start = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - start)
    finally:
        gc.enable()
    return best
