"""Delete the TL;DR block: its label and its list, or its inline items.

Sites: every TL;DR block (usually one). The whole block goes, from the first
line of the label's paragraph or heading to the end of its list (list form)
or of the paragraph (inline form), together with the blank lines after it,
so the section reads as if it never had one. A section whose slice asks for
no TL;DR (``tldr_min_bullets: 0``) gives no clean site, and neither does one
with a second TL;DR left standing.

Before::

    **TL;DR**

    - Deposits grew 4% to {dep} [C31].
    - Non-interest-bearing balances fell [C33].

    ## A sticky base

After::

    ## A sticky base
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from markdown_it import MarkdownIt
from markdown_it.token import Token

from ..evidence import EvidenceSlice
from ..reading.section import Section, Tldr
from .base import Injector, Site, single

NAME = "missing_tldr"
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BLOCKS = ("paragraph_open", "heading_open", "html_block")
_LISTS = ("bullet_list_open", "ordered_list_open")
# Block structure only (the grader reads CommonMark plus tables too); inline
# parsing is not needed to know which lines a block spans.
_BLOCK_PARSER = MarkdownIt("commonmark").enable("table").disable("inline", ignoreInvalid=True)


def find_sites(section: Section, evidence: EvidenceSlice) -> Iterator[Site]:
    if not section.tldrs or evidence.tldr_min_bullets <= 0:
        return  # nothing to delete, or nothing the grader would miss
    text = section.text
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    tokens = _BLOCK_PARSER.parse(_LINE_BREAK.sub("\n", text))
    # Paragraphs, headings and HTML blocks never nest in one another, so the
    # one holding a line is the last to start at or before it.
    blocks = [i for i, t in enumerate(tokens) if t.type in _BLOCKS and t.map is not None]
    block_starts = [(tokens[i].map or (0, 0))[0] for i in blocks]
    for tldr in section.tldrs:
        lines = _block_lines(tldr, starts, tokens, blocks, block_starts)
        if lines is None:
            continue
        first, last = lines
        while last < len(starts) and not _line(text, starts, last).strip():
            last += 1  # the blank lines after the block go with it
        start = starts[first]
        end = starts[last] if last < len(starts) else len(text)
        yield single(start, end, "", ((start, start),))


def _line(text: str, starts: list[int], index: int) -> str:
    end = starts[index + 1] if index + 1 < len(starts) else len(text)
    return text[starts[index] : end]


def _block_lines(
    tldr: Tldr, starts: list[int], tokens: list[Token], blocks: list[int], block_starts: list[int]
) -> tuple[int, int] | None:
    """``[first, last)`` source lines of the TL;DR block, from the block tokens."""
    line = bisect_right(starts, tldr.start) - 1
    k = bisect_right(block_starts, line) - 1
    if k < 0:
        return None
    opener = blocks[k]
    first, last = tokens[opener].map or (line, line + 1)
    if not first <= line < last:
        return None
    if tldr.form == "list" and tokens[opener].type != "html_block":
        after = opener + 3  # open, inline, close, then the list
        listed = tokens[after] if after < len(tokens) else None
        if listed is not None and listed.type in _LISTS and listed.map is not None:
            last = listed.map[1]
    return first, last


INJECTOR = Injector(
    NAME, "missing_tldr", find_sites, __doc__ or "", "no TL;DR block, or the slice asks for none (tldr_min_bullets: 0)"
)
