"""The "within noise" rule of the hint panel, the analysis list and `tne bestmove`
(tne_ai/search/noise.py): two standard errors of the difference of two win chances, each standard
error sqrt(p(1-p)/v).  The numbers below are worked out by hand."""
import math

from tne_ai.search.noise import noise_note, standard_error, within_noise


def test_standard_error_is_the_largest_spread_of_values_in_0_1():
    # p = 0.5 over 100 visits: sqrt(0.25 / 100) = 0.05; p = 0.9 over 900: sqrt(0.09/900) = 0.01
    assert math.isclose(standard_error(0.5, 100), 0.05)
    assert math.isclose(standard_error(0.9, 900), 0.01)
    assert standard_error(1.0, 50) == 0.0       # every value was a win: no spread
    assert standard_error(0.3, 0) == 0.5        # nothing searched: as unsure as can be


def test_within_two_standard_errors_of_the_difference():
    # best 0.55 over 400 visits: se 0.02487; 0.50 over 400: se 0.025; two se of the
    # difference = 2 * sqrt(0.02487^2 + 0.025^2) = 0.0705 > 0.05: within noise.
    # 0.40 over 400: se 0.02449; 2 * sqrt(0.02487^2 + 0.02449^2) = 0.0698 < 0.15: apart.
    alts = [("a", 400, 0.55), ("b", 400, 0.50), ("c", 400, 0.40)]
    assert within_noise(alts) == [True, True, False]
    # the same 0.05 gap over 10,000 visits each: se 0.005, two se of the difference 0.0141
    assert within_noise([("a", 10000, 0.55), ("b", 10000, 0.50)]) == [True, False]
    assert within_noise([]) == []


def test_the_note_names_the_moves_the_search_cannot_separate():
    alts = [("a", 400, 0.55), ("b", 400, 0.50), ("c", 400, 0.40)]
    note = noise_note(alts, ["tile red F4", "pass", "tile blue A1"])
    assert note.startswith("within noise of tile red F4: pass (")
    assert "tile blue A1" not in note
    assert noise_note([("a", 10000, 0.55), ("b", 10000, 0.50)], ["x", "y"]) is None
