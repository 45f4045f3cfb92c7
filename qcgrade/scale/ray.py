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

Rows are read as ``qcgrade batch`` reads JSON Lines, by the same function
(:func:`qcgrade.files.row_from_fields`), with the same error messages: a
``section`` column and a ``slice`` column (an object or JSON text) or a
``slice_path`` column (a slice file), or both with one of them null in each
row. A relative ``slice_path`` is resolved against ``base_dir``;
:func:`grade_dataset` defaults it to the folder of the files the dataset was
read from, as ``qcgrade batch`` resolves it against the input file's folder,
so ``grade_dataset(ray.data.read_json("fixtures/sections.jsonl"))`` grades
the bundled file as ``qcgrade batch fixtures/sections.jsonl`` does. The
callable class itself resolves nothing on its own: give it ``base_dir=`` (an
absolute path every worker can read) or absolute paths.

Each batch keeps its columns and gains ``passed`` (bool), ``reward`` (1.0 or
0.0, NaN when the row could not be graded), ``violation_count`` (int),
``counts`` and ``violations`` (JSON text) and ``error`` ("" when graded,
else the message ``qcgrade batch`` gives the same row); ``prefix=`` renames
them, and a name that would overwrite an input column is an error. Object
slices: Arrow unifies the struct types of all rows and fills a field that
one row lacks with null, so nulls inside object slices are read as absent
fields; JSON text is the safer choice.

Options: an :class:`~qcgrade.options.Options`, a mapping of configuration
keys (as in ``[tool.qcgrade]``), and/or ``config=`` a configuration file read
as ``qcgrade check --config FILE`` reads it (the mapping then applies over
it); ``tier2`` overrides both. No file is read unless ``config=`` is given.

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
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..errors import RowError
from ..files import row_from_fields
from ..grader import active_checks, grade
from ..options import Options
from ..rewards.base import reward_number

OUTPUT_COLUMNS: tuple[str, ...] = ("passed", "reward", "violation_count", "counts", "violations", "error")


class Grader:
    """Grades column batches: a ``section`` column against a ``slice`` or ``slice_path`` column.

    Accepts a dict of columns (numpy arrays or lists), a pandas DataFrame or
    a pyarrow Table, and returns the same kind. See the module docstring for
    ``options``, ``config`` and ``base_dir``.
    """

    def __init__(
        self,
        options: Options | Mapping[str, Any] | None = None,
        *,
        tier2: bool | None = None,
        config: str | os.PathLike[str] | None = None,
        base_dir: str | os.PathLike[str] | None = None,
        section_column: str = "section",
        slice_column: str = "slice",
        slice_path_column: str = "slice_path",
        prefix: str = "",
    ) -> None:
        opts = _options(options, config)
        if tier2 is not None:
            opts = opts.with_(tier2=tier2)
        active_checks(opts)
        self.options = opts
        self.base_dir = None if base_dir is None else Path(base_dir)
        self.section_column = section_column
        self.slice_column = slice_column
        self.slice_path_column = slice_path_column
        self.names = {name: prefix + name for name in OUTPUT_COLUMNS}
        self.__name__ = "qcgrade_grader"

    def __call__(self, batch: Any) -> Any:
        kind = _batch_kind(batch)
        columns = _column_names(batch, kind)
        if self.section_column not in columns or not {self.slice_column, self.slice_path_column} & set(columns):
            wanted = f"{self.section_column!r} and {self.slice_column!r} or {self.slice_path_column!r}"
            raise KeyError(f"qcgrade: batch needs columns {wanted} (columns: {', '.join(map(str, columns))})")
        clashes = sorted(set(self.names.values()) & set(columns))
        if clashes:
            raise ValueError(f"qcgrade: output columns {clashes} would overwrite input columns; pass prefix=")
        fields = {
            field: _to_list(_column(batch, kind, name))
            for field, name in (
                ("section", self.section_column),
                ("slice", self.slice_column),
                ("slice_path", self.slice_path_column),
            )
            if name in columns
        }
        count = len(next(iter(fields.values())))
        rows = [self.grade_fields({field: values[i] for field, values in fields.items()}) for i in range(count)]
        new = [(key, self.names[key], [row[i] for row in rows]) for i, key in enumerate(OUTPUT_COLUMNS)]
        return _attach(batch, kind, new)

    def grade_fields(self, fields: Mapping[str, Any]) -> tuple[bool, float, int, str, str, str]:
        """``(passed, reward, violation_count, counts, violations, error)`` for one row's fields."""
        try:
            row = row_from_fields(fields, self.base_dir, dataset=True)
        except RowError as exc:
            return _failed(str(exc))
        report = grade(row.section, row.slice, self.options)
        counts = json.dumps(report.counts, sort_keys=True)
        violations = json.dumps([f.to_dict() for f in report.findings], sort_keys=True, ensure_ascii=False)
        return report.passed, reward_number(report), len(report.findings), counts, violations, ""

    def grade_row(self, section: Any, slice_value: Any) -> tuple[bool, float, int, str, str, str]:
        """``(passed, reward, violation_count, counts, violations, error)`` for a section and its slice."""
        return self.grade_fields({"section": section, "slice": slice_value})


def _options(options: Options | Mapping[str, Any] | None, config: str | os.PathLike[str] | None) -> Options:
    """The grading options from ``options`` and ``config``, read as the command line reads them."""
    if isinstance(options, Options):
        if config is not None:
            raise TypeError("Grader: give config= with options as a mapping of configuration keys, not an Options")
        return options
    from ..config import apply_settings, read_settings, resolve_options

    base = resolve_options(Path(config))[0] if config is not None else Options()
    if options is None:
        return base
    return apply_settings(base, read_settings(options, "Grader(options=...)"))


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
    config: str | os.PathLike[str] | None = None,
    base_dir: str | os.PathLike[str] | None = None,
    section_column: str = "section",
    slice_column: str = "slice",
    slice_path_column: str = "slice_path",
    prefix: str = "",
    batch_size: int = 256,
    batch_format: str = "numpy",
    actors: int | None = None,
    cpus_per_actor: float | None = None,
) -> Any:
    """``dataset.map_batches(Grader, ...)`` with an actor pool sized by :func:`pool_for`.

    Lazy, like every Ray Data transform: nothing runs until the result is
    consumed. ``actors``/``cpus_per_actor`` override the sizing. ``base_dir``
    defaults to the one folder the dataset's files were read from (a dataset
    built in memory: the current directory); a dataset read from several
    folders needs it given when its ``slice_path`` values are relative.
    ``config`` is read here, in the driver, so a bad file fails before any
    work is scheduled.
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
        # Options, not the file: workers need not see the driver's files.
        "options": _options(options, config),
        "tier2": tier2,
        "base_dir": str(Path(base_dir).resolve()) if base_dir is not None else _read_from(dataset),
        "section_column": section_column,
        "slice_column": slice_column,
        "slice_path_column": slice_path_column,
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


def _read_from(dataset: Any) -> str | None:
    """The absolute folder of the files a dataset reads, as ``qcgrade batch`` resolves paths against its input's.

    The current directory for a dataset built in memory; None (relative
    ``slice_path`` values are then row errors asking for ``base_dir=``) when
    the files lie in several folders or in remote storage.
    """
    files = [str(f) for f in dataset.input_files()] if hasattr(dataset, "input_files") else []
    if not files:
        return str(Path.cwd().resolve())
    if any("://" in f for f in files):  # remote storage: no local folder to resolve against
        return None
    folders = {str(Path(f).resolve().parent) for f in files}
    return folders.pop() if len(folders) == 1 else None


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
