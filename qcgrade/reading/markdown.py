"""qcgrade's markdown-it-py parser: CommonMark plus tables, inline rules that keep offsets.

The core ``inline`` rule is off: :mod:`qcgrade.reading.document` decides per block
whether inline parsing is needed at all. Where it is, every token pushed by
an inline rule records the source range it came from (``token.meta["qc"]``),
so what a reader sees maps back to offsets in the original text.

The one module that configures markdown-it-py, and only through its public
API: ``MarkdownIt.enable``, ``Ruler.disable/at/get_active_rules/getRules``
and ``StateInline`` (subclassed, overriding ``pending``, ``append_pending``
and ``pushPending``). No private field of markdown-it-py is read or written,
so the versions pyproject.toml declares behave alike (CI tests the lowest).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token


class TrackedState(StateInline):
    """Inline state whose flushed text tokens remember their source offsets.

    The pending text (literal text not yet flushed to a token) is kept here,
    in our own buffer, rather than in markdown-it-py's: versions before 4.3
    extend it with ``state.pending += text`` (a plain attribute), 4.3 with
    ``state.append_pending(text)`` into private fields. Owning both the
    ``pending`` property and ``append_pending`` lets every version record
    where the pending text started, with appends amortised O(1).
    """

    _qc_text = ""  # pending text joined so far (class default: set before __init__ runs)
    qc_pending_start = 0  # source offset of the first pending character

    def __init__(self, src: str, md: MarkdownIt, env: Any, out: list[Token]) -> None:
        self._qc_parts: list[str] = []
        super().__init__(src, md, env, out)
        self.pending = ""

    @property
    def pending(self) -> str:
        parts = self._qc_parts
        if parts:
            # Drop our reference before extending, so CPython can grow the
            # string in place: a rule reading ``pending`` often stays linear.
            text = self._qc_text
            self._qc_text = ""
            text += "".join(parts)
            parts.clear()
            self._qc_text = text
        return self._qc_text

    @pending.setter
    def pending(self, value: str) -> None:
        if value and not self._qc_text and not getattr(self, "_qc_parts", None):
            self.qc_pending_start = self.pos
        self._qc_text = value
        self._qc_parts = []

    def append_pending(self, text: str) -> None:
        if not text:
            return
        if not self._qc_text and not self._qc_parts:
            self.qc_pending_start = self.pos
        self._qc_parts.append(text)

    def __copy__(self) -> TrackedState:
        new = self.__class__.__new__(self.__class__)
        new.__dict__.update(self.__dict__)
        new._qc_parts = list(self._qc_parts)
        return new

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


def _active_inline_rules(md: MarkdownIt) -> dict[str, Callable[[StateInline, bool], bool]]:
    """The enabled inline rules by name, through the public Ruler API (both lists are in rule order)."""
    ruler = md.inline.ruler
    return dict(zip(ruler.get_active_rules(), ruler.getRules("")))


def _make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")  # nesting limit as the reference renderer
    md.core.ruler.disable(["inline", "text_join"])
    # Merging adjacent text tokens would lose their offsets.
    md.inline.ruler2.disable("fragments_join")
    for name, fn in _active_inline_rules(md).items():
        if name != "text":
            # Inline rules have no alternate chains, so at() loses nothing.
            md.inline.ruler.at(name, _tracking(name, fn))
    return md


PARSER = _make_parser()
EMPHASIS_RULE = _active_inline_rules(PARSER)["emphasis"]

# Block rules that cannot fire on a text lacking every one of their needles.
# markdown-it-py tries each enabled rule at every block start and every
# paragraph line, so leaving out the impossible ones changes no token and
# saves most of the block pass on ordinary prose (a test compares tokens).
_OPTIONAL_BLOCK_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("table", ("|",)),
    ("fence", ("```", "~~~")),
    ("blockquote", (">",)),
    ("reference", ("]:",)),
    ("html_block", ("<",)),
    ("heading", ("#",)),
)
# Only a line starting with one of these can open indented code, a thematic
# break or a setext underline (after container prefixes of quote and list
# markers); prose lines start with a letter and are skipped cheaply.
_SHAPE_STARTS = frozenset(" \t>-+*_=0123456789")
# A thematic break: only prefixes, spaces and at least three of one of -*_.
_RULE_CHARS = re.compile(r"[ \t>+\-*_0-9.)]+")
# Indented code: four spaces within the leading container prefix.
_CODE_INDENT = re.compile(r"[ >\-+*.)0-9]*?    ")
# A setext underline is a line of only = or - once container prefixes are gone.
_UNDERLINE = re.compile(r"[ \t>]*(?:=+|-+)[ \t]*")


@cache
def _parser_without(absent: tuple[str, ...]) -> MarkdownIt:
    if not absent:
        return PARSER
    md = _make_parser()
    if "normalize" in absent:
        md.core.ruler.disable("normalize")
    md.block.ruler.disable([name for name in absent if name != "normalize"])
    return md


def block_parser_for(text: str) -> MarkdownIt:
    """The block parser for ``text``: ours, minus rules that cannot match it."""
    absent = [name for name, needles in _OPTIONAL_BLOCK_RULES if not any(n in text for n in needles)]
    code = "\t" in text
    rule = underline = False
    for line in text.splitlines():  # every line break markdown-it knows, and more
        if line[:1] not in _SHAPE_STARTS:
            continue
        code = code or _CODE_INDENT.match(line) is not None
        if _RULE_CHARS.fullmatch(line):
            rule = rule or max(line.count("-"), line.count("*"), line.count("_")) >= 3
        underline = underline or _UNDERLINE.fullmatch(line) is not None
    absent.extend(name for name, seen in (("code", code), ("hr", rule), ("lheading", underline)) if not seen)
    if "\r" not in text and "\0" not in text:
        # Nothing for the core "normalize" rule to replace: skip its two passes.
        absent.append("normalize")
    return _parser_without(tuple(absent))
