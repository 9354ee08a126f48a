"""Ratings (tne_ai.matches.ratings) against values worked out by hand on small fixed results tables.

Notation: E = 400 / ln 10 = 173.7178 (Elo per unit of log-strength), z = 1.959964 (the 95%
normal quantile).  A two-seat Outcome(("A", "B"), (1, 2)) is a win of A; places (1, 1) a draw.
"""
import math

import pytest

from tne_ai.matches.ratings import (Outcome, Sprt, bradley_terry, elo_from_score, match_elo, pairwise,
                            plackett_luce, score_from_elo, sprt_bounds, sprt_llr)

E = 400 / math.log(10)
Z = 1.959963984540054


def win(a, b):
    """A two-seat game that ``a`` (seat 0) wins against ``b``."""
    return Outcome((a, b), (1, 2))


def draw(a, b):
    return Outcome((a, b), (1, 1))


def test_elo_and_score_scales():
    # s = 3/4: -400 log10(1/s - 1) = 400 log10 3 = 190.849
    assert elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-3)
    assert elo_from_score(0.5) == 0
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf
    # 400 Elo: 1 / (1 + 10^-1) = 10/11
    assert score_from_elo(400) == pytest.approx(10 / 11)


def test_pairwise_results_of_a_multiplayer_game():
    # seats A, B, B, C with places 2, 1, 4, 2: every pair of seats held by different agents
    game = Outcome(("A", "B", "B", "C"), (2, 1, 4, 2))
    assert sorted(pairwise(game)) == sorted([
        ("A", "B", 0.0),  # seat 0 (2nd) against seat 1 (1st)
        ("A", "B", 1.0),  # seat 0 (2nd) against seat 2 (4th)
        ("A", "C", 0.5),  # equal places: a draw
        ("B", "C", 1.0),  # seat 1 (1st) against seat 3 (2nd)
        ("B", "C", 0.0),  # seat 2 (4th) against seat 3 (2nd)
    ])  # the B-B pair (seats 1 and 2) compares nothing


def test_two_agent_elo_from_the_score_fraction_and_per_deal_error():
    # Four deals of a two-seat table (each deal = its two rotations), B's scores against A:
    #   deal 1: B wins both            S = 2
    #   deal 2: B wins one, loses one  S = 1
    #   deal 3: B wins one, draws one  S = 1.5
    #   deal 4: B draws one, wins one      S = 1.5
    # s = 6 / 8 = 0.75 -> Elo 400 log10 3 = 190.85.
    # se^2 = sum (S_u - s n_u)^2 / (sum n_u)^2 = ((2-1.5)^2 + (1-1.5)^2 + 0 + 0) / 64 = 0.5/64,
    # se = 0.0883883; s -+ z se = 0.576762 .. 0.923238;
    # Elo: -400 log10(1/0.576762 - 1) = 53.765, -400 log10(1/0.923238 - 1) = 432.067.
    units = [[win("B", "A"), Outcome(("A", "B"), (2, 1))],
             [win("B", "A"), win("A", "B")],
             [win("B", "A"), draw("A", "B")],
             [draw("B", "A"), Outcome(("A", "B"), (2, 1))]]
    m = match_elo(units, "A", "B")
    assert m.pairs == 8 and m.units == 4
    assert m.score == pytest.approx(0.75)
    assert m.se == pytest.approx(0.0883883, abs=1e-6)
    assert m.rating.elo == pytest.approx(190.8485, abs=1e-3)
    assert m.rating.low == pytest.approx(53.765, abs=1e-2)
    assert m.rating.high == pytest.approx(432.067, abs=1e-2)
    # the other way round: the negatives, interval mirrored
    back = match_elo(units, "B", "A")
    assert back.rating.elo == pytest.approx(-190.8485, abs=1e-3)
    assert back.rating.low == pytest.approx(-432.067, abs=1e-2)


def test_two_agent_elo_counts_only_the_two_agents_pairs():
    # a three-seat deal A, B, B: seats of B against each other count nothing.
    # rotation games: places give B (seats 1, 2) against A (seat 0):
    #   game 1: A 1st, B 2nd, B 3rd  -> B scores 0 + 0
    #   game 2: B 1st, A 2nd, B 3rd  -> table (B, A, B): B scores 1 + 0
    m = match_elo([[Outcome(("A", "B", "B"), (1, 2, 3)), Outcome(("B", "A", "B"), (1, 2, 3))]],
                  "A", "B")
    assert m.pairs == 4 and m.score == pytest.approx(0.25)
    assert m.se == 0  # a single unit has no spread
    assert m.rating.elo == pytest.approx(-190.8485, abs=1e-3)


