"""JSON Schemas of qcgrade's file formats, generated from the pydantic models.

``python -m qcgrade.schema`` rewrites the committed files under ``schemas/``;
a test fails when they drift from the models.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .evidence import EvidenceSlice

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def evidence_slice_schema() -> dict[str, Any]:
    schema = EvidenceSlice.model_json_schema(mode="validation")
    return {"$schema": SCHEMA_DIALECT, "$id": "https://qcgrade.dev/schemas/evidence-slice.schema.json", **schema}


def dump(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def audit_items_schema() -> dict[str, Any]:
    from .auditing.item_file import items_schema

    return items_schema()


SCHEMAS = {"evidence-slice.schema.json": evidence_slice_schema, "audit-items.schema.json": audit_items_schema}


def main(argv: list[str]) -> int:
    target = Path(argv[0]) if argv else Path("schemas")
    target.mkdir(parents=True, exist_ok=True)
    for name, build in SCHEMAS.items():
        (target / name).write_text(dump(build()), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
