"""The injection record, and ``revert``: undo an injection byte for byte.

A record says exactly what one injection changed: the defect and seed, the
edit's offsets in the original and in the injected text, the text it
replaced and the text it put there, where the defect sits (``target_spans``,
in the injected text), the check that should fire, and a SHA-256 of both
texts. That is enough to store an audit and replay it, and for ``revert`` to
refuse a text that was edited since, instead of corrupting it.

Offsets count Unicode code points (Python string indexes), end exclusive.
The JSON schema is ``schemas/injection-record.schema.json``, generated from
:class:`InjectionRecord` by :func:`record_schema`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    ValidationError,
    model_validator,
)

from ..errors import RecordError, RevertError
from ..evidence import describe_validation_error
from .catalog import EXTENDED_DEFECTS, EXTRA_INJECTORS, INJECTORS

# The class and check names are the catalogue's (the record's JSON schema lists
# them as enums), so an injector added there is known here too. Type checkers
# cannot read a Literal built at run time; for them the names are plain str.
if TYPE_CHECKING:
    DefectName = str
    CheckName = str
else:
    DefectName = Literal[EXTENDED_DEFECTS]
    CheckName = Literal[tuple(i.expected_check for i in INJECTORS if i.expected_check is not None)]

#: The check each defect class should trip (None: QC-invisible).
EXPECTED_CHECK: dict[str, str | None] = {i.name: i.expected_check for i in (*INJECTORS, *EXTRA_INJECTORS)}

_SHA256 = r"^[0-9a-f]{64}$"


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class InjectionRecord(BaseModel):
    """What one injection changed, exactly enough to replay or undo it."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, title="qcgrade injection record")

    version: Literal[1] = Field(default=1, description="Record format version.")
    defect: DefectName = Field(description="The injected defect class.")
    seed: int = Field(description="The seed that chose the place and the variant.")
    expected_check: CheckName | None = Field(description="The tier-1 check that should fire; null for a QC-invisible class.")
    slice_section: str = Field(description="The `section` field of the evidence slice used.")
    original_start: NonNegativeInt = Field(description="Start of the edit in the original text.")
    original_end: NonNegativeInt = Field(description="End (exclusive) of the edit in the original text.")
    injected_start: NonNegativeInt = Field(description="Start of the edit in the injected text.")
    injected_end: NonNegativeInt = Field(description="End (exclusive) of the edit in the injected text.")
    original_text: str = Field(description="original[original_start:original_end], what the edit replaced.")
    replacement_text: str = Field(description="injected[injected_start:injected_end], what the edit put there.")
    target_spans: tuple[tuple[NonNegativeInt, NonNegativeInt], ...] = Field(
        description="Where the defect sits in the injected text: the [start, end) spans a perfect grader would flag."
    )
    original_sha256: str = Field(pattern=_SHA256, description="SHA-256 of the original text (UTF-8).")
    injected_sha256: str = Field(pattern=_SHA256, description="SHA-256 of the injected text (UTF-8).")

    @model_validator(mode="after")
    def _consistent(self) -> InjectionRecord:
        if self.original_end - self.original_start != len(self.original_text):
            raise ValueError("original_end - original_start must equal the length of original_text")
        if self.injected_end - self.injected_start != len(self.replacement_text):
            raise ValueError("injected_end - injected_start must equal the length of replacement_text")
        if self.injected_start != self.original_start:
            raise ValueError("injected_start must equal original_start (one edit)")
        if EXPECTED_CHECK[self.defect] != self.expected_check:
            raise ValueError(f"expected_check must be {EXPECTED_CHECK[self.defect]!r} for defect {self.defect!r}")
        for start, end in self.target_spans:
            if end < start:
                raise ValueError(f"target span [{start}, {end}) ends before it starts")
        return self

    def to_json(self) -> str:
        """Sorted keys, two-space indent, trailing newline: same record, same bytes."""
        return json.dumps(self.model_dump(mode="json"), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def load_record(data: InjectionRecord | Mapping[str, Any] | str | bytes) -> InjectionRecord:
    """A validated record from a model, a mapping or JSON text; :class:`RecordError` if invalid."""
    if isinstance(data, InjectionRecord):
        return data
    try:
        if isinstance(data, (str, bytes)):
            return InjectionRecord.model_validate_json(data)
        if isinstance(data, Mapping):
            # JSON mode lets arrays stand for tuples while keeping strict scalars.
            return InjectionRecord.model_validate_json(json.dumps(dict(data), ensure_ascii=False))
    except ValidationError as exc:
        raise RecordError(f"invalid injection record: {describe_validation_error(exc)}") from None
    except (TypeError, ValueError) as exc:
        raise RecordError(f"invalid injection record: {exc}") from None
    raise RecordError(f"expected an injection record as dict, JSON text or InjectionRecord, got {type(data).__name__}")


def revert(text: str, record: InjectionRecord | Mapping[str, Any] | str | bytes) -> str:
    """The original text, byte for byte; :class:`RevertError` if ``text`` was edited since.

    The text must still hold the replacement at the recorded place and be
    exactly the injected text (its SHA-256), so a file edited after the
    injection is refused rather than half-reverted.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be str, got {type(text).__name__}")
    rec = load_record(record)
    found = text[rec.injected_start : rec.injected_end]
    if found != rec.replacement_text:
        raise RevertError(
            f"text was edited since injection: expected {_short(rec.replacement_text)} "
            f"at offset {rec.injected_start}, found {_short(found)}"
        )
    if sha256(text) != rec.injected_sha256:
        raise RevertError(
            f"text was edited since injection: {_short(rec.replacement_text)} is still at offset "
            f"{rec.injected_start} but the rest of the text differs (SHA-256 mismatch)"
        )
    original = text[: rec.injected_start] + rec.original_text + text[rec.injected_end :]
    if sha256(original) != rec.original_sha256:
        raise RevertError("record is inconsistent: undoing its edit does not give the original text (SHA-256 mismatch)")
    return original


def _short(value: str, limit: int = 60) -> str:
    shown = value if len(value) <= limit else value[: limit - 3] + "..."
    return repr(shown)


def record_schema() -> dict[str, Any]:
    """The JSON schema of :class:`InjectionRecord`, as committed in ``schemas/``."""
    schema = InjectionRecord.model_json_schema()
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
