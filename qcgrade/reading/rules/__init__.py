"""Reading rules as named units: each decision the reader makes carries the id of the rule that made it.

A rule is an id (``name.category_word``), the section of
``docs/reading-rules.md`` it implements, one line saying what it decides, and
the function that decides it (in the module of its concern: numerals,
sentence ends, markers, the TL;DR). The readers record a decision as
``(kind, start, end, verdict, rule)`` in a :class:`Trace` when one is asked
for (``qcgrade explain``); grading asks for none and pays nothing for it.

:data:`RULES` lists every rule, so a rule can be found, documented, tested
alone and named in a finding.
"""

from __future__ import annotations

from typing import NamedTuple


class Rule(NamedTuple):
    """A reading rule: its id, the section of docs/reading-rules.md it implements, and what it decides."""

    id: str
    section: str
    decides: str


class Decision(NamedTuple):
    """One decision of the reader: what (``kind``), where (visible offsets), the verdict and the rule."""

    kind: str  # numeral | sentence_end | marker | tldr_bullet ...
    start: int
    end: int
    verdict: str
    rule: str


#: A trace of decisions, filled when asked for (``None`` when grading).
Trace = list[Decision]


def _rules(*rules: tuple[str, str, str]) -> dict[str, Rule]:
    return {rule_id: Rule(rule_id, section, decides) for rule_id, section, decides in rules}


