"""Grounding reads words in the visible text: its offsets map back and forth, and look-alike letters fold.

``Projection.to_visible`` inverts ``to_source`` on every boundary of a
one-to-one piece, never moves backwards, and lands every source offset of a
hidden stretch (markup, an entity's inside) on a neighbouring boundary;
``fold_letters`` keeps every offset and maps each letter of another script
that is drawn like a Latin one to it, and nothing else.
"""

from __future__ import annotations

import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import fixture_sections
from qcgrade.reading.projection import _LETTER_TWINS, fold_letters
from qcgrade.reading.section import parse_section

_PIECES = [
    "Revenue ", "rose ", "r&#111;se ", "r*o*se ", "**r**ose ", "r<span></span>ose ", "ro&shy;se ", "ro\u00adse ",
    "r\u043ese ", "`code` ", "[link](https://x.y/rose) ", "<!-- fell --> ", "5% ", "[C1] ", "{m_rev} ", "&amp; ",
    "\n", "\n\n", "- ", "> ", "| a | b |\n|---|---|\n| 1 | 2 |\n", ". ", "\\* ", "<br> ", "\u200b",
]  # fmt: skip


def _boundaries_agree(text: str) -> int:
    """Every check of this module on one text; how many one-to-one boundaries it compared."""
    section = parse_section(text)
    projection = section._doc.projection
    visible = section.visible
    compared = 0
    for vis, src, src_end, one in zip(projection.vis_starts, projection.src_starts, projection.src_ends, projection._one_to_one):
        if one:
            for k in range(src_end - src + 1):
                assert section.to_visible(src + k) == vis + k, (text, src + k)
                if k < src_end - src:  # each character maps back where it came from
                    assert section.to_source(vis + k, vis + k + 1) == (src + k, src + k + 1)
                compared += 1
    last = 0
    for offset in range(len(text) + 1):
        at = section.to_visible(offset)
        assert 0 <= at <= len(visible) and at >= last, (text, offset)
        last = at
    return compared


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.lists(st.sampled_from(_PIECES), max_size=24).map("".join))
@example("Revenue r&#111;se 5% [C1].")
@example("| a | b |\n|---|---|\n| r*o*se | 2 [C1] |\n")
def test_to_visible_inverts_to_source(text: str) -> None:
    _boundaries_agree(text)


def test_to_visible_inverts_to_source_on_the_fixtures() -> None:
    assert sum(_boundaries_agree(path.read_text(encoding="utf-8")) for path in fixture_sections()) > 10_000


def test_a_marker_maps_to_where_the_reader_sees_it() -> None:
    text = "Revenue **r**ose 5% [C1] and &#102;ell [C2]."
    section = parse_section(text)
    for marker in section.citations:
        start, end = section.to_visible(marker.start), section.to_visible(marker.end)
        assert section.visible[start:end] == marker.id  # a marker spans its id


def test_fold_letters_keeps_length_and_folds_only_twins() -> None:
    text = "r\u043ese \u0440\u043e\u0441\u0442 \U0001d42b\U0001d428\U0001d42c\U0001d41e \u24c7 caf\u00e9 \u00df \U0001d7ce 5 \u0394 \u043f"
    folded = fold_letters(text)
    assert len(folded) == len(text)
    assert folded == "rose poc\u0442 rose R caf\u00e9 \u00df \U0001d7ce 5 \u0394 \u043f"
    assert fold_letters("plain ASCII") == "plain ASCII"


def test_every_twin_is_a_letter_drawn_as_its_ascii_letter() -> None:
    """The spelled-out twins are letters of other scripts whose twin is one ASCII letter of the same case."""
    for letter, twin in _LETTER_TWINS.items():
        assert letter.isalpha() and not letter.isascii() and twin.isascii() and twin.isalpha() and len(twin) == 1
        assert letter.isupper() == twin.isupper() or unicodedata.name(letter).startswith(("LATIN SMALL LETTER LONG S",))
        assert fold_letters(letter) == twin


def test_compatibility_letters_fold_to_their_nfkc_letter() -> None:
    """Mathematical, circled and squared letters: each folds to its NFKC form when that is one ASCII letter, else stays."""
    folded = 0
    for code in (*range(0x1D400, 0x1D800), *range(0x24B6, 0x24EA), *range(0x1F130, 0x1F18A)):
        char = chr(code)
        nfkc = unicodedata.normalize("NFKC", char)
        expected = nfkc if len(nfkc) == 1 and nfkc.isascii() and nfkc.isalpha() else char
        assert fold_letters(char) == expected, hex(code)
        folded += expected != char
    assert folded > 700  # 730 in Unicode 15
