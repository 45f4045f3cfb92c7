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


def _to_source_two_searches(projection: object, start: int, end: int) -> tuple[int, int]:
    """Projection.to_source as it was, with a search for each end (the reference)."""
    from bisect import bisect_right

    starts = projection.vis_starts  # type: ignore[attr-defined]
    one_to_one = projection._one_to_one  # type: ignore[attr-defined]
    src_starts, src_ends = projection.src_starts, projection.src_ends  # type: ignore[attr-defined]
    if not starts:
        return 0, 0
    i = bisect_right(starts, start) - 1
    src_start = src_starts[0] if i < 0 else (src_starts[i] + start - starts[i] if one_to_one[i] else src_starts[i])
    if end <= start:
        return src_start, src_start
    j = bisect_right(starts, end - 1) - 1
    if j < 0:
        return src_start, src_starts[0]
    return src_start, (src_starts[j] + end - starts[j] if one_to_one[j] else src_ends[j])


def test_to_source_with_one_search_for_a_span_in_one_piece_gives_the_two_searches() -> None:
    import random

    rng = random.Random(29)
    checked = 0
    for path in CORPUS:
        projection = parse_section(path.read_text(encoding="utf-8"))._doc.projection
        size = len(projection.text)
        for _ in range(200):
            start = rng.randrange(size + 1)
            end = min(size, start + rng.choice((0, 1, 2, 5, 40, 400)))
            assert projection.to_source(start, end) == _to_source_two_searches(projection, start, end)
            checked += 1
    assert checked > 10000


def test_a_locator_number_in_a_vouching_group_is_no_numeral() -> None:
    """'[TB-53, p. 4]': the 4 is where in the source; '[E001, p. 42%]' keeps its number (a claim)."""
    kept = {
        "Online is 31% of sales [E001, p. 4].": ["31%"],
        "Online is 31% of sales [E001, Exhibit 99.1].": ["31%"],
        "Online is 31% of sales [E001, slide 12].": ["31%"],
        "Online is 31% of sales [E001, pp. 12-14].": ["31%"],
        "Online is 31% of sales [E001, p. 42%].": ["31%", "42%"],
        "Online is 31% of sales [E001, p. 4 bn].": ["31%", "4"],
        "Online is 31% of sales [not from E001, p. 4].": ["31%", "4"],
    }
    for text, expected in kept.items():
        assert [n.text for n in parse_section(text).numerals] == expected, text
