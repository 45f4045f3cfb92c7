"""The reader view: what markdown-it-py's rendered HTML shows a reader, read with the grader's definitions.

Two oracles share it: the reader-view property (hypothesis sections,
tests/test_reader_view.py) and the CommonMark spec differential
(tests/test_commonmark_numerals.py). The HTML is read with ``html.parser``
block by block; raw HTML is modelled as the grader models it (lopsided).
"""

from __future__ import annotations

from collections import Counter
from html.parser import HTMLParser

import regex
from markdown_it import MarkdownIt

from qcgrade.reading.document import CELL_BREAK
from qcgrade.reading.lexicon import find_markers, link_citations, quantity_start
from qcgrade.reading.projection import fold
from qcgrade.reading.rules.numerals import read_numerals
from qcgrade.reading.sentences import quoted_spans
from qcgrade.reading.structure import heading_number

RENDERER = MarkdownIt("commonmark").enable("table")
# What opens a tag in HTML's tokenizer: "<" then a letter, "/", "!" or "?".
_TAG_OPEN = regex.compile(r"<[A-Za-z/!?]")
# Raw HTML blocks are wrapped in an element of our own, so the oracle knows
# which text comes from raw HTML (where a marker group cannot vouch, so it
# does not hide its digits).


def _html_block(self: object, tokens: list, idx: int, options: object, env: object) -> str:
    content = tokens[idx].content
    # A tag left unfinished at the block's end ("<revenue") would swallow our
    # closing wrapper and the next blocks' tags in Python's HTML parser. The
    # grader models it as a tag that ends with its block (it shows nothing and
    # opens nothing), so the oracle drops it the same way. Only a "<" that opens
    # a tag counts: "< [E001]" shows as text.
    last = content.rfind("<")
    if last > content.rfind(">") and _TAG_OPEN.match(content, last):
        content = content[:last]
    return f"<qchtml>{content}</qchtml>"


RENDERER.add_render_rule("html_block", _html_block)
IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
_LOWER = regex.compile(r"[ \t\n]*\p{Ll}")
_VOID = {"br", "hr", "img", "input", "wbr", "col", "area", "embed", "source", "track", "meta", "link", "base", "param"}
_BLOCKS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "tr", "pre", "blockquote", "div", "table", "ul", "ol", "hr"}
# Tags markdown itself renders; any other tag was written as raw HTML.
_MARKDOWN_TAGS = _BLOCKS | {"code", "em", "strong", "a", "img", "thead", "tbody", "th", "td", "qchtml"}


