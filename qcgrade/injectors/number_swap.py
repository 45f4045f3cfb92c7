"""Swap a number: change one digit of a numeral in a cited sentence.

QC-invisible: the sentence keeps its citation, so the grader still passes,
yet it now misquotes its source. Sites: every numeral in a sentence that
cites a card of the slice (numerals never include digits inside markers or
identifiers such as ``FY25``). The seed chooses the digit and its new value;
the result stays a well-formed numeral (no leading zero is created, and a
digit is replaced by a digit of the same script).

Before::

    Gross margin weakened to 11.4% from 14.9% [E032].

After::

    Gross margin weakened to 11.4% from 17.9% [E032].
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..reading.section import Numeral, Section
from .base import Edit, Injector, Site
from .places import annotate

NAME = "number_swap"
_GROUPING = ",'\u00a0\u202f\u2009"  # thousands separators: a digit before one is not alone


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    text = section.text
    notes = annotate(section, evidence)
    for numeral in section.numerals:
        if not notes.cited(numeral.sentence):
            continue
        if text[numeral.start : numeral.end] != numeral.text:
            continue  # shown differently from its source (an entity): not a plain edit
        edits = tuple(_swaps(numeral))
        if edits:
            yield Site(numeral.start, numeral.end, edits)


def _swaps(numeral: Numeral) -> Iterator[Edit]:
    digits = numeral.text
    target = ((numeral.start, numeral.end),)
    first = next((i for i, ch in enumerate(digits) if unicodedata.decimal(ch, None) is not None), None)
    for i, ch in enumerate(digits):
        value = unicodedata.decimal(ch, None)
        if value is None:
            continue
        zero = ord(ch) - value
        leads = i == first and i + 1 < len(digits) and _continues(digits[i + 1])
        for new in range(10):
            if new == value or (new == 0 and leads):
                continue
            at = numeral.start + i
            yield Edit(at, at + 1, chr(zero + new), target)


def _continues(ch: str) -> bool:
    """Whether ``ch`` after a leading digit makes that digit part of a longer integer."""
    return unicodedata.decimal(ch, None) is not None or ch in _GROUPING


INJECTOR = Injector(NAME, None, find_sites, __doc__ or "", "no numeral in a sentence that cites a card")
