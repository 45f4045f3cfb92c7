"""Text a browser draws from HTML attributes and CSS, not from element content.

The lopsided HTML rule (see :mod:`qcgrade.reading.html`) counts every piece
of text inside HTML as shown for numerals. These are the places a browser
draws text that is not element content, so the grader reads them as shown
text too (inside HTML: they can never vouch, but their numbers count):

- form controls: ``<input value|placeholder>``, ``<option label>``;
- list numbers: ``<ol start>``, ``<li value>`` (the browser draws them), and
  CSS counters set in a ``style`` attribute (``counter-reset: list-item 41``);
- embedded documents: ``<iframe srcdoc>``, and ``data:`` URLs of text, HTML
  or SVG in ``src`` or ``data`` (their text, tags dropped);
- CSS: strings in ``content:`` declarations of a ``<style>`` element, and the
  values of the attributes that ``content: attr(name)`` draws; the numbers of
  its counter declarations (``counter-reset: list-item 41`` renumbers every
  list, ``content: counter(n)`` draws ``n``); the same for a stylesheet
  ``<link>`` whose ``href`` is a ``data:`` URL of CSS;
- an image whose source cannot be an image (none, or a ``data:`` URL of
  another type, ``src="data:,"``) breaks, and the browser draws its ``alt``.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from collections.abc import Callable
from urllib.parse import unquote

_ATTRIBUTE = re.compile(r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?""")
# Attributes whose value the browser draws as text, by element.
_DRAWN = {
    "input": ("value", "placeholder"),
    "textarea": ("placeholder",),
    "option": ("label",),
    "ol": ("start",),
    "li": ("value",),
    "iframe": ("srcdoc", "src"),
    "object": ("data",),
    "embed": ("src",),
    "img": ("src",),
    "link": ("href",),
}
_DOCUMENT_ATTRIBUTES = frozenset({"srcdoc", "src", "data"})
_TAG = re.compile(r"<[^>]*>")
_DATA_URL = re.compile(r"data:([^,]{0,200}),", re.IGNORECASE)
_COUNTER = re.compile(r"counter-(?:reset|set|increment)\s*:([^;]*)", re.IGNORECASE)
_COUNTER_NUMBER = re.compile(r"[+-]?\d+")
_CSS_CONTENT = re.compile(r"content\s*:([^;}]*)", re.IGNORECASE)
_CSS_STRING = re.compile(r""""([^"\\]*(?:\\.[^"\\]*)*)"|'([^'\\]*(?:\\.[^'\\]*)*)'""")
_CSS_ATTR = re.compile(r"attr\(\s*([\w-]+)", re.IGNORECASE)

#: A drawn piece: the text shown, and its start and end in the tag's attribute string.
Drawn = tuple[str, int, int]


def drawn_attributes(name: str, attributes: str, css_attributes: frozenset[str]) -> list[Drawn]:
    """What the browser draws from the attributes of one start tag ``<name attributes>``."""
    name = name.lower()
    wanted = _DRAWN.get(name, ())
    lowered = attributes.lower()
    if not wanted and not css_attributes and "counter" not in lowered:
        return []
    drawn: list[Drawn] = []
    for match in _ATTRIBUTE.finditer(attributes):
        index = next((i for i in (2, 3, 4) if match.group(i) is not None), 0)
        if index:
            attribute = match.group(1).lower()
            shown = _shown(name, attribute, html.unescape(match.group(index)), attributes, wanted, css_attributes)
            drawn.extend((text, *match.span(index)) for text in shown)
    return drawn


def _shown(name: str, attribute: str, value: str, attributes: str, wanted: tuple[str, ...], css: frozenset[str]) -> list[str]:
    """What one attribute's ``value`` draws: counters of a style, a stylesheet's text, an alt text, a drawn value."""
    special = _SPECIAL.get(attribute)
    drawn = special(name, value, attributes) if special is not None else None
    if drawn is not None:
        return drawn
    if attribute not in css and attribute not in wanted:
        return []
    if attribute in ("start", "value") and name in ("ol", "li") and value.strip() in ("0", "1"):
        return []  # an ordinary list counts from 1
    shown = _document_text(value) if attribute in _DOCUMENT_ATTRIBUTES else value
    return [shown] if shown is not None and shown.strip() else []


def _counters(name: str, value: str, attributes: str) -> list[str] | None:
    """A style's counter declarations draw their numbers."""
    return [n.group() for c in _COUNTER.finditer(value) for n in _COUNTER_NUMBER.finditer(c.group(1))]


def _stylesheet(name: str, value: str, attributes: str) -> list[str] | None:
    """A stylesheet link's href draws what its CSS draws; any other href is an ordinary attribute (None)."""
    return _stylesheet_text(value) if name == "link" and "stylesheet" in attributes.lower() else None


