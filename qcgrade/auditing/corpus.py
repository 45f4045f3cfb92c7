"""Load a corpus of sections with their evidence slices, for the gate and the audit.

A corpus is either

* a directory: every ``NAME.md`` below it (recursively) with its slice
  ``NAME.json`` or ``NAME.slice.json`` beside it; ``README.md`` files are
  documentation, not sections. Ids are paths relative to the directory,
  without the suffix, with ``/`` separators (``cloudmeadow-saas/s1``), or
* a JSONL file: one object per line, ``{"id", "section", "slice"}``, where
  ``id`` is a non-empty string or an integer, ``slice`` is an object or JSON
  text, and may instead be ``slice_path`` (relative to the JSONL file): the
  rows ``qcgrade batch`` reads (:func:`qcgrade.files.read_row`), except that
  here every row needs an id and ids are unique. Blank lines are skipped.

Items come back sorted by id, so a corpus reads the same on every machine.
Every problem is an :class:`~qcgrade.files.InputError` naming the file (and
line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..evidence import EvidenceSlice
from ..files import InputError, RowError, numbered_lines, read_bytes, read_row, read_section, read_slice, slice_beside


@dataclass(frozen=True)
class CorpusItem:
    """One section of a corpus: its id, its text and its evidence slice."""

    id: str
    section: str = field(repr=False)
    slice: EvidenceSlice = field(repr=False)


def load_corpus(path: Path | str) -> list[CorpusItem]:
    """Every section of a corpus directory or JSONL file, sorted by id."""
    where = Path(path)
    if where.is_dir():
        items = _from_directory(where)
    elif where.is_file() and where.suffix.lower() == ".md":
        raise InputError(f"{where}: a corpus is a directory of NAME.md + NAME.json pairs or a JSONL file, not one section")
    elif where.is_file():
        items = _from_jsonl(where)
    elif not where.exists():
        raise InputError(f"{where}: no such file or directory")
    else:
        raise InputError(f"{where}: expected a directory or a JSONL file")
    if not items:
        raise InputError(f"{where}: no sections found")
    return sorted(items, key=lambda item: item.id)


def _from_directory(root: Path) -> list[CorpusItem]:
    items = []
    for md in sorted(root.rglob("*.md")):
        if not md.is_file() or md.name.lower() == "readme.md":
            continue
        beside = slice_beside(md)
        if beside is None:
            raise InputError(f"{md}: no slice beside it ({md.stem}.json or {md.stem}.slice.json)")
        item_id = md.relative_to(root).with_suffix("").as_posix()
        items.append(CorpusItem(item_id, read_section(md), read_slice(beside)))
    return items


def _from_jsonl(path: Path) -> list[CorpusItem]:
    # The rows `qcgrade batch` reads, read by the same function. Lines end at
    # b"\n" only: JSON strings may hold U+2028, U+0085 and other characters
    # that str.splitlines() would also split at.
    items: list[CorpusItem] = []
    seen: dict[str, int] = {}
    for number, raw in numbered_lines(read_bytes(path).split(b"\n")):
        where = f"{path}:{number}"
        try:
            row = read_row(number, raw, path.parent)
        except RowError as exc:
            raise InputError(f"{where}: {exc}") from None
        if row.id is None:
            raise InputError(f"{where}: id: missing (each section of a corpus needs one)")
        item_id = str(row.id)
        if item_id in seen:
            raise InputError(f"{where}: duplicate id {item_id!r} (first on line {seen[item_id]})")
        seen[item_id] = number
        items.append(CorpusItem(item_id, row.section, row.slice))
    return items