def test_bradley_terry_recovers_exactly_consistent_data():
    # Strengths A=1, B=3, C=9 predict: B beats A 3/4, C beats B 3/4, C beats A 9/10.
    # Results exactly in those proportions satisfy the likelihood equations (each agent's
    # score equals its expected score), so the fit is Elo(B) = 400 log10 3 = 190.85,
    # Elo(C) = 400 log10 9 = 381.70, relative to A (the first name).
    games = [win("B", "A")] * 3 + [win("A", "B")] \
        + [win("C", "B")] * 3 + [win("B", "C")] \
        + [win("C", "A")] * 9 + [win("A", "C")]
    r = bradley_terry(["A", "B", "C"], games)
    assert r["A"].elo == 0 and r["A"].low == 0 and r["A"].high == 0
    assert r["B"].elo == pytest.approx(190.8485, abs=1e-4)
    assert r["C"].elo == pytest.approx(381.6970, abs=1e-4)
    # Fisher information in log-strengths, A fixed, w = n p (1-p) per pair:
    #   A-B: 4 * 3/16 = 0.75, B-C: 4 * 3/16 = 0.75, A-C: 10 * 9/100 = 0.9
    #   I = [[0.75 + 0.75, -0.75], [-0.75, 0.75 + 0.9]] = [[1.5, -0.75], [-0.75, 1.65]]
    #   det = 1.5*1.65 - 0.75^2 = 1.9125; var B = 1.65/1.9125 = 0.862745, var C = 1.5/1.9125
    #   se B = E sqrt(0.862745) = 161.356, se C = E sqrt(0.784314) = 153.847
    assert r["B"].high - r["B"].elo == pytest.approx(Z * 161.356, abs=1e-2)
    assert r["B"].elo - r["B"].low == pytest.approx(Z * 161.356, abs=1e-2)
    assert r["C"].high - r["C"].elo == pytest.approx(Z * 153.847, abs=1e-2)


def test_bradley_terry_counts_a_draw_as_half_a_win():
    # B against A: one win, one draw, two losses -> score 1.5 of 4 = 0.375;
    # with two agents BT is the score fraction: -400 log10(5/3) = -400 * 0.2218487 = -88.7395
    games = [win("B", "A"), draw("A", "B"), win("A", "B"), win("A", "B")]
    r = bradley_terry(["A", "B"], games)
    assert r["B"].elo == pytest.approx(-400 * math.log10(5 / 3), abs=1e-4)
    assert r["B"].elo == pytest.approx(-88.7395, abs=1e-3)


def test_unbeaten_and_unbeating_agents_are_infinite_and_unmet_ones_undetermined():
    # A beats B twice (B never scores: -inf), C draws A (score 1/2: 0 Elo, finite),
    # D beats C (D reaches A through C, nobody ever beat D: +inf), F never plays (nan).
    games = [win("A", "B"), win("A", "B"), draw("A", "C"), win("D", "C")]
    for fit in (bradley_terry, plackett_luce):
        r = fit(["A", "B", "C", "D", "F"], games)
        assert r["B"].elo == -math.inf and r["B"].high == -math.inf
        assert r["C"].elo == pytest.approx(0, abs=1e-6) and math.isfinite(r["C"].high)
        assert r["D"].elo == math.inf
        assert math.isnan(r["F"].elo)


