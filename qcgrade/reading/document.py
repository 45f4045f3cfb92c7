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

from collections.abc import Callable
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
    links: tuple[tuple[int, int], ...]  # visible ranges shown as a link's text, sorted
    ordered_lists: tuple[int, ...]  # indexes of the ordered lists' opening tokens
    tokens: list[Token]
    line_starts: list[int]
    unit_starts: list[int]  # units[i].start, for bisection
    cleaning: bool  # the text may show zero-width or look-alike characters
    soft_breaks: tuple[int, ...] = ()  # visible offsets of tags drawn inline that CSS could make blocks, sorted

    @property
    def visible(self) -> str:
        return self.projection.text


def read_document(text: str) -> Document:
    """Parse ``text`` into its visible text, one unit after another."""
    normalized = text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text
    env: dict[str, Any] = {}
    tokens = block_parser_for(normalized).parse(normalized, env)
    note_hints(normalized, env)
    walk = _Walk(text, tokens, env)
    handlers = _HANDLERS
    for index, token in enumerate(tokens):
        handler = handlers.get(token.type)
        if handler is not None:
            handler(walk, index, token)
    return walk.document()


class _Walk:
    """One walk over the block tokens: the visible text built so far and where the walk is.

    Each token type that shows text has a handler (see :data:`_HANDLERS`);
    the others (list and quote markers, ``*_close``) add nothing a reader sees.
    """

    __slots__ = (
        "text",
        "tokens",
        "env",
        "lines",
        "state",
        "cleaning",
        "builder",
        "units",
        "regions",
        "row_start",
        "row_cursor",
        "ordered_lists",
    )

    def __init__(self, text: str, tokens: list[Token], env: dict[str, Any]) -> None:
        self.text = text
        self.tokens = tokens
        self.env = env
        self.lines = Lines(text)
        self.state = HtmlState()
        self.cleaning = needs_cleaning(text)
        self.builder = builder_for(self.cleaning)
        self.units: list[Unit] = []
        self.regions = Regions()
        self.row_start = -1  # where the open table row starts in the visible text; -1: no row open
        self.row_cursor = 0  # the row's source offset after its last cell, from its line start
        self.ordered_lists: list[int] = []

    def inline(self, index: int, token: Token) -> None:
        """A paragraph's or heading's text, or one table cell's."""
        if token.map is None:
            return
        parent = self.tokens[index - 1].type
        if parent == "th_open" or parent == "td_open":
            self.cell(token.content, token.map[0])
            return
        builder, state = self.builder, self.state
        start = builder.length
        src = token.content
        line_no = token.map[0]
        # Hot path, kept inline: plain prose that the source holds verbatim
        # at the end of its first line (after any container prefix).
        at = _verbatim_start(src, line_no, self.lines) if plain_text(src, self.env) else -1
        unit_kind = "heading" if parent == "heading_open" else "paragraph"
        if at >= 0:
            if src:
                end = at + len(src)
                self.units.append(Unit(unit_kind, start, start + len(src), index))
                if end < len(self.text):  # the unit break stands for the line end, one to one
                    builder.add(src + UNIT_BREAK, at, end + 1)
                else:
                    builder.add(src, at, end)
                    builder.add_break(UNIT_BREAK)
        else:
            _read_block_inline(src, line_no, self.lines, builder, self.regions, state, self.env)
            _close_unit(builder, self.units, unit_kind, start, index)
        if state.depth:  # inside an element an HTML block opened
            self.regions.add_html(start, builder.length)

    def cell(self, src: str, line_no: int) -> None:
        """One table cell: a space between cells, all of one row's cells in one unit."""
        if self.row_start < 0:
            return
        lines, builder = self.lines, self.builder
        if builder.length > self.row_start:
            at = lines.start(line_no) + self.row_cursor
            ProjectionBuilder.add(builder, CELL_BREAK, at, at)  # kept by a stripping builder too
        end = _read_block_inline(src, line_no, lines, builder, self.regions, self.state, self.env, self.row_cursor)
        self.row_cursor = end - lines.start(line_no)

    def row_open(self, index: int, token: Token) -> None:
        self.row_start, self.row_cursor = self.builder.length, 0

    def row_close(self, index: int, token: Token) -> None:
        if self.row_start < 0:
            return
        _close_unit(self.builder, self.units, "row", self.row_start, index)
        if self.state.depth:
            self.regions.add_html(self.row_start, self.builder.length)
        self.row_start = -1

    def code(self, index: int, token: Token) -> None:
        """A fenced or indented code block, shown verbatim (a fence's content starts a line down)."""
        if token.map is None:
            return
        first = token.map[0] + (1 if token.type == "fence" else 0)
        content = Content(token.content.rstrip("\n"), first, self.lines)
        start = self.builder.length
        content.add(self.builder, 0, len(content.content))
        self.regions.code.append((start, self.builder.length))
        _close_unit(self.builder, self.units, "code", start, index)

    def html_block(self, index: int, token: Token) -> None:
        """Raw HTML: only the text between its tags is visible."""
        if token.map is None:
            return
        start = self.builder.length
        add_html_text(self.builder, Content(token.content.rstrip("\n"), token.map[0], self.lines), self.state)
        self.regions.add_html(start, self.builder.length)
        _close_unit(self.builder, self.units, "html", start, index)

    def ordered_list(self, index: int, token: Token) -> None:
        """An ordered list draws numbers the text does not hold (read in :mod:`.structure`)."""
        self.ordered_lists.append(index)

    def document(self) -> Document:
        units, regions = self.units, self.regions
        return Document(
            self.builder.build(),
            tuple(units),
            tuple(regions.code),
            tuple(sorted(regions.html)),
            tuple(sorted(regions.links)),
            tuple(self.ordered_lists),
            self.tokens,
            self.lines.starts,
            [u.start for u in units],
            self.cleaning,
            tuple(sorted(set(self.builder.soft_breaks))),
        )


#: The token types that show text, and who reads each.
_HANDLERS: dict[str, Callable[[_Walk, int, Token], None]] = {
    "inline": _Walk.inline,
    "tr_open": _Walk.row_open,
    "tr_close": _Walk.row_close,
    "fence": _Walk.code,
    "code_block": _Walk.code,
    "html_block": _Walk.html_block,
    "ordered_list_open": _Walk.ordered_list,
}


def _close_unit(builder: ProjectionBuilder, units: list[Unit], kind: str, start: int, index: int) -> None:
    if builder.length > start:
        units.append(Unit(kind, start, builder.length, index))
        builder.add_break(UNIT_BREAK)


def _verbatim_start(src: str, line_no: int, lines: Lines) -> int:
    """Where ``src`` starts in the original text, if it is there verbatim as a line suffix; else -1."""
    newline = src.find("\n")
    first_len = len(src) if newline < 0 else newline
    text = lines.text
    starts = lines.starts
    if line_no + 1 < len(starts):
        # Lines.line_end and Lines.start, spelled out: this runs for every paragraph.
        end = starts[line_no + 1] - 1
        if end > 0 and text[end - 1] == "\r" and text[end] == "\n":
            end -= 1
        line_start = starts[line_no]
    else:
        end = len(text)
        line_start = starts[-1]
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    at = end - first_len
    if at >= line_start and text.startswith(src, at):
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
