"""Raw HTML in a section: the text a browser shows, read the way a browser tokenizes it.

qcgrade does not try to predict which HTML a reader ends up seeing: CSS,
classes, ``hidden`` and a browser's tree repairs make that a losing game,
and a policy under reward pressure will find every gap. The rule is
lopsided instead, so that no markup can buy a pass:

- every piece of text inside HTML counts as shown for *numerals* and for
  checking markers (an orphan citation in a hidden span is still an orphan);
- a tag a browser draws inline by default shows nothing: the text joins
  across it (``1<x></x>0%`` shows ``10%``, ``[<x></x>E999]`` shows
  ``[E999]``), and since CSS could still make it a block, it is recorded as
  a possible sentence end that only vouching heeds (see :data:`SOFT_BREAK`);
- a citation or metric tag inside an HTML element never *vouches* for a
  number, and a TL;DR inside HTML does not count, since HTML can hide them;
- only what a browser never renders as text is dropped: comments (ended as
  the HTML standard ends them, ``<!-->``, ``--!>`` included), bogus comments
  (``<!...>``, ``<?...>``), tags with their attributes, and the content of
  ``<script>``, ``<style>`` and ``<template>``.
"""

from __future__ import annotations

import html
import re
from typing import Protocol

import regex

from .html_drawn import css_drawn, drawn_attributes, reversed_count
from .projection import ProjectionBuilder

#: Replaces a tag that starts a new block: it always ends a sentence.
BLOCK_BREAK = "\u2029"
#: What :func:`tag_break` answers for a tag a browser draws inline by default
#: but CSS could make a block: nothing visible, and a possible sentence end
#: kept beside the text (``ProjectionBuilder.add_soft_break``). Never added as text.
SOFT_BREAK = "<soft break>"

# Elements whose content is never rendered as text.
_RAW_TEXT = frozenset({"script", "style", "template"})
# Elements without content or end tag: they open nothing.
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr", "keygen"}
)
# Phrasing elements flow with the text around them; any other tag (known or
# not, or any element with a style, which can make it a block) may start a
# new line: a block element's tag ends a sentence, any other is a SOFT_BREAK.
_PHRASING = frozenset(
    {
        "a", "abbr", "b", "bdi", "bdo", "big", "cite", "code", "data", "del", "dfn", "em", "font", "i", "ins", "kbd",
        "label", "mark", "nobr", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup", "time", "tt",
        "u", "var",
    }
)  # fmt: skip

_TAG_NAME = regex.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)")
_TAG_STOP = re.compile(r"[>\"']")
_ENTITY = re.compile(r"&(?:#[0-9]{1,16};?|#[xX][0-9A-Fa-f]{1,16};?|[A-Za-z][A-Za-z0-9]{1,31};?)")
_STYLE = re.compile(r"\bstyle\s*=", re.IGNORECASE)


class HtmlState:
    """What the HTML read so far leaves open: a raw-text element, and how many elements."""

    __slots__ = ("raw", "depth", "css_attributes")

    def __init__(self) -> None:
        self.raw: str | None = None
        self.depth = 0
        self.css_attributes: frozenset[str] = frozenset()  # attributes CSS draws with attr()

    @property
    def skipping(self) -> bool:
        return self.raw is not None

    def feed(self, closing: bool, name: str) -> None:
        name = name.lower()
        if self.raw is not None:
            if closing and name == self.raw:
                self.raw = None
            return
        if closing:
            if name not in _VOID and self.depth:
                self.depth -= 1
        elif name in _RAW_TEXT:
            self.raw = name
        elif name not in _VOID:  # "<span/>" opens a span: HTML ignores the slash
            self.depth += 1


# Elements a browser draws as blocks (or table parts) by default. Any other
# tag flows inline unless CSS says otherwise: "[<x></x>E999]" shows "[E999]".
_BROWSER_BLOCKS = frozenset(
    "address article aside blockquote body caption center col colgroup dd details dialog dir div dl dt fieldset"
    " figcaption figure footer form frameset h1 h2 h3 h4 h5 h6 header hgroup hr html legend li listing main menu"
    " nav ol optgroup option p plaintext pre search section summary table tbody td tfoot th thead tr ul xmp".split()
)


def tag_break(name: str, attributes: str) -> str:
    """What a tag leaves in the visible text: a sentence break, a line break, a space, nothing or a SOFT_BREAK."""
    name = name.lower()
    if name in ("br", "wbr"):
        return "\n" if name == "br" else ""
    if name == "img":
        return " "
    if name in _PHRASING and not _STYLE.search(attributes):
        return ""
    return BLOCK_BREAK if name in _BROWSER_BLOCKS else SOFT_BREAK


class HtmlSource(Protocol):
    """HTML text plus a way to add its ranges to a projection (see source_map.py)."""

    content: str

    def add(self, builder: ProjectionBuilder, start: int, end: int, visible: str | None = None) -> None: ...

    def source(self, offset: int) -> int: ...


