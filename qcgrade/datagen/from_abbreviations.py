"""abbreviations.toml: pySBD's per-language abbreviation lists, normalised.

pySBD (the Python port of the Golden Rules sentence segmenter "pragmatic segmenter") keeps, per
language: abbreviations (a full stop after them does not end a sentence by itself), prepositive
abbreviations (titles written before a name: "Dr."), number abbreviations (written before a
number: "No. 5") and, for a few languages, sentence starters (words that begin a sentence after
an abbreviation). Many languages reuse the English lists; those are named, not repeated.
"""

from __future__ import annotations

from typing import Any

from .toml_out import Lines, Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

DESCRIPTION = [
    "[LANG]: pySBD's lists for one language, one entry a line, lower-cased, stripped of outer spaces",
    'and of the final full stop (inner stops kept: "z.b"), deduplicated and sorted: abbreviations;',
    'prepositive (before a name: "dr"); number (before a number: "no"); sentence_starters (capitalised',
    "words that start a sentence after an abbreviation, as pySBD writes them, not lower-cased);",
    "terminators: the characters pySBD ends sentences with in that language. same_as_en: the lists",
    "pySBD gives this language by reusing the English ones (not repeated here: read [en]). A list",
    "pySBD does not have for a language is absent. pySBD's lists are thin for some languages: ar, bg,",
    "fr, kk, nl, pl and ru have no prepositive or number list, and ten languages (am el fa hi hy ja mr",
    "my ur zh) only reuse the English ones.",
]

#: pySBD's names -> ours.
LISTS = {
    "ABBREVIATIONS": "abbreviations",
    "PREPOSITIVE_ABBREVIATIONS": "prepositive",
    "NUMBER_ABBREVIATIONS": "number",
}


def normalise(words: list[str]) -> list[str]:
    out = {w.strip().lower().rstrip(".").strip() for w in words}
    return sorted(w for w in out if w)


def _lists(language: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for source, ours in LISTS.items():
        words = getattr(language.Abbreviation, source, None)
        if words is not None:
            found[ours] = normalise(list(words))
    replacer = getattr(language, "AbbreviationReplacer", None)
    starters = getattr(replacer, "SENTENCE_STARTERS", None)
    if starters is not None:
        found["sentence_starters"] = sorted({s.strip() for s in starters if s.strip()})
    return found


def build() -> tuple[list[str], Tables]:
    from pysbd.languages import LANGUAGE_CODES

    english = _lists(LANGUAGE_CODES["en"])
    tables: Tables = []
    for code in sorted(LANGUAGE_CODES):
        language = LANGUAGE_CODES[code]
        lists = _lists(language)
        body: dict[str, Value] = {}
        same = [name for name, words in lists.items() if code != "en" and english.get(name) == words]
        for name, words in lists.items():
            if name not in same:
                body[name] = Lines(words)
        if same:
            body["same_as_en"] = sorted(same)
        body["terminators"] = sorted(set(language.Punctuations))
        tables.append(((code,), body))
    return DESCRIPTION, tables
