"""Whether a period after an abbreviation ends the sentence: the class of the word, against what follows it.

docs/reading-rules.md (1.5) gives the table; ``abbreviations.toml`` holds it
as data, with the words of each class. :func:`abbreviation_ends` asks three
questions, each a named rule:

1. what class the word before the period is (:func:`word_class`);
2. what kind of token follows it (:func:`next_kind`);
3. the table's outcome for that pair, and for the outcomes that look further
   ahead, what the next words are (:func:`_outcome`).

The decision comes back with its rule id (``abbreviation.<class>``), so
``qcgrade explain`` can say why a sentence ended or did not.
"""

from __future__ import annotations

from functools import cache

import regex

from .. import vocab

#: Classes in precedence order: a word in two lists takes the first (an introducing word is never final too).
_PRECEDENCE = ("introducing", "never_final", "legal", "unit", "before_number", "number_taking", "title", "name_ending")


@cache
def _known() -> frozenset[str]:
    """Every word of a class: a period after any other word of several letters ends the sentence unasked."""
    return frozenset().union(*(vocab.abbreviation_class(name) for name in vocab.abbreviation_classes()))


def asks(word: str) -> bool:
    """Whether a period after ``word`` needs the table: a single letter, a dotted word or a listed one."""
    return len(word) == 1 or "." in word or word.lower() in _known()


_NEXT_WORD = regex.compile(r"[\p{L}\p{M}]+")
_NUMBER_START = regex.compile(r"[\p{N}\p{Sc}+\-\u2212\u00b1(#]")
_LEGAL_MARKS = frozenset("§¶")
# Before a letter that stands as a word: the start, or a blank or an opening
# bracket or quote after anything but a number ("$420 M." is a magnitude).
_STANDS_ALONE = regex.compile(r"(?:^|\u2029|(?<![\p{N}\p{Sc}%])\s|[(\[\"'\u201c\u2018\u00ab])$")
# A capitalised adverb and a comma: "Separately,", "Finally,", "Notably,".
_SENTENCE_ADVERB = regex.compile(r"\p{Lu}\p{Ll}+ly,")
_AFTER_CAPITALISED = regex.compile(r"\p{Lu}[\p{L}\p{M}]*[^\S\u2029]+$")
_CAPITALISED_THEN_WORD = regex.compile(r"\p{Lu}[\p{L}\p{M}'\u2019\-]*[^\S\u2029]+(\p{Ll}[\p{L}\p{M}]*)")


@cache
def _period_label() -> regex.Pattern[str]:
    """A period label read like a number after an abbreviation ("the U.S. Q3 margins"): Q3, H1, FY25, 3Q24."""
    heads = vocab.alternation(vocab.period_label_heads())
    fiscal = vocab.alternation(vocab.fiscal_marks())
    return regex.compile(rf"(?:[QH][1-4]|FY\d{{2,4}}|{heads}(?:{fiscal})?\d{{2,4}})(?![\p{{L}}\p{{N}}])")


def word_class(word: str, before: str) -> str:
    """The class of ``word`` (the letters and inner stops before the period); ``before`` is the text before it.

    ``ordinary``: a word of a cased class written in lower case ("said no."),
    or a word of no class.
    """
    key = word.lower()
    if len(word) == 1 and word.isupper():
        key = ""  # a capital alone is an initial, a label or a letter: the lists hold lower-case words ("p.", "v.", "c.")
    if key in vocab.abbreviation_class("cased") and not word[:1].isupper():
        return "ordinary"
    for name in _PRECEDENCE:
        if key in vocab.abbreviation_class(name):
            if name == "legal" and "." in word:
                return "legal_dotted"
            if name == "title" and key in vocab.abbreviation_class("place_title") and _AFTER_CAPITALISED.search(before):
                return "place_title"  # "Main St.": a place's name ends, as a name ending does
            return name
    if "." in word:
        return "initialism"
    if len(word) == 1 and word.isupper() and _STANDS_ALONE.search(before) is not None:
        return "label" if _AFTER_CAPITALISED.search(before) else "initial"
    return "letter" if len(word) == 1 else "ordinary"


def next_kind(following: str) -> str:
    """What follows the period: ``end``, ``lower``, ``number``, ``mark``, ``period``, ``capital``, ``caseless``
    or ``other``."""
    if not following or following[0] == "\u2029":
        return "end"
    first = following[0]
    if first.islower():
        return "lower"
    if _NUMBER_START.match(first):
        return "number"
    if first in _LEGAL_MARKS:
        return "mark"
    if _period_label().match(following):
        return "period"
    if first.isupper():
        return "capital"
    return "caseless" if first.isalpha() else "other"


def _clause_opens(following: str, long: bool = False) -> bool:
    opener = _NEXT_WORD.match(following)
    if opener is None:
        return not long
    word = opener.group()
    if long:
        return len(word) > 1 and word.lower() in vocab.clause_openers()
    return word.lower() in vocab.clause_openers() or _SENTENCE_ADVERB.match(following) is not None


def _outcome(outcome: str, following: str) -> bool:
    """Whether the sentence ends, for a table cell ``outcome`` and the text ``following`` the period."""
    if outcome == "stays":
        return False
    if outcome == "ends":
        return True
    if outcome == "ends_before_long_opener":
        return _clause_opens(following, long=True)
    if _clause_opens(following):
        return True
    if outcome == "ends_before_opener":
        return False
    clause = _CAPITALISED_THEN_WORD.match(following)
    return clause is not None and clause.group(1).lower() not in vocab.name_connectors()


def _reporter(word: str, following: str) -> bool:
    """A capital before a legal abbreviation is a reporter's name ("412 F. Supp. 3d 77", "S. Ct.")."""
    if not (len(word) == 1 and word.isupper()):
        return False
    reporter = _NEXT_WORD.match(following)
    return (
        reporter is not None
        and reporter.group().lower() in vocab.abbreviation_class("legal")
        and following.startswith(".", reporter.end())
    )


def abbreviation_ends(word: str, following: str, before: str = "") -> tuple[bool, str]:
    """Whether a period after ``word`` ends the sentence, and the rule that decided.

    ``word`` is the letters (and inner stops) before the period: ``Dr``,
    ``U.S``, ``approx``. ``following`` starts at the next visible character,
    ``before`` is the text before ``word``.
    """
    kind = next_kind(following)
    if kind == "end":
        return True, "sentence_end.unit_break"
    cls = word_class(word, before)
    if cls == "ordinary":
        return True, "abbreviation.ordinary"
    if kind in ("capital", "caseless") and cls not in ("never_final", "introducing") and _reporter(word, following):
        return False, "abbreviation.reporter"
    return _outcome(vocab.abbreviation_table()[cls][kind], following), f"abbreviation.{cls}"
