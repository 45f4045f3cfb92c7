"""Shortcuts of the section reading that skip work give what the full reading gives."""

from __future__ import annotations

from pathlib import Path

from qcgrade.reading.section import _UNIT_TOKENS, parse_section

ROOT = Path(__file__).resolve().parent.parent
CORPUS = sorted(p for p in (ROOT / "fixtures").rglob("*.md") if p.name != "README.md") + sorted(
    (ROOT / "tests" / "corpora").rglob("*.md")
)


def test_every_unit_is_read_from_a_token_the_tldr_item_test_looks_at() -> None:
    """A TL;DR item shows text only through a unit; _UNIT_TOKENS names every token type a unit comes from."""
    kinds = set()
    for path in CORPUS:
        doc = parse_section(path.read_text(encoding="utf-8"))._doc
        for unit in doc.units:
            kinds.add(doc.tokens[unit.token_index].type)
    for text in ("```\ncode\n```", "    code", "<div>html</div>", "| a |\n|---|\n| 1 |", "para"):
        doc = parse_section(text)._doc
        kinds.update(doc.tokens[unit.token_index].type for unit in doc.units)
    assert kinds == set(_UNIT_TOKENS)


def test_xrefs_found_at_each_sign_are_the_pattern_scan() -> None:
    import random

    from qcgrade.reading.lexicon import XREF, _xref_matches

    rng = random.Random(1)
    pieces = ["§", "\u2e39", " ", "-", "\u2014", "5", "sec-2", "a", ".", "\u201c", "(", "[", "\u2029", "§§"]
    texts = ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 20))) for _ in range(5000)]
    texts += [p.read_text(encoding="utf-8") for p in CORPUS]
    found = 0
    for text in texts:
        expected = [m.span() for m in XREF.finditer(text)]
        assert [m.span() for m in _xref_matches(text)] == expected, text
        found += len(expected)
    assert found > 1000
