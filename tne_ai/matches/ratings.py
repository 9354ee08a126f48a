"""Ratings from game outcomes: Elo with 95% intervals, Bradley-Terry, Plackett-Luce, SPRT.

A game outcome is the agent name and the place (1-based, shared places 1, 1, 3) of every
seat.  Every pair of seats held by two different agents is one pairwise result: the better
place wins (score 1), equal places draw (score 1/2).  Seats held by the same agent compare
nothing.

Ratings are on the Elo scale (a difference of D means an expected pairwise score of
1 / (1 + 10^(-D/400))) and relative to a reference agent, the first one named, whose rating
is 0.  Three methods:

``match_elo``      two agents: the second agent's score fraction s over all their pairwise
                   results gives Elo = -400 log10(1/s - 1).  Its standard error comes from
                   the scores per *unit*, a deal played in all rotations of its table (games
                   of one deal are correlated, as in duplicate bridge or fishtest's game
                   pairs): se^2 = sum_u (S_u - s n_u)^2 / (sum_u n_u)^2, S_u and n_u the
                   score and the number of pairwise results of unit u (with equal n_u: the
                   variance of the unit means over the number of units).  The 95% interval
                   maps s -+ 1.96 se through the same formula.
``bradley_terry``  any number of agents: the maximum-likelihood Bradley-Terry strengths of
                   the pairwise results (a draw counts half a win to each side), found by
                   Newton's method; intervals elo -+ 1.96 se from the inverse Fisher
                   information with the reference fixed.
``plackett_luce``  the multiplayer rating: the maximum-likelihood Plackett-Luce model of the
                   whole finishing order of each game (first place chosen among all seats
                   with probability proportional to strength, then second among the rest,
                   ...; an agent in several seats counts once per seat), ties by Breslow's
                   approximation (a group of d seats sharing a place at a stage contributes
                   sum log g_i - d log(sum of the strengths still in the game)); Elo =
                   400 log10(strength); intervals from the Fisher information.  With two
                   seats and no ties it equals Bradley-Terry.

The maximum-likelihood ratings are finite only for agents that beat (or drew with), directly
or through others, the reference, and were beaten by it the same way.  An agent that only
ever finished above that group is rated +inf, one only below it -inf, and one never compared
with it nan.

``sprt`` is the generalized sequential probability ratio test of Stockfish's fishtest for two
agents: each unit (a deal in all rotations) gives one sample, the second agent's mean score
against the first (for a two-seat table that is fishtest's pentanomial game pair, halved).
The log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) uses, under each
hypothesis, the distribution on the observed unit scores that is most likely given the
samples and whose mean is the expected score of that Elo (a multinomial maximum likelihood
with one constraint); unobserved scores 0 and 1 get a weight of 0.001 so both are always
reachable, as fishtest regularizes its pentanomial counts.  H1 is accepted when the LLR
reaches log((1-beta)/alpha), H0 when it falls to log(beta/(1-alpha)).
"""
import math
from dataclasses import dataclass

import numpy as np

from tne_ai import limits as L
from tne_ai.errors import InputError, TneError

Z95 = 1.959963984540054
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass(frozen=True)
class Rating:
    """An Elo rating with its 95% interval (may be +-inf, or nan when undetermined)."""

    elo: float
    low: float
    high: float

    def to_dict(self):
        return {"elo": _jsonable(self.elo), "low": _jsonable(self.low), "high": _jsonable(self.high)}


REFERENCE = Rating(0.0, 0.0, 0.0)


def _jsonable(x):
    """A float for JSON: rounded, with "inf" / "-inf" strings and None for nan."""
    if math.isnan(x):
        return None
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return round(float(x), 2)


def elo_from_score(s):
    """The Elo difference whose expected score is s (0 -> -inf, 1 -> +inf)."""
    if s <= 0.0:
        return -math.inf
    if s >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / s - 1.0)