def test_plackett_luce_on_symmetric_finishing_orders():
    # Two three-player games: A > B > C and C > B > A.  A and C play symmetric parts, so
    # g_A = g_C = 1 and, with g_B = b, the likelihood is [1/(2+b) * b/(1+b)]^2.
    # d/db [ln b - ln(2+b) - ln(1+b)] = 1/b - 1/(2+b) - 1/(1+b) = 0  ->  2 - b^2 = 0, b = sqrt 2.
    # Elo(B) = 400 log10 sqrt 2 = 200 log10 2 = 60.206, Elo(C) = 0.
    games = [Outcome(("A", "B", "C"), (1, 2, 3)), Outcome(("A", "B", "C"), (3, 2, 1))]
    r = plackett_luce(["A", "B", "C"], games)
    assert r["B"].elo == pytest.approx(60.206, abs=1e-3)
    assert r["C"].elo == pytest.approx(0, abs=1e-6)
    # Fisher information (A fixed), q = share of each remaining strength at a stage:
    #   first stages (all three left, twice): q_B = sqrt2/(2+sqrt2) = sqrt2 - 1,
    #     q_C = 1/(2+sqrt2) = 1 - sqrt2/2; each adds q(1-q) on the diagonal, -q_B q_C off it
    #   game 1 second stage (B, C left): q_B = sqrt2/(1+sqrt2) = 2 - sqrt2, q_C = sqrt2 - 1:
    #     adds r(1-r) to I_BB, I_CC and -r(1-r) to I_BC, r = 2 - sqrt2
    #   game 2 second stage (B, A left): adds r(1-r) to I_BB only
    #   I_BB = 2 qB(1-qB) + 2 r(1-r) = 0.970563, I_CC = 2 qC(1-qC) + r(1-r) = 0.656854,
    #   I_BC = -2 qB qC - r(1-r) = -0.485281; var B = I_CC / det = 1.633871,
    #   se B = E sqrt(1.633871) = 222.052
    assert r["B"].high - r["B"].elo == pytest.approx(Z * 222.052, abs=1e-2)


def test_plackett_luce_ties_by_breslow():
    # A beats B once and they share a place once.  With g_A = 1, g_B = b:
    # win: ln 1 - ln(1+b); tie (Breslow): ln 1 + ln b - 2 ln(1+b).  d/db: 1/b - 3/(1+b) = 0,
    # b = 1/2, Elo(B) = 400 log10 0.5 = -120.412.
    # Information: win stage q_B(1-q_B) = 2/9 (q_B = 1/3), tie stage 2 * 2/9; I = 2/3,
    # se = E sqrt(3/2) = 212.760.
    r = plackett_luce(["A", "B"], [win("A", "B"), draw("A", "B")])
    assert r["B"].elo == pytest.approx(-120.412, abs=1e-3)
    assert r["B"].high - r["B"].elo == pytest.approx(Z * 212.760, abs=1e-2)


def test_plackett_luce_counts_an_agent_in_several_seats_once_per_seat():
    # One game: seats A, B, B with B first, A second, B third.  Stages: {A, B, B} chooses B
    # (prob b/(1+2b)), then {A, B} chooses A (prob 1/(1+b)).  Log-likelihood
    # ln b - ln(1+2b) - ln(1+b); derivative 1/b - 2/(1+2b) - 1/(1+b) = 0
    # -> (1+2b)(1+b) - 2b(1+b) - b(1+2b) = 1 - 2b^2 = 0, b = 1/sqrt2: Elo = -200 log10 2 = -60.206
    r = plackett_luce(["A", "B"], [Outcome(("A", "B", "B"), (2, 1, 3))])
    assert r["B"].elo == pytest.approx(-60.206, abs=1e-3)


def test_sprt_bounds():
    # alpha = beta = 0.05: ln(0.05/0.95) = -ln 19 = -2.944439, ln(0.95/0.05) = ln 19
    assert sprt_bounds() == pytest.approx((-2.944439, 2.944439), abs=1e-6)


def test_sprt_llr_for_wins_and_losses():
    # Units scoring only 0 or 1: the most likely distribution with mean s is (1-s, s), so
    # LLR = W ln(s1/s0) + L ln((1-s1)/(1-s0)).  elo0 = 0: s0 = 1/2; elo1 = 100:
    # s1 = 1/(1 + 10^-0.25) = 0.640065.  Four wins, one loss:
    # 4 ln(1.280130) + ln(0.719870) = 4 * 0.246962 - 0.328683 = 0.659162
    assert sprt_llr([1, 1, 1, 0, 1], 0, 100) == pytest.approx(0.659162, abs=1e-5)


