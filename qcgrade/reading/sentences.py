"""Where a reader sees a sentence end: terminators of any script, abbreviations, quotations.

The rules (docs/reading-rules.md has each with an example of both directions):

- A sentence ends at a Unicode ``Sentence_Terminal`` (``.`` ``!`` ``?`` ``‽``
  ``⁉`` ``؟`` ``।`` ``॥`` ``。`` ``｡`` ...), after any closing quotes and
  brackets (``”`` ``»`` ``“`` ``‘`` ``›`` ``)`` of any quoting style), then
  whitespace or the end. With no whitespace it still ends when the next
  character is a capital or a letter of a script without case and the
  terminator follows a non-letter (``42%.The``) or is a full-width or
  ideographic stop (``した｡取``); ``Node.js`` and ``ACME.Com`` stay whole.
- A marker-only tail (``Revenue grew 6%. [E001]``) belongs to the sentence it
  follows: only id-shaped citation groups and metric tags, with punctuation,
  may stand between the terminator and the next sentence.
- An ellipsis (``…``, ``...``) ends a sentence unless a lower-case word
  follows it (after its closers and marker tail): it marks an omission.
- A period after an abbreviation is decided by the abbreviation's class and
  what follows (:func:`abbreviation_ends`).
- A quotation closed and then cited (``"A 7%. B 41%." [C32]``) is one
  sentence with what precedes it in its own sentence (:func:`quoted_spans`).

Every pattern is bounded by a character class that excludes its own
terminator, so the scan is linear on any input.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import cache
from typing import TYPE_CHECKING

import regex

from . import vocab
from .rules import Decision, Trace
from .rules.sentence_ends import abbreviation_ends, asks, closes_aside, ordinal_ends
from .vocab import data

if TYPE_CHECKING:
    from markdown_it.token import Token

    from .document import Unit

# Terminators that need no whitespace after them: ideographic, full-width and
# small-form stops and marks (full-width ones are folded to ASCII before this).
_NO_SPACE_STOPS = "\u3002\uff61\ufe12\ufe52\ufe56\ufe57"
# After a terminator: closing brackets and quotes of any style (German „...“,
# ‚...‘ and »...« close with initial quotes), straight quotes, emphasis leftovers,
# and Wikipedia-style glued citation groups ("grew.[E1]").
# Closing punctuation and quotes of every style are Unicode's Pe, Pf and Pi; terminators its
# Sentence_Terminal: both listed in vocab/generated/unicode.toml (from the Unicode Character
# Database), so the stdlib engine can find where a sentence may end and the pattern reads the
# same characters whatever the regex module's own Unicode version.


@cache
def _closers() -> str:
    return rf"[{data.char_class('closing')}\"'*_]*(?:\[[^\[\]\u2029\u2063]{{1,64}}\])*"


@cache
def _terminators() -> str:
    """The body of a class of sentence terminators."""
    return data.char_class("sentence_terminal")


# A marker-only tail: id-shaped citation groups (every token holds a digit)
# and metric tags, each with trailing punctuation, then whitespace or the end.
_ID_TOKEN = r"[\p{L}\p{M}_\-]*\p{N}[\p{L}\p{M}\p{N}_\-]*"
_TAIL_GROUP = (
    rf"(?:\[[^\S\u2029]*{_ID_TOKEN}(?:[\s,;]+{_ID_TOKEN}){{0,64}}[^\S\u2029]*\]"
    r"|\{[^\S\u2029]*[\p{L}_][\w\-]{0,127}(?:[\s,;|/&+]+[\p{L}_][\w\-]{0,127}){0,64}[^\S\u2029]*\})"
)


@cache
def _tail_opener() -> str:
    """A word opening a parenthesised marker group: "(see [C72])", "(source: [E001])"."""
    return rf"(?i:{vocab.alternation(vocab.tail_openers())}:?)"


@cache
def sentence_end() -> regex.Pattern[str]:
    """Where a sentence may end (compiled on first use); a period after what may be an abbreviation is decided
    by its class (group ``word``, see :func:`qcgrade.reading.rules.sentence_ends.abbreviation_ends`), one after
    a short number by :func:`~qcgrade.reading.rules.sentence_ends.ordinal_ends` (group ``ordinal``); a numeric
    ticker's stop (group ``ticker``) ends nothing."""
    # A parenthesised marker group closes a sentence the same way: "... EPS..." (see [C72]).
    group = rf"(?:{_TAIL_GROUP}|\([^\S\u2029]*(?:{_tail_opener()}[^\S\u2029]+)?{_TAIL_GROUP}[^\S\u2029]*\))"
    tail = rf"(?:{group}[.,;:!?]*(?:[^\S\u2029]+|(?=\u2029)|$))*"
    space_tail = rf"(?:[^\S\u2029]+{tail}(?:\u2029\s*)?|\u2029\s*|$)"
    suffixes = vocab.alternation(vocab.ticker_suffixes())
    term, closers = _terminators(), _closers()
    unspaced = vocab.unspaced_letter()
    return regex.compile(
        rf"(?=[{term}\u2026\u2029;])(?:"
        # A period after what may be an abbreviation (a known word, an initial, a dotted initialism).
        r"(?:(?<!\p{L}{8})(?<=(?<![\p{L}\p{M}\p{N}.])(?P<word>(?:\p{L}\.){0,7}\p{L}{1,7}))"
        rf"\.(?![.\u2026]){closers}(?>{space_tail}))"
        # An ellipsis: no end when a lower-case word follows (an omission).
        rf"|(?:(?=\.\.|\u2026)(?<![.\u2026])(?:\.{{2,}}|\u2026)[.\u2026]*{closers}(?>{space_tail})(?!\p{{Ll}}))"
        # A stop after a number of one to three digits standing alone, before a word: may be an ordinal.
        rf"|(?:(?<=(?<![\p{{N}}\p{{L}}\p{{M}}\p{{Sc}}.,+\-\u2212])(?P<ordinal>\p{{Nd}}{{1,3}}))\.(?=[^\S\u2029]+\p{{L}})"
        rf"(?>{space_tail}))"
        # Any other terminator before whitespace (or the end), with its tail.
        rf"|(?<![.\u2026])(?!\.\.)[{term}][{term}\u2026]*{closers}{space_tail}"
        # The Greek question mark, folded to ";", before a Greek capital.
        rf"|(?P<greek>;){closers}(?=[^\S\u2029]+(?=\p{{Lu}})\p{{Greek}}){space_tail}"
        # A numeric ticker's exchange suffix ("7203.T", "0700.HK"): one identifier.
        rf"|(?<=(?<![\p{{N}}.,])\p{{Nd}}{{4,6}})(?P<ticker>\.)(?={suffixes}(?![\p{{L}}\p{{M}}\p{{N}}]))"
        # No whitespace: after a non-letter before a capital or a caseless letter (not an ordinal
        # indicator: "10.ª"), between letters of a script written without spaces, or an ideographic
        # stop before anything.
        rf"|(?<![\p{{L}}\p{{M}}])[{term}]+{closers}(?=(?![{vocab.ordinal_indicators()}])[\p{{Lu}}\p{{Lt}}\p{{Lo}}])"
        rf"|[{_NO_SPACE_STOPS}]+{closers}\s*"
        rf"|(?<={unspaced})[{term}]+{closers}(?={unspaced})"
        r"|\u2029\s*"
        r")"
    )


