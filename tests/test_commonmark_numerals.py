"""Differential test over the CommonMark 0.31.2 spec examples: numerals a reader sees in the HTML.

For every spec example, the numerals a reader sees in its *expected* HTML
(the visible text as ``html.parser`` reads it, with the grader's lexical
definitions applied block by block, plus the ``<ol start>`` number the
browser draws) must be exactly the numerals ``bare_number`` reads from the
markdown (``Section.numerals``). The same holds for variants of each example
with numbers in place of the spec's placeholder words (``foo`` ``bar`` ...),
where the variant's HTML is the expected HTML with the same substitution,
used only when markdown-it-py renders the variant to exactly that HTML (a
substitution can change the structure: ``<foo>`` is a tag, ``<42>`` is not).

Where the two differ by a documented decision, the example is listed in
``data/commonmark-numeral-decisions.toml`` with the reason; a listed example
that no longer differs fails too, so the list cannot go stale.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import regex
from markdown_it import MarkdownIt
from reader_oracle import IGNORABLE, VisibleText, read_blocks

from helpers import load_toml
from qcgrade.reading.projection import fold
from qcgrade.reading.section import parse_section

DATA = Path(__file__).resolve().parent / "data"
SPEC = json.loads((DATA / "commonmark-spec-0.31.2.json").read_text(encoding="utf-8"))
DECISIONS = load_toml(DATA / "commonmark-numeral-decisions.toml")
_RENDERER = MarkdownIt("commonmark")
#: Placeholder words of the spec and the numbers put in their place.
PLACEHOLDERS = {"foo": "42", "bar": "3.5%", "baz": "1,200", "bim": "$7bn"}
_PLACEHOLDER = regex.compile(r"\b(?:" + "|".join(PLACEHOLDERS) + r")\b")


class _ReaderView(VisibleText):
    """The reader-view parser, plus the start number a browser draws for ``<ol start>``."""

    def __init__(self) -> None:
        super().__init__()
        self.drawn: list[str] = []
        self.hidden = 0  # inside script, style or template: a browser shows none of it

    def _settle(self) -> None:
        # Every <ol start> number is counted as drawn (below); the documented
        # list rule the reader-view oracle applies is what this test measures.
        self.item_text = []
        self.pending.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden:
            super().handle_data(data)

    def handle_endtag(self, tag: str) -> None:
        super().handle_endtag(tag)
        if tag in ("script", "style", "template") and self.hidden:
            self.hidden -= 1

    def handle_starttag(self, tag: str, attrs: list) -> None:
        super().handle_starttag(tag, attrs)
        if tag in ("script", "style", "template"):
            self.hidden += 1
        if tag == "ol":
            start = dict(attrs).get("start")
            if start is not None:
                self.drawn.append(str(int(start)))


def reader_numerals(html: str) -> Counter:
    parser = _ReaderView()
    parser.feed(html)
    parser.close()
    return read_blocks(parser)[1]  # the <ol start> numbers included


def grader_numerals(markdown: str) -> Counter:
    return Counter(fold(IGNORABLE.sub("", n.text)) for n in parse_section(markdown).numerals)


def _variant(example: dict[str, Any]) -> tuple[str, str] | None:
    markdown, html = example["markdown"], example["html"]
    if not _PLACEHOLDER.search(markdown):
        return None
    swap = lambda m: PLACEHOLDERS[m.group()]  # noqa: E731
    markdown, html = _PLACEHOLDER.sub(swap, markdown), _PLACEHOLDER.sub(swap, html)
    if _RENDERER.render(markdown) != html:
        return None  # the substitution changed what the markdown means
    return markdown, html


def _cases() -> list[Any]:
    params = []
    for example in SPEC["examples"]:
        number = example["example"]
        params.append(pytest.param(example["markdown"], example["html"], f"{number}", id=f"example-{number}"))
        variant = _variant(example)
        if variant is not None:
            params.append(pytest.param(*variant, f"{number}v", id=f"example-{number}-numbers"))
    return params


def _difference(markdown: str, html: str) -> dict[str, list[str]]:
    reader, grader = reader_numerals(html), grader_numerals(markdown)
    return {"reader_only": sorted((reader - grader).elements()), "grader_only": sorted((grader - reader).elements())}


def test_spec_copy_is_the_one_recorded() -> None:
    assert SPEC["tag"] == "0.31.2" and len(SPEC["examples"]) == 652
    assert "CC-BY-SA 4.0" in SPEC["license"]


def test_every_decision_names_an_example_and_a_reason() -> None:
    known = {str(e["example"]) for e in SPEC["examples"]}
    for decision in DECISIONS["decision"]:
        assert decision["example"].rstrip("v") in known, decision
        assert decision["reason"].strip() and decision["rule"].strip(), decision


@pytest.mark.parametrize(("markdown", "html", "key"), _cases())
def test_reader_and_grader_read_the_same_numerals(markdown: str, html: str, key: str) -> None:
    decided = {d["example"]: d for d in DECISIONS["decision"]}
    difference = _difference(markdown, html)
    if key in decided:
        want = {k: sorted(decided[key].get(k, [])) for k in ("reader_only", "grader_only")}
        assert difference == want, f"decision for example {key} is stale or incomplete: {decided[key]['reason']}"
    else:
        assert difference == {"reader_only": [], "grader_only": []}, f"example {key}: {markdown!r}"
