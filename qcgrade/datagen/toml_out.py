"""A small, deterministic TOML writer for the generated vocabulary files.

The standard library reads TOML but does not write it, and the files must come out byte for byte
the same on every run: keys are written in the order given (the builders sort them), arrays are
packed to a fixed width, and every character a reader cannot see (format and control characters,
spaces other than U+0020, unassigned code points) is written as a ``\\uXXXX`` escape so that
no-break spaces, bidi marks and friends stay visible in review. A string that starts with a
combining mark is escaped too: it would otherwise draw on the quote before it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypeAlias

import regex


class Lines(tuple[str, ...]):
    """A list of strings written as one multi-line string, one item per line.

    Python's TOML reader is pure Python and pays per token: a list of a thousand words parses
    several times faster as one string than as an array (``data.py`` splits it again).
    """

    __slots__ = ()


Value: TypeAlias = "str | int | bool | Lines | Sequence[Value] | Mapping[str, Value]"

#: Characters written as escapes: other (controls, format, unassigned, private use, surrogates)
#: and separators, except the plain space.
_INVISIBLE = regex.compile(r"[\p{C}\p{Z}--[ ]]", regex.V1)
_MARK = regex.compile(r"\p{M}")
# TOML allows "-" in bare keys; a key that is only a sign ("-") reads better quoted.
_BARE_KEY = regex.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")
_WIDTH = 100


def quote(text: str) -> str:
    """``text`` as a TOML basic string."""
    return f'"{_escaped(text)}"'


def _escaped(text: str) -> str:
    out = []
    for index, char in enumerate(text):
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif _INVISIBLE.match(char) or (index == 0 and _MARK.match(char)):
            code = ord(char)
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(char)
    return "".join(out)


def key(name: str) -> str:
    """``name`` as a TOML key: bare when it may be, quoted otherwise."""
    return name if _BARE_KEY.fullmatch(name) else quote(name)


def value(item: Value) -> str:
    """One value on one line (arrays and inline tables included)."""
    if isinstance(item, bool):
        return "true" if item else "false"
    if isinstance(item, int):
        return str(item)
    if isinstance(item, Lines):
        if any("\n" in line for line in item):
            raise ValueError("a Lines item holds a line break")
        return '"""\n' + "".join(_escaped(line) + "\n" for line in item) + '"""'
    if isinstance(item, str):
        return quote(item)
    if isinstance(item, Mapping):
        if not item:
            return "{}"
        return "{ " + ", ".join(f"{key(k)} = {value(v)}" for k, v in item.items()) + " }"
    return "[" + ", ".join(value(v) for v in item) + "]"


def assignment(name: str, item: Value) -> str:
    """``name = item``; a long array is packed over several lines, ``_WIDTH`` characters at most."""
    head = f"{key(name)} = "
    line = head + value(item)
    if len(line) <= _WIDTH or isinstance(item, (str, Lines, Mapping)) or not isinstance(item, Sequence):
        return line
    rows: list[str] = []
    row = ""
    for part in (value(v) + "," for v in item):
        if row and len(row) + 1 + len(part) > _WIDTH - 4:
            rows.append(row)
            row = part
        else:
            row = f"{row} {part}" if row else part
    if row:
        rows.append(row)
    return head + "[\n" + "".join(f"    {r}\n" for r in rows) + "]"


def table_header(path: Sequence[str]) -> str:
    return "[" + ".".join(key(p) for p in path) + "]"


def document(header: Sequence[str], tables: Sequence[tuple[Sequence[str], Mapping[str, Value]]]) -> str:
    """A whole file: comment lines, then each table's header and its assignments in order.

    A table with an empty path writes its assignments at the top level (before any header).
    """
    lines = [f"# {line}".rstrip() for line in header]
    for path, body in tables:
        lines.append("")
        if path:
            lines.append(table_header(path))
        lines.extend(assignment(k, v) for k, v in body.items())
    return "\n".join(lines) + "\n"
