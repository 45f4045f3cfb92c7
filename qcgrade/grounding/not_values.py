"""Numerals in a citing sentence that state no value: dates and references.

Tier 1 reads every numeral, and a cited sentence's numerals all pass it. Grounding
compares each with what the cited cards state; a few numerals a reader sees
are no claim at all, and a card has no reason to repeat them:

- a day beside its month, when no cited card writes a day beside a month:
  "in the 26 weeks to 28 September", "Sep. 30" (months capitalised, whole or
  in their usual short forms: "28 markets" stays a number; after the month,
  the day ends the date: "Jan-Dec 19 GWh" is a volume). A card that dates
  things (a hearing, a maturity) makes its days values;
- the month and day of a numeric date ("12/31/2025", "2025-12-31",
  "31/12/2025", "31.12.2025": :mod:`qcgrade.grounding.dates`), the same
  way: when no cited card dates anything they state no value and the year
  is compared as a year; when one does, the date must be a day it writes, by
  name or in numbers (else the whole date is the miss). A card's numeric
  date dates it too (:func:`written_dates`). That is judged in
  :func:`qcgrade.grounding.match.value_misses`, which knows the cards;
- a paragraph mark's number: "Compl. ¶ 38";
- a code of several numbers joined by slashes, hyphens or colons, after a
  short capital prefix, a docket number, or plain joined numbers after a
  reference word: "ref. IN-24-3-7", "Case C-311/18", "No. 1:26-cv-00412",
  "Regulation (EU) 2016/679" (one number after a code is an amount or a name,
  never this: "USD-42m", "Wren-8B"; and words between numbers make a
  proportion: "1-in-4", "10-for-1", "4-of-5");
- a case reporter citation, volume, series, page and pin cites, where the
  citation ends: "412 F. Supp. 3d 77, 91 (D. Del. 2019)" (a count after it is
  a count: "77, 91, 10 of the 14 claims");
- a paragraph's or page's number ("para. 214", "pp. 12-14"), a code's title ("15 U.S.C."), a
  standard's number ("ASC 842", "IFRS 16");
- first- and third-party shorthand: "3P sellers", "1P revenue".

Each is asked only of a numeral its cards do not state, so it costs nothing on
a faithful sentence.
"""

from __future__ import annotations

import re

from .dates import WrittenDay, numeric_days_in, writes_a_numeric_date

_MONTH = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_DAY = re.compile(r"0?[1-9]|[12][0-9]|3[01]")
_MONTH_AFTER_DAY = re.compile(rf"[ \u00a0](?:{_MONTH})\b")
_MONTH_BEFORE_DAY = re.compile(rf"(?<![A-Za-z])(?:{_MONTH})\.?[ \u00a0]$")
# After "Month day", what ends a date: punctuation, the end, a year, or a word that is no unit.
_DATE_GOES_ON = re.compile(
    r"(?:[,.;:)\]]|\s*$|[ \u00a0]*[\[(]|[ \u00a0]+(?:(?:19|20)[0-9]{2}\b"
    r"|(?:and|or|to|through|until|when|the|a|an|at|in|on|of|for|with|by|from)\b))"
)
# A card that writes a day beside a month dates something: its days are values. The year
# after it, if any, is read too (it takes no part in whether the card dates something).
_YEAR_AFTER = r"(?:,?[ \u00a0](?P<{}>(?:19|20)[0-9]{{2}})(?![0-9]))?"
_WRITTEN_DATE = re.compile(
    rf"(?<![0-9])(?P<day>0?[1-9]|[12][0-9]|3[01])[ \u00a0](?P<month>{_MONTH})\b\.?{_YEAR_AFTER.format('year')}"
    rf"|(?<![A-Za-z])(?P<month_first>{_MONTH})\.?[ \u00a0](?P<day_after>0?[1-9]|[12][0-9]|3[01])(?![0-9])"
    rf"{_YEAR_AFTER.format('year_after')}"
)
_MONTH_NUMBER = {name[:3].lower(): number for number, name in enumerate(_MONTH.split("|")[:12], start=1)}