def test_sprt_llr_for_a_three_valued_sample():
    # Unit scores 0 once, 1/2 twice, 1 three times (N = 6, weights w = 1/6, 2/6, 3/6).
    # Under mean s the most likely distribution is p_i = w_i / (1 + lam d_i), d_i = v_i - s,
    # with sum w_i d_i / (1 + lam d_i) = 0.  Clearing denominators (a, b, c the three d_i):
    #   abc lam^2 + [w0 a (b+c) + wh b (a+c) + w1 c (a+b)] lam + (w0 a + wh b + w1 c) = 0,
    # the root with every 1 + lam d_i > 0.  LLR = N sum w_i ln(p1_i / p0_i).
    w = (1 / 6, 2 / 6, 3 / 6)
    values = (0.0, 0.5, 1.0)

    def fitted(s):
        a, b, c = (v - s for v in values)
        k2 = a * b * c
        k1 = w[0] * a * (b + c) + w[1] * b * (a + c) + w[2] * c * (a + b)
        k0 = w[0] * a + w[1] * b + w[2] * c
        if k2 == 0:  # s = 1/2: b = 0 and the equation is linear
            roots = [-k0 / k1]
        else:
            roots = [(-k1 + sign * math.sqrt(k1 * k1 - 4 * k2 * k0)) / (2 * k2) for sign in (1, -1)]
        lam = [x for x in roots if all(1 + x * d > 0 for d in (a, b, c))][0]
        return [wi / (1 + lam * d) for wi, d in zip(w, (a, b, c))]

    p0, p1 = fitted(0.5), fitted(1 / (1 + 10 ** (-50 / 400)))
    assert sum(p0) == pytest.approx(1) and sum(p * v for p, v in zip(p0, values)) == pytest.approx(0.5)
    expected = 6 * sum(wi * math.log(b / a) for wi, a, b in zip(w, p0, p1))
    assert sprt_llr([0, 0.5, 0.5, 1, 1, 1], 0, 50) == pytest.approx(expected, abs=1e-7)
    assert expected > 0  # the sample (mean 2/3) favours the stronger hypothesis


def test_sprt_decides_when_the_llr_crosses_a_bound():
    # All wins, elo0 = 0, elo1 = 200: s1 = 1/(1 + 10^-0.5) = 0.759747, each win adds
    # ln(s1/0.5) = 0.418376 (the unobserved score 0 carries weight 0.001: 0.001 ln(0.480506)
    # = -0.0007).  7 wins: 2.9286 - 0.0007 < 2.9444; 8 wins: 3.3470 - 0.0007: H1 after 8.
    test = Sprt(0, 200)
    decisions = [test.add(1.0) for _ in range(8)]
    assert decisions == [None] * 7 + ["H1"]
    assert test.llr == pytest.approx(8 * math.log(0.759747 / 0.5) + 0.001 * math.log(0.480506),
                                     abs=1e-4)
    # all losses against elo0 = 0, elo1 = 200: each loss adds ln(0.240253/0.5) = -0.732919;
    # 4 losses: -2.9317 > -2.9444, 5 losses: -3.665: H0 after 5
    test = Sprt(0, 200)
    assert [test.add(0.0) for _ in range(5)] == [None] * 4 + ["H0"]


def test_wilson_interval_by_hand():
    # 24 wins in 24: z^2 = 3.84146, centre = (1 + z^2/48) / (1 + z^2/24) = 1.08003 / 1.16006
    # = 0.93101, half = z / 1.16006 * sqrt(z^2 / (4 * 24^2)) = 1.68953 * 0.040833 = 0.06899
    from tne_ai.matches.ratings import wilson
    lo, hi = wilson(1.0, 24)
    assert lo == pytest.approx(0.86202, abs=1e-4) and hi == 1.0
    # 0.5 over 100: centre 0.5, half = z / (1 + z^2/100) * sqrt(0.0025 + z^2/40000) = 0.09617
    lo, hi = wilson(0.5, 100)
    assert (lo, hi) == (pytest.approx(0.5 - 0.09617, abs=1e-4), pytest.approx(0.5 + 0.09617, abs=1e-4))
    assert wilson(0.3, 0) == (0.0, 1.0)


def test_wilson_names_a_count_given_for_the_proportion():
    """wilson takes the observed proportion: 59 (a count of wins) is refused with a message
    naming the argument, not a math domain error."""
    from tne_ai.errors import TneError
    from tne_ai.matches.ratings import wilson
    with pytest.raises(TneError, match="score is the observed proportion"):
        wilson(59, 60)
    with pytest.raises(TneError, match="n is a count"):
        wilson(0.5, -1)
