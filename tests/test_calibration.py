"""bench/calibration.py's measures, on points worked out by hand."""
import importlib.util
from pathlib import Path

import pytest

SPEC = importlib.util.spec_from_file_location(
    "calibration", Path(__file__).resolve().parent.parent / "bench" / "calibration.py")
calibration = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(calibration)


def test_ece_and_brier_by_hand():
    # two positions reported at 5% (one won, one lost) and one at 95% (won):
    # bin 0.0-0.1 holds 2 (mean reported 0.05, mean result 0.5), bin 0.9-1.0 holds 1
    # (0.95 against 1); ECE = 2/3 * 0.45 + 1/3 * 0.05; Brier = (0.05^2 + 0.95^2 + 0.05^2) / 3
    points = [(0.05, 0.0, 0), (0.05, 1.0, 1), (0.95, 1.0, 0)]
    rows, ece, brier = calibration.calibration(points)
    assert [(r[0], r[1], r[2]) for r in rows] == [(0.0, 0.1, 2), (0.9, 1.0, 1)]
    assert rows[0][3] == pytest.approx(0.05) and rows[0][4] == pytest.approx(0.5)
    assert ece == pytest.approx(2 / 3 * 0.45 + 1 / 3 * 0.05)
    assert brier == pytest.approx((0.0025 + 0.9025 + 0.0025) / 3)


def test_a_reported_chance_of_one_falls_in_the_top_bin():
    rows, ece, brier = calibration.calibration([(1.0, 1.0, 0), (0.0, 0.0, 1)])
    assert [(r[0], r[2]) for r in rows] == [(0.0, 1), (0.9, 1)]
    assert ece == 0.0 and brier == 0.0
