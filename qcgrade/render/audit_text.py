"""Plain-text audit summary: the table, the rates, the cliff and the verdict.

:func:`render` is the plain text (pipes and files); :func:`render_rich` draws
the same rows as a rich table for a terminal. :func:`table_rows` is shared by
both, so the two always say the same.
"""

from __future__ import annotations

import math

from ..auditing.report import RULE, AuditReport, ClassRate, Rate


def _f(value: float | None, digits: int = 3) -> str:
    if value is None:
        return "-"
    if math.isinf(value):
        return "inf"
    return f"{value:.{digits}f}"


def _times(value: float) -> str:
    return "unbounded (rho >= 1/2)" if math.isinf(value) else f"{value:.2f}x"


def _visibility(rate: ClassRate) -> str:
    return {True: "visible", False: "invisible", None: ""}[rate.visible]


#: Judge errors listed one by one before the rest are summarised.
_LISTED = 20

HEADER = ("class", "QC", "n", "flag rate", "95% CI", "span J", "errors")


def table_rows(report: AuditReport) -> list[tuple[str, ...]]:
    """One row per defect class, then the clean row; cells already formatted."""
    rows: list[tuple[str, ...]] = []
    for rate in [*report.per_class.values(), report.clean]:
        name = "clean (rho_pf)" if rate.visible is None else rate.name
        rows.append(
            (
                name,
                _visibility(rate),
                str(rate.flag.n),
                _f(rate.flag.value),
                f"{_f(rate.flag.ci_low)}-{_f(rate.flag.ci_high)}",
                _f(rate.span_jaccard),
                str(rate.errors),
            )
        )
    return rows


def _rate_line(label: str, r: Rate) -> str:
    return f"{label:<24}{_f(r.value)}  95% CI {_f(r.ci_low)}-{_f(r.ci_high)}  ({r.count}/{r.n})"


def summary_lines(report: AuditReport) -> list[str]:
    """Everything below the table, one fact per line."""
    t = report.theory
    p = t.prop1
    lines = [
        _rate_line("rho_fp (all injected)", report.rho_fp),
        _rate_line("rho_fp (QC-visible)", report.rho_fp_visible),
        _rate_line("rho_fp (QC-invisible)", report.rho_fp_invisible),
        _rate_line("rho_pf (clean)", report.rho_pf),
        f"{'kappa':<24}{_f(report.kappa)}  conservative range {_f(report.kappa_ci[0])} to {_f(report.kappa_ci[1])}",
        f"cliff (1 - tau)/2 = {_f(t.cliff)} at tau = {report.tau:g}; "
        f"largest operative tau = 1 - 2 rho_fp = {_f(t.max_operative_tau)}",
        (
            f"symmetric-equivalent rho = {_f(t.symmetric_rho)}: effective tau = {_f(t.effective_tau)}, "
            f"N_min inflation = {_times(t.n_min_inflation)}"
        ),
        (
            f"Prop. 1' floor terms (upper bounds; N_min {t.n_min}, cap {t.cap}, delta {t.delta:g}, eps {_f(t.eps)}): "
            f"margin {_f(float(p['margin']))}, attenuation {_f(float(p['attenuation']))}, tail {_f(float(p['tail']))}, "
            f"total {_f(float(p['total']))}" + ("" if p["retirement_operative"] else " (vacuous: retirement inoperative)")
        ),
    ]
    return lines


def judge_info_line(report: AuditReport) -> str | None:
    """Model, server, prompt hash and what the answers cost, for judges that report them."""
    info = report.judge_info
    if info is None:
        return None
    usage = info.get("usage") or {}
    cost = usage.get("cost")
    spent = (
        f"{usage.get('prompt_tokens', 0)} prompt + {usage.get('completion_tokens', 0)} completion tokens"
        f" over {usage.get('answers', 0)} answers" + (f", cost {cost:.6g}" if isinstance(cost, (int, float)) else "")
    )
    return f"model {info.get('model')} at {info.get('base_url_host')}, prompt sha256 {info.get('prompt_sha256')}: {spent}"


def seeds_phrase(seeds: tuple[int, ...] | list[int]) -> str:
    """``--seeds 1`` -> "1 seed (0)", ``--seeds 5`` -> "5 seeds (0-4)"; other lists as given: "3 seeds (0, 2, 7)"."""
    count = f"{len(seeds)} seed{'' if len(seeds) == 1 else 's'}"
    if not seeds:
        return count
    consecutive = len(seeds) > 2 and list(seeds) == list(range(seeds[0], seeds[0] + len(seeds)))
    values = f"{seeds[0]}-{seeds[-1]}" if consecutive else ", ".join(str(s) for s in seeds)
    return f"{count} ({values})"


