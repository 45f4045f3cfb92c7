"""Reading sections and slices from disk, with one-line errors that name the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import InputError
from .evidence import EvidenceSlice, SliceError, json_error_text, load_slice


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, expected a file") from None
    except PermissionError:
        raise InputError(f"{path}: cannot read: permission denied") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror or exc}") from None


def decode(path: Path | str, raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start})") from None


def read_section(path: Path) -> str:
    """The text of a section file, which must be UTF-8."""
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a section file")
    return decode(path, read_bytes(path))


def read_slice(path: Path) -> EvidenceSlice:
    """A validated slice from a JSON file."""
    if path.is_dir():
        raise InputError(f"{path}: is a directory, expected a slice JSON file")
    raw = read_bytes(path)
    decode(path, raw)
    try:
        return load_slice(raw)
    except SliceError as exc:
        raise InputError(f"{path}: {exc}") from None


def slice_beside(section: Path) -> Path | None:
    """``NAME.json`` or ``NAME.slice.json`` next to ``NAME.md``, if one exists."""
    for candidate in (section.with_suffix(".json"), section.with_suffix(".slice.json")):
        if candidate.is_file():
            return candidate
    return None


def slice_for(section: Path) -> EvidenceSlice:
    """The slice beside a section file, or an error saying what was looked for."""
    beside = slice_beside(section)
    if beside is None:
        raise InputError(
            f"{section}: no slice given and no {section.stem}.json or {section.stem}.slice.json beside it (use --slice)"
        )
    return read_slice(beside)


def discover_sections(paths: list[Path]) -> list[Path]:
    """Files as given; directories expand to their ``*.md`` files, sorted.

    A directory's ``README.md`` documents the folder and is not a section.
    """
    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*.md") if p.is_file() and p.name.lower() != "readme.md"))
        elif not path.exists():
            raise InputError(f"{path}: no such file or directory")
        else:
            found.append(path)
    return found


def parse_json_line(text: str) -> Any:
    """One JSON value; ValueError with a one-line ``invalid JSON: ...`` message otherwise."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {json_error_text(exc, line=False)}") from None
    except (ValueError, RecursionError) as exc:  # a 5,000-digit number, arrays nested 100k deep
        raise ValueError(f"invalid JSON: {json_limit(exc)}") from None


def json_limit(exc: BaseException) -> str:
    """What a JSON text that parses but exceeds Python's limits is, in a few words."""
    if isinstance(exc, RecursionError):
        return "nested too deeply"
    if "digits" in str(exc):
        return "a number has too many digits"
    return str(exc).split(";")[0]
