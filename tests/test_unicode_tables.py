"""Character classes spelled out for speed agree with the Unicode properties they stand for."""

from __future__ import annotations

import re

import regex

from qcgrade.reading.projection import _FOLD, _FOLDABLE, IGNORABLE_CLASS


def test_ignorable_class_is_default_ignorable_code_point() -> None:
    spelled = re.compile(f"[{IGNORABLE_CLASS}]")
    prop = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    assert [m.start() for m in spelled.finditer(text)] == [m.start() for m in prop.finditer(text)]


def test_every_folded_character_is_found_by_the_fold_guard() -> None:
    assert _FOLD and all(_FOLDABLE.match(chr(c)) for c in _FOLD)
    assert all(chr(v).isascii() for v in _FOLD.values())


def test_generated_classes_are_their_properties() -> None:
    """vocab/generated/unicode.toml lists exactly the characters of each property, as the pinned regex reads them."""
    from qcgrade.datagen.from_unicode import CLASSES
    from qcgrade.reading.vocab import data

    for name, (prop, _use) in CLASSES.items():
        listed = regex.compile(f"[{data.char_class(name)}]")
        wanted = regex.compile(prop)
        for code in range(0x110000):
            if 0xD800 <= code <= 0xDFFF:
                continue
            char = chr(code)
            assert bool(listed.match(char)) == bool(wanted.match(char)), (name, hex(code))


def test_cleaning_guard_finds_every_ignorable_and_foldable_character() -> None:
    """needs_cleaning's BMP class and astral test together find each character the two classes hold."""
    from qcgrade.reading.projection import needs_cleaning

    prop = regex.compile(r"\p{Default_Ignorable_Code_Point}")
    for code in range(0x80, 0x110000):
        if 0xD800 <= code <= 0xDFFF:
            continue
        char = chr(code)
        expected = prop.match(char) is not None or _FOLDABLE.match(char) is not None
        assert needs_cleaning("plain " + char + " text") == expected, hex(code)
