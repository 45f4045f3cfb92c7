"""A numeral sits in a sentence with no valid citation and no registered metric tag.

Why it matters: every number in a report must be traceable to evidence. The
sentence is the unit of annotation: one valid card citation or registered
metric tag anywhere in the sentence covers its numerals.

A numeral is a run of digits of any script (``42``, ``４２``, ``٤٢``) with its
sign, currency, separators, decimals and unit (``-$1.2B``, ``30%``); digits
glued after letters are identifiers (``FY25``, ``Q3``) and digits inside
markers never count. A table's header row is covered when every body row
of the table is annotated, for numerals that read as column labels (no
percent, currency or sign outside parentheses: ``HR (95% CI)``, ``Sep. 30,
2025``; ``Revenue grew 42%`` as a header is still bare). A marker inside raw HTML never annotates (HTML can
hide it), but a number inside HTML still counts. Numerals in code are still numerals a reader sees, and
code cannot carry a marker, so a numeral in a code block is always bare. With
``allow_years`` a plain year (1900-2099) is exempt.

Fails::

    Revenue grew 30% last year.

Passes::

    Revenue grew 30% last year [E001].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

import regex

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "bare_number"

_YEAR = regex.compile(r"(?:19|20)[0-9]{2}")


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    cards, tags = evidence.card_ids, evidence.metric_tags
    annotated = {m.sentence for m in section.citations if m.vouches and m.id in cards}
    annotated.update(m.sentence for m in section.metric_tags if m.vouches and m.id in tags)
    headers: set[int] | None = None  # built on the first bare numeral: most sections have none
    # Only sentences without a valid annotation need their numerals read.
    for numeral in section.numerals_outside(annotated):
        if options.allow_years and _YEAR.fullmatch(numeral.text):
            continue
        if headers is None:
            # A header row is covered when every body row of its table is annotated.
            headers = section.covered_header_rows(annotated)
        if numeral.sentence in headers and section.is_column_label(numeral):
            continue
        message = f"number {numeral.text!r} has no valid citation or registered metric tag in its sentence"
        yield section.finding(NAME, numeral.start, numeral.end, message, rule=numeral.rule)


CHECK = Check(NAME, 1, run, __doc__ or "")
