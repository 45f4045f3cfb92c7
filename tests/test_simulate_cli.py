"""``qcgrade simulate``: wiring, determinism, the cliff via the CLI, --audit, --html, bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from qcgrade.cli import main
from qcgrade.curator.simulate import simulate

PAPER = ("--tau", "0.10", "--n-min", "24", "--cap", "12", "--rounds", "12")


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["simulate", *args])


def run_json(*args: str) -> dict[str, Any]:
    result = run(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_json_is_the_library_result_and_deterministic() -> None:
    args = ("--rho-fp", "0.3", "--rho-pf", "0.05", *PAPER, "--seed", "7", "--tasks-per-round", "300")
    first = run(*args, "--format", "json")
    assert first.exit_code == 0 and run(*args, "--format", "json").stdout == first.stdout
    expected = simulate(rho_fp=0.3, rho_pf=0.05, tau=0.10, n_min=24, cap=12, rounds=12, seed=7, tasks_per_round=300)
    assert json.loads(first.stdout) == json.loads(json.dumps(expected.to_dict()))
    assert "curve" not in json.loads(first.stdout)


def test_text_output_has_rounds_totals_and_theory() -> None:
    result = run("--rho-fp", "0.3", "--rho-pf", "0.05", "--rounds", "4", "--tasks-per-round", "200")
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("curator simulation: rho_fp 0.3, rho_pf 0.05, tau 0.1, N_min 24, cap 12, rounds 4")
    assert "cliff (1 - tau)/2 = 0.450" in lines[1]
    assert len([line for line in lines if line.strip().split(" ")[0].isdigit()]) == 4
    totals = simulate(rho_fp=0.3, rho_pf=0.05, rounds=4, tasks_per_round=200).to_dict()["totals"]
    assert lines[-1] == "totals: " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items()))


def test_the_cliff_through_the_cli() -> None:
    """tau = 0.10: bias past 0.45 kills genuine retirement at every seed; noise up to 0.4 does not."""

    def retired(seed: str, *rates: str) -> int:
        return int(run_json(*rates, *PAPER, "--seed", seed)["totals"]["genuine_retirements"])

    for seed in ("42", "43", "44"):
        assert retired(seed, "--rho-fp", "0") > 0
        assert retired(seed, "--rho-fp", "0.6") == 0
        assert retired(seed, "--rho-fp", "0.7") == 0
        assert retired(seed, "--rho-fp", "0.4", "--rho-pf", "0.4") > 0


def _audit_json(tmp_path: Path, **fields: Any) -> Path:
    data = {
        "judge": "python my_judge.py",
        "rho_fp": 0.2,
        "rho_pf": 0.1,
        "verdict": "safe",
        "rates": {"rho_fp": {"ci_low": 0.1, "ci_high": 0.3}},
        **fields,
    }
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_audit_places_the_judge_on_the_curve(tmp_path: Path) -> None:
    path = _audit_json(tmp_path, rho_fp=0.6, rho_pf=0.0)
    data = run_json(*PAPER, "--audit", str(path), "--tasks-per-round", "600")
    curve = data["curve"]
    assert curve["judge"] == {
        "label": "python my_judge.py",
        "rho_fp": 0.6,
        "rho_fp_ci": [0.1, 0.3],
        "rho_pf": 0.0,
        "verdict": "safe",
    }
    bias = {x: y for x, y in curve["bias"]}
    assert bias[0.0] > 0 and all(y == 0 for x, y in bias.items() if x >= 0.5)
    low_noise = [y for x, y in curve["noise"] if x <= 0.4]
    assert low_noise and all(y > 0 for y in low_noise)
    assert curve["judge_retirements"] == 0  # 0.6 is past the cliff
    assert curve["params"]["tasks_per_round"] == 600


def test_audit_from_a_real_audit_report(tmp_path: Path) -> None:
    corpus = Path(__file__).resolve().parent.parent / "fixtures" / "appendix-a"
    audit_out = CliRunner().invoke(main, ["audit", "--judge", "qcgrade", str(corpus), "--format", "json"])
    assert audit_out.exit_code == 0
    path = tmp_path / "audit.json"
    path.write_text(audit_out.stdout, encoding="utf-8")
    report = json.loads(audit_out.stdout)
    html = tmp_path / "sim.html"
    result = run("--rounds", "3", "--tasks-per-round", "200", "--audit", str(path), "--html", str(html))
    assert result.exit_code == 0, result.stderr
    assert f"judge qcgrade 0.1.0 tier-1 grader: rho_fp {report['rho_fp']:.3f}" in result.stdout
    page = html.read_text(encoding="utf-8")
    assert page.count('<svg class="chart"') == 2 and "Measured judge" in page and "<script" not in page


def test_html_without_audit(tmp_path: Path) -> None:
    html = tmp_path / "sim.html"
    assert run("--rounds", "3", "--tasks-per-round", "100", "--html", str(html)).exit_code == 0
    page = html.read_text(encoding="utf-8")
    assert page.count('<svg class="chart"') == 1 and "Curation activity per round" in page


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--rho-fp", "1.5"), "--rho-fp: expected a number in [0, 1], got '1.5'"),
        (("--rho-pf", "-0.1"), "--rho-pf: expected a number in [0, 1]"),
        (("--tau", "nan"), "--tau: expected a number in [0, 1], got 'nan'"),
        (("--tau", "abc"), "--tau: expected a number in [0, 1]"),
        (("--cap", "0"), "--cap: expected an integer >= 1, got '0'"),
        (("--rounds", "2.5"), "--rounds: expected an integer >= 1"),
        (("--n-min", "-1"), "--n-min: expected an integer >= 0"),
        (("--tasks-per-round", "0"), "--tasks-per-round: expected an integer >= 1"),
        (("--audit", "no/such/audit.json"), "no/such/audit.json: no such file"),
        (("--html", "no/such/sim.html"), "no/such/sim.html: cannot write: no directory no/such"),
    ],
)
def test_bad_input_is_one_line_exit_2(args: tuple[str, ...], message: str) -> None:
    result = run(*args)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("qcgrade: error: ")
    assert message in result.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a JSON audit report"),
        ('{"rho_fp": ' + "[" * 100_000, "not a JSON audit report"),
        ('{"rho_fp": ' + "9" * 5000 + "}", "not a JSON audit report"),
        ("[1, 2]", "expected an object"),
        (json.dumps({"rho_pf": 0.1}), "'rho_fp' must be a number in [0, 1], got None"),
        (json.dumps({"rho_fp": 3, "rho_pf": 0.1}), "'rho_fp' must be a number in [0, 1], got 3"),
        (json.dumps({"rho_fp": 0.1, "rho_pf": "0.1"}), "'rho_pf' must be a number in [0, 1]"),
        (json.dumps({"rho_fp": 0.1, "rho_pf": 0.1, "rates": {"rho_fp": {"ci_low": 0, "ci_high": True}}}), "'ci_high'"),
    ],
)
def test_bad_audit_file_names_the_file(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "audit.json"
    path.write_text(content, encoding="utf-8")
    result = run("--audit", str(path), "--rounds", "2")
    assert result.exit_code == 2
    assert result.stderr.startswith(f"qcgrade: error: {path}: ") and result.stderr.count("\n") == 1
    assert message in result.stderr


FAST = ("--rounds", "3", "--tasks-per-round", "200")


@pytest.mark.parametrize(
    ("rho_fp", "ci", "rho_pf", "expected"),
    [
        (0.6, (0.5, 0.7), 0.0, "conclusion: past the cliff (rho_fp 0.600 >= (1 - tau)/2 = 0.450): retirement never fires"),
        (0.3, (0.2, 0.5), 0.0, "conclusion: below the cliff 0.450 but its 95% CI reaches 0.500, so retirement may not fire"),
        (0.02, (0.0, 0.05), 0.95, "conclusion: safe from the cliff 0.450 but kappa 0.030 barely separates good skills from bad"),
        (
            0.1,
            (0.05, 0.2),
            0.05,
            "conclusion: on the safe side of the cliff (rho_fp 95% CI up to 0.200 < 0.450): retirement works",
        ),
    ],
    ids=["blind-curator", "at-risk", "starved", "safe"],
)
def test_with_an_audit_the_judge_comes_first_and_a_conclusion_last(
    tmp_path: Path, rho_fp: float, ci: tuple[float, float], rho_pf: float, expected: str
) -> None:
    path = _audit_json(tmp_path, rho_fp=rho_fp, rho_pf=rho_pf, rates={"rho_fp": {"ci_low": ci[0], "ci_high": ci[1]}})
    result = run(*FAST, "--audit", str(path))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "measured judge: python my_judge.py"
    assert lines[1] == (
        f"rho_fp {rho_fp:.3f} (95% CI {ci[0]:.3f}-{ci[1]:.3f}), rho_pf {rho_pf:.3f}, kappa {1 - rho_fp - rho_pf:.3f}"
    )
    assert lines[-1].startswith(expected), lines[-1]
    assert "genuine retirements per run against" in lines[-1]
    # The curator is simulated with the measured judge's rates, unless told otherwise.
    assert f"curator simulation: rho_fp {rho_fp:g}, rho_pf {rho_pf:g}," in result.stdout


def test_explicit_rates_still_win_over_the_audit(tmp_path: Path) -> None:
    path = _audit_json(tmp_path, rho_fp=0.6, rho_pf=0.0)
    result = run(*FAST, "--audit", str(path), "--rho-fp", "0.1", "--rho-pf", "0.2")
    assert result.exit_code == 0
    assert "curator simulation: rho_fp 0.1, rho_pf 0.2," in result.stdout
    assert result.stdout.splitlines()[-1].startswith("conclusion: past the cliff")  # the judge's, not the flags'


def test_without_an_audit_there_is_no_judge_and_no_conclusion() -> None:
    result = run(*FAST, "--rho-fp", "0.6")
    assert result.exit_code == 0
    assert "measured judge" not in result.stdout and "conclusion" not in result.stdout
