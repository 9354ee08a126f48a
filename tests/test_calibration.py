"""bench/calibration.py's measures, on points worked out by hand."""
import importlib.util
import json
import math
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


def test_fit_finds_the_power_of_hand_built_reviews(tmp_path, capsys):
    # chances 0.75 that came true 9 times in 10 and 0.25 that came true 1 time in 10: the
    # power p ** a / (p ** a + (1 - p) ** a) that reports 0.9 and 0.1 is a = 2 (3 ** 2 = 9)
    won = [(0.75, 1.0, 0)] * 9 + [(0.75, 0.0, 0)] + [(0.25, 0.0, 1)] * 9 + [(0.25, 1.0, 1)]
    lines = [{"game_id": "a", "points": won[:10]}, {"game_id": "b", "points": won[10:]}]
    (tmp_path / "review_2p.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    calibration.fit([str(tmp_path)])
    assert "power 2.00" in capsys.readouterr().out


def test_sharpen_by_hand():
    # 3 players, 0.5: the other two hold 0.25 each, odds 2, squared 4, so 4 / (4 + 2)
    assert calibration.sharpen(0.5, 3, 2.0) == pytest.approx(2 / 3)
    assert calibration.sharpen(0.25, 4, 1.7) == pytest.approx(0.25)
    assert calibration.sharpen(1.0, 2, 2.0) == 1.0


def _write_reviews(directory, points):
    directory.mkdir()
    half = len(points) // 2
    lines = [{"game_id": "a", "points": points[:half]}, {"game_id": "b", "points": points[half:]}]
    (directory / "review_2p.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))


# reported 0.5 (logit 0) won 1 time in 4, reported 0.75 (logit ln 3) won 3 times in 4: two
# reported values and two parameters, so the least log-loss map hits both rates exactly:
# sigmoid(b) = 1/4 gives b = -ln 3, sigmoid(a ln 3 - ln 3) = 3/4 gives a = 2
SHIFTED = [(0.5, 1.0, 0)] + [(0.5, 0.0, 1)] * 3 + [(0.75, 1.0, 0)] * 3 + [(0.75, 0.0, 1)]


def test_fit_logit_finds_the_slope_and_shift_by_hand():
    a, b = calibration.fit_logit(SHIFTED + [(1.0, 1.0, 0), (0.0, 0.0, 1)])   # 0 and 1 left out
    assert a == pytest.approx(2.0, abs=1e-6) and b == pytest.approx(-math.log(3), abs=1e-6)
    assert calibration.shifted(0.5, a, b) == pytest.approx(0.25)
    assert calibration.shifted(1.0, a, b) == 1.0 and calibration.shifted(0.0, a, b) == 0.0


def test_fit_pools_directories_and_checks_the_maps_on_held_out_reviews(tmp_path, capsys):
    # fitted on two directories of the same points; held out on a third: before the map the
    # bins 0.5-0.6 and 0.7-0.8 are off by 0.25 and 0, ECE (4 * 0.25 + 4 * 0) / 8 = 0.125;
    # after it every bin's reported chance is its rate, ECE 0
    for name in ("a", "b", "held"):
        _write_reviews(tmp_path / name, SHIFTED)
    calibration.fit([str(tmp_path / "a"), str(tmp_path / "b")], [str(tmp_path / "held")])
    out = capsys.readouterr().out
    assert "2 players: 16 positions" in out
    assert "shifted map a 2.000 b -1.099" in out
    assert "held out: 8 positions, ECE 0.1250 -> power" in out and "shifted 0.0000" in out


def test_ece_interval_resamples_whole_games_by_hand():
    # game A: one position reported 0.5 and won; game B: one reported 0.5 and lost. A
    # resample of two games is AA or BB (probability 1/4 each: ECE 0.5) or AB (1/2: the bin's
    # mean result 0.5, ECE 0), so the 2.5th percentile is 0 and the 97.5th 0.5
    games = [[(0.5, 1.0, 0)], [(0.5, 0.0, 1)]]
    assert calibration.ece_interval(games, draws=400, seed=3) == pytest.approx((0.0, 0.5))
    # one game: every resample is that game (reported 0.25 twice, won twice: ECE 0.75)
    assert calibration.ece_interval([[(0.25, 1.0, 0), (0.25, 1.0, 1)]]) == pytest.approx(
        (0.75, 0.75))


def test_fit_gives_the_pooled_ece_interval_over_games(tmp_path, capsys):
    # the two games of SHIFTED, as _write_reviews splits them: the first four positions
    # (reported 0.5, won 1 of 4) and the last four (0.75, won 3 of 4); resampled, AA gives
    # ECE 0.25, BB 0, AB 0.125, so the interval runs from 0 to 0.25
    _write_reviews(tmp_path / "a", SHIFTED)
    calibration.fit([str(tmp_path / "a")])
    assert "2 players: 2 games, ECE 0.1250, 95% over games (bootstrap) [0.0000, 0.2500]" in (
        capsys.readouterr().out)
