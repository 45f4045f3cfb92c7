"""Reading sections, slices and JSON Lines rows from disk, with one-line errors that name the file."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from .errors import InputError, RowError
from .evidence import EvidenceSlice, SliceError, json_error_text, load_slice, slice_from_value


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


# --- JSON Lines rows: {"id", "section", "slice" | "slice_path"} -----------------------------
# One reader for `qcgrade batch` and for corpus files, so both accept the same
# rows and say the same thing about a bad one.


@dataclass(frozen=True, slots=True)
class Row:
    """One row: its id (None when the row has none), its section text and its validated slice."""

    id: str | int | None
    section: str
    slice: EvidenceSlice


def numbered_lines(lines: Iterable[bytes | str]) -> Iterator[tuple[int, bytes]]:
    """``(line number, bytes)`` of every line that holds more than whitespace, numbered from 1."""
    for number, raw in enumerate(lines, start=1):
        data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
        if data.strip():
            yield number, data


def read_row(number: int, raw: bytes | str, base_dir: Path | str) -> Row:
    """Decode, parse and validate one JSON line; ``slice_path`` is relative to ``base_dir``.

    Other keys are ignored, so dataset rows can be fed as they are. ``id`` is
    optional (``null`` counts as absent); when given it is a non-empty string
    or an integer. Raises :class:`RowError`.
    """
    try:
        text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    except UnicodeDecodeError as exc:
        raise RowError(f"not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None
    if number == 1:
        text = text.lstrip("\ufeff")
    try:
        row = parse_json_line(text)
    except ValueError as exc:
        raise RowError(str(exc)) from None
    if not isinstance(row, dict):
        raise RowError(f"expected a JSON object, got {json_type(row)}")
    return row_from_fields(row, base_dir)


def row_from_fields(row: Mapping[str, Any], base_dir: Path | str | None, *, dataset: bool = False) -> Row:
    """Validate one row's fields (``id``, ``section``, ``slice`` or ``slice_path``). Raises :class:`RowError`.

    The reader behind :func:`read_row` (``qcgrade batch``, corpus files) and
    the Ray grader, so both accept the same rows and say the same about a bad
    one. ``dataset`` is for rows out of dataset columns (Arrow, numpy,
    pandas): there a null is how a row lacks a field, so ``None`` counts as
    absent, and a slice may come as Arrow or numpy data. A relative
    ``slice_path`` with no ``base_dir`` is an error, never a guess.
    """
    if dataset:
        row = {key: value for key, value in row.items() if value is not None}
    row_id = _row_id(row.get("id"))
    section = row.get("section")
    if not isinstance(section, str):
        problem = "missing" if "section" not in row else f"expected a string, got {json_type(section)}"
        raise RowError(f"section: {problem}", row_id)
    try:
        evidence = _row_slice(row, None if base_dir is None else Path(base_dir), dataset)
    except RowError as exc:
        raise RowError(str(exc), row_id) from None
    return Row(row_id, section, evidence)


def _row_id(value: Any) -> str | int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    if value == "":
        raise RowError("id: empty (give a non-empty string or an integer)")
    if isinstance(value, str):
        return value
    raise RowError(f"id: expected a string or an integer, got {json_type(value)}")


def _row_slice(row: Mapping[str, Any], base_dir: Path | None, dataset: bool) -> EvidenceSlice:
    has_slice, has_path = "slice" in row, "slice_path" in row
    if has_slice == has_path:
        raise RowError("give exactly one of slice and slice_path" if has_slice else "slice: missing (give slice or slice_path)")
    if has_slice:
        value = row["slice"]
        if not dataset and not isinstance(value, (dict, str)):
            raise RowError(f"slice: expected an object or JSON text, got {json_type(value)}")
        try:
            return slice_from_value(value) if dataset else load_slice(value)
        except SliceError as exc:
            raise RowError(f"slice: {exc}") from None
        except (ValueError, RecursionError) as exc:  # JSON text past Python's parsing limits
            raise RowError(f"slice: invalid JSON: {json_limit(exc)}") from None
    path = row["slice_path"]
    if not isinstance(path, str) or not path:
        got = "an empty string" if path == "" else json_type(path)
        raise RowError(f"slice_path: expected a file path, got {got}")
    if base_dir is None and not Path(path).is_absolute():
        raise RowError(f"slice_path: {path} is relative, and no folder was given to resolve it (base_dir=)")
    resolved = Path(path) if base_dir is None else base_dir / path
    try:
        stat = resolved.stat()
        return _slice_file(str(resolved), stat.st_mtime_ns, stat.st_size)
    except FileNotFoundError:
        raise RowError(f"slice_path: {resolved}: no such file") from None
    except (InputError, OSError) as exc:
        raise RowError(f"slice_path: {exc}") from None
    except (ValueError, RecursionError) as exc:  # JSON past Python's parsing limits
        raise RowError(f"slice_path: {resolved}: invalid JSON: {json_limit(exc)}") from None


@lru_cache(maxsize=256)
def _slice_file(path: str, mtime_ns: int, size: int) -> EvidenceSlice:
    # Rows of one file often share a slice file. Keyed on mtime and size too,
    # so an edited slice file is read again.
    return read_slice(Path(path))


def json_type(value: Any) -> str:
    """A JSON value's type as a person writing JSON would name it: ``an array``, ``a number``."""
    names = {
        type(None): "null",
        bool: "a boolean",
        int: "a number",
        float: "a number",
        str: "a string",
        list: "an array",
        dict: "an object",
    }
    return names.get(type(value), type(value).__name__)