# A paragraph mark, or a paragraph's or page's word ("\u00b6 38", "para. 214", "p. 4").
_PARAGRAPH_MARK_BEFORE = re.compile(
    r"(?:\u00b6{1,2}|(?<![A-Za-z])(?:para|paras|paragraph|paragraphs|p|pp|page|pages)\.?)[ \u00a0]?$"
)
# A title of a code before its name ("15 U.S.C. \u00a7 78j", "17 C.F.R. 240"), a standard's number
# after its body ("ASC 842", "IFRS 16", "IAS 36").
_CODE_TITLE = re.compile(r"[ \u00a0](?:U\.S\.C\.|C\.F\.R\.)")
_STANDARD_BEFORE = re.compile(r"(?<![A-Za-z])(?:ASC|IFRS|IAS|SFAS|FAS|FRS|ISA|ISO)[ \u00a0]$")
# A code of numbers joined by slashes, hyphens or colons, perhaps after a short
# capital prefix or with a short lower-case part ("IN-24-3-7", "C-311/18",
# "1:26-cv-00412", "2016/679"): no currency, decimal, percent or magnitude, so
# "$1.2bn-1.5bn" and "12%/13%" stay values.
_JOIN = "[/:\\-\u2010\u2011]"
_CODE = re.compile(
    rf"[A-Z]{{1,4}}-?[0-9]{{1,6}}(?:{_JOIN}[0-9]{{1,6}})+"  # "IN-24-3-7", "C-311/18"
    r"|[0-9]{1,2}:[0-9]{2}-[a-z]{2,3}-[0-9]{3,6}"  # a docket number: "1:26-cv-00412"
)
_JOINED_NUMBERS = re.compile(rf"[0-9]{{1,6}}(?:{_JOIN}[0-9]{{1,6}})+")  # a code after a reference word
_REFERENCE_WORD_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:Regulation|Directive|Decision|Cases?|Nos?\.|[Rr]ef\.|Docket|Dkt\.|Rule|Release|FY|CY|paras?\.?|pp\.?)"
    r"(?:[ \u00a0]+\([A-Za-z]{1,4}\))?[ \u00a0]+$"
)
_TOKEN_REACH = 32  # characters a code may run on either side of one of its numbers
# A reporter citation: volume, reporter (with its series) and page, then pin cites.
_REPORTER = (
    r"U\.S\.|S\.\s?Ct\.|L\.\s?Ed\.(?:\s?2d)?|F\.(?:\s?(?:2d|3d|4th))?|F\.\s?Supp\.(?:\s?(?:2d|3d))?"
    r"|F\.\s?App'x|A\.(?:\s?(?:2d|3d))?|P\.(?:\s?(?:2d|3d))?|N\.E\.(?:\s?(?:2d|3d))?|N\.W\.(?:\s?2d)?"
    r"|S\.E\.(?:\s?2d)?|S\.W\.(?:\s?(?:2d|3d))?|So\.(?:\s?(?:2d|3d))?|B\.R\.|WL"
)
_REPORTER_CITATION = re.compile(
    # The full form, or the short one that points into a case cited before ("412 F. Supp. 3d at 91").
    rf"(?<![0-9A-Za-z])[0-9]{{1,4}}\s(?:{_REPORTER})\s(?:at\s)?[0-9]{{1,5}}(?:,\s[0-9]{{1,5}})*"
    # Where a citation ends: its court and year, the clause's end, or a comma before words.
    r"(?=\s*[(.;:)\[\]]|\s*$|,\s*[^\s0-9])"
)
_REACH = 48  # characters around a numeral that a reporter citation holding it may span


# First- and third-party shorthand ("3P sellers", "1P revenue"): a name, not three of something.
_PARTY = re.compile(r"[123]P")


def states_no_value(text: str, start: int, end: int, dated: bool = False) -> bool:
    """Whether the numeral ``text[start:end]`` is a date's day, party shorthand or part of a reference.

    ``dated``: a cited card writes a day beside a month, so days are values
    there (see the module notes).
    """
    if _PARTY.fullmatch(text, start, end) is not None:
        return True
    return (not dated and _day_of_month(text, start, end)) or _in_reference(text, start, end)


def writes_a_date(text: str) -> bool:
    """Whether ``text`` (a card's) writes a day beside a month ("on 19 March", "May 15") or a numeric date."""
    return _WRITTEN_DATE.search(text) is not None or writes_a_numeric_date(text)


def written_dates(text: str) -> frozenset[WrittenDay]:
    """Every day ``text`` (a card's) writes: "31 December 2025", "Dec. 31", "12/31/2025", "2025-12-31".

    A day beside a month with no year after it is ``(None, month, day)``;
    a numeric date gives each day it may mean. Empty exactly when
    :func:`writes_a_date` is false.
    """
    found: set[WrittenDay] = set()
    for named in _WRITTEN_DATE.finditer(text):
        month = named.group("month") or named.group("month_first")
        day = named.group("day") or named.group("day_after")
        year = named.group("year") or named.group("year_after")
        found.add((int(year) if year else None, _MONTH_NUMBER[month[:3].lower()], int(day)))
    found.update(numeric_days_in(text))
    return frozenset(found)


def _day_of_month(text: str, start: int, end: int) -> bool:
    if _DAY.fullmatch(text, start, end) is None:
        return False
    if _MONTH_AFTER_DAY.match(text, end) is not None:
        return True
    return _MONTH_BEFORE_DAY.search(text[max(0, start - 11) : start]) is not None and _DATE_GOES_ON.match(text, end) is not None


def _in_reference(text: str, start: int, end: int) -> bool:
    before = text[max(0, start - 12) : start]
    if _PARAGRAPH_MARK_BEFORE.search(before) or _STANDARD_BEFORE.search(before):
        return True
    if _CODE_TITLE.match(text, end) is not None:
        return True
    if _in_code(text, start, end):
        return True
    lo = max(0, start - _REACH)
    for citation in _REPORTER_CITATION.finditer(text, lo, min(len(text), end + _REACH)):
        if citation.start() <= start and end <= citation.end():
            return True
    return False


def _in_code(text: str, start: int, end: int) -> bool:
    """Whether the numeral stands in a code of joined numbers (see ``_CODE``)."""
    lo = start
    while lo > 0 and start - lo < _TOKEN_REACH and not text[lo - 1].isspace():
        lo -= 1
    hi = end
    while hi < len(text) and hi - end < _TOKEN_REACH and not text[hi].isspace():
        hi += 1
    if (lo > 0 and not text[lo - 1].isspace()) or (hi < len(text) and not text[hi].isspace()):
        return False  # longer than any code: read as written
    token = text[lo:hi].rstrip(".,;:)]").lstrip("([")
    if _CODE.fullmatch(token) is not None:
        return True
    # Plain joined numbers are a code after a reference word ("Regulation (EU) 2016/679").
    return _JOINED_NUMBERS.fullmatch(token) is not None and _REFERENCE_WORD_BEFORE.search(text, max(0, lo - 40), lo) is not None