def _alt(name: str, value: str, attributes: str) -> list[str] | None:
    """An image with no source shows its alt text; any other alt is an ordinary attribute (None)."""
    return [value] if name == "img" and not _has_source(attributes) else None


_SPECIAL: dict[str, Callable[[str, str, str], list[str] | None]] = {"style": _counters, "href": _stylesheet, "alt": _alt}


_SOURCE = re.compile(r"""(?:^|\s)src\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))""", re.IGNORECASE)


def _has_source(attributes: str) -> bool:
    """Whether the image has a source that may be an image (a data: URL must say image/...)."""
    match = _SOURCE.search(attributes)
    if match is None:
        return False
    value = html.unescape(next(g for g in match.groups() if g is not None)).strip()
    if not value:
        return False
    header = _DATA_URL.match(value)
    if value.lower().startswith("data:"):
        return header is not None and header.group(1).lower().startswith("image/")
    return True


def _stylesheet_text(value: str) -> list[str]:
    """What the CSS of a stylesheet link's ``data:`` URL draws (nothing for a plain URL)."""
    read = _data_url(value)
    if read is None or read[0].split(";")[0] != "text/css":
        return []
    return [text for text, _, _ in css_drawn(read[1])[0]]


def _document_text(value: str) -> str | None:
    """The text of an embedded document (srcdoc, or a data: URL); None for a plain URL."""
    if not value.lower().startswith("data:"):
        return _strip_tags(value) if "<" in value else None
    read = _data_url(value)
    if read is None or read[0].split(";")[0] not in ("", "text/plain", "text/html", "image/svg+xml", "application/xhtml+xml"):
        return None  # an image or other binary: no text a reader reads
    return _strip_tags(read[1])


def _data_url(value: str) -> tuple[str, str] | None:
    """A ``data:`` URL's media type (lower case) and its decoded body; None when it is none or cannot be decoded."""
    header = _DATA_URL.match(value)
    if header is None:
        return None
    media, body = header.group(1).lower(), value[header.end() :]
    if not media.endswith(";base64"):
        return media, unquote(body)
    try:
        return media, base64.b64decode(unquote(body), validate=False).decode("utf-8", "replace")
    except (binascii.Error, ValueError):
        return None


def _strip_tags(document: str) -> str:
    return html.unescape(_TAG.sub(" ", document))


def css_drawn(css: str) -> tuple[list[tuple[str, int, int]], set[str]]:
    """What CSS draws: ``content:`` strings and counter numbers as ``(text, start, end)``; the ``attr()`` names."""
    strings: list[tuple[str, int, int]] = []
    attributes: set[str] = set()
    for declaration in _CSS_CONTENT.finditer(css):
        for string in _CSS_STRING.finditer(css, declaration.start(1), declaration.end(1)):
            text = string.group(1) if string.group(1) is not None else string.group(2)
            if text.strip():
                strings.append((text, string.start(), string.end()))
        attributes.update(a.group(1).lower() for a in _CSS_ATTR.finditer(css, declaration.start(1), declaration.end(1)))
    for counter in _COUNTER.finditer(css):
        for number in _COUNTER_NUMBER.finditer(css, counter.start(1), counter.end(1)):
            strings.append((number.group(), number.start(), number.end()))
    strings.sort(key=lambda item: item[1])
    return strings, attributes


_REVERSED = re.compile(r"(?:^|\s)reversed(?=\s|=|$)", re.IGNORECASE)
_START_ATTRIBUTE = re.compile(r"(?:^|\s)start\s*=", re.IGNORECASE)
_LIST_ITEM_OR_LIST = re.compile(r"<(/?)(li|ol)(?=[\s/>])", re.IGNORECASE)


def reversed_count(attributes: str, html_text: str, after: int) -> Drawn | None:
    """What ``<ol reversed>`` without ``start`` draws at its first item: its item count.

    The items are counted up to the next ``<ol`` or ``</ol`` (a nested list's
    items are not counted, so each scan stops where the next one starts: the
    whole text is scanned once, however lists nest). The drawn number is
    mapped to the ``reversed`` attribute.
    """
    mark = _REVERSED.search(attributes)
    if mark is None or _START_ATTRIBUTE.search(attributes):
        return None
    count = 0
    for tag in _LIST_ITEM_OR_LIST.finditer(html_text, after):
        if tag.group(2).lower() == "ol":
            break
        count += tag.group(1) == ""
    if count <= 1:
        return None  # one item: it is numbered 1, as an ordinary list's first
    start = mark.start() + (mark.group()[0].isspace())
    return (str(count), start, start + len("reversed"))
