"""Near-miss slice field names are errors with a did-you-mean; other unknown names are ignored."""

from __future__ import annotations

import pytest

from qcgrade.evidence import SliceError, load_slice, near_miss

_CARDS = [{"id": "E001", "stance": "bull"}]


@pytest.mark.parametrize(
    ("key", "known", "want"),
    [
        ("card", ("cards", "metrics"), "cards"),
        ("CARDS", ("cards",), "cards"),
        ("tldr-min-bullets", ("tldr_min_bullets",), "tldr_min_bullets"),
        ("bullets_tldr_min", ("tldr_min_bullets",), "tldr_min_bullets"),
        ("tga", ("tag", "value", "unit"), "tag"),
        ("metric_ref", ("metric_refs", "claim"), "metric_refs"),
        ("notes", ("cards", "section", "title"), None),
        ("version", ("section", "purpose"), None),
        ("x_source", ("source",), None),
        ("x-title", ("title",), None),
        ("ix", ("id",), None),  # two letters: one edit is not a near miss
    ],
)
def test_near_miss(key: str, known: tuple[str, ...], want: str | None) -> None:
    assert near_miss(key, known) == want


def test_near_miss_inside_an_entry_names_its_place() -> None:
    data = {"section": "s", "cards": [*_CARDS, {"id": "E002", "stance": "bear", "satus": "weak"}]}
    with pytest.raises(SliceError, match=r"cards\[1\]\.satus: unknown field; did you mean 'status'"):
        load_slice(data)


def test_known_field_beside_its_near_miss_is_still_an_error() -> None:
    # "card" next to "cards" is more likely a half-finished rename than an extension.
    with pytest.raises(SliceError, match="did you mean 'cards'"):
        load_slice({"section": "s", "cards": _CARDS, "card": _CARDS})


def test_unrelated_unknown_fields_change_nothing() -> None:
    plain = load_slice({"section": "s", "cards": _CARDS})
    extra = load_slice({"section": "s", "cards": [{**_CARDS[0], "page": 4}], "notes": "n", "x_run": 7})
    assert extra == plain
