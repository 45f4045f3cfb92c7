"""unicode.toml: character classes of the Unicode Character Database, as the pinned regex reads them.

The reader scans for a few properties with the stdlib engine, which reads a listed class several
times faster than the regex engine tests a property: sentence terminators, closing punctuation,
default-ignorable characters, numbers and currency signs. Each class is written as code-point
ranges over the whole code space (not only the BMP), so run time never walks the code space.
"""

from __future__ import annotations

import regex

from .toml_out import Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

#: name -> (the regex property class it lists, what the reader uses it for)
CLASSES = {
    "sentence_terminal": (r"\p{Sentence_Terminal}", "where a sentence may end (qcgrade/reading/sentences.py)"),
    "closing": (r"[\p{Pe}\p{Pf}\p{Pi}]", "closing brackets and quotes of every style after a terminator"),
    "default_ignorable": (r"\p{Default_Ignorable_Code_Point}", "characters that render as nothing (projection.py)"),
    "number": (r"\p{N}", "digits of any script and other numbers (look-alike runs)"),
    "currency": (r"\p{Sc}", "currency signs (look-alike runs)"),
}

DESCRIPTION = [
    "[classes.NAME]: property: the regex property class listed; ranges: its code points as",
    "space-separated hexadecimal ranges (FIRST-LAST, or one code point), over the whole code space.",
]


def _ranges(pattern: str) -> str:
    test = regex.compile(pattern)
    ranges: list[tuple[int, int]] = []
    for code in range(0x110000):
        if 0xD800 <= code <= 0xDFFF or test.match(chr(code)) is None:
            continue
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return " ".join(f"{a:04X}" if a == b else f"{a:04X}-{b:04X}" for a, b in ranges)


def build() -> tuple[list[str], Tables]:
    tables: Tables = []
    for name, (pattern, use) in CLASSES.items():
        tables.append((("classes", name), {"property": pattern, "use": use, "ranges": _ranges(pattern)}))
    return DESCRIPTION, tables
