"""Tags a browser draws inline: nothing for what a reader reads, a sentence end for vouching.

docs/reading-rules.md (section 0) states the rule. Two properties pin it on
generated prose whose words, numbers and markers are glued by such tags:

- the reader's view: with every such tag taken out, the grader reads the same
  markers and numerals (the tags show nothing);
- vouching: a citation or metric tag that vouches never shares a sentence
  with a number when one of those tags stands between them in the source
  (CSS could make the tag a block and put them on different lines).
"""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from qcgrade.reading.section import Section, parse_section

_TAG = "<x-a></x-a>"
_ATOMS = [
    "revenue",
    "grew",
    "may",
    "the",
    "42",
    "4.2%",
    "$1.2B",
    "10-Q",
    "FY25",
    "3200億円",
    "[E001]",
    "[E001, E002]",
    "[see E003 p. 4]",
    "{m_rev}",
    "§s5",
    "[E0",
    "01]",
    ".",
    ",",
    "(",
    ")",
    "|",
]
_GLUE = ["", " ", " ", _TAG, " " + _TAG, _TAG + " ", "\n"]
_prose = st.lists(st.tuples(st.sampled_from(_ATOMS), st.sampled_from(_GLUE)), min_size=1, max_size=16).map(
    lambda parts: "".join(a + b for a, b in parts).strip()
)


def _read(section: Section) -> tuple[Counter, Counter]:
    markers = Counter((m.kind, m.id) for m in (*section.citations, *section.metric_tags, *section.xrefs))
    return markers, Counter(n.text for n in section.numerals)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_prose)
@example("Revenue rose 10-Q<x-a></x-a>revenue.")
@example("Revenue grew [E0<x-a></x-a>01].")
@example("42<x-a></x-a>.")
def test_the_tags_show_nothing(text: str) -> None:
    plain = text.replace(_TAG, "")
    # Without its tags a line may open with a list marker ("42." is a list, "42<x-a></x-a>." a paragraph):
    # markdown reads another structure, and the property holds only where the structure is the same.
    assume(_blocks(text) == _blocks(plain))
    assert _read(parse_section(text)) == _read(parse_section(plain))


def _blocks(text: str) -> list[str]:
    return [token.type for token in parse_section(text)._doc.tokens if token.type.endswith("_open")]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_prose)
@example("[E001] Revenue grew 4<x-a></x-a>2%.")
@example("Revenue 3200億円<x-a></x-a>x [E001].")
@example("42. revenue")  # a list number is drawn before its item's sentence, not in it
@example("4242.")  # an empty item: its drawn number joins the last sentence
def test_no_marker_vouches_for_a_number_across_a_tag(text: str) -> None:
    section = parse_section(text)
    vouching = [m for m in (*section.citations, *section.metric_tags) if m.vouches]
    drawn = set(section._drawn_numerals())
    for numeral in section.numerals:
        sentence = section.sentences[numeral.sentence]
        if numeral not in drawn:
            assert sentence.start <= numeral.start and numeral.end <= sentence.end, "a number crosses a sentence end"
        for marker in vouching:
            if marker.sentence == numeral.sentence:
                lo, hi = min(marker.start, numeral.start), max(marker.end, numeral.end)
                assert _TAG not in text[lo:hi], (marker, numeral)