def _decide_word(match: regex.Match[str], text: str) -> tuple[bool, str, int] | None:
    """A period after a short word: its class decides (rules/sentence_ends.py); None when no class is asked."""
    word = match.group("word")
    start = match.start("word")
    before = text[max(0, start - 24) : start]
    if not asks(word, before):
        return None
    end = match.end()
    dot = match.start()
    if text.startswith(")", dot + 1) and closes_aside(text[max(0, dot - 400) : dot]):
        return False, "abbreviation.in_aside", start
    ends_here, rule = abbreviation_ends(word, text[end : end + 40], before)
    return ends_here, rule, start


def _decide_ordinal(match: regex.Match[str], text: str) -> tuple[bool, str, int] | None:
    start = match.start("ordinal")
    end = match.end()
    ends_here, rule = ordinal_ends(text[end : end + 40], text[max(0, start - 24) : start])
    return ends_here, rule, start


def _decide_ticker(match: regex.Match[str], text: str) -> tuple[bool, str, int] | None:
    start = match.start()
    while start > 0 and text[start - 1].isdigit():  # at most six: the pattern's bound
        start -= 1
    return False, "sentence_end.ticker", start


def _decide_greek(match: regex.Match[str], text: str) -> tuple[bool, str, int] | None:
    return True, "sentence_end.greek_question", match.start()


_DECIDE = {"word": _decide_word, "ordinal": _decide_ordinal, "ticker": _decide_ticker, "greek": _decide_greek}


@cache
def _may_end() -> re.Pattern[str]:
    """Where a sentence-end match may start: each alternative of :func:`sentence_end` opens at one of these."""
    return re.compile(f"[{_terminators()}\u2026\u2029;]")


def _matches(text: str) -> Iterator[regex.Match[str]]:
    """``sentence_end().finditer(text)``: the pattern tried only where a match may start (the stdlib engine finds
    those places fast), each try past the last match, as finditer goes."""
    pattern = sentence_end()
    reached = 0
    for candidate in _may_end().finditer(text):
        at = candidate.start()
        if at >= reached:
            match = pattern.match(text, at)
            if match is not None:
                reached = match.end()
                yield match


def _ends(text: str, trace: Trace | None = None) -> list[int]:
    ends = []
    for match in _matches(text):
        name = match.lastgroup
        decided = _DECIDE[name](match, text) if name is not None else None
        if decided is None:
            ends.append(match.end())
            if trace is not None:
                trace.append(Decision("sentence_end", match.start(), match.end(), "ends", _terminator_rule(match.group())))
            continue
        ends_here, rule, start = decided
        if trace is not None:
            trace.append(Decision("sentence_end", start, match.start() + 1, "ends" if ends_here else "stays", rule))
        if ends_here:
            ends.append(match.end())
    return ends