class VisibleText(HTMLParser):
    """Visible text of rendered HTML, in blocks, with code stretches marked."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.blocks: list[list[tuple[str, bool, bool]]] = [[]]
        self.headings: set[int] = set()  # indexes of blocks that are headings
        self.code = 0
        # Raw HTML as the grader models it (lopsided): inside a raw HTML block every
        # tag opens or closes one element, and what an HTML block leaves open stays
        # open; elements opened by inline HTML close with their block.
        self.in_block = False
        self.depth = 0
        self.inline_depth = 0
        # Ordered-list numbers the browser draws: per open list its start and
        # items so far, and the drawn number waiting for its item's first text.
        self.lists: list[list[int]] = []
        self.pending: list[tuple[int, int]] = []  # (drawn, start)
        self.drawn: list[str] = []
        self.item_text: list[str] = []  # the text of the item whose number is pending, so far
        self.table = 0  # inside a table, whitespace between cells is not shown
        self.cell = 0
        # Link text a markdown link shows: (block index, start, end) in the block's text.
        self.links: list[tuple[int, int, int]] = []
        self.link_at: tuple[int, int] | None = None

    def _position(self) -> tuple[int, int]:
        return len(self.blocks) - 1, sum(len(chunk) for chunk, _, _ in self.blocks[-1])

    def _settle(self) -> None:
        """Read a pending list number as the documented rule reads it (docs/reading-rules.md).

        It reads the start of its item's text, all of it (the first piece may
        end inside a word: "2. *x*revenue" shows "xrevenue").
        """
        text = "".join(self.item_text).lstrip()
        self.item_text = []
        drawn, start = self.pending.pop()
        if drawn >= 1000:
            read = True
        elif start in (0, 1):
            read = drawn > 1 and bool(quantity_start().match(text)) and bool(_LOWER.match(text))
        else:
            read = bool(quantity_start().match(text) or _LOWER.match(text))
        if read:
            self.drawn.append(str(drawn))

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag == "a" and not self.in_block:  # a link markdown drew (raw HTML blocks are not parsed)
            self.link_at = self._position()
        if not self.in_block and tag in ("ol", "ul", "li") and self.pending:
            self._settle()  # an item's text ends where a list in it starts
        if tag == "ol" and not self.in_block:
            self.lists.append([int(dict(attrs).get("start") or 1), 0])
        elif tag == "ul" and not self.in_block:
            self.lists.append([-1, 0])
        elif tag == "li" and not self.in_block and self.lists and self.lists[-1][0] >= 0:
            start, count = self.lists[-1]
            self.lists[-1][1] += 1
            self.pending.append((start + count, start))
        if tag == "qchtml":
            self.in_block = True
        elif self.in_block:
            self.depth += tag not in _VOID
        elif tag not in _MARKDOWN_TAGS and tag not in _VOID:
            self.inline_depth += 1
        if tag == "br":
            # A line break inside the block, as the grader reads it (a marker group may cross it).
            self.blocks[-1].append(("\n", False, self.in_block or self.depth > 0 or self.inline_depth > 0))
        if tag in _BLOCKS and not self.in_block:
            self.blocks.append([])
            self.inline_depth = 0
        elif tag in _BLOCKS:
            self.blocks.append([])
        if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            self.headings.add(len(self.blocks) - 1)
        if tag == "table" and not self.in_block:
            self.table += 1
        if tag in ("td", "th") and not self.in_block:
            self.cell += 1
        if tag in ("td", "th"):
            # A cell boundary: no marker group crosses it (the grader's CELL_BREAK).
            self.blocks[-1].append((CELL_BREAK, False, False))
            self.inline_depth = 0  # each cell's inline HTML closes with the cell
        if tag == "code":
            self.code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self.link_at is not None:
            block, end = self._position()
            if block == self.link_at[0] and end > self.link_at[1]:
                self.links.append((block, self.link_at[1], end))
            self.link_at = None
        if tag == "table" and self.table and not self.in_block:
            self.table -= 1
        if tag in ("td", "th") and self.cell and not self.in_block:
            self.cell -= 1
        if tag == "li" and self.pending and not self.in_block:
            self._settle()
        if tag in ("ol", "ul") and self.lists and not self.in_block:
            self.lists.pop()
        if tag == "qchtml":
            self.in_block = False
        elif self.in_block:
            self.depth -= self.depth > 0 and tag not in _VOID
        elif tag not in _MARKDOWN_TAGS and tag not in _VOID and self.inline_depth:
            self.inline_depth -= 1
        if tag in _BLOCKS:
            self.blocks.append([])
            if not self.in_block:
                self.inline_depth = 0
        if tag == "code":
            self.code -= 1

    def handle_data(self, data: str) -> None:
        if self.table and not self.cell and not data.strip():
            return  # the renderer's line breaks between rows and cells
        if self.pending:  # an item may open with a raw HTML block
            self.item_text.append(data)
        raw = self.in_block or self.depth > 0 or self.inline_depth > 0
        self.blocks[-1].append((IGNORABLE.sub("", data), self.code > 0, raw))


def read_blocks(parser: VisibleText) -> tuple[Counter, Counter]:
    """The markers and numerals a reader sees in the blocks ``parser`` read, list numbers included.

    The grader's lexical definitions are applied block by block: markers
    (quotations and link text read as the grader reads them), digits hidden by
    the markers that vouch (none inside code or raw HTML), section numbers of
    headings, names.
    """
    markers: Counter = Counter()
    numerals: Counter = Counter(parser.drawn)
    for index, block in enumerate(parser.blocks):
        visible = "".join(chunk for chunk, _, _ in block)
        code: list[tuple[int, int]] = []
        raw: list[tuple[int, int]] = []
        pos = 0
        for chunk, is_code, is_raw in block:
            if is_code:
                code.append((pos, pos + len(chunk)))
            if is_raw:
                raw.append((pos, pos + len(chunk)))
            pos += len(chunk)
        folded = fold(visible)

        def outside_code(span: tuple[int, int], code: list[tuple[int, int]] = code) -> bool:
            return not any(s < span[1] and span[0] < e for s, e in code)

        found, all_masks = find_markers(folded, quoted_spans(folded))
        linked, link_masks = link_citations(folded, tuple((s, e) for b, s, e in parser.links if b == index))
        found += linked
        all_masks += link_masks
        # A group inside raw HTML cannot vouch, so it hides none of its digits.
        masks = [m for m in all_masks if outside_code(m) and outside_code(m, raw)]
        for kind, id_start, id_end, start, end, _vouches in found:
            if outside_code((start, end)):
                markers[(kind, visible[id_start:id_end])] += 1
        if index in parser.headings and folded[:1].isdigit():  # a section number is structure
            number = heading_number(folded, 0, len(folded))
            if number is not None:
                masks.append(number)
        chars = list(folded)
        for s, e in masks:
            chars[s:e] = " " * (e - s)
        scan = "".join(chars)
        numerals.update(scan[start:end] for start, end in read_numerals(scan))
    return markers, numerals


def oracle(text: str) -> tuple[Counter, Counter]:
    """What markdown-it-py's rendered HTML of ``text`` shows a reader: markers and numerals."""
    parser = VisibleText()
    parser.feed(RENDERER.render(text))
    parser.close()
    return read_blocks(parser)
