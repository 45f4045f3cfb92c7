"""Where a reader sees a sentence end: terminators of any script, abbreviations, quotations.

The rules (docs/reading-rules.md has each with an example of both directions):

- A sentence ends at a Unicode ``Sentence_Terminal`` (``.`` ``!`` ``?`` ``‽``
  ``⁉`` ``؟`` ``।`` ``॥`` ``。`` ``｡`` ...), after any closing quotes and
  brackets (``”`` ``»`` ``“`` ``‘`` ``›`` ``)`` of any quoting style), then
  whitespace or the end. With no whitespace it still ends when the next
  character is a capital or a letter of a script without case and the
  terminator follows a non-letter (``42%.The``) or is a full-width or
  ideographic stop (``した｡取``); ``Node.js`` and ``ACME.Com`` stay whole.
- A marker-only tail (``Revenue grew 6%. [E001]``) belongs to the sentence it
  follows: only id-shaped citation groups and metric tags, with punctuation,
  may stand between the terminator and the next sentence.
- An ellipsis (``…``, ``...``) ends a sentence unless a lower-case word
  follows it (after its closers and marker tail): it marks an omission.
- A period after an abbreviation is decided by the abbreviation's class and
  what follows (:func:`abbreviation_ends`).
- A quotation closed and then cited (``"A 7%. B 41%." [C32]``) is one
  sentence with what precedes it in its own sentence (:func:`quoted_spans`).

Every pattern is bounded by a character class that excludes its own
terminator, so the scan is linear on any input.
"""

from __future__ import annotations

from itertools import repeat

import regex

#: Never end a sentence: they introduce what follows ("e.g. ACME", "vs. 21%").
NEVER_FINAL = frozenset({"e.g", "i.e", "cf", "vs", "v", "viz", "eg", "ie"})
#: Of those, the ones that introduce an example or a restatement end a sentence
#: before a capitalised clause opener ("42%, e.g. The board approved ..."):
#: an example is a name or a phrase, a clause after one is a new sentence.
INTRODUCING = frozenset({"e.g", "i.e", "viz", "eg", "ie"})
#: End a sentence before a capital, never before a number or a lower-case word
#: ("approx. 40%", "rose 42% approx. The board ...").
BEFORE_NUMBER_ONLY = frozenset({"approx", "ca", "incl", "esp", "resp", "est", "excl", "avg", "c"})
#: Units, and ``etc.`` (it closes a list): end a sentence before a capital or
#: a number, never before a lower-case word ("14 pts. of that growth",
#: "devices, etc. 2026 guidance was raised" ends).
UNIT_ABBREVIATIONS = frozenset({"pts", "pt", "bps", "yrs", "yr", "mos", "hrs", "mins", "wks", "qtrs", "etc"})
#: Titles that are also name endings after a capitalised word: "Main St.",
#: "Rainier Mt." end a name; "St. Louis" opens one.
PLACE_TITLES = frozenset({"st", "mt", "ft"})
#: Stay in the sentence before a number ("Jan. 2025", "No. 4", "Fig. 3", "H.R. 4417").
NUMBER_TAKING = frozenset(
    "jan feb mar apr jun jul aug sep sept oct nov dec no nos fig figs p pp sec secs vol vols ch art "
    "eq ref refs tab para op ex h.r s.b h.b a.b".split()
)
#: Legal citation abbreviations: a reporter, code, court or pleading before a
#: volume, page, section or paragraph ("15 U.S.C. § 18", "412 F. Supp. 3d 77",
#: "(D. Del. 2019)", "Compl. ¶ 38") stays in the sentence.
LEGAL = frozenset(
    "u.s.c c.f.r stat supp compl cir app ct dist fed reg del cal mass conn pa tex fla ill mich wash id ibid".split()
)
#: Titles, company suffixes and other abbreviations before a name: before a
#: capital they end a sentence only when a word that opens a clause follows
#: ("Dr. Lisa Su" stays, "at ACME Inc. The board" ends).
TITLES = frozenset("mr mrs ms mx dr prof st mt ft sq gov sen rep gen col capt lt sgt rev hon pres".split())
#: Company suffixes and other abbreviations that end a name: before a capital
#: they end a sentence when a clause opens (see :func:`abbreviation_ends`).
NAME_ENDINGS = frozenset("inc corp ltd co bros plc llc llp al sr jr ave blvd rd dept univ assn intl natl oper".split())
NAME_ABBREVIATIONS = TITLES | NAME_ENDINGS
#: Lower-case words that join the words of a name ("U.S. Department of Commerce").
NAME_CONNECTORS = frozenset("of and for by in on at to the de du la le von van der da di del y".split())
#: Abbreviations that are ordinary words in lower case: read only capitalised.
CASED = frozenset(
    {"no", "nos", "st", "co", "ex", "op", "rep", "gen"}
    | {"ill", "wash", "mass", "del", "pa", "id", "app", "cal", "fed", "reg", "stat", "dist", "supp", "compl", "cir", "ct"}
)
#: Words that open a clause: after an ambiguous abbreviation they end the sentence.
CLAUSE_OPENERS = frozenset(
    "the a an this that these those it its we our they their them he she his her i you your there here "
    "in on at for by with from to of as if when while where whether after before since although though "
    "because but and or nor so yet also then however meanwhile moreover still both each every all some "
    "most many few no not none one two three four five six seven eight nine ten such what which who how "
    "why over under despite unlike overall thus hence instead".split()
)

