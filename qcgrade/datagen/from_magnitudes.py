"""magnitudes.toml: the words of CLDR's compact decimal formats ("Mrd.", "млрд", "万") with their scales."""

from __future__ import annotations

from collections import defaultdict

import regex

from . import cldr
from .toml_out import Lines, Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

DESCRIPTION = [
    "[locales]: for each CLDR locale whose own data has compact decimal formats (root: CLDR's fallback",
    "K/M/G/T for locales without words of their own; a sub-locale inherits its parent's lines unless it",
    "overrides them), one line per word: POWER FORM PATTERN. POWER: the word multiplies by 10**POWER",
    '("00 Mio." at 10^7 is 10^6); FORM: short ("5 Mrd.") or long ("5 Milliarden"); PATTERN: where the',
    'word stands, the number written as one 0 ("0 Mrd.", "0万", sw "elfu 0"; my and wo write words on',
    "both sides, and the word is then both parts joined by a space), quotes",
    "and bidi controls removed, every run of spaces (no-break ones too) written as one space. Each",
    "plural form is its own line (Million, Millionen).",
    '[ambiguous]: words whose power differs between locales -> their powers ("B": 3 in tr, 9 in en,',
    "12 in es).",
    '[bare] words: the words of one or two Latin letters ("M", "B", "bn", "Mr", "a", "bi"): they are also unit',
    "symbols, initials or ordinary words of some language, so a rule should take them as magnitudes only",
    "right after a figure and in their own locales.",
]

_SPACES = regex.compile(r"\p{Z}+")
_BIDI = regex.compile(r"\p{Bidi_Control}")
_LATIN_LETTER = regex.compile(r"[\p{Script=Latin}&&\p{L}]", regex.V1)


def parse(pattern: str) -> tuple[str, int]:
    """(normalised pattern, number of zeros) of a compact pattern's positive part.

    In CLDR patterns '0' is a digit, text in single quotes is literal ('' is an apostrophe) and a
    ';' outside quotes starts the negative pattern. The normalised pattern writes the zeros as one
    "0" and keeps the literal text around it.
    """
    out: list[str] = []
    zeros = 0
    quoted = False
    index = 0
    while index < len(pattern):
        char = pattern[index]
        index += 1
        if char == "'":
            if index < len(pattern) and pattern[index] == "'":
                out.append("'")
                index += 1
            else:
                quoted = not quoted
            continue
        if not quoted and char == ";":
            break
        if not quoted and char == "0":
            if not zeros:
                out.append("\0")
            zeros += 1
            continue
        out.append(char)
    text = _SPACES.sub(" ", _BIDI.sub("", "".join(out))).strip()
    if "0" in text:
        raise ValueError(f"a compact pattern whose words hold a zero: {pattern!r}")
    return text.replace("\0", "0"), zeros


def word_of(pattern: str) -> str:
    """The word of a normalised pattern ("Mrd." of "0 Mrd."; a word on each side of the 0 is space-joined)."""
    return " ".join(part.strip() for part in pattern.split("0") if part.strip())


def bare(word: str) -> bool:
    return len(word) <= 2 and all(_LATIN_LETTER.match(c) for c in word)


def build() -> tuple[list[str], Tables]:
    lines: dict[str, set[tuple[int, str, str]]] = defaultdict(set)
    powers: dict[str, set[int]] = defaultdict(set)
    for locale_id in ["root", *cldr.locale_ids()]:
        data = cldr.own(locale_id)
        tree = data.get("compact_decimal_formats")
        if not tree:
            continue
        for (form, _plural, magnitude), raw in cldr.walk_patterns(tree, data):
            pattern, zeros = parse(raw)
            word = word_of(pattern)
            if not word or not zeros:
                continue  # "0": no compact form at this magnitude
            power = len(magnitude) - zeros
            lines[locale_id].add((power, form, pattern))
            powers[word].add(power)
    locales: dict[str, Value] = {
        locale_id: Lines(f"{power} {form} {pattern}" for power, form, pattern in sorted(lines[locale_id]))
        for locale_id in sorted(lines, key=lambda name: (name != "root", name))
    }
    ambiguous: dict[str, Value] = {w: sorted(p) for w, p in sorted(powers.items()) if len(p) > 1}
    bare_words = Lines(sorted(w for w in powers if bare(w)))
    return DESCRIPTION, [(("locales",), locales), (("ambiguous",), ambiguous), (("bare",), {"words": bare_words})]
