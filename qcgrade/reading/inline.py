"""Reading inline content: plain text directly, emphasis cheaply, the rest with markdown-it-py.

Most prose holds no inline markup and is its own visible text. Content whose
only markup is ``*`` emphasis in everyday shapes is resolved here with
CommonMark's flanking rules. Anything else (code, HTML, entities, escapes,
links, underscore emphasis) runs through markdown-it-py's own inline rules,
and the resulting tokens are walked for what a reader sees.
"""

from __future__ import annotations

import re
from typing import Any

import regex
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.token import Token

from .html import HtmlState, add_html_text
from .markdown import EMPHASIS_RULE, PARSER, TrackedState
from .projection import ProjectionBuilder, Regions
from .source_map import Content

# What can start inline markup other than emphasis: a backtick, a tag or
# autolink (``<`` before a non-space), an entity, a backslash escape or hard
# break. Inline links and images are caught separately by ``](``. Each
# alternative is a superset of what markdown-it-py accepts, so plain text
# never goes unparsed; "R&D" or "< 5%" stay on the fast path.
_MARKUP = re.compile(r"`|<\S|&(?:#|[A-Za-z][A-Za-z0-9]{0,31};)|\\[!-/:-@\[-`{-~\n]")
_DELIMITER = re.compile(r"[*_]")
# An underscore between two letters or digits can never delimit emphasis.
_EMPHASIS_UNDERSCORE = regex.compile(r"_(?<![\p{L}\p{N}]_)|_(?![\p{L}\p{N}])")


PLAIN, EMPHASIS, FULL = 0, 1, 2


# Keys of the per-document hints kept in the markdown-it env (see note_hints).
_MARKUP_SEEN = "qcgrade_markup"
_UNDERSCORE_SEEN = "qcgrade_underscore"


def note_hints(text: str, env: dict[str, Any]) -> None:
    """Record whether the whole text holds any markup start or emphasis underscore.

    When it holds none, no block of it can, and the per-block regex tests are
    skipped: one scan of the document instead of one per paragraph.
    """
    # Substring tests first: each is a fast C scan, the pattern is not.
    maybe = "`" in text or "<" in text or "&" in text or "\\" in text
    env[_MARKUP_SEEN] = maybe and _MARKUP.search(text) is not None
    env[_UNDERSCORE_SEEN] = "_" in text and _EMPHASIS_UNDERSCORE.search(text) is not None


def _has_markup(src: str, env: dict[str, Any]) -> bool:
    if env.get(_MARKUP_SEEN, True) and _MARKUP.search(src) is not None:
        return True
    return "](" in src or ("[" in src and bool(env.get("references")))


def _has_underscore(src: str, env: dict[str, Any]) -> bool:
    return env.get(_UNDERSCORE_SEEN, True) and "_" in src and _EMPHASIS_UNDERSCORE.search(src) is not None


def markup_kind(src: str, env: dict[str, Any]) -> int:
    """How much of the inline parser ``src`` needs.

    PLAIN renders as itself; EMPHASIS holds ``*``/``_`` delimiters and nothing
    else that could be markup (links need ``](`` or a reference definition);
    FULL needs every inline rule.
    """
    if _has_markup(src, env):
        return FULL
    if "*" in src or _has_underscore(src, env):
        return EMPHASIS
    return PLAIN


def plain_text(src: str, env: dict[str, Any]) -> bool:
    return "*" not in src and not _has_markup(src, env) and not _has_underscore(src, env)


def read_inline(
    content: Content,
    builder: ProjectionBuilder,
    regions: Regions,
    state: HtmlState,
    env: dict[str, Any],
) -> None:
    """Add one block's inline content; inline HTML never stays open past its block."""
    src = content.content
    kind = markup_kind(src, env)
    if kind == PLAIN:
        content.add(builder, 0, len(src))
        return
    if kind == EMPHASIS:
        consumed = simple_emphasis(src)
        if consumed is not None:
            prev = 0
            for start, end in consumed:
                content.add(builder, prev, start)
                prev = end
            content.add(builder, prev, len(src))
            return
    children: list[Token] = []
    inline_state = TrackedState(src, PARSER, env, children)
    if kind == EMPHASIS:
        _tokenize_emphasis(inline_state)
    else:
        PARSER.inline.tokenize(inline_state)
    for rule in PARSER.inline.ruler2.getRules(""):
        rule(inline_state)
    depth, raw = state.depth, state.raw
    _walk_inline(children, content, builder, regions, state)
    if depth == 0:
        regions.leave_html(builder.length)
    state.depth, state.raw = depth, raw


_STAR_RUN = re.compile(r"\*+")


def _flanks(char: str) -> tuple[bool, bool]:
    """Whether ``char`` is punctuation, and whether it is white space, as markdown-it-py's flanking rules read it."""
    return isMdAsciiPunct(ord(char)) or isPunctChar(char), isWhiteSpace(ord(char))