# Terminators that need no whitespace after them: ideographic, full-width and
# small-form stops and marks (full-width ones are folded to ASCII before this).
_NO_SPACE_STOPS = "\u3002\uff61\ufe12\ufe52\ufe56\ufe57"
# After a terminator: closing brackets and quotes of any style (German „...“,
# ‚...‘ and »...« close with initial quotes), straight quotes, emphasis leftovers,
# and Wikipedia-style glued citation groups ("grew.[E1]").
#: Closing punctuation and quotes of every style: the Unicode classes Pe, Pf
#: and Pi, spelled out because the engine scans a listed class faster than a
#: property (tests/test_unicode_tables.py checks it against the property).
CLOSING_CLASS = (
    r"\u0029\u005d\u007d\u00ab\u00bb\u0f3b\u0f3d\u169c\u2018-\u2019\u201b-\u201d\u201f\u2039-\u203a\u2046\u207e"
    r"\u208e\u2309\u230b\u232a\u2769\u276b\u276d\u276f\u2771\u2773\u2775\u27c6\u27e7\u27e9\u27eb\u27ed\u27ef"
    r"\u2984\u2986\u2988\u298a\u298c\u298e\u2990\u2992\u2994\u2996\u2998\u29d9\u29db\u29fd\u2e02-\u2e05"
    r"\u2e09-\u2e0a\u2e0c-\u2e0d\u2e1c-\u2e1d\u2e20-\u2e21\u2e23\u2e25\u2e27\u2e29\u2e56\u2e58\u2e5a\u2e5c"
    r"\u3009\u300b\u300d\u300f\u3011\u3015\u3017\u3019\u301b\u301e-\u301f\ufd3e\ufe18\ufe36\ufe38\ufe3a"
    r"\ufe3c\ufe3e\ufe40\ufe42\ufe44\ufe48\ufe5a\ufe5c\ufe5e\uff09\uff3d\uff5d\uff60\uff63"
)
_CLOSERS = rf"[{CLOSING_CLASS}\"'*_]*(?:\[[^\[\]\u2029\u2063]{{1,64}}\])*"
# A marker-only tail: id-shaped citation groups (every token holds a digit)
# and metric tags, each with trailing punctuation, then whitespace or the end.
_ID_TOKEN = r"[\p{L}\p{M}_\-]*\p{N}[\p{L}\p{M}\p{N}_\-]*"
_TAIL_GROUP = (
    rf"(?:\[[^\S\u2029]*{_ID_TOKEN}(?:[\s,;]+{_ID_TOKEN}){{0,64}}[^\S\u2029]*\]"
    r"|\{[^\S\u2029]*[\p{L}_][\w\-]{0,127}(?:[\s,;|/&+]+[\p{L}_][\w\-]{0,127}){0,64}[^\S\u2029]*\})"
)
# A parenthesised marker group closes a sentence the same way: "... EPS..." (see [C72]).
_TAIL_GROUP = (
    rf"(?:{_TAIL_GROUP}|\([^\S\u2029]*(?:(?i:see|cf\.?|source:?|sources:?|via|per)[^\S\u2029]+)?"
    rf"{_TAIL_GROUP}[^\S\u2029]*\))"
)
_TAIL = rf"(?:{_TAIL_GROUP}[.,;:!?]*(?:[^\S\u2029]+|(?=\u2029)|$))*"
_SPACE_TAIL = rf"(?:[^\S\u2029]+{_TAIL}(?:\u2029\s*)?|\u2029\s*|$)"

