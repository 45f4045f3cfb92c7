"""Numbers that are structure, and numbers a browser draws that the text does not hold.

Two decisions about what a reader sees as a quantity (``docs/reading-rules.md``,
"Numbers"):

- A section number at the start of a heading is structure (``## 1. Growth``,
  ``## 3) Risks``; :func:`heading_number`, rule ``structure.heading_number``):
  one or two digits a level, closed by a stop or a parenthesis or dotted,
  then a capital, a letter without case or a symbol; never a lower-case
  word, a digit, a magnitude (``## 2.5 Billion ...``, ``## 1.2 B in ...``), a
  currency or a percent sign (``## 42. % of ...``). One level written bare
  (``## 3 Risks``, as LaTeX numbers sections) needs a capital after it.
- An ordered list's numbers are drawn by the renderer (CommonMark draws the
  start number and counts up, whatever the later items say). They are
  structure when the list counts from 0 or 1. A drawn number is a quantity
  (read as a numeral, at the item's marker, in the item's first sentence)
  when it has four digits or more (``1200000. units``), when the item goes on
  with a quantity word (``42. percent of revenue``, ``30) bn in sales``), or
  when the list starts above 1 and the item goes on in lower case, the way a
  sentence that opens with a number does (``42. of the stores closed``).
  A list that continues at ``4.`` after an interruption, items capitalised,
  stays structure.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import cache
from typing import NamedTuple

import regex
from markdown_it.token import Token

from . import vocab
from .document import Document
from .lexicon import quantity_start

_LOWER_START = regex.compile(r"[ \t\n\u00a0]*\p{Ll}")


class DrawnNumber(NamedTuple):
    """A number the reader sees that the visible text does not hold."""

    text: str
    src_start: int
    src_end: int
    visible_at: int  # where the reader meets it in the visible text (its sentence)


def list_numbers(doc: Document, source: str) -> list[DrawnNumber]:
    """Ordered-list numbers a reader reads as quantities, at their markers in ``source``."""
    tokens = doc.tokens
    if not doc.ordered_lists:
        return []
    if not any(_starts_above_one_or_runs_long(tokens[index]) for index in doc.ordered_lists):
        # Lists counting from 0 or 1 draw a quantity only before a quantity word.
        visible = doc.projection.text
        if _quantity_at_unit_start().search(visible) is None and quantity_start().match(visible) is None:
            return []
    unit_tokens = [u.token_index for u in doc.units]
    text = doc.projection.text
    lines = doc.line_starts
    cursor: dict[int, int] = {}  # per source line: where the next marker may start
    found: list[DrawnNumber] = []
    counters: list[tuple[int, int]] = []  # per open ordered list: start, items so far
    closes = _item_closes(tokens)
    for index, token in enumerate(tokens):
        if token.type == "ordered_list_open":
            start = token.attrs.get("start", 1)
            counters.append((int(start) if isinstance(start, (int, str)) else 1, 0))
        elif token.type == "ordered_list_close" and counters:
            counters.pop()
        elif token.type == "list_item_open" and token.markup in (".", ")") and counters and token.map:
            first, count = counters[-1]
            counters[-1] = (first, count + 1)
            drawn = first + count
            unit = bisect_right(unit_tokens, index)
            # The item's own first unit; an empty item, or one that opens with a
            # nested list ("2. 1. revenue"), goes on with nothing of its own.
            opens_list = index + 1 < len(tokens) and tokens[index + 1].type in ("ordered_list_open", "bullet_list_open")
            if not opens_list and unit < len(doc.units) and doc.units[unit].token_index < closes.get(index, len(tokens)):
                at = doc.units[unit].start
                if not _reads_as_quantity(drawn, first, text, at):
                    continue
            elif drawn < 1000:
                continue
            else:
                at = doc.units[unit].start if unit < len(doc.units) else len(text)
            span = _marker(source, token, lines, cursor)
            if span is not None:
                found.append(DrawnNumber(str(drawn), span[0], span[1], at))
    return found


def _starts_above_one_or_runs_long(opener: Token) -> bool:
    """Whether an ordered list may draw a quantity whatever follows its markers.

    A list counting from 0 or 1 draws one (see :func:`_reads_as_quantity`)
    only before a quantity word, or from its thousandth item on; each item
    takes at least one source line.
    """
    start = opener.attrs.get("start", 1)
    if start not in (0, 1, "0", "1"):
        return True
    return opener.map is None or opener.map[1] - opener.map[0] >= 999


@cache
def _quantity_at_unit_start() -> regex.Pattern[str]:
    """A unit (an item's text among them) that opens with a quantity word or sign: a superset of where
    _reads_as_quantity accepts an item of a list from 1.

    Units are joined by UNIT_BREAK in the visible text, so one scan finds them.
    (An alternative for the text's start as well would make the engine try
    every position: the first unit is matched on its own.)
    """
    return regex.compile("\u2029" + quantity_start().pattern)


def _item_closes(tokens: list[Token]) -> dict[int, int]:
    """For each list item's opening token, the index of its closing token."""
    closes: dict[int, int] = {}
    stack: list[int] = []
    for index, token in enumerate(tokens):
        if token.type == "list_item_open":
            stack.append(index)
        elif token.type == "list_item_close" and stack:
            closes[stack.pop()] = index
    return closes


def _reads_as_quantity(drawn: int, first: int, text: str, at: int) -> bool:
    if drawn >= 1000:
        return True
    if first in (0, 1):  # an ordinary list: only a lower-case quantity word carries its number on
        return drawn > 1 and quantity_start().match(text, at) is not None and _LOWER_START.match(text, at) is not None
    return quantity_start().match(text, at) is not None or _LOWER_START.match(text, at) is not None


def _marker(source: str, token: Token, line_starts: list[int], cursor: dict[int, int]) -> tuple[int, int] | None:
    """The marker's digits in its source line, found left to right (nested lists share a line)."""
    line = token.map[0] if token.map else 0
    if line >= len(line_starts):
        return None
    begin = cursor.get(line, line_starts[line])
    end = line_starts[line + 1] if line + 1 < len(line_starts) else len(source)
    at = begin
    digits = token.info
    while True:
        at = source.find(digits + token.markup, at, end)
        if at < 0:
            return None
        if at == 0 or not source[at - 1].isdigit():
            cursor[line] = at + len(digits)
            return at, at + len(digits)
        at += 1


@cache
def _heading_number() -> regex.Pattern[str]:
    # What may not follow a section number: a magnitude or quantity word ("## 2.5 Billion ...", "## 1.2 B in ...").
    words = vocab.alternation((*vocab.magnitudes(), "hundred", "percent", "pct", "per", "times", "x"))
    not_quantity = rf"(?!(?i:{words})(?![\p{{L}}\p{{N}}]))"
    return regex.compile(
        r"[^\S\u2029]*(\p{N}{1,2}\.(?:\p{N}{1,2}\.?)*|\p{N}{1,2}(?:\.\p{N}{1,2})+|\p{N}{1,2}(?=\))"
        rf"|\p{{N}}{{1,2}}(?=[^\S\u2029]+{not_quantity}\p{{Lu}}))\)?"
        rf"(?=[^\S\u2029]+{not_quantity}[^\s\p{{Ll}}\p{{N}}\p{{Sc}}{vocab.percent_sign_chars()}])"
    )


def heading_number(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The section number opening the heading ``text[start:end]``, if any (rule ``structure.heading_number``)."""
    match = _heading_number().match(text, start, end)
    return match.span(1) if match else None