def counts_line(report: AuditReport) -> str:
    scored = sum(1 for i in report.items if i.passed is not None)
    return (
        f"{report.sections} section{'' if report.sections == 1 else 's'}, {seeds_phrase(report.seeds)}: "
        f"{len(report.items)} items, {scored} scored, "
        f"{len(report.judge_errors)} judge errors, {len(report.skipped)} sections skipped, "
        f"{len(report.not_applicable)} injections not applicable"
    )


def detail_lines(report: AuditReport) -> list[str]:
    """Skipped sections and judge errors, the first few one by one."""
    out = [f"skipped {s.source}: {s.reason}" + (f" ({', '.join(s.checks)})" if s.checks else "") for s in report.skipped]
    for e in report.judge_errors[:_LISTED]:
        out.append(f"judge error {e.id} after {e.attempts} attempt(s): {e.error}")
    if len(report.judge_errors) > _LISTED:
        out.append(f"... and {len(report.judge_errors) - _LISTED} more judge errors (all listed in --format json)")
    return out


COMPOSITE_HEADER = ("signal", "rho_fp", "95% CI", "rho_pf", "95% CI", "kappa", "verdict")


def composite_rows(report: AuditReport) -> list[tuple[str, ...]]:
    """With ``--composite``: one row per signal (judge, qcgrade, composite); none otherwise."""
    if report.composite is None:
        return []
    rows: list[tuple[str, ...]] = []
    for name, signal in report.composite.signals.items():
        r = signal.report
        rows.append(
            (
                name,
                _f(r.rho_fp.value),
                f"{_f(r.rho_fp.ci_low)}-{_f(r.rho_fp.ci_high)}",
                _f(r.rho_pf.value),
                f"{_f(r.rho_pf.ci_low)}-{_f(r.rho_pf.ci_high)}",
                _f(r.kappa),
                r.verdict,
            )
        )
    return rows


def composite_lines(report: AuditReport) -> list[str]:
    """The side-by-side table of judge, qcgrade and composite, with who each signal is; empty without it."""
    rows = composite_rows(report)
    if report.composite is None or not rows:
        return []
    table = [COMPOSITE_HEADER, *rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(COMPOSITE_HEADER))]
    out = [f"composite ({RULE}), on the same items:"]
    for row in table:
        cells = (cell.ljust(w) if i in (0, 6) else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths)))
        out.append("  ".join(cells).rstrip())
    for name, signal in report.composite.signals.items():
        out.append(f"{name}: {signal.identity}")
    return out


def render(report: AuditReport) -> str:
    """The whole audit as plain text, ending in the verdict."""
    widths = [max(len(row[i]) for row in [HEADER, *table_rows(report)]) for i in range(len(HEADER))]
    out = [f"judge: {report.judge}"]
    if (info := judge_info_line(report)) is not None:
        out.append(info)
    out += [counts_line(report), ""]
    for row in [HEADER, *table_rows(report)]:
        out.append("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(row, widths))).rstrip())
    out.append("")
    out.extend(summary_lines(report))
    if report.composite is not None:
        out.append("")
        out.extend(composite_lines(report))
    out.extend(detail_lines(report))
    out.append("")
    out.append(f"verdict: {report.verdict.upper()} -- {report.verdict_reason}")
    return "\n".join(out) + "\n"


_VERDICT_COLOUR = {"safe": "green", "at risk": "yellow", "blind curator": "red", "starved": "magenta"}


def render_rich(report: AuditReport) -> object:
    """The same summary as :func:`render`, as a rich renderable for a terminal."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    # No markup anywhere: judge names and error messages may contain "[...]".
    rows = table_rows(report)
    # Compact padding and fixed minimum widths: an 80-column terminal shows
    # every class name whole instead of "unregistered_me...".
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    for i, name in enumerate(HEADER):
        width = max([len(name), *(len(row[i]) for row in rows)])
        table.add_column(name, justify="left" if i < 2 else "right", no_wrap=True, min_width=width)
    for row in rows:
        table.add_row(*(Text(cell) for cell in row))
    colour = _VERDICT_COLOUR[report.verdict]
    return Group(
        Text.assemble(("judge: ", "bold"), report.judge),
        *([Text(info)] if (info := judge_info_line(report)) is not None else []),
        Text(counts_line(report)),
        table,
        *(Text(line) for line in summary_lines(report)),
        *(Text(line) for line in (["", *composite_lines(report)] if report.composite is not None else [])),
        *(Text(line, style="yellow") for line in detail_lines(report)),
        Text.assemble((f"verdict: {report.verdict.upper()}", f"bold {colour}"), " ", report.verdict_reason),
        Text(""),
    )
