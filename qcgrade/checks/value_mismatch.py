"""A number in a citing sentence is stated by none of its sources (tier 3, grounding).

Why it matters: tier 1 checks that a number carries a citation, not that
the citation says it. A digit changed after the fact ("number swap") or a
figure pinned on the wrong card passes every marker check while the sentence
misquotes its source: the paper's QC-invisible region, which otherwise only
an LLM judge can grade.

A numeral in a sentence that cites cards (or tags metrics) must match a
value that one of those cards states in its ``claim`` or ``quote``, a value
of a metric the sentence tags or the cards list in ``metric_refs``, or a
difference, sum or percent change of two such values. Values compare as
numbers, to the precision written (``61%`` matches ``61.0%``, ``1.2``
matches ``1.23``, ``1.3`` does not), across separators, ``per cent``, scale
words (``$1.2bn`` = ``1,200 million``), basis points and Unicode digits; the
rules live in :mod:`qcgrade.grounding.values` and ``docs/grounding.md``.
A sentence with an orphan citation or an unregistered tag is left to tier 1.
When another card of the slice states the number, the message names it: a
misattributed citation.

Fails (E001 says "Revenue was $1.2 B, up 30%.")::

    Revenue grew 31% to $1.2 B [E001].

Passes::

    Revenue grew 30 per cent to $1.2 billion [E001].

Examples are graded against the slice ``tests/cases/slice.json``.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..evidence import EvidenceSlice
from ..findings import Finding
from ..grounding.match import value_misses
from ..options import Options
from ..reading.section import Section
from .base import Check

NAME = "value_mismatch"
_IN = {3: "thousands", 6: "millions", 9: "billions", 12: "trillions"}


# How a message names the period a figure is written over (see grounding.values.period_after).
_PERIODS = {"year": "y/y", "quarter": "q/q", "month": "m/m", "annualised": "annualised", "sequential": "sequentially"}


def run(section: Section, evidence: EvidenceSlice, options: Options) -> Iterator[Finding]:
    for miss in value_misses(section, evidence, skip_years=options.allow_years):
        cited = miss.cited
        start, end = miss.numeral.start, miss.numeral.end
        if miss.cards:
            where = f"in {', '.join(miss.cards)}"
        else:
            where = f"the value of {', '.join('{' + t + '}' for t in cited.tags)}"
        rule = "value.not_stated"
        if miss.date is not None and miss.whole_date:
            rule = "value.date_not_stated"
            # A day the cited cards, which date things, do not write: the date is the miss.
            start, end = miss.date.start, miss.date.end
            message = f"the date {section.text[start:end]} is not {where}"
        elif miss.date is not None:
            # The year of a numeric date (of a dotted one, one numeral: "31.12.2025"): name both.
            date, year = miss.date, section.text[miss.date.year_start : miss.date.year_end]
            message = f"the year {year} of {section.text[date.start : date.end]} is not {where}"
            rule = "value.date_not_stated"
        elif miss.table_scale is not None:
            # "412" under "($bn)": say in what the table writes it.
            message = f"{miss.numeral.text} ({_IN[miss.table_scale]}, as its table says) is not {where}"
            rule = "value.table_scale"
        elif miss.period_end is not None:
            # "9% q/q" where the card says "9% y/y": the span takes in the period, and the message names it.
            end = miss.period_end
            message = f"{miss.numeral.text} {_PERIODS[miss.value.period]} is not {where}"
            rule = "value.period"
        else:
            message = f"{miss.numeral.text} is not {where}"
        if miss.elsewhere is not None:
            message += f"; it appears in {miss.elsewhere}"
        related = miss.cards[0] if miss.cards else cited.tags[0]
        yield section.finding(NAME, start, end, message, related, rule)


CHECK = Check(NAME, 3, run, __doc__ or "")