def wilson(score, n, z=Z95):
    """The 95% Wilson interval of a proportion observed as score (0..1) over n trials."""
    if not 0.0 <= score <= 1.0:
        raise TneError(f"wilson: score is the observed proportion, 0 to 1 (wins / n), not {score}")
    if n < 0:
        raise TneError(f"wilson: n is a count of trials, not {n}")
    if n == 0:
        return 0.0, 1.0
    centre = (score + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(score * (1 - score) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def score_from_elo(elo):
    """The expected score at an Elo difference."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass(frozen=True)
class Outcome:
    """One game: the agent name and the place of every seat."""

    agents: tuple
    places: tuple


def pairwise(outcome):
    """The pairwise results of one game: (winner-or-first, other, score of the first) for
    each pair of seats held by different agents (score 1, 1/2 or 0)."""
    out = []
    n = len(outcome.agents)
    for i in range(n):
        for j in range(i + 1, n):
            a, b = outcome.agents[i], outcome.agents[j]
            if a == b:
                continue
            pi, pj = outcome.places[i], outcome.places[j]
            out.append((a, b, 1.0 if pi < pj else 0.5 if pi == pj else 0.0))
    return out


# --- two agents ---------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchElo:
    """The second agent's Elo against the first, from the score fraction."""

    rating: Rating
    score: float  # the second agent's score fraction
    se: float  # its standard error
    pairs: int  # pairwise results counted
    units: int  # units (deals) with at least one pairwise result


def unit_score(outcomes, first, second):
    """(score of ``second`` against ``first``, number of pairwise results) in these games."""
    total, pairs = 0.0, 0
    for outcome in outcomes:
        for a, b, s in pairwise(outcome):
            if {a, b} != {first, second}:
                continue
            total += s if a == second else 1.0 - s
            pairs += 1
    return total, pairs


def match_elo(units, first, second):
    """``second``'s Elo against ``first`` from a list of units (each a list of Outcomes)."""
    scored = [unit_score(u, first, second) for u in units]
    scored = [(s, n) for s, n in scored if n]
    pairs = sum(n for _, n in scored)
    if not pairs:
        return MatchElo(Rating(math.nan, math.nan, math.nan), math.nan, math.nan, 0, 0)
    s = sum(x for x, _ in scored) / pairs
    se = math.sqrt(sum((x - s * n) ** 2 for x, n in scored)) / pairs
    rating = Rating(elo_from_score(s), elo_from_score(s - Z95 * se), elo_from_score(s + Z95 * se))
    return MatchElo(rating, s, se, pairs, len(scored))


# --- comparability ------------------------------------------------------------------------

def _reach(k, beats):
    """Transitive closure (with self) of the k x k boolean relation ``beats``."""
    reach = np.array(beats, dtype=bool) | np.eye(k, dtype=bool)
    for m in range(k):
        reach |= reach[:, m:m + 1] & reach[m:m + 1, :]
    return reach


def _split(names, outcomes):
    """(finite, fixed): the agents rated finitely against names[0] (its strongly connected
    group in the beats-or-draws relation) and {name: +inf / -inf / nan} for the rest."""
    index = {a: i for i, a in enumerate(names)}
    k = len(names)
    beats = np.zeros((k, k), dtype=bool)
    for outcome in outcomes:
        for a, b, s in pairwise(outcome):
            if s > 0:
                beats[index[a], index[b]] = True
            if s < 1:
                beats[index[b], index[a]] = True
    reach = _reach(k, beats)
    finite, fixed = [], {}
    for i, a in enumerate(names):
        up, down = reach[i, 0], reach[0, i]
        if up and down:
            finite.append(a)
        else:
            fixed[a] = math.inf if up else -math.inf if down else math.nan
    return finite, fixed


def _ratings(names, finite, fixed, theta, cov):
    """Ratings on the Elo scale from log-strengths ``theta`` of finite[1:] (finite[0] is the
    reference) and their covariance."""
    out = {}
    for a in names:
        if a in fixed:
            x = fixed[a]
            out[a] = Rating(x, x, x)
    out[finite[0]] = REFERENCE
    for i, a in enumerate(finite[1:]):
        elo = ELO_PER_NAT * theta[i]
        var = cov[i, i] if cov is not None else math.inf
        se = ELO_PER_NAT * math.sqrt(var) if var >= 0 else math.nan
        out[a] = Rating(elo, elo - Z95 * se, elo + Z95 * se)
    return {a: out[a] for a in names}


def _newton(loglik, start, tol=1e-10, max_steps=200):
    """Maximize a concave log-likelihood: ``loglik(theta) -> (value, gradient, information)``.
    Returns theta and the inverse information (None when singular)."""
    theta = start.copy()
    value, grad, info = loglik(theta)
    for _ in range(max_steps):
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            break
        t = 1.0
        while t > 1e-9:
            trial = theta + t * step
            v, g, i = loglik(trial)
            if v >= value - 1e-12:
                break
            t *= 0.5
        theta, value, grad, info = trial, v, g, i
        if np.max(np.abs(t * step)) < tol:
            break
    try:
        cov = np.linalg.inv(info)
    except np.linalg.LinAlgError:
        cov = None
    return theta, cov


# --- Bradley-Terry ------------------------------------------------------------------------

def bradley_terry(names, outcomes):
    """{name: Rating} from the pairwise results of ``outcomes``; names[0] is the reference."""
    names = list(names)
    finite, fixed = _split(names, outcomes)
    index = {a: i for i, a in enumerate(finite)}
    k = len(finite)
    won = np.zeros((k, k))  # won[i, j]: i's score against j
    games = np.zeros((k, k))
    for outcome in outcomes:
        for a, b, s in pairwise(outcome):
            if a in index and b in index:
                i, j = index[a], index[b]
                won[i, j] += s
                won[j, i] += 1.0 - s
                games[i, j] += 1
                games[j, i] += 1

    def loglik(theta):
        full = np.concatenate(([0.0], theta))
        diff = full[:, None] - full[None, :]
        p = 1.0 / (1.0 + np.exp(-diff))  # p[i, j]: i beats j
        value = float(np.sum(won * np.log(p)))
        grad = np.sum(won - games * p, axis=1)
        w = games * p * (1.0 - p)
        info = np.diag(w.sum(axis=1)) - w
        return value, grad[1:], info[1:, 1:]

    theta, cov = _newton(loglik, np.zeros(k - 1)) if k > 1 else (np.zeros(0), None)
    return _ratings(names, finite, fixed, theta, cov)


# --- Plackett-Luce ------------------------------------------------------------------------

def _stages(agents, places):
    """The Plackett-Luce stages of one finishing order: (chosen agents, agents remaining)
    per place, best first; the last stage (one seat left) says nothing and is dropped."""
    order = sorted(range(len(agents)), key=lambda s: places[s])
    stages = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and places[order[j]] == places[order[i]]:
            j += 1
        remaining = [agents[s] for s in order[i:]]
        if len(remaining) > 1:
            stages.append(([agents[s] for s in order[i:j]], remaining))
        i = j
    return stages


def plackett_luce(names, outcomes):
    """{name: Rating} from the finishing orders of ``outcomes``; names[0] is the reference."""
    names = list(names)
    finite, fixed = _split(names, outcomes)
    index = {a: i for i, a in enumerate(finite)}
    k = len(finite)
    stages = []  # (chosen counts per agent, remaining counts per agent)
    for outcome in outcomes:
        seats = [s for s, a in enumerate(outcome.agents) if a in index]
        agents = [outcome.agents[s] for s in seats]
        places = [outcome.places[s] for s in seats]
        for chosen, remaining in _stages(agents, places):
            c = np.zeros(k)
            m = np.zeros(k)
            for a in chosen:
                c[index[a]] += 1
            for a in remaining:
                m[index[a]] += 1
            if np.count_nonzero(m) > 1:
                stages.append((c, m))

    chosen = np.array([c for c, _ in stages]).reshape(-1, k)
    present = np.array([m for _, m in stages]).reshape(-1, k)
    picks = chosen.sum(axis=1)  # seats placed at each stage (d)

    def loglik(theta):
        full = np.concatenate(([0.0], theta))
        g = np.exp(full)
        total = present @ g
        q = present * g / total[:, None]  # each agent's share of the stage
        dq = picks[:, None] * q
        value = float(np.sum(chosen @ full) - np.sum(picks * np.log(total)))
        grad = chosen.sum(axis=0) - dq.sum(axis=0)
        info = np.diag(dq.sum(axis=0)) - dq.T @ q
        return value, grad[1:], info[1:, 1:]

    theta, cov = _newton(loglik, np.zeros(k - 1)) if k > 1 else (np.zeros(0), None)
    return _ratings(names, finite, fixed, theta, cov)


# --- SPRT ---------------------------------------------------------------------------------

class SprtError(InputError):
    """An SPRT's Elo pair that cannot be read."""


def parse_sprt(text, what="sprt"):
    """The Elo pair ``(elo0, elo1)`` of the text ``ELO0,ELO1`` (`tne tournament --sprt 0,5`):
    two ASCII decimals, each within -+limits.MAX_SPRT_ELO.  SprtError naming ``what``
    otherwise.  (Whether elo0 < elo1, and whether the match has two agents, run_tournament
    checks.)"""
    from tne_ai.core.io import parse_float
    parts = text.split(",")
    if len(parts) != 2:
        raise SprtError(f"{what} '{L.clip(text, 60)}': expected two Elo values ELO0,ELO1, "
                        f"e.g. 0,5")
    try:
        return tuple(parse_float(x, what, -L.MAX_SPRT_ELO, L.MAX_SPRT_ELO) for x in parts)
    except InputError as e:
        raise SprtError(str(e)) from None


def sprt_bounds(alpha=0.05, beta=0.05):
    """(lower, upper) LLR bounds: accept H0 at or below lower, H1 at or above upper."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def _constrained_mle(values, weights, mean):
    """The distribution on ``values`` of largest likelihood for the observed ``weights``
    (normalized) with the given mean: p_i = w_i / (1 + lam (v_i - mean)), lam solving
    sum p_i = 1 (by bisection on the interval where every 1 + lam (v_i - mean) > 0)."""
    d = values - mean
    lo = -1.0 / d.max() if d.max() > 0 else -1e12
    hi = -1.0 / d.min() if d.min() < 0 else 1e12
    lo, hi = lo + 1e-12 * abs(lo), hi - 1e-12 * abs(hi)

    def excess(lam):  # sum w d / (1 + lam d): decreasing in lam
        return float(np.sum(weights * d / (1.0 + lam * d)))

    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    lam = 0.5 * (lo + hi)
    return weights / (1.0 + lam * d)


def sprt_llr(samples, elo0, elo1):
    """The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0) for unit scores in [0, 1]."""
    if not samples:
        return 0.0
    counts = {}
    for x in samples:
        counts[float(x)] = counts.get(float(x), 0) + 1
    for edge in (0.0, 1.0):
        counts.setdefault(edge, 1e-3)
    values = np.array(sorted(counts))
    weights = np.array([counts[v] for v in values], dtype=float)
    total = weights.sum()
    weights /= total
    p0 = _constrained_mle(values, weights, score_from_elo(elo0))
    p1 = _constrained_mle(values, weights, score_from_elo(elo1))
    return float(total * np.sum(weights * np.log(p1 / p0)))


@dataclass
class Sprt:
    """The state of a two-agent SPRT: call ``add`` with each unit score, in order."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        self.samples = []
        self.lower, self.upper = sprt_bounds(self.alpha, self.beta)
        self.llr = 0.0
        self.decision = None  # None, "H0" or "H1"

    def add(self, score):
        self.samples.append(score)
        self.llr = sprt_llr(self.samples, self.elo0, self.elo1)
        if self.llr >= self.upper:
            self.decision = "H1"
        elif self.llr <= self.lower:
            self.decision = "H0"
        return self.decision

    def to_dict(self):
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(self.llr, 4), "lower": round(self.lower, 4),
                "upper": round(self.upper, 4), "units": len(self.samples),
                "decision": self.decision}
