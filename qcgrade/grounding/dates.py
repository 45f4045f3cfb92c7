"""Numeric dates: "2025-12-31", "12/31/2025", "31/12/2025", "31.12.2025", read as a reader reads them.

A reader sees one day in each of these, not three numbers; grounding
(:mod:`qcgrade.grounding.match`) then compares the day with the days the
cited cards write, and the year as a year. The forms:

- ISO ``YYYY-MM-DD``, two-digit month and day (hyphens or non-breaking hyphens);
- slashed ``M/D/YYYY`` (US) and ``D/M/YYYY`` (most elsewhere): both readings
  when both are valid ("03/04/2025" is 4 March or 3 April);
- slashed with a two-digit year, ``12/31/25``: a year of either century.
  Counted because "as of 12/31/25" is ordinary US writing; a fraction or a
  score has no third part ("3/4", "1/2", "2-1"), and a triple that is no
  date ("10/20/30") still has its last number compared as a year;
- dotted ``D.M.YYYY`` (European), four-digit year only ("1.2.25" may be a
  version).

Years 1900-2099, months 1-12, days 1-31. A date is a whole token: nothing
glued to it on either side (no letter, digit or joining mark before it,
none after it but a sentence's full stop), so "ref 2025-12-31-7",
"FY2025-12-31" and "31.12.2025.4" are no dates.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# A numeric date as a whole token (see the module notes). Every alternative is fixed-width but for
# one or two digits, so a scan is linear on any input ("1/1/1/1...").
_DATE_GLUE = r"\w./\-\u2010\u2011"
_NUMERIC_DATE = re.compile(
    rf"(?<![{_DATE_GLUE}])"
    r"(?:(?P<iso_year>(?:19|20)[0-9]{2})[-\u2010\u2011](?P<iso_month>0[1-9]|1[0-2])[-\u2010\u2011](?P<iso_day>0[1-9]|[12][0-9]|3[01])"
    r"|(?P<first>[0-9]{1,2})/(?P<second>[0-9]{1,2})/(?P<slash_year>(?:19|20)[0-9]{2}|[0-9]{2})"
    r"|(?P<dot_day>[0-9]{1,2})\.(?P<dot_month>[0-9]{1,2})\.(?P<dot_year>(?:19|20)[0-9]{2}))"
    rf"(?![{_DATE_GLUE.replace('.', '')}]|[.,:][0-9A-Za-z])"
)
_DATE_CHARS = frozenset("0123456789./-\u2010\u2011")
_DATE_REACH = 8  # the furthest a numeral of a date starts from the date's start ("2025-12-31")

Day = tuple[int, int, int]  # (year, month, day)
WrittenDay = tuple[int | None, int, int]  # the same, when a card may leave the year out ("31 December")


class NumericDate(NamedTuple):
    """A numeric date in a sentence: where it is written, and every day it may mean."""

    start: int
    end: int
    days: frozenset[Day]  # both readings of "03/04/2025"; both centuries of a two-digit year
    year_start: int  # where its year is written
    year_end: int

    def written_in(self, dates: frozenset[WrittenDay]) -> bool:
        """Whether a card writing ``dates`` writes this date (a card's date without a year matches any year)."""
        return any(day in dates or (None, day[1], day[2]) in dates for day in self.days)

    @property
    def years(self) -> frozenset[int]:
        return frozenset(day[0] for day in self.days)


def numeric_date(text: str, start: int, end: int) -> NumericDate | None:
    """The numeric date that the numeral ``text[start:end]`` is written in, if any.

    A date starts where its run of digits and joining marks does (nothing is
    glued before it), so that run is looked back on, a few characters at most.
    """
    lo = start
    while lo > 0 and text[lo - 1] in _DATE_CHARS:
        lo -= 1
        if start - lo > _DATE_REACH:
            return None
    found = _NUMERIC_DATE.match(text, lo)
    if found is None or found.end() < end:
        return None
    days = _days_of(found)
    if not days:
        return None
    year = next(name for name in ("iso_year", "slash_year", "dot_year") if found.group(name) is not None)
    return NumericDate(found.start(), found.end(), days, found.start(year), found.end(year))


def writes_a_numeric_date(text: str) -> bool:
    """Whether ``text`` writes a numeric date (one with a valid month and day)."""
    return any(_days_of(date) for date in _NUMERIC_DATE.finditer(text))


def numeric_days_in(text: str) -> frozenset[Day]:
    """Every day the numeric dates of ``text`` may mean."""
    found: set[Day] = set()
    for date in _NUMERIC_DATE.finditer(text):
        found.update(_days_of(date))
    return frozenset(found)


def _days_of(date: re.Match[str]) -> frozenset[Day]:
    """The days a numeric date may mean: none when neither reading is a valid month and day."""
    if date.group("iso_year") is not None:
        return frozenset({(int(date.group("iso_year")), int(date.group("iso_month")), int(date.group("iso_day")))})
    if date.group("dot_year") is not None:
        day, month = int(date.group("dot_day")), int(date.group("dot_month"))
        return frozenset({(int(date.group("dot_year")), month, day)}) if _valid(month, day) else frozenset()
    first, second, written_year = int(date.group("first")), int(date.group("second")), date.group("slash_year")
    # A two-digit year may be of either century ("12/31/99", "12/31/25").
    years = (int(written_year),) if len(written_year) == 4 else (1900 + int(written_year), 2000 + int(written_year))
    # Month first (US) or day first (most elsewhere): both, when both are valid ("03/04/2025").
    readings = [(month, day) for month, day in ((first, second), (second, first)) if _valid(month, day)]
    return frozenset((year, month, day) for year in years for month, day in readings)


def _valid(month: int, day: int) -> bool:
    return 1 <= month <= 12 and 1 <= day <= 31
