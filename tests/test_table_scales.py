"""Which header and label cells write a table's scale (qcgrade/grounding/tables.py)."""

from __future__ import annotations

import pytest

from qcgrade.grounding.tables import cell_scale

WRITES = [
    ("Metric ($bn)", 9),
    ("Capital expenditure ($bn)", 9),
    ("USD m", 6),
    ("(USD m)", 6),
    ("Revenue (\u20ac millions)", 6),
    ("in $ billions", 9),
    ("Revenue, in millions", 6),
    ("Payments (thousands)", 3),
    ("(bn)", 9),
    ("\u00a3000", 3),
    ("Debt (US$ tn)", 12),
]
WRITES_NONE = [
    "(m)",
    "Length (m)",
    "FY25",
    "Change (%)",
    "Margin (bps)",
    "Sites (k)",
    "Revenue",
    "In Brief",
    "x" * 100 + " ($bn)",
]


@pytest.mark.parametrize(("cell", "scale"), WRITES)
def test_a_cell_that_writes_a_scale(cell: str, scale: int) -> None:
    assert cell_scale(cell) == scale


@pytest.mark.parametrize("cell", WRITES_NONE)
def test_a_cell_that_writes_none(cell: str) -> None:
    """A unit that may be no money ("(m)": metres), a percentage, or a long cell (no label) gives no scale."""
    assert cell_scale(cell) is None
