"""Reading CLDR through Babel: the locales, their own data and their merged data.

Only :mod:`.build` and the ``from_*`` modules import this (and so Babel); the package at run time
reads the generated files instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import regex

#: Bidi controls (LRM, RLM, ALM, embeddings, isolates) that CLDR puts around signs of
#: right-to-left locales ("\u061c%" and the like) so they draw on the right side; a reader sees
#: the sign, so the vocabulary records it without them.
_BIDI_CONTROLS = regex.compile(r"\p{Bidi_Control}")


def bare(text: str) -> str:
    """``text`` without bidi controls."""
    return _BIDI_CONTROLS.sub("", text)


def has_bidi_controls(text: str) -> bool:
    return _BIDI_CONTROLS.search(text) is not None


def locale_ids() -> list[str]:
    """Every locale Babel ships (root excluded), sorted."""
    from babel import localedata

    return sorted(localedata.locale_identifiers())


def merged(locale_id: str) -> Any:
    """The locale with everything it inherits (Babel's ``Locale``)."""
    from babel.core import Locale

    return Locale.parse(locale_id)


def own(locale_id: str) -> dict[str, Any]:
    """Only what the locale's own CLDR file says (no inheritance).

    Babel caches loaded locales by name whether merged or not, so the caches are cleared on both
    sides: a merged copy must not answer here, and this copy must not answer a later merged load.
    """
    from babel import localedata

    localedata.clear_caches()
    try:
        return dict(localedata.load(locale_id, merge_inherited=False))
    finally:
        localedata.clear_caches()


def language(locale_id: str) -> str:
    """The language subtag of a locale id ("de" for "de_AT", "root" for root)."""
    return locale_id.split("_")[0]


def cldr_version() -> str:
    from babel.core import get_cldr_version

    return str(get_cldr_version())


def walk_patterns(tree: Any, root: dict[str, Any], path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], str]]:
    """Each (key path, pattern string) of a nested CLDR format tree, aliases resolved within ``root``.

    Babel keeps patterns as ``NumberPattern`` objects in locale files and as plain strings in a
    few places (root); an ``Alias`` points at another key path of the same locale.
    """
    from babel.localedata import Alias

    if isinstance(tree, Alias):
        target: Any = root
        for part in tree.keys:
            target = target[part]
        yield from walk_patterns(target, root, path)
    elif isinstance(tree, dict):
        for name in sorted(tree):
            yield from walk_patterns(tree[name], root, (*path, str(name)))
    elif tree is not None:
        yield path, str(getattr(tree, "pattern", tree))