_KNOWN = sorted(
    NEVER_FINAL | BEFORE_NUMBER_ONLY | UNIT_ABBREVIATIONS | NUMBER_TAKING | NAME_ABBREVIATIONS | LEGAL, key=len, reverse=True
)
_KNOWN_SET = frozenset(_KNOWN)
_TERM = r"\p{Sentence_Terminal}"

SENTENCE_END = regex.compile(
    rf"(?=[{_TERM}\u2026\u2029])(?:"
    # A period after what may be an abbreviation (a known word, an initial, a
    # dotted initialism): decided by abbreviation_ends().
    r"(?:(?<!\p{L}{8})(?<=(?<![\p{L}\p{M}\p{N}.])(?P<word>(?:\p{L}\.){0,7}\p{L}{1,7}))"
    rf"\.(?![.\u2026]){_CLOSERS}(?>{_SPACE_TAIL}))"
    # An ellipsis: no end when a lower-case word follows (an omission).
    rf"|(?:(?=\.\.|\u2026)(?<![.\u2026])(?:\.{{2,}}|\u2026)[.\u2026]*{_CLOSERS}(?>{_SPACE_TAIL})(?!\p{{Ll}}))"
    # Any other terminator before whitespace (or the end), with its tail.
    rf"|(?<![.\u2026])(?!\.\.)[{_TERM}][{_TERM}\u2026]*{_CLOSERS}{_SPACE_TAIL}"
    # No whitespace: after a non-letter before a capital or a caseless letter,
    # between caseless letters, or an ideographic stop before anything.
    rf"|(?<![\p{{L}}\p{{M}}])[{_TERM}]+{_CLOSERS}(?=[\p{{Lu}}\p{{Lt}}\p{{Lo}}])"
    rf"|[{_NO_SPACE_STOPS}]+{_CLOSERS}\s*"
    rf"|(?<=\p{{Lo}})[{_TERM}]+{_CLOSERS}(?=\p{{Lo}})"
    r"|\u2029\s*"
    r")"
)

_NEXT_WORD = regex.compile(r"[\p{L}\p{M}]+")
_NUMBER_START = regex.compile(r"[\p{N}\p{Sc}+\-\u2212\u00b1(#]")