#: Every reading rule, by id. Each is pinned by cases in ``tests/reading/<id>.toml``.
RULES: dict[str, Rule] = _rules(
    # Numerals: what a reader reads as one number (docs/reading-rules.md, section 6).
    ("numeral.digits", "6", "a run of digits with its sign, currency, separators, decimals and glued unit is a number"),
    ("numeral.glued_quantity", "6", "digits glued to a letter are still a number when decimal, grouped or a percentage"),
    ("numeral.after_currency_code", "6", "digits glued after a currency code are an amount (USD1.2bn, USD-42m)"),
    ("numeral.after_code_hyphen", "6", "digits after a three-capital code and a hyphen before a magnitude are an amount"),
    ("numeral.after_prefix", "6", "digits glued after a short capitalised prefix before a magnitude are an amount (R42bn)"),
    ("numeral.multiplier", "6", "the multiplier x glued to digits is a multiple (x42), but not a CPU name (x86)"),
    ("numeral.lookalike", "6", "letters drawn as digits in a numeric context read as digits (IO%, $lO.l bn, l,OOO)"),
    ("numeral.cjk", "6", "CJK numerals before a percent sign, percent word or currency, or after 百分之, are a number"),
    ("numeral.emoji", "6", "the keycap ten is a number; the hundred points emoji before a unit is one"),
    ("numeral.list_number", "6", "an ordered list's drawn number is a quantity when the item goes on as one"),
    # Not a quantity: one table of vetoes (docs/reading-rules.md, section 6, "Identifiers and names", "Structure").
    ("identifier.glued", "6", "digits glued after a letter of an id-writing script, a digit or an underscore are an identifier"),
    ("name.apostrophe_year", "6", "a year after an apostrophe glued to a word is part of a period name (Q3'24)"),
    ("name.after_hyphen", "6", "up to three digits after a capitalised word and a hyphen are a name (Wren-8B)"),
    ("name.code_digits", "6", "four digits after an all-capital code and a hyphen are a name (HX-1200)"),
    ("name.category_word", "6", "one or two digits after a category word are a name (Scope 3, Phase 2b)"),
    ("name.period_label", "6", "quarter and half shapes in the digit-first order are period names (3Q24, 1H25)"),
    ("name.filing_form", "6", "one or two digits, a hyphen and one capital are a filing name (10-K)"),
    ("structure.heading_number", "6", "a section number opening a heading is structure (## 1. Growth)"),
    ("structure.footnote_mark", "6", "digits in a superscript are a footnote mark, not an exponent or amount"),
    ("structure.footnote_reference", "6", "a footnote-shaped bracket [^1] is a mark when defined or short"),
    ("marker.digits", "3", "digits inside a vouching citation, metric tag or cross-reference never count"),
    ("marker.locator_number", "6", "the number after a locator word inside a vouching group says where, not how much"),
    # Sentence ends (docs/reading-rules.md, section 1).
    ("sentence_end.terminator", "1.1", "a sentence ends at a Sentence_Terminal, after its closers and a marker-only tail"),
    ("sentence_end.ellipsis", "1.4", "an ellipsis ends a sentence unless a lower-case word follows it"),
    ("sentence_end.unit_break", "1.7", "a sentence never crosses a paragraph, item, heading, row or HTML block"),
    ("sentence_end.whole_unit", "2.1", "a heading, table row or code block is one sentence: stops inside it end none"),
    ("sentence_end.cited_quotation", "1.6", "a quotation a marker group follows is one sentence with what precedes it"),
    ("sentence_end.attribution", "1.6", "a block quote's attribution line carrying a citation covers the quotation"),
    ("sentence_end.ordinal", "1.5c", "a stop after a short number is an ordinal's before a lower-case word or after im, am"),
    ("sentence_end.ticker", "1.2", "a numeric ticker's stop before its exchange suffix (7203.T) ends no sentence"),
    ("sentence_end.greek_question", "1.1", "the Greek question mark (folded to ';') before a Greek capital ends a sentence"),
    ("sentence_end.inline_tag", "0", "a tag CSS could make a block ends a sentence for vouching"),
    ("tldr.item", "1.7", "an inline TL;DR item is its own sentence"),
    *(
        (f"abbreviation.{cls}", "1.5", f"a period after a word of class {cls!r} ends a sentence as the class table says")
        for cls in (
            "ordinary",
            "never_final",
            "introducing",
            "legal",
            "legal_dotted",
            "unit",
            "before_number",
            "including",
            "number_taking",
            "title",
            "place_title",
            "name_ending",
            "et_al",
            "initialism",
            "label",
            "initial",
            "letter",
            "listed",
            "magnitude",
            "currency",
        )
    ),
    ("abbreviation.reporter", "1.5", "a reporter's or code's name between a volume and a page (603 U.S. 369, F. Supp.)"),
    ("abbreviation.capitals", "1.5", "a word of two capitals or more is a name or ticker, no listed abbreviation (MS.)"),
    ("abbreviation.compound", "1.5", "a stop inside a spaced abbreviation (the first of z. B., op. cit.) ends nothing"),
    ("abbreviation.in_aside", "1.5", "an abbreviation's stop closing an aside in parentheses ends nothing (1 × tgl.)"),
    # Markers (docs/reading-rules.md, sections 0 and 3).
    ("marker.citation", "3", "a citation of a card: it vouches for the numbers of its sentence when the card exists"),
    ("marker.metric", "3", "a metric tag: it vouches for the numbers of its sentence when the tag is registered"),
    ("marker.xref", "3", "a cross-reference to another section"),
    ("marker.in_html", "0", "a marker inside raw HTML is checked but never vouches: HTML can hide it"),
    ("marker.hiding_html", "0", "in a section with <template>, <style> or <link> no marker vouches"),
    ("marker.bidi_override", "0", "in a section showing a bidi override no marker vouches: it can reverse an id"),
    ("marker.prose_group", "3", "ids in a bracket group that holds other prose than locators are checked, never vouch"),
    # The TL;DR (docs/reading-rules.md, section 4).
    ("tldr.list", "4", "a TL;DR label followed by a list: each item that shows a word is a bullet"),
    ("tldr.inline", "4", "a TL;DR label with its items inline, split at dashes after a semicolon or line break"),
)


def rule(rule_id: str) -> Rule:
    """The rule ``rule_id`` (a KeyError names an unknown one)."""
    return RULES[rule_id]