def _terminator_rule(found: str) -> str:
    if found.startswith("\u2029"):
        return "sentence_end.unit_break"
    if found.startswith(("..", "\u2026")):
        return "sentence_end.ellipsis"
    return "sentence_end.terminator"


# A quotation in double quotes of any common style, within one unit, then a
# marker group right after it: "... 7% of loans. About 41% ..." [C32].
_OPEN_QUOTES = '"\u201c\u201e\u00ab\u00bb'
_CLOSE_QUOTES = '"\u201d\u201c\u00bb\u00ab'
_QUOTED_BODY = '[^"\u201c\u201d\u201e\u00ab\u00bb\u2029]{1,4000}'
_QUOTED = regex.compile(f"[{_OPEN_QUOTES}]{_QUOTED_BODY}[{_CLOSE_QUOTES}]")


# What follows a quotation that a citation covers whole: "..." [C32], "..." (see [C72]).
@cache
def _cited_after() -> regex.Pattern[str]:
    return regex.compile(rf"[.,;:!?]?[^\S\u2029]*(?:[\[{{]|\([^\S\u2029]*(?:{_tail_opener()}[^\S\u2029]+)?[\[{{])")


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Every quotation ``(open, close_end)`` in reading order (straight quotes paired in turn)."""
    if '"' not in text and "\u201c" not in text and "\u00ab" not in text and "\u201e" not in text and "\u00bb" not in text:
        return []
    return [m.span() for m in _QUOTED.finditer(text)]


def sentence_ends(
    text: str,
    quotations: list[tuple[int, int]] | None = None,
    trace: Trace | None = None,
    attributed: list[tuple[int, int]] | None = None,
) -> list[int]:
    """Offsets just past each sentence end in ``text``.

    Ends strictly inside a quotation that a marker group follows are dropped:
    the citation after the closing quote covers the whole quotation.
    ``quotations`` are :func:`quoted_spans` of ``text`` when the caller has them;
    ``attributed`` the :func:`attributed_quotations`, whose ends are dropped too.
    """
    ends = _ends(text, trace)
    if not ends or ("[" not in text and "{" not in text):
        return ends
    if quotations is None:
        quotations = quoted_spans(text)
    inside = [(start + 1, end, "sentence_end.cited_quotation") for start, end in quotations if _cited_after().match(text, end)]
    if attributed:
        inside = sorted(inside + [(start + 1, end, "sentence_end.attribution") for start, end in attributed])
    return _drop_inside(ends, inside, trace) if inside else ends


def _drop_inside(ends: list[int], inside: list[tuple[int, int, str]], trace: Trace | None) -> list[int]:
    kept = []
    i = 0
    for end in ends:  # both lists ascend: one sweep
        while i < len(inside) and inside[i][1] < end:
            i += 1
        if i < len(inside) and inside[i][0] < end <= inside[i][1]:
            if trace is not None:
                trace.append(Decision("sentence_end", inside[i][0], end, "stays", inside[i][2]))
            continue
        kept.append(end)
    return kept


# An attribution line: a dash, then who said it and where, then its citation ("— CEO, Q3 call [E5]").
_DASHES = "\u2014\u2015\u2013"


@cache
def _attribution() -> regex.Pattern[str]:
    return regex.compile(rf"[{_DASHES}][^\u2029]{{0,300}}?(?P<cite>{_TAIL_GROUP})[.,;]?[^\S\u2029]*$")


def attributed_quotations(text: str, units: Sequence[Unit], tokens: Sequence[Token]) -> list[tuple[int, int]]:
    """``(start - 1, citation start)`` of each quotation in a block quote whose next paragraph, in the same block
    quote, is its attribution line carrying the citation: the citation covers the quotation, as one after a
    closing quote does (``sentence_end.attribution``)."""
    if not any(dash in text for dash in _DASHES):
        return []
    candidates = []
    for prev, unit in zip(units, units[1:]):
        if prev.kind != "paragraph" or unit.kind != "paragraph" or text[unit.start : unit.start + 1] not in _DASHES:
            continue
        line = _attribution().match(text, unit.start, unit.end)
        if line is not None:
            candidates.append((prev, unit, line.start("cite")))
    if not candidates:
        return []
    depth = _quote_depths(tokens)
    return [
        (prev.start - 1, cite)
        for prev, unit, cite in candidates
        if depth[prev.token_index] > 0 and depth[unit.token_index] == depth[prev.token_index] and _one_quote(tokens, prev, unit)
    ]


def _quote_depths(tokens: Sequence[Token]) -> list[int]:
    """How many block quotes are open at each token (one pass)."""
    depths = []
    depth = 0
    for token in tokens:
        depth += token.type == "blockquote_open"
        depth -= token.type == "blockquote_close"
        depths.append(depth)
    return depths


def _one_quote(tokens: Sequence[Token], prev: Unit, unit: Unit) -> bool:
    """No block quote closes or opens between two consecutive paragraphs' tokens (a few tokens apart)."""
    return not any(t.type.startswith("blockquote") for t in tokens[prev.token_index : unit.token_index])
