"""The evidence slice (paper, appendix A): the closed world a section may cite.

Known fields are validated strictly; unknown extra fields are ignored so slices
produced by newer pipelines still load, except a near miss of a known field
name, which is a typo that would silently change the verdict (see
:func:`near_miss`). Duplicate card ids, metric tags and cross-reference ids
are rejected because they make a citation ambiguous.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from functools import cached_property
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, ValidationError, field_validator

from .errors import SliceError


class _Strict(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True, strict=True)


class Card(_Strict):
    """One evidence card: a claim, its verbatim quote and where it came from."""

    id: StrictStr = Field(pattern=r"^[^\W\d_]+[-_]?\d+$", description="Citation id, letters then digits, e.g. E001.")
    stance: Literal["bull", "bear"]
    status: Literal["ok", "weak"] = "ok"
    claim: StrictStr = ""
    quote: StrictStr = ""
    source: StrictStr = ""
    metric_refs: tuple[StrictStr, ...] = ()


class Metric(_Strict):
    """A registered metric value that a section may reference as ``{tag}``."""

    tag: StrictStr = Field(pattern=r"^[^\W\d][\w.-]*$", description="Metric tag, e.g. m_rev.")
    value: StrictStr | float | StrictInt = ""
    unit: StrictStr = ""


class Xref(_Strict):
    """A section the composed text may point to as ``§id``."""

    id: StrictStr = Field(pattern=r"^\w[\w.-]*$")
    title: StrictStr = ""


class EvidenceSlice(_Strict):
    """A frozen evidence slice: brief, cards, metrics and allowed cross-references."""

    section: StrictStr
    title: StrictStr = ""
    purpose: StrictStr = ""
    tldr_min_bullets: StrictInt = Field(default=0, ge=0, description="TL;DR bullets required; 0 (or absent) asks for no TL;DR.")
    cards: tuple[Card, ...] = ()
    metrics: tuple[Metric, ...] = ()
    xref: tuple[Xref, ...] = ()

    @field_validator("cards")
    @classmethod
    def _unique_cards(cls, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        _reject_duplicates([c.id for c in cards], "card id")
        return cards

    @field_validator("metrics")
    @classmethod
    def _unique_metrics(cls, metrics: tuple[Metric, ...]) -> tuple[Metric, ...]:
        _reject_duplicates([m.tag for m in metrics], "metric tag")
        return metrics

    @field_validator("xref")
    @classmethod
    def _unique_xrefs(cls, xrefs: tuple[Xref, ...]) -> tuple[Xref, ...]:
        _reject_duplicates([x.id for x in xrefs], "xref id")
        return xrefs

    # Computed once per slice: reward loops grade many sections per slice.
    @cached_property
    def card_ids(self) -> frozenset[str]:
        return frozenset(c.id for c in self.cards)

    @cached_property
    def metric_tags(self) -> frozenset[str]:
        return frozenset(m.tag for m in self.metrics)

    @cached_property
    def xref_ids(self) -> frozenset[str]:
        return frozenset(x.id for x in self.xref)

    def card(self, card_id: str) -> Card | None:
        for card in self.cards:
            if card.id == card_id:
                return card
        return None


#: A slice in any form qcgrade accepts: the model, a dict, or JSON text (str or bytes).
SliceLike = EvidenceSlice | dict[str, Any] | str | bytes


def _reject_duplicates(values: list[str], what: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise ValueError(f"duplicate {what} {value!r}")
        seen.add(value)


def json_error_text(exc: json.JSONDecodeError, *, line: bool = True) -> str:
    """``Unterminated string starting at line 1 column 29`` from a decode error.

    Some of the standard library's messages already end in "at" ("Unterminated
    string starting at", "Invalid control character at"): drop it so the
    position reads once. ``line=False`` for one-line inputs gives the column only.
    """
    message = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg
    where = f"line {exc.lineno} column {exc.colno}" if line else f"column {exc.colno}"
    return f"{message} at {where}"


def describe_validation_error(error: ValidationError) -> str:
    """The first error as ``cards[1].stance: Input should be 'bull' or 'bear'``."""
    first = error.errors(include_url=False)[0]
    where = ""
    for part in first["loc"]:
        if isinstance(part, int):
            where += f"[{part}]"
        else:
            where += ("." if where else "") + str(part)
    message = first["msg"]
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    more = error.error_count() - 1
    suffix = f" (and {more} more problem{'s' if more > 1 else ''})" if more else ""
    return f"{where or '<root>'}: {message}{suffix}"


_CACHE_SIZE = 256
_cache: OrderedDict[str, EvidenceSlice] = OrderedDict()


def load_slice(data: SliceLike) -> EvidenceSlice:
    """Validate a slice given as a model, a dict or JSON text.

    A slice already seen (same content) is not validated again: reward loops
    grade thousands of completions against the same few slices.
    """
    if isinstance(data, EvidenceSlice):
        return data
    if isinstance(data, (str, bytes)):
        raw = data.encode("utf-8") if isinstance(data, str) else data
        key = "j" + hashlib.blake2b(raw, digest_size=16).hexdigest()
        cached = _cache.get(key)
        if cached is not None:
            return cached
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise SliceError(f"invalid JSON: {json_error_text(exc)}") from None
        except UnicodeDecodeError:
            raise SliceError("not UTF-8 text") from None
        except RecursionError:
            raise SliceError("invalid JSON: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer too long to convert
            raise SliceError(f"invalid JSON: {exc}") from None
        model = _validate(parsed)
    elif isinstance(data, dict):
        try:
            raw = json.dumps(data, sort_keys=True, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError, RecursionError) as exc:
            raise SliceError(f"slice is not JSON-serialisable: {exc}") from None
        key = "d" + hashlib.blake2b(raw, digest_size=16).hexdigest()
        cached = _cache.get(key)
        if cached is not None:
            return cached
        model = _validate(data)
    else:
        raise SliceError(f"expected a slice as dict, JSON text or EvidenceSlice, got {type(data).__name__}")
    _cache[key] = model
    if len(_cache) > _CACHE_SIZE:
        _cache.popitem(last=False)
    return model


def _validate(parsed: Any) -> EvidenceSlice:
    if not isinstance(parsed, dict):
        raise SliceError(f"<root>: expected a JSON object, got {type(parsed).__name__}")
    check_field_names(parsed, _TOP_FIELDS, _ENTRY_FIELDS)
    try:
        # JSON mode lets arrays stand for tuples while keeping strict scalars.
        return EvidenceSlice.model_validate_json(json.dumps(parsed, ensure_ascii=False))
    except ValidationError as exc:
        raise SliceError(describe_validation_error(exc)) from None
    except (RecursionError, ValueError) as exc:
        raise SliceError(f"<root>: cannot be read as a slice: {type(exc).__name__}") from None


#: Nesting deeper than any valid slice; anything deeper is left for validation to reject.
_MAX_DEPTH = 8


def slice_from_value(value: Any) -> EvidenceSlice:
    """A validated slice from a dataset value: a dict, JSON text, an EvidenceSlice, or Arrow/numpy data.

    For the trainer adapters and the Ray grader, whose slices come out of
    dataset columns. The common case costs one :func:`load_slice` call (a
    cache hit for a slice seen before). Only a dict that fails validation is
    cleaned and tried again: Arrow-backed datasets (Hugging Face ``datasets``,
    parquet, Ray Data) give every row of a struct column every field seen in
    any row, filling the missing ones with ``None``, and may hand lists over
    as numpy arrays. A ``None`` field is dropped, so the field's default
    applies. Raises :class:`SliceError`.
    """
    if value is None:
        raise SliceError("no slice")
    if isinstance(value, (EvidenceSlice, str, bytes, dict)):
        try:
            return load_slice(value)
        except SliceError:
            if not isinstance(value, dict):
                raise
            # Slow path, taken only by a dict that failed: the retry's error,
            # if any, describes the data as it will be graded.
            return load_slice(_plain(value, 0))
    cleaned = _plain(value, 0)
    if isinstance(cleaned, dict):
        return load_slice(cleaned)
    raise SliceError(f"expected a slice as dict, JSON text or EvidenceSlice, got {type(value).__name__}")


def _plain(value: Any, depth: int) -> Any:
    """Plain JSON-like data: mappings without ``None`` values, sequences as lists."""
    if depth > _MAX_DEPTH:
        return value
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    if hasattr(value, "items") and callable(value.items):
        return {str(k): _plain(v, depth + 1) for k, v in value.items() if v is not None}
    if isinstance(value, (list, tuple)):
        return [_plain(v, depth + 1) for v in value]
    return value


# Near-miss field names
#
# Unknown slice fields are ignored, so slices from newer pipelines still load.
# But a *near miss* of a known field is almost always a typo, and a typo is
# silent: ``card`` for ``cards`` turns every citation into an orphan, and
# ``tldr_min_bullet`` for ``tldr_min_bullets`` switches the TL;DR check off.
# Such a key is an error with a did-you-mean; any other unknown key is ignored.
#
# A key is a near miss of a known field of its level (the slice, a card, a
# metric or an xref entry) when, compared case-folded with ``-`` read as
# ``_``, it is
#
# - the same name (``Cards``, ``tldr-min-bullets``);
# - the same words in another order (``tldr_bullets_min``);
# - one edit away, a swap of neighbours counting as one edit
#   (``crads``, ``statu``, ``tga``), for names of three letters or more; or
# - at least 80% similar by rapidfuzz's normalised InDel ratio
#   (``metric_ref`` for ``metric_refs``, ``titel`` for ``title``).
#
# Keys starting with ``x_`` or ``x-`` are extension fields and never typos
# (``x_source`` is not ``source``).

#: Similarity (0-100, rapidfuzz's ``fuzz.ratio``) from which a name is a near miss.
NEAR_MISS_RATIO = 80.0


def _norm(name: str) -> str:
    return name.casefold().replace("-", "_")


def near_miss(key: str, known: tuple[str, ...]) -> str | None:
    """The known field ``key`` is a near miss of, or None when it is simply unknown."""
    if key in known or key.startswith(("x_", "x-", "X_", "X-")):
        return None
    from rapidfuzz import fuzz  # only slices with unknown keys pay for the import
    from rapidfuzz.distance import OSA

    norm = _norm(key)
    words = sorted(w for w in norm.split("_") if w)
    best: tuple[float, str] | None = None
    for field in known:
        target = _norm(field)
        if norm == target or (len(words) > 1 and words == sorted(w for w in target.split("_") if w)):
            return field
        score = fuzz.ratio(norm, target)
        if len(norm) >= 3 and OSA.distance(norm, target) <= 1:
            score = max(score, NEAR_MISS_RATIO)
        if score >= NEAR_MISS_RATIO and (best is None or score > best[0]):
            best = (score, field)
    return best[1] if best else None


_TOP_FIELDS: tuple[str, ...] = tuple(EvidenceSlice.model_fields)
_ENTRY_FIELDS: dict[str, tuple[str, ...]] = {
    "cards": tuple(Card.model_fields),
    "metrics": tuple(Metric.model_fields),
    "xref": tuple(Xref.model_fields),
}


def check_field_names(data: dict[str, Any], top: tuple[str, ...], nested: dict[str, tuple[str, ...]]) -> None:
    """Raise :class:`SliceError` for the first near-miss key, at the top or in a list entry.

    ``nested`` maps a list field (``cards``) to the known fields of its entries.
    """
    _check_object(data, top, "")
    for field, known in nested.items():
        entries = data.get(field)
        if isinstance(entries, list):
            for index, entry in enumerate(entries):
                if isinstance(entry, dict):
                    _check_object(entry, known, f"{field}[{index}].")


def _check_object(obj: dict[str, Any], known: tuple[str, ...], where: str) -> None:
    for key in obj:
        if not isinstance(key, str) or key in known:
            continue
        suggestion = near_miss(key, known)
        if suggestion is not None:
            raise SliceError(
                f"{where}{key}: unknown field; did you mean {suggestion!r}? "
                "(a misspelt field would be ignored and change the verdict)"
            )