# The answer for every ASCII character, looked up once: most text around a "*" is ASCII.
_ASCII_FLANKS = {chr(code): _flanks(chr(code)) for code in range(128)}


def _delimiter_kind(src: str, start: int, end: int) -> int:
    """CommonMark flanking of the ``*`` run ``src[start:end]``: 1 opens, 2 closes, 3 both, 0 neither."""
    last = src[start - 1] if start > 0 else " "
    nxt = src[end] if end < len(src) else " "
    last_punct, last_space = _ASCII_FLANKS.get(last) or _flanks(last)
    next_punct, next_space = _ASCII_FLANKS.get(nxt) or _flanks(nxt)
    left = not (next_space or (next_punct and not (last_space or last_punct)))
    right = not (last_space or (last_punct and not (next_space or next_punct)))
    return (1 if left else 0) | (2 if right else 0)


def simple_emphasis(src: str) -> list[tuple[int, int]] | None:
    """The ``*`` runs that emphasis consumes, when the answer is unambiguous.

    Handles the everyday shapes (``**bold**``, ``*a* and *b*``, properly
    nested runs of equal length) with CommonMark's flanking rules; returns
    None for anything else (underscore emphasis, a run that both opens and
    closes, unequal lengths), which then goes through markdown-it-py itself.
    """
    if "_" in src and _EMPHASIS_UNDERSCORE.search(src) is not None:
        return None
    consumed: list[tuple[int, int]] = []
    stack: list[tuple[int, int]] = []
    for match in _STAR_RUN.finditer(src):
        start, end = match.span()
        kind = _delimiter_kind(src, start, end)
        if kind == 3:
            return None
        if kind == 1:
            stack.append((start, end))
        elif kind == 2 and stack:
            opener = stack.pop()
            if opener[1] - opener[0] != end - start:
                return None
            consumed.append(opener)
            consumed.append((start, end))
    consumed.sort()
    return consumed


def _tokenize_emphasis(state: TrackedState) -> None:
    """markdown-it-py's emphasis rule at each ``*``/``_``, plain text between.

    Equivalent to the full inline tokenizer when nothing but emphasis can be
    markup, and far cheaper: the full loop tries every rule at every
    punctuation character.
    """
    src = state.src
    for match in _DELIMITER.finditer(src):
        at = match.start()
        if at < state.pos:
            continue
        if at > state.pos:
            state.append_pending(src[state.pos : at])
            state.pos = at
        if not EMPHASIS_RULE(state, False):
            state.append_pending(src[at])
            state.pos = at + 1
    if state.pos < len(src):
        state.append_pending(src[state.pos :])
        state.pos = len(src)
    if state.pending:
        state.pushPending()


class _Slice:
    """One inline HTML token as an HTML source, offsets relative to its block content."""

    __slots__ = ("content", "_outer", "_offset")

    def __init__(self, outer: Content, offset: int, text: str) -> None:
        self.content = text
        self._outer = outer
        self._offset = offset

    def add(self, builder: ProjectionBuilder, start: int, end: int, visible: str | None = None) -> None:
        self._outer.add(builder, self._offset + start, self._offset + end, visible)

    def source(self, offset: int) -> int:
        return self._outer.source(self._offset + offset)


def _walk_inline(
    children: list[Token],
    content: Content,
    builder: ProjectionBuilder,
    regions: Regions,
    state: HtmlState,
) -> None:
    autolink = False
    link_start = -1
    for tok in children:
        kind = tok.type
        start, end = tok.meta.get("qc", (0, 0))
        if kind == "html_inline":
            # Read as a browser reads it: comments end at "--!>" too, and so on.
            add_html_text(builder, _Slice(content, start, tok.content), state)
            if state.depth > 0:
                regions.enter_html(builder.length)
            else:
                regions.leave_html(builder.length)
            continue
        if state.skipping:
            continue
        if kind == "text":
            if autolink:
                content.add(builder, start + 1, end - 1)
            else:
                content.add(builder, start, start + len(tok.content))
        elif kind == "text_special":
            builder.add(tok.content, content.source(start), content.source(end))
        elif kind == "code_inline":
            inner_start = start + len(tok.markup)
            inner = content.content[inner_start : end - len(tok.markup)]
            if inner.startswith((" ", "\n")) and inner.endswith((" ", "\n")) and inner.strip(" \n"):
                inner_start += 1
            begin = builder.length
            content.add(builder, inner_start, inner_start + len(tok.content), tok.content)
            regions.code.append((begin, builder.length))
        elif kind in ("softbreak", "hardbreak"):
            builder.add("\n", content.source(start), content.source(end))
        elif kind == "link_open":
            autolink = tok.markup == "autolink"
            link_start = builder.length
        elif kind == "link_close":
            if not autolink and 0 <= link_start < builder.length:
                regions.links.append((link_start, builder.length))
            autolink = False
            link_start = -1
        # An image shows no text: its alt text is an attribute.
