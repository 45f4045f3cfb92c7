"""A table's scale: "($bn)" in a column's header or a row's label scales the bare numbers under it.

Financial tables write a scale once ("Capex ($bn)", "USD m", "in millions")
and bare numbers in the cells. A reader reads a cell under "($bn)" as
billions, so grounding compares it so: "412" under "($bn)" is $412bn and
does not match a card's $412m (without a scale it would, since a bare
number is also compared by its digits). Where the scale is written, the
first that writes one: the cell's column header, else the row's label (its
first cell), else the table's first header cell (the top-left "USD m"). A
scale needs a currency or a scale word ("($bn)", "(USD m)", "(€ millions)",
"(millions)", "in $ billions"): "(m)" alone may be metres.
"""

from __future__ import annotations

import regex

_SCALE_WORD = r"(?i:thousands?|millions?|billions?|trillions?)"
_CURRENCY = r"(?:[A-Z]{3}|US\$|\p{Sc})"
_SUFFIX = r"(?:k|m|mn|mm|bn|b|tn|000s?)"
_SCALE_MARK = regex.compile(
    # "($bn)", "(USD m)", "(€ millions)", "(millions)", "(bn)"
    rf"\(\s*(?:in\s+)?(?:{_CURRENCY}\s?(?P<s>{_SUFFIX}|{_SCALE_WORD})|(?P<s>{_SCALE_WORD}|(?i:mn|bn|tn)))\s*\)"
    # "in millions", "in $ billions"
    rf"|(?<![\p{{L}}])[Ii]n\s+(?:{_CURRENCY}\s?)?(?P<s>{_SCALE_WORD})(?![\p{{L}}])"
    # a cell that is a scale and nothing else: "USD m", "$bn", "€000"
    rf"|^\s*{_CURRENCY}\s?(?P<s>{_SUFFIX}|{_SCALE_WORD})\s*$"
)
_POWERS = {"k": 3, "m": 6, "mn": 6, "mm": 6, "b": 9, "bn": 9, "tn": 12, "000": 3, "000s": 3}
_WORD_POWERS = {"thousand": 3, "million": 6, "billion": 9, "trillion": 12}

# A cell is at most this long to be read for a scale (a label, not a paragraph).
_CELL_LIMIT = 80


def cell_scale(cell: str) -> int | None:
    """The power of ten a header or label cell gives the bare numbers under it, if it writes one."""
    if len(cell) > _CELL_LIMIT:
        return None
    mark = _SCALE_MARK.search(cell)
    if mark is None:
        return None
    token = mark.group("s").lower()
    return _POWERS.get(token) or _WORD_POWERS.get(token.rstrip("s"))


def cells(row: str, separator: str) -> list[tuple[int, str]]:
    """The cells of a row's visible text, each with where it starts in the row."""
    found = []
    at = 0
    for cell in row.split(separator):
        found.append((at, cell))
        at += len(cell) + len(separator)
    return found
