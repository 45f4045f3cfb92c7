"""The evidence slice model: strict on known fields, lenient on unknown ones."""

from __future__ import annotations

import json

import pytest

from qcgrade import SliceError, load_slice

BASE = {
    "section": "s3",
    "tldr_min_bullets": 2,
    "cards": [{"id": "E001", "stance": "bull", "status": "ok"}, {"id": "E002", "stance": "bear", "status": "weak"}],
    "metrics": [{"tag": "m_rev", "value": "1.2", "unit": "B USD"}],
    "xref": [{"id": "s5", "title": "Competitive landscape"}],
}


def with_(path: list, value: object) -> dict:
    data = json.loads(json.dumps(BASE))
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (with_(["cards", 1, "stance"], "sideways"), "cards[1].stance: Input should be 'bull' or 'bear'"),
        (with_(["cards", 0, "status"], "shaky"), "cards[0].status: Input should be 'ok' or 'weak'"),
        (with_(["tldr_min_bullets"], "2"), "tldr_min_bullets: Input should be a valid integer"),
        (with_(["tldr_min_bullets"], -1), "tldr_min_bullets: Input should be greater than or equal to 0"),
        (with_(["cards", 1, "id"], "E001"), "cards: duplicate card id 'E001'"),
        (with_(["metrics"], [{"tag": "m"}, {"tag": "m"}]), "metrics: duplicate metric tag 'm'"),
        (with_(["xref"], [{"id": "s5"}, {"id": "s5"}]), "xref: duplicate xref id 's5'"),
        ({k: v for k, v in BASE.items() if k != "section"}, "section: Field required"),
        (with_(["cards", 0, "id"], "001"), "cards[0].id: String should match pattern"),
        (with_(["cards"], {"id": "E001"}), "cards: Input should be a valid"),
    ],
)
def test_invalid_slices_name_the_field(data: dict, message: str) -> None:
    with pytest.raises(SliceError) as info:
        load_slice(data)
    assert str(info.value).startswith(message), str(info.value)
    assert "\n" not in str(info.value)


def test_unknown_fields_are_ignored() -> None:
    data = with_(["producer"], "pipeline v9")
    data["cards"][0]["confidence"] = 0.9
    model = load_slice(data)
    assert model.card_ids == {"E001", "E002"}


def test_dict_json_and_model_give_the_same_slice() -> None:
    from_dict = load_slice(BASE)
    from_json = load_slice(json.dumps(BASE))
    assert from_dict == from_json == load_slice(from_dict)
    # The equal values are the slice itself (equal Nones would pass the line above).
    assert from_dict.section == "s3" and from_dict.card_ids == {"E001", "E002"}


def test_a_repeated_slice_is_validated_once() -> None:
    first = load_slice(json.dumps(BASE, sort_keys=True))
    again = load_slice(json.dumps(BASE, sort_keys=True))
    assert first is again
    assert load_slice(dict(BASE)) is load_slice(dict(BASE))


def test_invalid_json_is_a_slice_error() -> None:
    with pytest.raises(SliceError, match="invalid JSON"):
        load_slice("{not json")
    with pytest.raises(SliceError, match="expected a JSON object"):
        load_slice("[1, 2]")


@pytest.mark.parametrize("text", ["[" * 100_000, '{"section": "s", "x": ' + "[" * 100_000 + "]" * 100_000 + "}", "1" * 5000])
def test_hostile_json_is_a_slice_error(text: str) -> None:
    with pytest.raises(SliceError):
        load_slice(text)
