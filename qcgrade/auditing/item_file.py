"""A frozen item set: the audit's ground truth as a JSONL file (``qcgrade items``).

Two judges, or one judge before and after a prompt change, are comparable
only on the same items. ``qcgrade items CORPUS --seeds 5 -o items.jsonl``
writes them; ``qcgrade audit --items items.jsonl --judge ...`` replays
exactly those items (no corpus is read, nothing is injected again).

The first line is a header (``qcgrade_items``: the format version, the
defect classes, seeds, section count and what was left out); every other line
is one item: ``id``, ``source``, ``class``, ``seed``, ``label`` (``pass`` for
a clean section, ``fail`` for an injected one), ``visible``,
``expected_check``, ``section`` (the text the judge sees), ``slice``, ``span``
(where the defect sits) and ``record`` (the injection record, null for clean
items). ``schemas/audit-items.schema.json`` describes both kinds of line.

Loading checks every item, so a tampered file is refused with one line naming
the file, the line and the problem: the record must revert the section to
its original text, which must pass the grader (and be the same original for
every item of a section); a QC-visible defect must still trip its check; a
clean item must pass; labels, classes, seeds and spans must agree with the
record. The injectors are not run again, so a file frozen by one qcgrade
version replays under the next.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import InputError, QcgradeError, RecordError, SliceError
from ..evidence import describe_validation_error, load_slice
from ..files import parse_json_line, read_bytes
from ..grader import grade
from ..injectors.record import InjectionRecord, revert, sha256
from .items import CLEAN, AuditItem, ItemSet
from .report import Inapplicable, Skipped

FORMAT = 1


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class SkippedLine(_Strict):
    id: str
    reason: str
    checks: list[str] = Field(default_factory=list)


class InapplicableLine(_Strict):
    id: str
    class_: str = Field(alias="class")
    seed: int
    reason: str


class Header(_Strict):
    """The first line: what the item set holds and what was left out when it was built."""

    model_config = ConfigDict(title="qcgrade audit item set header")

    qcgrade_items: Literal[1] = Field(description="Item file format version.")
    defects: list[str] = Field(description="The defect classes, in canonical order.")
    seeds: list[int] = Field(description="The injection seeds.")
    sections: int = Field(ge=0, description="Corpus sections that passed the grader.")
    skipped: list[SkippedLine] = Field(description="Sections left out (they fail the grader, or their slice is bad).")
    not_applicable: list[InapplicableLine] = Field(description="Injections that had no place in their section.")


class ItemLine(_Strict):
    """One item: what the judge sees, the known answer, and how the defect got there."""

    model_config = ConfigDict(title="qcgrade audit item")

    id: str = Field(description="SOURCE#CLASS@SEED.")
    source: str = Field(description="The corpus section the item comes from.")
    class_: str = Field(alias="class", description="'clean' or the injected defect class.")
    seed: int
    label: Literal["pass", "fail"] = Field(description="The true verdict: pass for clean items, fail for injected ones.")
    visible: bool | None = Field(description="Whether the deterministic grader is meant to see the defect (null: clean).")
    expected_check: str | None = Field(description="The tier-1 check the defect trips (null: clean or QC-invisible).")
    section: str = Field(description="The section text the judge is shown.")
    slice: dict[str, Any] = Field(description="The evidence slice.")
    span: list[tuple[int, int]] = Field(description="Where the defect sits in `section` ([start, end) offsets).")
    record: InjectionRecord | None = Field(description="The injection record (null for clean items).")


_LINE: TypeAdapter[Header | ItemLine] = TypeAdapter(Header | ItemLine)


def items_schema() -> dict[str, Any]:
    """The JSON schema of one line of an item file, as committed in ``schemas/``."""
    schema = _LINE.json_schema(by_alias=True)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://qcgrade.dev/schemas/audit-items.schema.json",
        "title": "qcgrade audit item file line (JSONL: one header line, then one item per line)",
        **schema,
    }


def _line(value: dict[str, Any]) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"


def dump_items(item_set: ItemSet, seeds: Iterable[int]) -> str:
    """The item set as JSONL text: same items, same bytes."""
    header = {
        "defects": list(item_set.defects),
        "not_applicable": [x.to_dict() for x in item_set.not_applicable],
        "qcgrade_items": FORMAT,
        "sections": item_set.sections,
        "seeds": list(seeds),
        "skipped": [s.to_dict() for s in item_set.skipped],
    }
    out = [_line(header)]
    for item in item_set.items:
        if item.injected and item.record is None:
            raise ValueError(f"item {item.id} has no injection record; build items with build_items()")
        out.append(
            _line(
                {
                    "class": item.kind,
                    "expected_check": item.expected_check,
                    "id": item.id,
                    "label": "fail" if item.injected else "pass",
                    "record": None if item.record is None else item.record.model_dump(mode="json"),
                    "section": item.text,
                    "seed": item.seed,
                    "slice": item.slice,
                    "source": item.source,
                    "span": [list(s) for s in item.targets],
                    "visible": item.visible,
                }
            )
        )
    return "".join(out)


class _Checker:
    """Re-checks items against their records; originals are graded once per section."""

    def __init__(self) -> None:
        self.originals: dict[str, str] = {}  # source -> sha256 of the clean text
        self.graded: dict[tuple[str, str], bool] = {}

    def _passes(self, text: str, slice_: dict[str, Any]) -> bool:
        key = (sha256(text), json.dumps(slice_, sort_keys=True))
        if key not in self.graded:
            self.graded[key] = grade(text, slice_).passed
        return self.graded[key]

    def _same_original(self, line: ItemLine, digest: str) -> None:
        seen = self.originals.setdefault(line.source, digest)
        if seen != digest:
            raise ValueError(f"item {line.id}: its original text differs from that of other items of {line.source}")

    def check(self, line: ItemLine) -> None:
        try:
            load_slice(line.slice)
        except SliceError as exc:
            raise ValueError(f"item {line.id}: bad slice: {exc}") from None
        if line.class_ == CLEAN:
            if line.label != "pass" or line.record is not None or line.span or line.visible is not None:
                raise ValueError(f"item {line.id}: a clean item has label pass, no record, no span and visible null")
            if line.expected_check is not None:
                raise ValueError(f"item {line.id}: a clean item has no expected_check")
            if not self._passes(line.section, line.slice):
                raise ValueError(f"item {line.id}: the clean section fails the grader")
            self._same_original(line, sha256(line.section))
            return
        record = line.record
        if record is None:
            raise ValueError(f"item {line.id}: an injected item needs its injection record")
        if line.label != "fail":
            raise ValueError(f"item {line.id}: an injected item has label fail, not {line.label}")
        agree = (
            record.defect == line.class_
            and record.seed == line.seed
            and record.expected_check == line.expected_check
            and line.visible == (record.expected_check is not None)
            and tuple(tuple(s) for s in line.span) == record.target_spans
            and record.slice_section == line.slice.get("section")
        )
        if not agree:
            fields = "class, seed, expected_check, visible, span or slice section"
            raise ValueError(f"item {line.id}: {fields} disagree with the record")
        try:
            original = revert(line.section, record)
        except (RecordError, ValueError) as exc:
            raise ValueError(f"item {line.id}: the record does not revert the section: {exc}") from None
        if not self._passes(original, line.slice):
            raise ValueError(f"item {line.id}: the reverted section fails the grader, so it was no clean section")
        self._same_original(line, record.original_sha256)
        if record.expected_check is not None:
            checks = {f.check for f in grade(line.section, line.slice).findings}
            if record.expected_check not in checks:
                raise ValueError(f"item {line.id}: the injected {line.class_} no longer trips {record.expected_check}")


def _item(line: ItemLine) -> AuditItem:
    return AuditItem(
        id=line.id,
        source=line.source,
        kind=line.class_,
        seed=line.seed,
        text=line.section,
        slice=line.slice,
        visible=line.visible,
        expected_check=line.expected_check,
        targets=tuple((int(s), int(e)) for s, e in line.span),
        record=line.record,
    )


def parse_items(text: str, name: str) -> ItemSet:
    """An :class:`ItemSet` from item-file text; :class:`InputError` ``NAME:LINE: problem`` otherwise."""
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise InputError(f"{name}: empty item file; write one with qcgrade items CORPUS -o {name}")
    header: Header | None = None
    items: list[AuditItem] = []
    ids: set[str] = set()
    checker = _Checker()
    for number, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            value = parse_json_line(raw)
            if not isinstance(value, dict):
                raise ValueError(f"expected a JSON object, got {type(value).__name__}")
            if number == 1:
                if "qcgrade_items" not in value:
                    raise ValueError("the first line must be the header (qcgrade_items, defects, seeds, ...)")
                header = Header.model_validate_json(raw)
                continue
            line = ItemLine.model_validate_json(raw)
            if line.id in ids:
                raise ValueError(f"item {line.id} appears twice")
            if header is not None and line.class_ != CLEAN and line.class_ not in header.defects:
                raise ValueError(f"item {line.id}: class {line.class_} is not among the header's defects")
            ids.add(line.id)
            checker.check(line)
        except ValidationError as exc:
            raise InputError(f"{name}:{number}: {describe_validation_error(exc)}") from None
        except (ValueError, QcgradeError) as exc:
            raise InputError(f"{name}:{number}: {exc}") from None
        items.append(_item(line))
    assert header is not None  # line 1 is the header or an error was raised
    if not items:
        raise InputError(f"{name}: no items after the header")
    return ItemSet(
        items=tuple(items),
        sections=header.sections,
        skipped=tuple(Skipped(s.id, s.reason, tuple(s.checks)) for s in header.skipped),
        not_applicable=tuple(Inapplicable(x.id, x.class_, x.seed, x.reason) for x in header.not_applicable),
        defects=tuple(header.defects),
    )


def load_items(path: str | Path) -> ItemSet:
    """The item set frozen at ``path`` (checked line by line, see the module docstring)."""
    file = Path(path)
    raw = read_bytes(file)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}: not UTF-8 (byte {exc.start})") from None
    return parse_items(text, str(file))
