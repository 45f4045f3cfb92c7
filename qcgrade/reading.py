"""Read a markdown section the way a reader sees it, as a list of text units.

markdown-it-py finds the block structure (CommonMark plus tables). Inline
content is read in one of two ways: when it holds no character that could
start inline markup, its visible text *is* its content (the fast path, most
prose); otherwise markdown-it-py's own inline rules run on it, wrapped so that
every token remembers the source range it came from. Either way each unit
gets a :class:`~qcgrade.visible.Projection` back to the original offsets.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, NamedTuple

import re

import regex
from markdown_it import MarkdownIt
from markdown_it.common.utils import isMdAsciiPunct, isPunctChar, isWhiteSpace
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .spans import line_starts
from .visible import (
    HiddenTracker,
    Projection,
    ProjectionBuilder,
    add_html_text,
    add_tag_break,
    builder_for,
    needs_cleaning,
    parse_tag,
)

# What can start inline markup other than emphasis: a backtick, a tag or
# autolink (``<`` before a non-space), an entity, a backslash escape or hard
# break. Inline links and images are caught separately by ``](``. Each
# alternative is a superset of what markdown-it-py accepts, so plain text
# never goes unparsed; "R&D" or "< 5%" stay on the fast path.
_MARKUP = re.compile(r"`|<\S|&(?:#|[A-Za-z][A-Za-z0-9]{0,31};)|\\[!-/:-@\[-`{-~\n]")
_DELIMITER = re.compile(r"[*_]")
# An underscore between two letters or digits can never delimit emphasis.
_EMPHASIS_UNDERSCORE = regex.compile(r"_(?<![\p{L}\p{N}]_)|_(?![\p{L}\p{N}])")


#: Separates units in the visible text; it always ends a sentence.
UNIT_BREAK = "\u2029"


class Unit(NamedTuple):
    """A block of visible text that no sentence crosses: ``visible[start:end]``."""

    kind: str  # paragraph | heading | row | code | html
    start: int
    end: int
    token_index: int


@dataclass(frozen=True, slots=True)
class Document:
    """The visible text of a whole section, its units and where code is shown."""

    projection: Projection
    units: tuple[Unit, ...]
    code: tuple[tuple[int, int], ...]  # visible ranges shown verbatim as code, sorted
    tokens: list[Token]
    line_starts: list[int]
    unit_starts: list[int]  # units[i].start, for bisection
    cleaning: bool  # the text may show zero-width or look-alike characters

    @property
    def visible(self) -> str:
        return self.projection.text


class _TrackedState(StateInline):
    """Inline state whose flushed text tokens remember their source offsets."""

    def __init__(self, src: str, md: MarkdownIt, env: Any, out: list[Token]) -> None:
        super().__init__(src, md, env, out)
        self.qc_pending_start = 0

    def append_pending(self, text: str) -> None:
        if not self._pending and not self._pending_buffer:
            self.qc_pending_start = self.pos
        super().append_pending(text)

    def pushPending(self) -> Token:
        start = self.qc_pending_start
        token = super().pushPending()
        token.meta["qc"] = (start, start + len(token.content))
        return token


def _tracking(name: str, rule: Callable[[StateInline, bool], bool]) -> Callable[[StateInline, bool], bool]:
    def tracked(state: StateInline, silent: bool) -> bool:
        if silent:
            return rule(state, silent)
        start, first = state.pos, len(state.tokens)
        ok = rule(state, silent)
        if ok:
            fresh = [t for t in state.tokens[first:] if "qc" not in t.meta]
            if name == "emphasis":  # one text token per delimiter character
                for i, token in enumerate(fresh):
                    token.meta["qc"] = (start + i, start + i + 1)
            else:
                for token in fresh:
                    token.meta["qc"] = (start, state.pos)
        return ok

    return tracked


def _make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"maxNesting": 40}).enable("table")
    md.core.ruler.disable(["inline", "text_join"])
    # Merging adjacent text tokens would lose their offsets.
    md.inline.ruler2.disable("fragments_join")
    for rule in md.inline.ruler.__rules__:
        if rule.name != "text":
            rule.fn = _tracking(rule.name, rule.fn)
    md.inline.ruler.__cache__ = None
    return md


_PARSER = _make_parser()
_EMPHASIS_RULE = next(rule.fn for rule in _PARSER.inline.ruler.__rules__ if rule.name == "emphasis")

# Block rules that cannot fire on a text lacking every one of their needles.
# markdown-it-py tries each enabled rule at every block start and every
# paragraph line, so leaving out the impossible ones changes no token and
# saves most of the block pass on ordinary prose (a test compares tokens).
_OPTIONAL_BLOCK_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("table", ("|",)),
    ("code", ("    ", "\t")),
    ("fence", ("```", "~~~")),
    ("blockquote", (">",)),
    ("reference", ("]:",)),
    ("html_block", ("<",)),
    ("heading", ("#",)),
)
# A thematic break needs two of -, * or _ with only spaces or tabs between.
_RULE_PAIR = re.compile(r"([-*_])[ \t]*\1")
# A setext underline is a line of only = or - once container prefixes are gone.
_UNDERLINE = re.compile(r"^[ \t>]*(?:=+|-+)[ \t]*$", re.MULTILINE)


@lru_cache(maxsize=None)
def _parser_without(absent: tuple[str, ...]) -> MarkdownIt:
    if not absent:
        return _PARSER
    md = _make_parser()
    md.block.ruler.disable(list(absent))
    return md


def block_parser_for(text: str) -> MarkdownIt:
    """The block parser for ``text``: ours, minus rules that cannot match it."""
    absent = [name for name, needles in _OPTIONAL_BLOCK_RULES if not any(n in text for n in needles)]
    if _RULE_PAIR.search(text) is None:
        absent.append("hr")
    if _UNDERLINE.search(text) is None:
        absent.append("lheading")
    return _parser_without(tuple(absent))


class _Lines:
    """Line starts of the original text (any line ending); lines sliced on demand."""

    __slots__ = ("text", "starts", "_ends")

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = line_starts(text)
        # A line ends before its terminator (\n, \r\n or \r).
        ends = []
        for start in self.starts[1:]:
            end = start - 1
            if end > 0 and text[end] == "\n" and text[end - 1] == "\r":
                end -= 1
            ends.append(end)
        ends.append(len(text))
        self._ends = ends

    def line(self, index: int) -> str:
        index = min(index, len(self.starts) - 1)
        return self.text[self.starts[index] : self._ends[index]]

    def start(self, index: int) -> int:
        return self.starts[min(index, len(self.starts) - 1)]

    def line_end(self, index: int) -> int:
        return self._ends[min(index, len(self._ends) - 1)]


class _Content:
    """Maps offsets in a token's content to offsets in the original text."""

    __slots__ = ("content", "_content_starts", "_source_starts")

    def __init__(self, content: str, first_line: int, lines: _Lines, cursor: int | None = None) -> None:
        self.content = content
        self._content_starts: list[int] = []
        self._source_starts: list[int] = []
        offset = 0
        for i, piece in enumerate(content.split("\n")):
            col = _locate(lines.line(first_line + i), piece, cursor if i == 0 else None)
            self._content_starts.append(offset)
            self._source_starts.append(lines.start(first_line + i) + col)
            offset += len(piece) + 1

    def add(self, builder: ProjectionBuilder, start: int, end: int, visible: str | None = None) -> None:
        """Add content ``[start, end)`` one to one, split at content lines."""
        text = self.content[start:end] if visible is None else visible
        starts = self._content_starts
        i = _index(starts, start)
        pos = start
        while pos < end:
            line_end = starts[i + 1] if i + 1 < len(starts) else len(self.content) + 1
            stop = min(end, line_end)
            src = self._source_starts[i] + (pos - starts[i])
            builder.add(text[pos - start : stop - start], src, src + stop - pos)
            pos = stop
            i += 1

    def source(self, offset: int) -> int:
        i = _index(self._content_starts, offset)
        return self._source_starts[i] + offset - self._content_starts[i]


