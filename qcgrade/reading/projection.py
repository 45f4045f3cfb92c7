"""What a reader sees: visible text with a map back to source offsets.

Markdown and HTML hide characters (emphasis delimiters, link targets, tags,
comments, zero-width code points) and turn others into something else
(``&#52;`` shows as ``4``, ``\\[`` as ``[``). Checks must judge the rendered
text, yet report offsets into the original file. A :class:`Projection` holds
both: the visible string and, piece by piece, where each visible character
came from.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right

# Zero-width and other default-ignorable code points render as nothing, so a
# digit run or marker split by them still reads as one to a person. The class
# is Unicode's Default_Ignorable_Code_Point, spelled out so the stdlib engine
# (much faster on this than a property lookup) can scan for it; a test checks
# it against the property.
_BMP_IGNORABLE = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8"
)
IGNORABLE_CLASS = _BMP_IGNORABLE + "\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff"
_IGNORABLE = re.compile(f"[{IGNORABLE_CLASS}]+")

# Full-width ASCII variants (U+FF01..FF5E) look like their ASCII twins; fold
# them one to one so detection sees what a reader sees while offsets hold.
_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FOLD.update({0x037E: ord(";"), 0x2024: ord("."), 0xFE52: ord(".")})
# Bracket and brace look-alikes, so "【E999】" or "❴m_foo❵" is still a marker.
_FOLD.update({c: ord("[") for c in (0xFE5D, 0x3010, 0x3014, 0x27E6, 0x3016, 0x3018)})
_FOLD.update({c: ord("]") for c in (0xFE5E, 0x3011, 0x3015, 0x27E7, 0x3017, 0x3019)})
_FOLD.update({c: ord("{") for c in (0xFE5B, 0x2774)})
_FOLD.update({c: ord("}") for c in (0xFE5C, 0x2775)})
# More bracket look-alikes (quill, angle, double angle, corner, white, tortoise-shell,
# underbar and half brackets), and white curly brackets as braces: a policy's
# "⟨E047⟩" is shown as a citation attempt.
_OPENING_BRACKETS = (
    0x2045, 0x2329, 0x276C, 0x276E, 0x2770, 0x2772, 0x27C5, 0x27E8, 0x27EA, 0x27EC, 0x2987, 0x2989, 0x298B,
    0x298D, 0x298F, 0x2991, 0x2993, 0x2995, 0x2997, 0x29FC, 0x2E22, 0x2E24, 0x3008, 0x300A, 0x300C, 0x300E,
    0x301A, 0xFE17, 0xFE39, 0xFE3B, 0xFE3D, 0xFE3F, 0xFE41, 0xFE43, 0xFE47, 0xFF62,
)  # fmt: skip
_FOLD.update({c: ord("[") for c in _OPENING_BRACKETS})
_FOLD.update({c + 1: ord("]") for c in _OPENING_BRACKETS})
_FOLD.update({0x2983: ord("{"), 0x2984: ord("}"), 0xFE37: ord("{"), 0xFE38: ord("}")})
# Letters drawn as sentence punctuation (a reader sees a full stop, an
# exclamation or a question mark): Lisu tone letter MYA TI "ꓸ", the click
# letter "ǃ", the glottal stops "ʔ" "Ɂ". Read as the mark they show, they end a
# sentence as the mark would ("42%ꓸ The board ...").
_FOLD.update({0xA4F8: ord("."), 0x01C3: ord("!"), 0x0294: ord("?"), 0x0241: ord("?")})


_FOLDABLE_CLASS = (
    "\uff01-\uff5e\u037e\u2024\ufe52\ufe5b-\ufe5e\u3010\u3011\u3014-\u3019\u27e6\u27e7\u2774\u2775"
    + "".join(f"{chr(c)}{chr(c + 1)}" for c in _OPENING_BRACKETS)
    + "\u2983\u2984\ufe37\ufe38\ua4f8\u01c3\u0294\u0241"
)
_FOLDABLE = re.compile(f"[{_FOLDABLE_CLASS}]")


def fold(text: str) -> str:
    """Fold look-alike punctuation and letters to ASCII, preserving length."""
    if text.isascii() or not _FOLDABLE.search(text):
        return text
    return text.translate(_FOLD)


# Letters of other scripts drawn like Latin ones, one to one: a reader sees
# "rose" in "r\u043ese" (a Cyrillic o). Words are read with these folded (what a
# word says is what it looks like), digits are not (see numerals' look-alikes).
# Cyrillic and Greek letters that common fonts draw as a Latin letter, the
# long s, the Kelvin sign and the dotted capital I; mathematical letters and
# other compatibility forms of one ASCII letter are added from NFKC.
_LETTER_TWINS = {
    "\u0430": "a", "\u0435": "e", "\u043e": "o", "\u0440": "p", "\u0441": "c", "\u0443": "y", "\u0445": "x",
    "\u0455": "s", "\u0456": "i", "\u0458": "j", "\u04bb": "h", "\u04cf": "l", "\u0501": "d", "\u051b": "q",
    "\u051d": "w", "\u0410": "A", "\u0412": "B", "\u0415": "E", "\u041a": "K", "\u041c": "M", "\u041d": "H",
    "\u041e": "O", "\u0420": "P", "\u0421": "C", "\u0422": "T", "\u0425": "X", "\u0423": "Y", "\u0405": "S",
    "\u0406": "I", "\u0408": "J", "\u03bf": "o", "\u03b9": "i", "\u03ba": "k", "\u03bd": "v", "\u03c1": "p",
    "\u03c5": "u", "\u03c7": "x", "\u0391": "A", "\u0392": "B", "\u0395": "E", "\u0396": "Z", "\u0397": "H",
    "\u0399": "I", "\u039a": "K", "\u039c": "M", "\u039d": "N", "\u039f": "O", "\u03a1": "P", "\u03a4": "T",
    "\u03a5": "Y", "\u03a7": "X", "\u017f": "s", "\u212a": "K", "\u0130": "I",
}  # fmt: skip
# Mathematical letters, circled and squared letters: their NFKC form is one ASCII letter.
_COMPATIBLE_LETTERS = "\U0001d400-\U0001d7ff\u24b6-\u24e9\U0001f130-\U0001f189"
_LETTER_TWIN = re.compile(f"[{''.join(_LETTER_TWINS)}{_COMPATIBLE_LETTERS}]")


def _twin(found: re.Match[str]) -> str:
    letter = found.group()
    twin = _LETTER_TWINS.get(letter)
    if twin is None:
        twin = unicodedata.normalize("NFKC", letter)
        if len(twin) != 1 or not (twin.isascii() and twin.isalpha()):
            return letter  # a symbol of those blocks that is no letter ("\U0001d7ce" is a digit)
    return twin


def fold_letters(text: str) -> str:
    """``text`` with letters drawn like Latin ones (see ``_LETTER_TWINS``) made Latin, preserving length.

    Most text holds none (``str.translate`` with a table would cost a lookup
    per character, many times more).
    """
    if text.isascii():
        return text
    # Only the non-ASCII characters are searched: dropping the ASCII bytes of the
    # encoded text is a C pass, the search over the few left cheap.
    rest = text.encode("utf-8", "surrogatepass").translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")
    if _LETTER_TWIN.search(rest) is None:
        return text
    return _LETTER_TWIN.sub(_twin, text)


_ASCII_BYTES = bytes(range(128))


class Projection:
    """Visible text plus, per piece, the source range it was read from.

    A piece is one-to-one (same length in both) or atomic (an entity or escape:
    any visible offset inside maps to the whole source range). Immutable once
    built.
    """

    __slots__ = ("text", "vis_starts", "src_starts", "src_ends", "_one_to_one")

    def __init__(self, text: str, vis_starts: list[int], src_starts: list[int], src_ends: list[int]) -> None:
        self.text = text
        self.vis_starts = vis_starts
        self.src_starts = src_starts
        self.src_ends = src_ends
        nxt = vis_starts[1:] + [len(text)]
        self._one_to_one = [n - v == e - s for v, n, s, e in zip(vis_starts, nxt, src_starts, src_ends)]

    def to_source(self, start: int, end: int) -> tuple[int, int]:
        """Map a visible span ``[start, end)`` to a source span."""
        starts = self.vis_starts
        if not starts:
            return 0, 0
        i = bisect_right(starts, start) - 1
        if i < 0:
            src_start = self.src_starts[0]
        elif self._one_to_one[i]:
            src_start = self.src_starts[i] + start - starts[i]
        else:
            src_start = self.src_starts[i]
        if end <= start:
            return src_start, src_start
        if i >= 0 and (i + 1 == len(starts) or end <= starts[i + 1]):
            j = i  # most spans lie within one piece: no second search
        else:
            j = bisect_right(starts, end - 1) - 1
        if j < 0:
            return src_start, self.src_starts[0]
        if self._one_to_one[j]:
            return src_start, self.src_starts[j] + end - starts[j]
        return src_start, self.src_ends[j]

    def to_visible(self, offset: int) -> int:
        """The visible offset of the source boundary ``offset``: the inverse of :meth:`to_source`.

        Pieces are read in source order, so a bisection finds the piece that
        holds ``offset``; a boundary inside an atomic piece (an entity) is its
        start, and one in hidden source after a piece (markup) is where the
        next piece starts.
        """
        starts = self.src_starts
        i = bisect_right(starts, offset) - 1
        while i > 0 and self.src_ends[i] == starts[i] == offset:
            i -= 1  # a break that stands for no source: the boundary is before it
        if i < 0:
            return 0
        end = self.src_ends[i]
        if self._one_to_one[i] and offset <= end:
            return self.vis_starts[i] + offset - starts[i]
        if offset < end:
            return self.vis_starts[i]  # inside an entity or escape: it shows as a whole
        return self.vis_starts[i + 1] if i + 1 < len(starts) else len(self.text)


class ProjectionBuilder:
    """Accumulates visible pieces in reading order."""

    __slots__ = ("_parts", "_vis", "_src", "_end", "_length", "soft_breaks")

    def __init__(self) -> None:
        self._parts: list[str] = []
        self._vis: list[int] = []
        self._src: list[int] = []
        self._end: list[int] = []
        self._length = 0
        self.soft_breaks: list[int] = []  # visible offsets of possible sentence ends that show nothing

    def add(self, visible: str, src_start: int, src_end: int) -> None:
        """Add ``visible``, read from source ``[src_start, src_end)``."""
        if visible:
            self._parts.append(visible)
            self._vis.append(self._length)
            self._src.append(src_start)
            self._end.append(src_end)
            self._length += len(visible)

    def add_break(self, char: str) -> None:
        """A visible separator that stands for no source text."""
        at = self._end[-1] if self._end else 0
        self.add(char, at, at)

    def add_soft_break(self) -> None:
        """A possible sentence end that shows nothing: the text on either side joins (see html.SOFT_BREAK)."""
        self.soft_breaks.append(self._length)

    @property
    def length(self) -> int:
        return self._length

    def build(self) -> Projection:
        return Projection("".join(self._parts), self._vis, self._src, self._end)


class IgnorableStrippingBuilder(ProjectionBuilder):
    """A builder that drops zero-width code points: they render as nothing.

    Used only when the source holds such characters (or entities for them),
    so ordinary text pays nothing.
    """

    __slots__ = ()

    def add(self, visible: str, src_start: int, src_end: int) -> None:
        if visible.isascii() or not _IGNORABLE.search(visible):
            super().add(visible, src_start, src_end)
        elif len(visible) != src_end - src_start:
            super().add(_IGNORABLE.sub("", visible), src_start, src_end)
        else:
            pos = 0
            for match in _IGNORABLE.finditer(visible):
                super().add(visible[pos : match.start()], src_start + pos, src_start + match.start())
                pos = match.end()
            super().add(visible[pos:], src_start + pos, src_end)


# Both kinds of character, BMP only, in one stdlib scan: a class without
# astral ranges is scanned fast (tests/test_unicode_tables.py checks the classes).
_CLEANED_IN_BMP = re.compile(f"[{_BMP_IGNORABLE}{_FOLDABLE_CLASS}]")


def needs_cleaning(text: str) -> bool:
    """Whether ``text`` may show zero-width or look-alike characters.

    Entities can produce any character, so any ``&`` counts. Ordinary text
    answers no and skips both the stripping builder and folding.
    """
    if "&" in text:
        return True
    if text.isascii():
        return False
    if _CLEANED_IN_BMP.search(text) is not None:
        return True
    # The astral default-ignorables (tag characters, musical formatting) only in
    # text holding a character outside the BMP: it takes two UTF-16 units.
    return len(text.encode("utf-16-le", "surrogatepass")) != 2 * len(text) and _IGNORABLE.search(text) is not None


def builder_for(cleaning: bool) -> ProjectionBuilder:
    """The cheapest builder that still reads the text as a reader sees it."""
    return IgnorableStrippingBuilder() if cleaning else ProjectionBuilder()


class Regions:
    """Visible ranges shown as code, inside raw HTML, and as link text, collected while reading."""

    __slots__ = ("code", "html", "links", "_html_start")

    def __init__(self) -> None:
        self.code: list[tuple[int, int]] = []
        self.html: list[tuple[int, int]] = []
        self.links: list[tuple[int, int]] = []
        self._html_start: int | None = None

    def enter_html(self, at: int) -> None:
        if self._html_start is None:
            self._html_start = at

    def leave_html(self, at: int) -> None:
        if self._html_start is not None:
            if at > self._html_start:
                self.html.append((self._html_start, at))
            self._html_start = None

    def add_html(self, start: int, end: int) -> None:
        if end > start:
            self.html.append((start, end))