def add_html_text(builder: ProjectionBuilder, html_source: HtmlSource, state: HtmlState) -> None:
    """Add the text an HTML fragment shows. One linear scan, whatever the input."""
    source = html_source.content
    pos = 0
    n = len(source)
    while pos < n:
        lt = source.find("<", pos)
        amp = -1 if state.skipping else source.find("&", pos, lt if lt >= 0 else n)
        nxt = amp if amp >= 0 else (lt if lt >= 0 else n)
        if nxt > pos and not state.skipping:
            html_source.add(builder, pos, nxt)
        elif nxt > pos and state.raw == "style":
            _add_css(builder, html_source, pos, nxt, state)
        if nxt == n:
            return
        if nxt == amp:
            pos = _add_entity(builder, html_source, amp)
        elif source.startswith("<!--", lt):
            pos = _comment_end(source, lt)
        elif source.startswith(("<!", "<?"), lt):
            close = source.find(">", lt + 2)  # a bogus comment, ended by the first ">"
            pos = n if close < 0 else close + 1
        else:
            pos = _add_tag(builder, html_source, lt, state)


def _add_entity(builder: ProjectionBuilder, html_source: HtmlSource, amp: int) -> int:
    source = html_source.content
    match = _ENTITY.match(source, amp)
    if match is not None:
        shown = html.unescape(match.group())
        if shown != match.group():
            builder.add(shown, html_source.source(amp), html_source.source(match.end() - 1) + 1)
            return match.end()
    html_source.add(builder, amp, amp + 1)
    return amp + 1


def _comment_end(source: str, lt: int) -> int:
    """Where a comment starting at ``lt`` ends, as the HTML standard tokenizes it."""
    if source.startswith("<!-->", lt):
        return lt + 5
    if source.startswith("<!--->", lt):
        return lt + 6
    ends = [i for i in (source.find("-->", lt + 4), source.find("--!>", lt + 4)) if i >= 0]
    if not ends:
        return len(source)
    end = min(ends)
    return end + (3 if source.startswith("-->", end) else 4)


def _add_tag(builder: ProjectionBuilder, html_source: HtmlSource, lt: int, state: HtmlState) -> int:
    source = html_source.content
    name_match = _TAG_NAME.match(source, lt)
    if name_match is None:  # a lone "<" is text
        if not state.skipping:
            html_source.add(builder, lt, lt + 1)
        return lt + 1
    end = tag_end(source, name_match.end())
    if end < 0:  # a tag cut off by the end of the block shows nothing
        return len(source)
    closing, name = name_match.group(1) == "/", name_match.group(2)
    if state.skipping and not (closing and name.lower() == state.raw):
        return end
    state.feed(closing, name)
    attributes = source[name_match.end() : end - 1]
    shown = tag_break(name, attributes)
    if shown == SOFT_BREAK:
        builder.add_soft_break()
    elif shown:
        builder.add(shown, html_source.source(lt), html_source.source(end - 1) + 1)
    if not closing and "=" in attributes:
        at = name_match.end()
        for text, start, stop in drawn_attributes(name, attributes, state.css_attributes):
            # Drawn text stands apart from its neighbours, mapped to the attribute value.
            builder.add(f" {text} ", html_source.source(at + start), html_source.source(at + stop - 1) + 1)
    if not closing and name.lower() == "ol" and "reversed" in attributes.lower():
        counted = reversed_count(attributes, source, end)
        if counted is not None:
            text, start, stop = counted
            at = name_match.end()
            builder.add(f" {text} ", html_source.source(at + start), html_source.source(at + stop - 1) + 1)
    return end


def _add_css(builder: ProjectionBuilder, html_source: HtmlSource, start: int, end: int, state: HtmlState) -> None:
    """Strings a stylesheet draws with ``content:`` and its counter numbers, shown where the stylesheet stands."""
    css = html_source.content[start:end]
    lowered = css.lower()
    if "content" not in lowered and "counter" not in lowered:
        return
    strings, attributes = css_drawn(css)
    state.css_attributes = state.css_attributes | attributes
    for text, s, e in strings:
        builder.add(f"{BLOCK_BREAK}{text}{BLOCK_BREAK}", html_source.source(start + s), html_source.source(start + e - 1) + 1)


def tag_end(source: str, pos: int) -> int:
    """Offset just past the ``>`` that closes a tag, as a browser reads it; -1 if none.

    A quote opens a quoted value only right after ``=``; a ``>`` inside one
    does not close the tag. Anything else, ``<`` included, is part of the tag.
    """
    while True:
        stop = _TAG_STOP.search(source, pos)
        if stop is None:
            return -1
        if stop.group() == ">":
            return stop.end()
        before = stop.start() - 1
        while before >= pos and source[before] in " \t\n\r\f":
            before -= 1
        if before >= pos and source[before] == "=":
            close = source.find(stop.group(), stop.end())
            if close < 0:
                return -1
            pos = close + 1
        else:
            pos = stop.end()