def _index(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _locate(line: str, piece: str, cursor: int | None) -> int:
    """Column of a content line inside its source line (containers stripped).

    Block content is a suffix of its line once container markers (``> ``,
    list indentation) are removed; table cells are found left to right from
    ``cursor``.
    """
    if cursor is None:
        stripped = line.rstrip()
        if not piece:
            return len(stripped)
        if stripped.endswith(piece):
            return len(stripped) - len(piece)
        cursor = 0
    elif not piece:
        return min(cursor, len(line))
    col = line.find(piece, cursor)
    if col >= 0:
        return col
    bare = piece.lstrip(" ")
    col = line.find(bare, cursor) if bare else -1
    return max(0, col - (len(piece) - len(bare))) if col >= 0 else min(cursor, len(line))


def read_document(text: str) -> Document:
    """Parse ``text`` into its visible text, one unit after another."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    env: dict[str, Any] = {}
    tokens = block_parser_for(normalized).parse(normalized, env)
    lines = _Lines(text)
    tracker = HiddenTracker()
    cleaning = needs_cleaning(text)
    builder = builder_for(cleaning)
    units: list[Unit] = []
    code: list[tuple[int, int]] = []
    row_start = -1
    row_cursor = 0
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "inline":
            if token.map is None:
                continue
            parent = tokens[index - 1].type
            if parent == "th_open" or parent == "td_open":
                if row_start < 0:
                    continue
                if builder.length > row_start:
                    at = lines.start(token.map[0]) + row_cursor
                    builder.add(" ", at, at)
                end = _read_block_inline(token.content, token.map[0], lines, builder, code, tracker, env, row_cursor)
                row_cursor = end - lines.start(token.map[0])
                continue
            start = builder.length
            src = token.content
            line_no = token.map[0]
            # Hot path, kept inline: plain prose that the source holds verbatim
            # at the end of its first line (after any container prefix).
            at = _verbatim_start(src, line_no, lines) if _plain_text(src, env) else -1
            unit_kind = "heading" if parent == "heading_open" else "paragraph"
            if at >= 0:
                if not tracker.hidden and src:
                    end = at + len(src)
                    units.append(Unit(unit_kind, start, start + len(src), index))
                    if end < len(text):  # the unit break stands for the line end, one to one
                        builder.add(src + UNIT_BREAK, at, end + 1)
                    else:
                        builder.add(src, at, end)
                        builder.add_break(UNIT_BREAK)
            else:
                _read_block_inline(src, line_no, lines, builder, code, tracker, env)
                _close_unit(builder, units, unit_kind, start, index)
        elif kind == "tr_open":
            row_start, row_cursor = builder.length, 0
        elif kind == "tr_close" and row_start >= 0:
            _close_unit(builder, units, "row", row_start, index)
            row_start = -1
        elif (kind == "fence" or kind == "code_block") and token.map is not None and not tracker.hidden:
            first = token.map[0] + (1 if kind == "fence" else 0)
            content = _Content(token.content.rstrip("\n"), first, lines)
            start = builder.length
            content.add(builder, 0, len(content.content))
            code.append((start, builder.length))
            _close_unit(builder, units, "code", start, index)
        elif kind == "html_block" and token.map is not None:
            start = builder.length
            add_html_text(builder, _Content(token.content.rstrip("\n"), token.map[0], lines), tracker)
            _close_unit(builder, units, "html", start, index)
    units_tuple = tuple(units)
    return Document(builder.build(), units_tuple, tuple(code), tokens, lines.starts, [u.start for u in units], cleaning)


def _close_unit(builder: ProjectionBuilder, units: list[Unit], kind: str, start: int, index: int) -> None:
    if builder.length > start:
        units.append(Unit(kind, start, builder.length, index))
        builder.add_break(UNIT_BREAK)


PLAIN, EMPHASIS, FULL = 0, 1, 2


def _markup(src: str, env: dict[str, Any]) -> int:
    """How much of the inline parser ``src`` needs.

    PLAIN renders as itself; EMPHASIS holds ``*``/``_`` delimiters and nothing
    else that could be markup (links need ``](`` or a reference definition);
    FULL needs every inline rule.
    """
    if _MARKUP.search(src) is not None or "](" in src or ("[" in src and env.get("references")):
        return FULL
    if "*" in src or ("_" in src and _EMPHASIS_UNDERSCORE.search(src) is not None):
        return EMPHASIS
    return PLAIN


def _plain_text(src: str, env: dict[str, Any]) -> bool:
    return (
        _MARKUP.search(src) is None
        and "](" not in src
        and "*" not in src
        and ("_" not in src or _EMPHASIS_UNDERSCORE.search(src) is None)
        and not ("[" in src and env.get("references"))
    )


def _verbatim_start(src: str, line_no: int, lines: _Lines) -> int:
    """Where ``src`` starts in the original text, if it is there verbatim as a line suffix; else -1."""
    newline = src.find("\n")
    first_len = len(src) if newline < 0 else newline
    text = lines.text
    end = lines.line_end(line_no)
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    at = end - first_len
    if at >= lines.start(line_no) and text.startswith(src, at):
        return at
    return -1


def _read_block_inline(
    src: str,
    first_line: int,
    lines: _Lines,
    builder: ProjectionBuilder,
    code: list[tuple[int, int]],
    tracker: HiddenTracker,
    env: dict[str, Any],
    cursor: int | None = None,
) -> int:
    """Read one inline token (paragraph, heading or table cell); return its source end.

    Plain text found verbatim in the source becomes a single piece: the
    common case, kept cheap.
    """
    if _markup(src, env) == PLAIN:
        newline = src.find("\n")
        first = src if newline < 0 else src[:newline]
        start = lines.start(first_line) + _locate(lines.line(first_line), first, cursor)
        if lines.text.startswith(src, start):
            if not tracker.hidden:
                builder.add(src, start, start + len(src))
            return start + len(src)
    content = _Content(src, first_line, lines, cursor)
    _read_inline(content, builder, code, tracker, env)
    return content.source(len(src))


def _read_inline(
    content: _Content,
    builder: ProjectionBuilder,
    code: list[tuple[int, int]],
    tracker: HiddenTracker,
    env: dict[str, Any],
) -> None:
    if tracker.hidden:
        return
    src = content.content
    kind = _markup(src, env)
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
    state = _TrackedState(src, _PARSER, env, children)
    if kind == EMPHASIS:
        _tokenize_emphasis(state)
    else:
        _PARSER.inline.tokenize(state)
    for rule in _PARSER.inline.ruler2.getRules(""):
        rule(state)
    _walk_inline(children, content, builder, code, tracker)
    if tracker.hidden:
        tracker.__init__()  # an inline element cannot hide past its block


_STAR_RUN = re.compile(r"\*+")


def _delimiter_kind(src: str, start: int, end: int) -> int:
    """CommonMark flanking of the ``*`` run ``src[start:end]``: 1 opens, 2 closes, 3 both, 0 neither."""
    last = src[start - 1] if start > 0 else " "
    nxt = src[end] if end < len(src) else " "
    last_punct = isMdAsciiPunct(ord(last)) or isPunctChar(last)
    next_punct = isMdAsciiPunct(ord(nxt)) or isPunctChar(nxt)
    last_space = isWhiteSpace(ord(last))
    next_space = isWhiteSpace(ord(nxt))
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


def _tokenize_emphasis(state: _TrackedState) -> None:
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
        if not _EMPHASIS_RULE(state, False):
            state.append_pending(src[at])
            state.pos = at + 1
    if state.pos < len(src):
        state.append_pending(src[state.pos :])
        state.pos = len(src)
    if state.pending:
        state.pushPending()


def _walk_inline(
    children: list[Token],
    content: _Content,
    builder: ProjectionBuilder,
    code: list[tuple[int, int]],
    tracker: HiddenTracker,
) -> None:
    skip_until = -1
    autolink = False
    for i, tok in enumerate(children):
        if i < skip_until:
            continue
        kind = tok.type
        start, end = tok.meta.get("qc", (0, 0))
        if kind == "html_inline":
            tag = parse_tag(tok.content)
            if tag is not None:
                tracker.feed(*tag)
                if not tracker.hidden:
                    add_tag_break(builder, tag[1], content.source(start), content.source(end))
            continue
        if tracker.hidden:
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
            code.append((begin, builder.length))
        elif kind in ("softbreak", "hardbreak"):
            builder.add("\n", content.source(start), content.source(end))
        elif kind == "link_open":
            autolink = tok.markup == "autolink"
        elif kind == "link_close":
            autolink = False
        elif kind == "image":
            # Alt text is an attribute, not shown text.
            continue