def abbreviation_ends(word: str, following: str, before: str = "") -> bool:
    """Whether a period after ``word`` ends the sentence, given the text around it.

    ``word`` is the letters (and inner stops) before the period: ``Dr``,
    ``U.S``, ``approx``. ``following`` starts at the next visible character,
    ``before`` is the text before ``word``.

    - ``cf.`` and ``vs.`` never end one; ``e.g.``, ``i.e.`` and ``viz.`` end
      one only before a capitalised clause opener (``e.g. ACME`` stays,
      ``e.g. The board approved`` ends).
    - Before a lower-case word no abbreviation ends one.
    - Before a number: months, locators (``No. 4``, ``Fig. 3``, ``H.R. 4417``)
      and ``approx.``-like words stay; anything else ends (``Plan B. 2026``,
      ``ACME Inc. 2026``, ``the U.S. 2026 guidance``).
    - ``approx.``, ``ca.``, ``incl.``, ``esp.``, ``resp.``, ``etc.`` and units
      (``pts.``) end one before a capital.
    - A title (``Dr.``, ``St.``, ``Mt.``) before a capital ends one only when a
      clause-opening word follows (``The``, ``It``, ``In``...).
    - Other abbreviations, dotted initialisms and a one-letter label after a
      capitalised word (``Region A.``) end one before a clause-opening word,
      or before one capitalised word followed by a lower-case word that is
      not a connector (``ACME Inc. Costs fell``); a run of capitalised words
      or a connector is a name (``U.S. Department of Commerce``,
      ``Holdings Inc. Board [C302]``).
    """
    if not following or following[0] == "\u2029":
        return True
    key = word.lower()
    if word == "C":
        key = ""  # circa is written "c."; a capital C is a letter (an initial, a label)
    if key in CASED and not word[:1].isupper():
        return True  # "said no. Then": an ordinary word
    first = following[0]
    if key in LEGAL and (first in "§¶(" or _NUMBER_START.match(first)):
        return False  # "15 U.S.C. § 18", "F. Supp. 3d 77", "(D. Del. 2019)"
    if key in NEVER_FINAL:
        if key not in INTRODUCING or not first.isupper():
            return False
        opener = _NEXT_WORD.match(following)
        # "A" and "I" may be an example's label ("e.g. A and B"), not a clause.
        return opener is not None and len(opener.group()) > 1 and opener.group().lower() in CLAUSE_OPENERS
    if first.islower():
        return False  # a lower-case word continues the sentence after any abbreviation
    dotted = "." in word
    if len(word) == 1 and word.isupper():
        reporter = _NEXT_WORD.match(following)
        if reporter is not None and reporter.group().lower() in LEGAL and following.startswith(".", reporter.end()):
            return False  # a reporter's name: "412 F. Supp. 3d 77", "S. Ct."
    # A single letter is an initial ("said J. Smith") or a label ("Region A.") only
    # as a capital standing as a word of its own: "y/y.", "8-K.", "AT&T." and
    # "$420 M." end like any other word.
    single = len(word) == 1 and word.isupper() and _STANDS_ALONE.search(before) is not None
    known = key in BEFORE_NUMBER_ONLY or key in NUMBER_TAKING or key in NAME_ABBREVIATIONS
    if key in UNIT_ABBREVIATIONS:
        return True  # before a capital or a number: "rose 14 pts. The board"
    if not (known or dotted or single):
        return True
    if _NUMBER_START.match(first) or _PERIOD_LABEL.match(following):
        # A number, or a period label read like one ("the U.S. Q3 margins").
        return not (key in BEFORE_NUMBER_ONLY or key in NUMBER_TAKING)
    if key in BEFORE_NUMBER_ONLY or not first.isalpha():
        return True
    next_word = _NEXT_WORD.match(following)
    if next_word is None or next_word.group().lower() in CLAUSE_OPENERS:
        return True
    if _SENTENCE_ADVERB.match(following):
        return True  # "in the U.S. Separately, the board ...": a sentence adverb opens a clause
    if key in TITLES and not (key in PLACE_TITLES and _AFTER_CAPITALISED.search(before)):
        return False
    if single and not _AFTER_CAPITALISED.search(before):
        return False  # an initial: "said J. Smith"
    clause = _CAPITALISED_THEN_WORD.match(following)
    return clause is not None and clause.group(1).lower() not in NAME_CONNECTORS


