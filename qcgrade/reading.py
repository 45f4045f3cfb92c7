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
from typing import Any, Callable

import regex
from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from .visible import (
    HiddenTracker,
    Projection,
    ProjectionBuilder,
    add_html_text,
    add_tag_break,
    parse_tag,
)

# Characters that can start inline markup in CommonMark. Content without any
# of them (and without a link) renders as itself.
_MARKUP_CHARS = frozenset("`<&\\*")
# An underscore between two letters or digits can never delimit emphasis.
_EMPHASIS_UNDERSCORE = regex.compile(r"(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])")


@dataclass(frozen=True, slots=True)
class Unit:
    """A block of visible text that no sentence crosses."""

    kind: str  # paragraph | heading | row | code | html
    projection: Projection
    code_ranges: tuple[tuple[int, int], ...]  # visible ranges shown verbatim as code
    token_index: int


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


class _Lines:
    """Source lines of the original text (any line ending) and their offsets."""

    def __init__(self, text: str) -> None:
        starts = [0]
        lines: list[str] = []
        pos = 0
        n = len(text)
        while True:
            nl = text.find("\n", pos)
            cr = text.find("\r", pos, nl if nl >= 0 else n)
            end = cr if cr >= 0 else (nl if nl >= 0 else n)
            lines.append(text[pos:end])
            if end == n:
                break
            pos = end + (2 if text.startswith("\r\n", end) else 1)
            starts.append(pos)
        self.lines = lines
        self.starts = starts


class _Content:
    """Maps offsets in a token's content to offsets in the original text."""

    __slots__ = ("content", "_content_starts", "_source_starts")

    def __init__(self, content: str, first_line: int, lines: _Lines, cursor: int | None = None) -> None:
        self.content = content
        self._content_starts: list[int] = []
        self._source_starts: list[int] = []
        offset = 0
        for i, piece in enumerate(content.split("\n")):
            index = min(first_line + i, len(lines.lines) - 1)
            line = lines.lines[index]
            col = _locate(line, piece, cursor if i == 0 else None)
            self._content_starts.append(offset)
            self._source_starts.append(lines.starts[index] + col)
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


def read_units(text: str) -> tuple[list[Unit], list[Token], dict[str, Any]]:
    """Parse ``text`` into visible units, plus the block tokens and env."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n")
    env: dict[str, Any] = {}
    tokens = _PARSER.parse(normalized, env)
    lines = _Lines(text)
    tracker = HiddenTracker()
    units: list[Unit] = []
    row: ProjectionBuilder | None = None
    row_code: list[tuple[int, int]] = []
    row_cursor = 0
    for index, token in enumerate(tokens):
        kind = token.type
        if kind == "inline":
            parent = tokens[index - 1].type
            if parent in ("th_open", "td_open") and row is not None and token.map is not None:
                content = _Content(token.content, token.map[0], lines, row_cursor)
                if row.length:
                    row.add(" ", content.source(0), content.source(0))
                _read_inline(content, row, row_code, tracker, env)
                row_cursor = content.source(len(token.content)) - lines.starts[token.map[0]]
                continue
            if token.map is None:
                continue
            builder = ProjectionBuilder()
            code: list[tuple[int, int]] = []
            _read_inline(_Content(token.content, token.map[0], lines), builder, code, tracker, env)
            unit_kind = "heading" if parent == "heading_open" else "paragraph"
            units.append(Unit(unit_kind, builder.build(), tuple(code), index))
        elif kind == "tr_open":
            row, row_code, row_cursor = ProjectionBuilder(), [], 0
        elif kind == "tr_close" and row is not None:
            units.append(Unit("row", row.build(), tuple(row_code), index))
            row = None
        elif kind in ("fence", "code_block") and token.map is not None and not tracker.hidden:
            first = token.map[0] + (1 if kind == "fence" else 0)
            builder = ProjectionBuilder()
            content = _Content(token.content.rstrip("\n"), first, lines)
            content.add(builder, 0, len(content.content))
            projection = builder.build()
            units.append(Unit("code", projection, ((0, len(projection.text)),), index))
        elif kind == "html_block" and token.map is not None:
            builder = ProjectionBuilder()
            content = _Content(token.content.rstrip("\n"), token.map[0], lines)
            add_html_text(builder, content, tracker)
            units.append(Unit("html", builder.build(), (), index))
    return units, tokens, env


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
    if (
        _MARKUP_CHARS.isdisjoint(src)
        and "](" not in src
        and not ("[" in src and env.get("references"))
        and ("_" not in src or _EMPHASIS_UNDERSCORE.search(src) is None)
    ):
        content.add(builder, 0, len(src))
        return
    children: list[Token] = []
    state = _TrackedState(src, _PARSER, env, children)
    _PARSER.inline.tokenize(state)
    for rule in _PARSER.inline.ruler2.getRules(""):
        rule(state)
    _walk_inline(children, content, builder, code, tracker)
    if tracker.hidden:
        tracker.__init__()  # an inline element cannot hide past its block


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
