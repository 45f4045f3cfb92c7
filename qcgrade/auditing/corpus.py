"""Load a corpus of sections with their evidence slices, for the gate and the audit.

A corpus is either

* a directory: every ``NAME.md`` below it (recursively) with its slice
  ``NAME.json`` or ``NAME.slice.json`` beside it; ``README.md`` files are
  documentation, not sections. Ids are paths relative to the directory,
  without the suffix, with ``/`` separators (``cloudmeadow-saas/s1``), or
* a JSONL file: one object per line, ``{"id", "section", "slice"}``, where
  ``id`` is a string or an integer, ``slice`` is an object or JSON text, and
  may instead be ``slice_path`` (relative to the JSONL file); the lines
  ``qcgrade batch`` reads. Blank lines are skipped.

Items come back sorted by id, so a corpus reads the same on every machine.
Every problem is an :class:`~qcgrade.files.InputError` naming the file (and
line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..evidence import EvidenceSlice, SliceError, load_slice
from ..files import (
    InputError,
    decode,
    json_limit,
    parse_json_line,
    read_bytes,
    read_section,
    read_slice,
    slice_beside,
)


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
    text = decode(path, read_bytes(path))
    items: list[CorpusItem] = []
    seen: dict[str, int] = {}
    # Lines end at "\n" only: JSON strings may hold U+2028, U+0085 and other
    # characters that str.splitlines() would also split at.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        item = _item(path, number, line)
        if item.id in seen:
            raise InputError(f"{path}:{number}: duplicate id {item.id!r} (first on line {seen[item.id]})")
        seen[item.id] = number
        items.append(item)
    return items


def _item(path: Path, number: int, line: str) -> CorpusItem:
    where = f"{path}:{number}"
    try:
        row: Any = parse_json_line(line)
    except ValueError as exc:
        raise InputError(f"{where}: {exc}") from None
    if not isinstance(row, dict):
        raise InputError(f"{where}: expected a JSON object, got {type(row).__name__}")
    item_id, section = row.get("id"), row.get("section")
    if isinstance(item_id, int) and not isinstance(item_id, bool):
        item_id = str(item_id)  # as `qcgrade batch` accepts it
    if not isinstance(item_id, str) or not item_id:
        raise InputError(f"{where}: 'id' must be a non-empty string (or an integer)")
    if not isinstance(section, str):
        raise InputError(f"{where}: 'section' must be a string (the section's markdown)")
    has_slice, has_path = "slice" in row, "slice_path" in row
    if has_slice == has_path:
        raise InputError(f"{where}: give exactly one of 'slice' (an object) and 'slice_path'")
    if has_path:
        slice_path = row["slice_path"]
        if not isinstance(slice_path, str) or not slice_path:
            raise InputError(f"{where}: 'slice_path' must be a non-empty string")
        try:
            evidence = read_slice(path.parent / slice_path)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    else:
        if not isinstance(row["slice"], (dict, str)):
            raise InputError(f"{where}: 'slice' must be a JSON object (or JSON text)")
        try:
            evidence = load_slice(row["slice"])
        except SliceError as exc:
            raise InputError(f"{where}: slice: {exc}") from None
        except (ValueError, RecursionError) as exc:  # JSON text past Python's parsing limits
            raise InputError(f"{where}: slice: invalid JSON: {json_limit(exc)}") from None
    return CorpusItem(item_id, section, evidence)