# Before a letter that stands as a word: the start, or a blank or an opening
# bracket or quote after anything but a number ("$420 M." is a magnitude).
_STANDS_ALONE = regex.compile(r"(?:^|\u2029|(?<![\p{N}\p{Sc}%])\s|[(\[\"'\u201c\u2018\u00ab])$")
# A period label: "Q3", "H1", "FY25", "3Q24", "1H25" (names.py reads the same shapes as names).
_PERIOD_LABEL = regex.compile(r"(?:[QH][1-4]|FY\d{2,4}|[1-4][QH](?:FY)?\d{2,4})(?![\p{L}\p{N}])")
# A capitalised adverb and a comma: "Separately,", "Finally,", "Notably,".
_SENTENCE_ADVERB = regex.compile(r"\p{Lu}\p{Ll}+ly,")
_AFTER_CAPITALISED = regex.compile(r"\p{Lu}[\p{L}\p{M}]*[^\S\u2029]+$")
_CAPITALISED_THEN_WORD = regex.compile(r"\p{Lu}[\p{L}\p{M}'\u2019\-]*[^\S\u2029]+(\p{Ll}[\p{L}\p{M}]*)")


_END = type(SENTENCE_END.match(". ")).end  # Match.end and Match.group, applied in C by map()
_WORD = SENTENCE_END.groupindex["word"]  # a group by number: by name costs a lookup per match
_GROUP = type(SENTENCE_END.match(". ")).group


def _ends(text: str) -> list[int]:
    matches = list(SENTENCE_END.finditer(text))
    ends = list(map(_END, matches))
    words = list(map(_GROUP, matches, repeat(_WORD)))
    # Only a period after a short word may be an abbreviation: decide those in Python.
    for i in [i for i, word in enumerate(words) if word is not None]:
        word = words[i]
        if len(word) == 1 or "." in word or word.lower() in _KNOWN_SET:
            match = matches[i]
            start = match.start("word")
            if not abbreviation_ends(word, text[ends[i] : ends[i] + 40], text[max(0, start - 24) : start]):
                ends[i] = -1
    return [end for end in ends if end >= 0] if -1 in ends else ends


# A quotation in double quotes of any common style, within one unit, then a
# marker group right after it: "... 7% of loans. About 41% ..." [C32].
_OPEN_QUOTES = '"\u201c\u201e\u00ab\u00bb'
_CLOSE_QUOTES = '"\u201d\u201c\u00bb\u00ab'
_QUOTED_BODY = '[^"\u201c\u201d\u201e\u00ab\u00bb\u2029]{1,4000}'
_QUOTED = regex.compile(f"[{_OPEN_QUOTES}]{_QUOTED_BODY}[{_CLOSE_QUOTES}]")
# What follows a quotation that a citation covers whole: "..." [C32], "..." (see [C72]).
_CITED_AFTER = regex.compile(
    r"[.,;:!?]?[^\S\u2029]*(?:[\[{]|\([^\S\u2029]*(?:(?i:see|cf\.?|source:?|via|per)[^\S\u2029]+)?[\[{])"
)


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """Every quotation ``(open, close_end)`` in reading order (straight quotes paired in turn)."""
    if '"' not in text and "\u201c" not in text and "\u00ab" not in text and "\u201e" not in text and "\u00bb" not in text:
        return []
    return [m.span() for m in _QUOTED.finditer(text)]


def sentence_ends(text: str, quotations: list[tuple[int, int]] | None = None) -> list[int]:
    """Offsets just past each sentence end in ``text``.

    Ends strictly inside a quotation that a marker group follows are dropped:
    the citation after the closing quote covers the whole quotation.
    ``quotations`` are :func:`quoted_spans` of ``text`` when the caller has them.
    """
    ends = _ends(text)
    if not ends or ("[" not in text and "{" not in text):
        return ends
    if quotations is None:
        quotations = quoted_spans(text)
    inside = [(start + 1, end) for start, end in quotations if _CITED_AFTER.match(text, end)]
    if inside:
        kept = []
        i = 0
        for end in ends:  # both lists ascend: one sweep
            while i < len(inside) and inside[i][1] < end:
                i += 1
            if i < len(inside) and inside[i][0] < end <= inside[i][1]:
                continue
            kept.append(end)
        ends = kept
    return ends
