"""The committed JSON Schemas are exactly what the models generate."""

from __future__ import annotations

import json

import jsonschema
import pytest

from helpers import ROOT
from qcgrade.schema import SCHEMAS, dump


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_committed_schema_matches_model(name: str) -> None:
    committed = (ROOT / "schemas" / name).read_text(encoding="utf-8")
    assert committed == dump(SCHEMAS[name]()), f"schemas/{name} drifted: run `python -m qcgrade.schema`"


def test_slice_schema_rejects_what_the_model_rejects() -> None:
    schema = json.loads((ROOT / "schemas" / "evidence-slice.schema.json").read_text(encoding="utf-8"))
    good = {"section": "s1", "cards": [{"id": "E001", "stance": "bull"}]}
    jsonschema.validate(good, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"section": "s1", "cards": [{"id": "E001", "stance": "sideways"}]}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"cards": []}, schema)
