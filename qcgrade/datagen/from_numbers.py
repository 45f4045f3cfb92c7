"""numbers.toml: the signs CLDR locales write around numbers, and the digits of each numbering system."""

from __future__ import annotations

from collections import defaultdict

import regex

from . import cldr
from .compat import compatibility_forms
from .toml_out import Value

Tables = list[tuple[tuple[str, ...], dict[str, Value]]]

DESCRIPTION = [
    "[percent], [permille], [permyriad]: each sign with power (the factor is 10**power), the numbering",
    "systems whose locales write it, locales (how many locales' default or other numbering systems use",
    "it), marked (some locale writes it with bidi controls, removed here). compat_of: a compatibility",
    "character whose NFKC form (Unicode 3.2 tables) is that CLDR sign (locales = 0: no locale writes it).",
    "CLDR has no per-ten-thousand symbol; [permyriad] holds U+2031 from the UCD.",
    "[plus], [minus], [decimal], [group]: the same for signs and separators (no power).",
    "[systems.ID]: each CLDR numbering system Babel names: digits (its ten digits, zero first) or",
    "algorithmic = true (numerals by rule, no ten digits); default_in / other_in: how many locales have it",
    "as default / as native, traditional or finance system; the signs locales using it write (a system",
    "without signs listed borrows latn's: CLDR aliases its symbols).",
    "[digit_runs_without_system]: runs of ten \\p{Nd} digits of the UCD that no CLDR system names, by zero",
    "(empty when CLDR names them all).",
]

#: CLDR numbering systems whose digits are not the one run of ten \p{Nd} characters in the
#: script their id names (facts from CLDR's numberingSystems.xml, which Babel does not ship):
#: the code point of each one's zero. Checked below: each must start a run of ten \p{Nd}.
ZEROS = {
    "arab": 0x0660,
    "arabext": 0x06F0,
    "fullwide": 0xFF10,
    "lana": 0x1A80,
    "lanatham": 0x1A90,
    "latn": 0x0030,
    "mathbold": 0x1D7CE,
    "mathdbl": 0x1D7D8,
    "mathmono": 0x1D7F6,
    "mathsanb": 0x1D7EC,
    "mathsans": 0x1D7E2,
    "mymr": 0x1040,
    "mymrepka": 0x116DA,
    "mymrpao": 0x116D0,
    "mymrshan": 0x1090,
    "mymrtlng": 0xA9F0,
    "outlined": 0x1CCF0,
    "segment": 0x1FBF0,
    "tamldec": 0x0BE6,
}
#: hanidec's digits are ideographs (\p{Lo}, and U+3007 \p{Nl}), not \p{Nd}.
HANIDEC = "\u3007\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d"
#: CLDR's algorithmic systems (rules, not ten digits) among those Babel names.
ALGORITHMIC = frozenset(
    {"armn", "armnlow", "cyrl", "ethi", "geor", "grek", "greklow", "hans", "hansfin", "hant", "hantfin", "hebr"}
    | {"jpan", "jpanfin", "jpanyear", "roman", "romanlow", "taml"}
)

#: CLDR symbol name -> (kind, power of ten of the factor, or None for signs without one).
KINDS: dict[str, tuple[str, int | None]] = {
    "percentSign": ("percent", -2),
    "perMille": ("permille", -3),
    "plusSign": ("plus", None),
    "minusSign": ("minus", None),
    "decimal": ("decimal", None),
    "group": ("group", None),
}
_PER_TEN_THOUSAND = "\N{PER TEN THOUSAND SIGN}"


def digit_runs() -> list[str]:
    """Every run of ten decimal digits (\\p{Nd}) in the pinned regex's UCD, in code point order."""
    text = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    runs: list[str] = []
    for match in regex.finditer(r"\p{Nd}+", text):
        block = match.group()
        if len(block) % 10:
            raise ValueError(f"a run of {len(block)} decimal digits at U+{ord(block[0]):04X}")
        runs.extend(block[i : i + 10] for i in range(0, len(block), 10))
    return runs


def _digits(system: str, runs: list[str]) -> str | None:
    """The ten digits of ``system``, or None for an algorithmic system."""
    if system in ALGORITHMIC:
        return None
    if system == "hanidec":
        return HANIDEC
    if system in ZEROS:
        found = [r for r in runs if ord(r[0]) == ZEROS[system]]
    else:
        found = [r for r in runs if regex.match(rf"\p{{Script={system}}}", r[0])]
    if len(found) != 1:
        raise ValueError(f"numbering system {system!r}: {len(found)} candidate digit runs; update ZEROS or ALGORITHMIC")
    return found[0]


def build() -> tuple[list[str], Tables]:
    runs = digit_runs()
    # kind -> sign -> (systems, locales, marked)
    sign_systems: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    sign_locales: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    marked: set[tuple[str, str]] = set()
    system_signs: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    default_in: dict[str, int] = defaultdict(int)
    other_in: dict[str, int] = defaultdict(int)
    systems: set[str] = set()
    for locale_id in cldr.locale_ids():
        locale = cldr.merged(locale_id)
        default = str(locale.default_numbering_system)
        others = {str(s) for s in locale.other_numbering_systems.values()}
        default_in[default] += 1
        for other in others:
            other_in[other] += 1
        used = {default} | others
        # Every system the locale has a symbol entry for (root names them all), used or not.
        systems |= used | {str(s) for s in locale.number_symbols}
        for system in sorted(used):
            symbols = locale.number_symbols.get(system)
            if not symbols or "alias" in symbols:
                continue
            for name, (kind, _power) in KINDS.items():
                raw = symbols.get(name)
                if not raw:
                    continue
                sign = cldr.bare(raw)
                sign_systems[kind][sign].add(system)
                sign_locales[kind][sign].add(locale_id)
                system_signs[system][kind].add(sign)
                if cldr.has_bidi_controls(raw):
                    marked.add((kind, sign))
    tables: Tables = []
    for kind, power in [("percent", -2), ("permille", -3), ("plus", None), ("minus", None), ("decimal", None), ("group", None)]:
        body: dict[str, Value] = {}
        for sign in sorted(sign_systems[kind]):
            entry: dict[str, Value] = {}
            if power is not None:
                entry["power"] = power
            entry["systems"] = sorted(sign_systems[kind][sign])
            entry["locales"] = len(sign_locales[kind][sign])
            if (kind, sign) in marked:
                entry["marked"] = True
            body[sign] = entry
        if power is not None:
            for char, sign in sorted(compatibility_forms(set(sign_systems[kind])).items()):
                body[char] = {"power": power, "compat_of": sign, "locales": 0}
        tables.append(((kind,), body))
        if kind == "permille":
            tables.append((("permyriad",), {_PER_TEN_THOUSAND: {"power": -4, "locales": 0}}))
    named: set[str] = set()
    for system in sorted(systems):
        digits = _digits(system, runs)
        body = {}
        if digits is None:
            body["algorithmic"] = True
        else:
            body["digits"] = digits
            named.add(digits)
        body["default_in"] = default_in.get(system, 0)
        body["other_in"] = other_in.get(system, 0)
        for kind in ("percent", "permille", "plus", "minus", "decimal", "group"):
            if system_signs[system][kind]:
                body[kind] = sorted(system_signs[system][kind])
        tables.append((("systems", system), body))
    unnamed: dict[str, Value] = {f"U+{ord(r[0]):04X}": r for r in runs if r not in named}
    tables.append((("digit_runs_without_system",), unnamed))
    return DESCRIPTION, tables
