"""Numerals in a citing sentence that state no value: dates and references.

Tier 1 reads every numeral, and a cited sentence's numerals all pass it. Grounding
compares each with what the cited cards state; a few numerals a reader sees
are no claim at all, and a card has no reason to repeat them:

- a day beside its month: "in the 26 weeks to 28 September", "Sep. 30" (months
  capitalised, whole or in their usual short forms: "28 markets" stays a number);
- a paragraph mark's number: "Compl. ¶ 38";
- a code of several numbers joined by slashes, hyphens or colons, with letters
  in it or after a reference word: "ref. IN-24-3-7", "Case C-311/18",
  "Regulation (EU) 2016/679", "No. 1:26-cv-00412" (one number after a code is an
  amount or a name, never this: "USD-42m", "Wren-8B");
- a case reporter citation, volume, series and pages: "412 F. Supp. 3d 77, 91";
- first- and third-party shorthand: "3P sellers", "1P revenue".

Each is asked only of a numeral its cards do not state, so it costs nothing on
a faithful sentence.
"""

from __future__ import annotations

import re

_MONTH = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
    "|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec"
)
_DAY = re.compile(r"0?[1-9]|[12][0-9]|3[01]")
_MONTH_AFTER_DAY = re.compile(rf"[ \u00a0](?:{_MONTH})\b")
_MONTH_BEFORE_DAY = re.compile(rf"(?<![A-Za-z])(?:{_MONTH})\.?[ \u00a0]$")

_PARAGRAPH_MARK_BEFORE = re.compile(r"\u00b6{1,2}[ \u00a0]?$")
# A code of numbers joined by slashes, hyphens or colons, perhaps after a short
# capital prefix or with a short lower-case part ("IN-24-3-7", "C-311/18",
# "1:26-cv-00412", "2016/679"): no currency, decimal, percent or magnitude, so
# "$1.2bn-1.5bn" and "12%/13%" stay values.
_CODE = re.compile(r"(?:[A-Z]{1,4}-?)?[0-9]{1,6}(?:[/:\-\u2010\u2011](?:[a-z]{1,3}-)?[0-9]{1,6})+")
_REFERENCE_WORD_BEFORE = re.compile(
    r"(?<![A-Za-z])(?:Regulation|Directive|Decision|Cases?|Nos?\.|[Rr]ef\.|Docket|Dkt\.|Rule|Release)"
    r"(?:[ \u00a0]+\([A-Za-z]{1,4}\))?[ \u00a0]+$"
)
_TOKEN_REACH = 32  # characters a code may run on either side of one of its numbers
# A reporter citation: volume, reporter (with its series) and page, then pin cites.
_REPORTER = (
    r"U\.S\.|S\.\s?Ct\.|L\.\s?Ed\.(?:\s?2d)?|F\.(?:\s?(?:2d|3d|4th))?|F\.\s?Supp\.(?:\s?(?:2d|3d))?"
    r"|F\.\s?App'x|A\.(?:\s?(?:2d|3d))?|P\.(?:\s?(?:2d|3d))?|N\.E\.(?:\s?(?:2d|3d))?|N\.W\.(?:\s?2d)?"
    r"|S\.E\.(?:\s?2d)?|S\.W\.(?:\s?(?:2d|3d))?|So\.(?:\s?(?:2d|3d))?|B\.R\.|WL"
)
_REPORTER_CITATION = re.compile(rf"(?<![0-9A-Za-z])[0-9]{{1,4}}\s(?:{_REPORTER})\s[0-9]{{1,5}}(?:,\s[0-9]{{1,5}})*(?![0-9])")
_REACH = 48  # characters around a numeral that a reporter citation holding it may span


# First- and third-party shorthand ("3P sellers", "1P revenue"): a name, not three of something.
_PARTY = re.compile(r"[123]P")


def states_no_value(text: str, start: int, end: int) -> bool:
    """Whether the numeral ``text[start:end]`` is a date's day, party shorthand or part of a reference (see the module notes)."""
    if _PARTY.fullmatch(text, start, end) is not None:
        return True
    return _day_of_month(text, start, end) or _in_reference(text, start, end)


def _day_of_month(text: str, start: int, end: int) -> bool:
    if _DAY.fullmatch(text, start, end) is None:
        return False
    return _MONTH_AFTER_DAY.match(text, end) is not None or _MONTH_BEFORE_DAY.search(text[max(0, start - 11) : start]) is not None


def _in_reference(text: str, start: int, end: int) -> bool:
    if _PARAGRAPH_MARK_BEFORE.search(text, max(0, start - 3), start):
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
    if _CODE.fullmatch(token) is None:
        return False
    # Letters make it a code; plain joined numbers are one after a reference word ("Regulation (EU) 2016/679").
    return not token.replace("-", "").replace("/", "").replace(":", "").isdigit() or (
        _REFERENCE_WORD_BEFORE.search(text, max(0, lo - 40), lo) is not None
    )
