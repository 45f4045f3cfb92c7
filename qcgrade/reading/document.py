"""Read a markdown section the way a reader sees it: one visible text, in units.

markdown-it-py finds the block structure (CommonMark plus tables, see
:mod:`qcgrade.reading.markdown`). Each paragraph, heading, table row, code block and
HTML block becomes a unit of the visible text, units joined by a break that
always ends a sentence. Plain prose that the source holds verbatim is taken
as it is (the hot path, kept inline here); other inline content goes through
:mod:`qcgrade.reading.inline`. A :class:`~qcgrade.reading.projection.Projection` maps every
visible character back to its offset in the original text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from markdown_it.token import Token

from .html import HtmlState, add_html_text
from .inline import PLAIN, markup_kind, note_hints, plain_text, read_inline
from .markdown import block_parser_for
from .projection import Projection, ProjectionBuilder, Regions, builder_for, needs_cleaning
from .source_map import Content, Lines, locate

#: Separates units in the visible text; it always ends a sentence.
UNIT_BREAK = "\u2029"
#: Separates the cells of a table row: a space, and an invisible separator no
#: marker group crosses ("{ | m_rev }" is two cells, not a tag). Source text
#: cannot hold U+2063 here: it is default-ignorable, so it is dropped.
CELL_BREAK = " \u2063"


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
    html: tuple[tuple[int, int], ...]  # visible ranges inside raw HTML, sorted
    tokens: list[Token]
    line_starts: list[int]
    unit_starts: list[int]  # units[i].start, for bisection
    cleaning: bool  # the text may show zero-width or look-alike characters

    @property
    def visible(self) -> str:
        return self.projection.text


def read_document(text: str) -> Document:
    """Parse ``text`` into its visible text, one unit after another."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    env: dict[str, Any] = {}
    tokens = block_parser_for(normalized).parse(normalized, env)
    note_hints(normalized, env)
    lines = Lines(text)
    state = HtmlState()
    cleaning = needs_cleaning(text)
    builder = builder_for(cleaning)
    units: list[Unit] = []
    regions = Regions()
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
                    ProjectionBuilder.add(builder, CELL_BREAK, at, at)  # kept by a stripping builder too
                end = _read_block_inline(token.content, token.map[0], lines, builder, regions, state, env, row_cursor)
                row_cursor = end - lines.start(token.map[0])
                continue
            start = builder.length
            src = token.content
            line_no = token.map[0]
            # Hot path, kept inline: plain prose that the source holds verbatim
            # at the end of its first line (after any container prefix).
            at = _verbatim_start(src, line_no, lines) if plain_text(src, env) else -1
            unit_kind = "heading" if parent == "heading_open" else "paragraph"
            if at >= 0:
                if src:
                    end = at + len(src)
                    units.append(Unit(unit_kind, start, start + len(src), index))
                    if end < len(text):  # the unit break stands for the line end, one to one
                        builder.add(src + UNIT_BREAK, at, end + 1)
                    else:
                        builder.add(src, at, end)
                        builder.add_break(UNIT_BREAK)
            else:
                _read_block_inline(src, line_no, lines, builder, regions, state, env)
                _close_unit(builder, units, unit_kind, start, index)
            if state.depth:  # inside an element an HTML block opened
                regions.add_html(start, builder.length)
        elif kind == "tr_open":
            row_start, row_cursor = builder.length, 0
        elif kind == "tr_close" and row_start >= 0:
            _close_unit(builder, units, "row", row_start, index)
            if state.depth:
                regions.add_html(row_start, builder.length)
            row_start = -1
        elif (kind == "fence" or kind == "code_block") and token.map is not None:
            first = token.map[0] + (1 if kind == "fence" else 0)
            content = Content(token.content.rstrip("\n"), first, lines)
            start = builder.length
            content.add(builder, 0, len(content.content))
            regions.code.append((start, builder.length))
            _close_unit(builder, units, "code", start, index)
        elif kind == "html_block" and token.map is not None:
            start = builder.length
            add_html_text(builder, Content(token.content.rstrip("\n"), token.map[0], lines), state)
            regions.add_html(start, builder.length)
            _close_unit(builder, units, "html", start, index)
    return Document(
        builder.build(),
        tuple(units),
        tuple(regions.code),
        tuple(sorted(regions.html)),
        tokens,
        lines.starts,
        [u.start for u in units],
        cleaning,
    )


def _close_unit(builder: ProjectionBuilder, units: list[Unit], kind: str, start: int, index: int) -> None:
    if builder.length > start:
        units.append(Unit(kind, start, builder.length, index))
        builder.add_break(UNIT_BREAK)


def _verbatim_start(src: str, line_no: int, lines: Lines) -> int:
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
    lines: Lines,
    builder: ProjectionBuilder,
    regions: Regions,
    state: HtmlState,
    env: dict[str, Any],
    cursor: int | None = None,
) -> int:
    """Read one inline token (paragraph, heading or table cell); return its source end.

    Plain text found verbatim in the source becomes a single piece: the
    common case, kept cheap.
    """
    if markup_kind(src, env) == PLAIN:
        newline = src.find("\n")
        first = src if newline < 0 else src[:newline]
        start = lines.start(first_line) + locate(lines.line(first_line), first, cursor)
        if lines.text.startswith(src, start):
            builder.add(src, start, start + len(src))
            return start + len(src)
    content = Content(src, first_line, lines, cursor)
    read_inline(content, builder, regions, state, env)
    return content.source(len(src))
