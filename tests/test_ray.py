"""The Ray Data adapter: the Grader on plain, numpy, pandas and Arrow batches, then on a local Ray.

The Grader tests without Ray always run. The cluster tests need the extra
(``pip install "qcgrade[ray]"``) and are skipped, saying so, only without it.
They start a 2-CPU local Ray, the size where a pool taking every CPU hangs.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import helpers
from qcgrade import Options, grade
from qcgrade.scale.batch import grade_jsonl
from qcgrade.scale.ray import OUTPUT_COLUMNS, Grader, grade_dataset, pool_for

# Ray Data warns about its own deprecated settings when it pickles its context.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:ray.*")

NO_EXTRA = "the [ray] extra is not installed (pip install 'qcgrade[ray]')"
PAIRS = helpers.fixture_pairs()
DEFECT = "\n\nMargins fell 12% last year.\n"


def dataset_rows(n: int, slice_as_text: bool) -> list[dict]:
    out = []
    for i in range(n):
        md, slice_path = PAIRS[i % len(PAIRS)]
        text = md.read_text(encoding="utf-8") + (DEFECT if i % 3 == 1 else "")
        raw = slice_path.read_text(encoding="utf-8")
        out.append({"id": i, "section": text, "slice": raw if slice_as_text else json.loads(raw)})
    return out


def expected(row: dict, tier2: bool = False) -> tuple[bool, float, int, dict]:
    report = grade(row["section"], row["slice"], tier2=tier2)
    return report.passed, 1.0 if report.passed else 0.0, len(report.findings), report.counts


def test_importing_the_adapter_needs_neither_ray_nor_numpy() -> None:
    code = "import sys, qcgrade.ray; print('ray' in sys.modules, 'numpy' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


@pytest.mark.parametrize(
    ("cpus", "pool"),
    [(1, (1, 0.0)), (1.5, (1, 0.5)), (2, (1, 1.0)), (3, (2, 1.0)), (8, (7, 1.0)), (16, (14, 1.0)), (64, (56, 1.0))],
)
def test_pool_always_leaves_a_cpu_for_reads(cpus: float, pool: tuple[int, float]) -> None:
    assert pool_for(cpus) == pool
    actors, per_actor = pool
    assert cpus - actors * per_actor >= 1 or per_actor < 1


def test_grader_on_plain_columns_matches_grade() -> None:
    rows = dataset_rows(9, slice_as_text=True)
    batch = {key: [row[key] for row in rows] for key in ("id", "section", "slice")}
    out = Grader(tier2=True)(batch)
    assert list(out) == ["id", "section", "slice", *OUTPUT_COLUMNS]
    assert out["id"] == list(range(9))
    for i, row in enumerate(rows):
        passed, reward, count, counts = expected(row, tier2=True)
        assert (out["passed"][i], out["reward"][i], out["violation_count"][i]) == (passed, reward, count)
        assert json.loads(out["counts"][i]) == counts
        assert len(json.loads(out["violations"][i])) == count
        assert out["error"][i] == ""
    assert out["passed"] == [i % 3 != 1 for i in range(9)]


def test_rows_that_cannot_be_graded_are_marked_not_raised() -> None:
    good = dataset_rows(1, slice_as_text=True)[0]
    batch = {
        "section": [None, good["section"], good["section"], good["section"]],
        "slice": [good["slice"], "{bad", None, good["slice"]],
    }
    out = Grader()(batch)
    assert out["error"][0] == "section: missing"  # a null in a column is how a dataset row lacks a field
    assert out["error"][1].startswith("slice: invalid JSON")
    assert out["error"][2] == "slice: missing (give slice or slice_path)"
    assert [math.isnan(r) for r in out["reward"]] == [True, True, True, False]
    assert out["passed"] == [False, False, False, True]


def test_prefix_and_column_clashes() -> None:
    row = dataset_rows(1, slice_as_text=True)[0]
    batch = {"section": [row["section"]], "slice": [row["slice"]], "reward": [0.5]}
    with pytest.raises(ValueError, match="would overwrite input columns"):
        Grader()(batch)
    out = Grader(prefix="qc_")(batch)
    assert out["reward"] == [0.5] and out["qc_reward"] == [1.0]
    with pytest.raises(KeyError, match="batch needs columns 'text' and 'slice' or 'slice_path'"):
        Grader(section_column="text")(batch)


def test_options_may_be_given_as_configuration_keys() -> None:
    row = dataset_rows(2, slice_as_text=True)[1]  # has one bare number
    batch = {"section": [row["section"]], "slice": [row["slice"]]}
    assert Grader()(batch)["passed"] == [False]
    assert Grader({"ignore": ["bare_number"]})(batch)["passed"] == [True]
    assert Grader(Options(ignore=frozenset({"bare_number"})))(batch)["passed"] == [True]
    with pytest.raises(Exception, match="unknown key 'ignor'"):
        Grader({"ignor": ["bare_number"]})


def test_grader_on_numpy_pandas_and_arrow_batches_keeps_the_batch_type() -> None:
    np = pytest.importorskip("numpy", reason=NO_EXTRA)
    pd = pytest.importorskip("pandas", reason=NO_EXTRA)
    pa = pytest.importorskip("pyarrow", reason=NO_EXTRA)
    rows = dataset_rows(6, slice_as_text=False)
    want = [expected(row)[:3] for row in rows]
    numpy_batch = {
        "section": np.array([r["section"] for r in rows], dtype=object),
        "slice": np.array([r["slice"] for r in rows], dtype=object),
    }
    out = Grader()(numpy_batch)
    assert out["passed"].dtype == np.bool_ and out["reward"].dtype == np.float64 and out["violation_count"].dtype == np.int64
    assert list(zip(out["passed"].tolist(), out["reward"].tolist(), out["violation_count"].tolist())) == want
    frame = Grader()(pd.DataFrame(rows))
    assert list(zip(frame["passed"], frame["reward"], frame["violation_count"])) == want
    table = Grader()(pa.Table.from_pylist(rows))
    assert isinstance(table, pa.Table)
    assert (
        list(
            zip(
                table.column("passed").to_pylist(),
                table.column("reward").to_pylist(),
                table.column("violation_count").to_pylist(),
            )
        )
        == want
    )


# --- the rows `qcgrade batch` reads, read the same way -------------------------------

GOOD_SLICE = json.loads(PAIRS[0][1].read_text(encoding="utf-8"))
GOOD_TEXT = PAIRS[0][0].read_text(encoding="utf-8")
# Each row as a JSON line would hold it; keys a row lacks are nulls in a dataset's columns.
ROWS: list[dict] = [
    {"section": GOOD_TEXT, "slice_path": "s.json"},
    {"section": GOOD_TEXT, "slice": json.dumps(GOOD_SLICE)},
    {"slice": GOOD_SLICE},
    {"section": 7, "slice": GOOD_SLICE},
    {"section": GOOD_TEXT},
    {"section": GOOD_TEXT, "slice": GOOD_SLICE, "slice_path": "s.json"},
    {"section": GOOD_TEXT, "slice_path": "missing.json"},
    {"section": GOOD_TEXT, "slice_path": ""},
    {"section": GOOD_TEXT, "slice": "{bad"},
    {"section": GOOD_TEXT, "slice": dict(GOOD_SLICE, cards=[dict(GOOD_SLICE["cards"][0], stance="up")])},
    {"section": GOOD_TEXT + DEFECT, "slice_path": "s.json"},
]


def test_batch_and_the_grader_accept_the_same_rows_and_say_the_same(tmp_path: Path) -> None:
    (tmp_path / "s.json").write_text(json.dumps(GOOD_SLICE), encoding="utf-8")
    lines = [json.dumps(row) for row in ROWS]
    from_batch = [json.loads(r.json) for r in grade_jsonl(lines, base_dir=tmp_path)]
    columns = {key: [row.get(key) for row in ROWS] for key in ("section", "slice", "slice_path")}
    out = Grader(base_dir=tmp_path)(columns)
    assert [b.get("error", "") for b in from_batch] == out["error"]
    assert [b.get("passed", False) for b in from_batch] == out["passed"]
    assert out["error"][0] == out["error"][1] == "" and out["passed"][:2] == [True, True]
    assert out["passed"][-1] is False and out["error"][-1] == ""
    assert all(out["error"][2:-1])  # every bad row is an error, never a pass
    assert "slice_path: " in out["error"][6] and "missing.json: no such file" in out["error"][6]


def test_a_relative_slice_path_needs_a_folder(tmp_path: Path) -> None:
    out = Grader()({"section": [GOOD_TEXT], "slice_path": ["s.json"]})
    assert out["error"] == ["slice_path: s.json is relative, and no folder was given to resolve it (base_dir=)"]
    (tmp_path / "s.json").write_text(json.dumps(GOOD_SLICE), encoding="utf-8")
    assert Grader()({"section": [GOOD_TEXT], "slice_path": [str(tmp_path / "s.json")]})["error"] == [""]


def test_the_grader_reads_a_configuration_file_when_given_one(tmp_path: Path) -> None:
    policy = tmp_path / "qcgrade.toml"
    policy.write_text('ignore = ["bare_number"]\n', encoding="utf-8")
    batch = {"section": [GOOD_TEXT + DEFECT], "slice": [json.dumps(GOOD_SLICE)]}
    assert Grader()(batch)["passed"] == [False]
    assert Grader(config=policy)(batch)["passed"] == [True]
    assert Grader({"extend-ignore": ["missing_tldr"]}, config=policy).options.ignore == {"bare_number", "missing_tldr"}
    with pytest.raises(TypeError, match="config= with options as a mapping"):
        Grader(Options(), config=policy)


# --- on a local Ray cluster -------------------------------------------------------------


@pytest.fixture(scope="module")
def ray_local() -> Iterator[object]:
    ray = pytest.importorskip("ray", reason=NO_EXTRA)
    pytest.importorskip("ray.data", reason=NO_EXTRA)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        yield ray
    finally:
        ray.shutdown()


def finish_within(seconds: float, job: Callable[[], list[dict]]) -> list[dict]:
    """Run a Ray Data job; a pool that starves its read tasks hangs, so that fails here instead."""
    results: list[list[dict]] = []
    worker = threading.Thread(target=lambda: results.append(job()), daemon=True)
    worker.start()
    worker.join(seconds)
    assert not worker.is_alive(), f"the Ray Data job did not finish in {seconds} s: is the actor pool taking every CPU?"
    assert results, "the Ray Data job failed (see the log above)"
    return results[0]


def by_id(records: list[dict]) -> dict[int, tuple]:
    return {
        int(r["id"]): (bool(r["passed"]), float(r["reward"]), int(r["violation_count"]), json.loads(r["counts"])) for r in records
    }


def test_grade_dataset_reads_jsonl_and_grades_with_a_safe_pool(ray_local: object, tmp_path: Path) -> None:
    ray = ray_local
    rows = dataset_rows(24, slice_as_text=False)
    source = tmp_path / "sections.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    dataset = ray.data.read_json(str(source))  # read tasks need a CPU of their own
    records = finish_within(120, grade_dataset(dataset, batch_size=8).take_all)
    assert by_id(records) == {row["id"]: expected(row) for row in rows}
    assert all(r["error"] == "" for r in records)


@pytest.mark.parametrize("batch_format", ["numpy", "pandas", "pyarrow"])
def test_map_batches_with_the_callable_class(ray_local: object, batch_format: str) -> None:
    ray = ray_local
    rows = dataset_rows(12, slice_as_text=True)
    dataset = ray.data.from_items(rows).map_batches(
        Grader,
        fn_constructor_kwargs={"tier2": True},
        batch_size=5,
        batch_format=batch_format,
        compute=ray.data.ActorPoolStrategy(size=1),
        num_cpus=1,
    )
    assert by_id(finish_within(120, dataset.take_all)) == {row["id"]: expected(row, tier2=True) for row in rows}


def test_grade_dataset_reads_the_bundled_jsonl_as_batch_does(ray_local: object) -> None:
    ray = ray_local
    source = helpers.FIXTURES / "sections.jsonl"
    dataset = ray.data.read_json(str(source))  # rows with slice_path, relative to the file's folder
    records = finish_within(180, grade_dataset(dataset, tier2=True, batch_size=8).take_all)
    from_batch = {
        (r := json.loads(line.json))["id"]: (r["passed"], r["reward"], len(r["violations"]), r["counts"])
        for line in grade_jsonl(source.read_bytes().splitlines(), Options(tier2=True), base_dir=source.parent)
    }
    assert all(r["error"] == "" for r in records), [r["error"] for r in records if r["error"]][:3]
    got = {
        str(r["id"]): (bool(r["passed"]), float(r["reward"]), int(r["violation_count"]), json.loads(r["counts"])) for r in records
    }
    assert got == from_batch and len(got) == 37
