"""Ray Data adapter: the same grading over a cluster, for datasets one machine cannot hold.

Install with ``pip install "qcgrade[ray]"``. Ray is imported only by
:func:`grade_dataset`; :class:`Grader` itself needs neither Ray nor numpy, so
``import qcgrade.ray`` works everywhere. Use it as a callable class::

    import ray
    from qcgrade.ray import Grader, grade_dataset

    ds = ray.data.read_json("sections.jsonl")        # columns: section, slice
    graded = grade_dataset(ds, tier2=True)             # pool sized for the cluster
    # or, choosing the pool yourself:
    graded = ds.map_batches(
        Grader, fn_constructor_kwargs={"tier2": True},
        batch_format="numpy",                          # or "pandas", "pyarrow", "default"
        compute=ray.data.ActorPoolStrategy(size=1), num_cpus=1,
    )

Each batch keeps its columns and gains ``passed`` (bool), ``reward`` (1.0 or
0.0, NaN when the row could not be graded), ``violation_count`` (int),
``counts`` and ``violations`` (JSON text) and ``error`` ("" when graded);
``prefix=`` renames them, and a name that would overwrite an input column is
an error. The ``slice`` column may hold objects or JSON text. JSON text is
the safer choice: Arrow unifies the struct types of all rows and fills a
field that one row lacks with null, so nulls inside object slices are read as
absent fields.

Small machines: an actor pool that reserves every CPU starves Ray Data's own
read and write tasks, and the job hangs (on 2 CPUs, two 1-CPU actors never
let the read task run). :func:`pool_for` keeps at least one CPU free, and on a
1-CPU machine runs the single actor at 0 CPUs. ``concurrency=`` is deprecated
in Ray >= 2.51; pass ``compute=ActorPoolStrategy(size=...)``.

Inside RL workers (verl's reward manager, OpenRLHF's reward function): those
already run inside Ray actors, one per GPU node, and call the reward function
per sample or per batch. There, call the reward function directly, with no
``multiprocessing.Pool`` and no nested Ray Data job; grading one section takes
about a millisecond, and a pool inside every worker only oversubscribes the
CPUs the trainer has already divided.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Mapping
from typing import Any

from ..evidence import SliceError, slice_from_value
from ..grader import active_checks, grade
from ..options import Options
from ..rewards.base import reward_number

OUTPUT_COLUMNS: tuple[str, ...] = ("passed", "reward", "violation_count", "counts", "violations", "error")


class Grader:
    """Grades column batches: a ``section`` column against a ``slice`` column.

    ``options`` is an :class:`~qcgrade.options.Options` or a mapping of
    configuration keys (as in ``[tool.qcgrade]``); ``tier2`` overrides it.
    Accepts a dict of columns (numpy arrays or lists), a pandas DataFrame or
    a pyarrow Table, and returns the same kind.
    """

    def __init__(
        self,
        options: Options | Mapping[str, Any] | None = None,
        *,
        tier2: bool | None = None,
        section_column: str = "section",
        slice_column: str = "slice",
        prefix: str = "",
    ) -> None:
        if isinstance(options, Mapping):
            from ..config import parse_settings

            options = parse_settings(options, "Grader(options=...)")
        opts = options or Options()
        if tier2 is not None:
            opts = opts.with_(tier2=tier2)
        active_checks(opts)
        self.options = opts
        self.section_column = section_column
        self.slice_column = slice_column
        self.names = {name: prefix + name for name in OUTPUT_COLUMNS}
        self.__name__ = "qcgrade_grader"

    def __call__(self, batch: Any) -> Any:
        kind = _batch_kind(batch)
        columns = _column_names(batch, kind)
        for wanted in (self.section_column, self.slice_column):
            if wanted not in columns:
                raise KeyError(f"qcgrade: batch has no {wanted!r} column (columns: {', '.join(map(str, columns))})")
        clashes = sorted(set(self.names.values()) & set(columns))
        if clashes:
            raise ValueError(f"qcgrade: output columns {clashes} would overwrite input columns; pass prefix=")
        sections = _to_list(_column(batch, kind, self.section_column))
        slices = _to_list(_column(batch, kind, self.slice_column))
        rows = [self.grade_row(section, slice_value) for section, slice_value in zip(sections, slices)]
        new = [(key, self.names[key], [row[i] for row in rows]) for i, key in enumerate(OUTPUT_COLUMNS)]
        return _attach(batch, kind, new)

    def grade_row(self, section: Any, slice_value: Any) -> tuple[bool, float, int, str, str, str]:
        """``(passed, reward, violation_count, counts, violations, error)`` for one row."""
        if not isinstance(section, str):
            return _failed(f"section: expected a string, got {type(section).__name__}")
        if slice_value is None:
            return _failed("slice: missing")
        try:
            evidence = slice_from_value(slice_value)
        except SliceError as exc:
            return _failed(f"slice: {exc}")
        report = grade(section, evidence, self.options)
        counts = json.dumps(report.counts, sort_keys=True)
        violations = json.dumps([f.to_dict() for f in report.findings], sort_keys=True, ensure_ascii=False)
        return report.passed, reward_number(report), len(report.findings), counts, violations, ""


def pool_for(total_cpus: float) -> tuple[int, float]:
    """``(actors, cpus_per_actor)`` that leave Ray Data CPUs for its read and write tasks.

    Keeps ``max(1, ceil(total / 8))`` CPUs free: 2 CPUs give one 1-CPU actor,
    16 give 14, 64 give 56; below 2 CPUs a single actor takes what is left
    (0 on a 1-CPU machine) so it can never block a read task.
    """
    reserve = max(1, math.ceil(total_cpus / 8))
    spare = total_cpus - reserve
    if spare >= 1:
        return int(spare), 1.0
    return 1, max(0.0, spare)


def grade_dataset(
    dataset: Any,
    options: Options | Mapping[str, Any] | None = None,
    *,
    tier2: bool | None = None,
    section_column: str = "section",
    slice_column: str = "slice",
    prefix: str = "",
    batch_size: int = 256,
    batch_format: str = "numpy",
    actors: int | None = None,
    cpus_per_actor: float | None = None,
) -> Any:
    """``dataset.map_batches(Grader, ...)`` with an actor pool sized by :func:`pool_for`.

    Lazy, like every Ray Data transform: nothing runs until the result is
    consumed. ``actors``/``cpus_per_actor`` override the sizing.
    """
    import ray
    from ray.data import ActorPoolStrategy

    if actors is None or cpus_per_actor is None:
        if not ray.is_initialized():
            ray.init()
        size, per_actor = pool_for(float(ray.cluster_resources().get("CPU", 1.0)))
        actors = size if actors is None else actors
        cpus_per_actor = per_actor if cpus_per_actor is None else cpus_per_actor
    kwargs = {
        "options": options,
        "tier2": tier2,
        "section_column": section_column,
        "slice_column": slice_column,
        "prefix": prefix,
    }
    return dataset.map_batches(
        Grader,
        fn_constructor_kwargs=kwargs,
        batch_size=batch_size,
        batch_format=batch_format,
        compute=ActorPoolStrategy(size=actors),
        num_cpus=cpus_per_actor,
    )


def _failed(message: str) -> tuple[bool, float, int, str, str, str]:
    return False, math.nan, 0, "{}", "[]", message


def _batch_kind(batch: Any) -> str:
    if hasattr(batch, "iloc") and hasattr(batch, "assign"):
        return "pandas"
    if hasattr(batch, "append_column") and hasattr(batch, "column_names"):
        return "arrow"
    if isinstance(batch, Mapping):
        return "dict"
    raise TypeError(f"qcgrade: unsupported batch type {type(batch).__name__}; use batch_format numpy, pandas or pyarrow")


def _column_names(batch: Any, kind: str) -> list[str]:
    if kind == "pandas":
        return [str(c) for c in batch.columns]
    if kind == "arrow":
        return list(batch.column_names)
    return list(batch)


def _column(batch: Any, kind: str, name: str) -> Any:
    return batch.column(name) if kind == "arrow" else batch[name]


def _to_list(column: Any) -> list[Any]:
    if hasattr(column, "to_pylist"):
        return list(column.to_pylist())
    if hasattr(column, "tolist"):
        return list(column.tolist())
    return list(column)


def _attach(batch: Any, kind: str, new: list[tuple[str, str, list[Any]]]) -> Any:
    if kind == "pandas":
        return batch.assign(**{name: values for _, name, values in new})
    if kind == "arrow":
        pa: Any = importlib.import_module("pyarrow")  # present: the batch is an Arrow table
        for _, name, values in new:
            batch = batch.append_column(name, pa.array(values))
        return batch
    out = dict(batch)
    if any(hasattr(v, "dtype") for v in batch.values()):  # numpy in, numpy out
        import numpy as np

        dtypes = {"passed": np.bool_, "reward": np.float64, "violation_count": np.int64}
        for key, name, values in new:
            out[name] = np.asarray(values, dtype=dtypes.get(key, object))
    else:
        out.update({name: values for _, name, values in new})
    return out
