"""Self-contained HTML pages for an audit and for a curator simulation.

One file each, readable offline and safe to attach to a ticket: inline CSS and
inline SVG only -- no script, no external font, image or stylesheet, no URL at
all. Every string that came from outside (judge names, error messages, ids)
is escaped. No timestamp, so the same report gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from ..auditing.report import AuditReport, Rate
from ..curator.curve import RetirementCurve
from ..curator.simulate import SimulationResult
from ..curator.stats import wilson_interval
from .audit_text import COMPOSITE_HEADER, composite_rows, counts_line, judge_info_line, summary_lines, table_rows
from .svg import (
    BLUE,
    GREEN,
    GREY,
    INK,
    PURPLE,
    RED,
    AxisMark,
    Bar,
    Series,
    cliff_axis,
    flag_rate_bars,
    line_chart,
)

#: Judge errors listed on the page before the rest are summarised.
_LISTED = 50

_CSS = """
body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;font-size:16px;color:#263238;margin:2rem auto;max-width:960px;padding:0 1rem;line-height:1.45;overflow-wrap:anywhere}
h1{font-size:1.5rem;margin-bottom:.2rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #cfd8dc}
.verdict{display:inline-block;padding:.3rem .8rem;border-radius:4px;color:#fff;font-weight:bold;text-transform:uppercase}
.v-safe{background:#2e7d32}.v-at-risk{background:#ef6c00}.v-blind-curator{background:#c62828}.v-starved{background:#6d4c41}
.scroll{overflow-x:auto}table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .7rem;border-bottom:1px solid #eceff1;text-align:right;white-space:nowrap}
td:first-child,th:first-child{text-align:left}code{background:#eceff1;padding:0 .2rem}
.muted{color:#607d8b}figure{margin:1.5rem 0;max-width:760px}svg.chart{display:block;width:100%;overflow:visible}
.chart-title{font-weight:bold;margin-bottom:.4rem}figcaption{color:#455a64;margin-top:.3rem}figcaption>div+div{margin-top:.2rem}
.legend{display:flex;flex-wrap:wrap;gap:.2rem 1.2rem}.key{white-space:nowrap}
.key i{display:inline-block;width:1.4rem;margin-right:.4rem;vertical-align:middle}.key i.box{height:.9rem}.key i.stroke{height:0}
@media (max-width:480px){body{margin:1rem auto;padding:0 .75rem}td,th{padding:.2rem .4rem}.key{white-space:normal}}
"""


def _page(title: str, body: Sequence[str]) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n<title>{escape(title)}</title>\n'
        f"<style>{_CSS}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in rows)
    # A wide table scrolls inside its box on a phone; the page itself never scrolls sideways.
    return f'<div class="scroll"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'


def at_risk_from(rate: Rate, cliff: float) -> float:
    """Smallest observed rate k/n whose Wilson upper bound reaches the cliff at this audit's n.

    Below it an audit of this size can call a judge safe; between it and the
    cliff it cannot rule the cliff out. With n = 0 nothing can be ruled out.
    """
    if rate.n == 0:
        return 0.0
    for k in range(rate.n + 1):
        if wilson_interval(k, rate.n)[1] >= cliff:
            return min(k / rate.n, cliff)
    return cliff


def _bars(report: AuditReport) -> str:
    bars = [
        Bar(name, r.flag.value, r.flag.ci_low, r.flag.ci_high, r.flag.n, "visible" if r.visible else "invisible")
        for name, r in report.per_class.items()
    ]
    c = report.clean.flag
    bars.append(Bar("clean (rho_pf)", c.value, c.ci_low, c.ci_high, c.n, "clean"))
    return flag_rate_bars(bars, "Flag rate per defect class (cf. paper Fig. 2)")


def _axis(report: AuditReport) -> str:
    fp = report.rho_fp
    marks = [AxisMark(f"rho_fp = {fp.value:.3f} (all injected)", fp.value, fp.ci_low, fp.ci_high, INK, 9)]
    for label, r, colour in (("QC-visible", report.rho_fp_visible, GREEN), ("QC-invisible", report.rho_fp_invisible, PURPLE)):
        if r.n:
            marks.append(AxisMark(f"{label}: {r.value:.3f}", r.value, r.ci_low, r.ci_high, colour, 5))
    note = f"rho_pf = {report.rho_pf.value:.3f} · kappa = {report.kappa:.3f} · tau = {report.tau:g} · verdict: {report.verdict}"
    return cliff_axis(
        marks, report.cliff, at_risk_from(fp, report.cliff), note, "The judge against the retirement cliff (cf. paper Fig. 5)"
    )


#: Colours of the three signals on the composite axis.
_SIGNAL_COLOURS = {"judge": PURPLE, "qcgrade": GREEN, "composite": INK}


def _composite_axis(report: AuditReport) -> str:
    """Judge, qcgrade and the composite on one rho_fp axis against the cliff."""
    assert report.composite is not None
    marks = []
    for name, signal in report.composite.signals.items():
        fp = signal.report.rho_fp
        size = 9 if name == "composite" else 6
        marks.append(
            AxisMark(
                f"{name}: {fp.value:.3f} ({signal.report.verdict})", fp.value, fp.ci_low, fp.ci_high, _SIGNAL_COLOURS[name], size
            )
        )
    combined = report.composite.signals["composite"].report
    note = (
        "composite = pass only if the judge and qcgrade both pass · "
        f"composite rho_pf = {combined.rho_pf.value:.3f} · kappa = {combined.kappa:.3f} · tau = {report.tau:g}"
    )
    return cliff_axis(
        marks,
        report.cliff,
        at_risk_from(combined.rho_fp, report.cliff),
        note,
        "Judge, qcgrade and both against the retirement cliff",
    )


def _composite_section(report: AuditReport) -> list[str]:
    if report.composite is None:
        return []
    who = "".join(
        f"<li>{escape(name)}: <code>{escape(signal.identity)}</code> -- {escape(signal.report.verdict_reason)}</li>"
        for name, signal in report.composite.signals.items()
    )
    return [
        "<h2>Composite reward: judge AND qcgrade</h2>",
        f"<figure>{_composite_axis(report)}</figure>",
        _table(COMPOSITE_HEADER, composite_rows(report)),
        f"<ul>{who}</ul>",
    ]


def curve_figure(curve: RetirementCurve) -> str:
    """Mean genuine retirements vs corruption level, the cliff, and the judge if measured."""
    series = [
        Series(f"false-pass bias (rho_pf = {dict(curve.params).get('rho_pf', 0.0):g})", RED, curve.bias),
        Series("symmetric noise (rho_fp = rho_pf)", BLUE, curve.noise, "5,3"),
    ]
    top = max([y for _, y in (*curve.bias, *curve.noise)] + [curve.judge_retirements or 0.0, 1.0])
    markers = []
    if curve.judge is not None and curve.judge_retirements is not None:
        markers.append(
            (
                curve.judge.rho_fp,
                curve.judge_retirements,
                f"judge: rho_fp {curve.judge.rho_fp:.3f}, {curve.judge_retirements:.2f} retired",
            )
        )
    cliff = (1.0 - curve.tau) / 2.0
    return line_chart(
        series,
        title="Simulated curator: genuine retirements per run",
        x_label="corruption level (rho)",
        y_label="mean genuine retirements",
        x_max=1.0,
        y_max=top,
        vlines=[(cliff, f"cliff {cliff:.3f}")],
        markers=markers,
        x_ticks=(0.0, 0.2, 0.4, 0.6, 0.8, 1.0),
    )


def _curve_section(curve: RetirementCurve) -> list[str]:
    p = dict(curve.params)
    detail = ", ".join(f"{k} {v}" for k, v in sorted(p.items()))
    return [
        "<h2>The curator, simulated</h2>",
        curve_figure(curve),
        (
            f'<p class="muted">Mean over seeds {escape(", ".join(map(str, curve.seeds)))} of '
            f"<code>qcgrade.simulate</code> at tau {curve.tau:g}; {escape(detail)}. "
            "Genuine retirement only: cap evictions are counted apart.</p>"
        ),
    ]


def audit_page(report: AuditReport, curve: RetirementCurve | None = None) -> str:
    """The audit as one HTML page: verdict, Fig. 2 bars, Fig. 5 axis, tables, and optionally the curve."""
    slug = report.verdict.replace(" ", "-")
    body = [
        f"<h1>Judge audit: <code>{escape(report.judge)}</code></h1>",
        *([f'<p class="muted">{escape(info)}</p>'] if (info := judge_info_line(report)) is not None else []),
        f'<p class="muted">{escape(counts_line(report))}</p>',
        f'<p><span class="verdict v-{escape(slug)}">{escape(report.verdict)}</span> {escape(report.verdict_reason)}</p>',
        _axis(report),
        _bars(report),
        "<h2>Per class</h2>",
        _table(("class", "QC", "n", "flag rate", "95% CI", "span Jaccard", "judge errors"), table_rows(report)),
        "<h2>Rates and the curator</h2>",
        "<ul>" + "".join(f"<li>{escape(line)}</li>" for line in summary_lines(report)) + "</ul>",
        *_composite_section(report),
    ]
    if curve is not None:
        body.extend(_curve_section(curve))
    if report.skipped:
        body.append(
            "<h2>Skipped sections (fail the deterministic grader)</h2><ul>"
            + "".join(
                f"<li><code>{escape(s.source)}</code>: {escape(s.reason)}"
                + (f" ({escape(', '.join(s.checks))})" if s.checks else "")
                + "</li>"
                for s in report.skipped
            )
            + "</ul>"
        )
    if report.judge_errors:
        shown = report.judge_errors[:_LISTED]
        more = len(report.judge_errors) - len(shown)
        body.append(
            f"<h2>Judge errors ({len(report.judge_errors)}, not scored)</h2><ul>"
            + "".join(f"<li><code>{escape(e.id)}</code> after {e.attempts} attempt(s): {escape(e.error)}</li>" for e in shown)
            + (f"<li>... and {more} more</li>" if more else "")
            + "</ul>"
        )
    return _page(f"qcgrade judge audit: {report.verdict}", body)


def simulation_page(result: SimulationResult, curve: RetirementCurve | None = None) -> str:
    """One simulation run's per-round activity (cf. paper Fig. 8), and the sweep if given."""
    rounds = result.per_round

    def pick(name: str) -> tuple[tuple[float, float], ...]:
        return tuple((float(r.round), float(getattr(r, name))) for r in rounds)

    series = [
        Series("genuine retirements", RED, pick("genuine_retirements")),
        Series("cap evictions", GREY, pick("evictions"), "5,3"),
        Series("synthesized", GREEN, pick("synthesized")),
        Series("active skills", BLUE, pick("active"), "2,3"),
    ]
    top = max([y for s in series for _, y in s.points] + [1.0])
    activity = line_chart(
        series,
        title="Curation activity per round",
        x_label="round",
        y_label="skills",
        x_max=float(len(rounds)),
        y_max=top,
        x_ticks=[float(r.round) for r in rounds],
    )
    params = dict(result.params)
    totals = result.to_dict()["totals"]
    body = [
        "<h1>Curator simulation</h1>",
        '<p class="muted">' + escape(", ".join(f"{k} {v}" for k, v in sorted(params.items()))) + "</p>",
        activity,
        _table(("total", "count"), [(k, str(v)) for k, v in sorted(totals.items())]),
    ]
    if curve is not None:
        body.extend(_curve_section(curve))
        if curve.judge is not None:
            j = curve.judge
            verdict = f", verdict {j.verdict}" if j.verdict else ""
            body.append(
                f"<p>Measured judge <code>{escape(j.label)}</code>: rho_fp {j.rho_fp:.3f} "
                f"(95% CI {j.rho_fp_ci[0]:.3f}-{j.rho_fp_ci[1]:.3f}), rho_pf {j.rho_pf:.3f}{escape(verdict)}.</p>"
            )
    return _page("qcgrade curator simulation", body)
