"""When a search cannot tell its top moves apart: the rule the web's hint and analysis panel
and ``tne bestmove`` use (docs/cli.md, "Within noise").

A move's win chance is the mean of the values its visits backed up, each in [0, 1].  A value
in [0, 1] with mean p has a variance of at most p(1 - p) (a win/loss outcome reaches it), so
the standard error of a mean over v visits is taken as sqrt(p(1 - p) / v).  Another move is
*within noise* of the best (the first, most visited) when the two win chances differ by at
most two standard errors of their difference, sqrt(se_best^2 + se_other^2).  Visits in one
tree are not independent draws, so this is a rough yardstick of the search's own statistics,
not a test at a stated confidence: it says "the search cannot separate these", nothing more.
"""
import math


def standard_error(mean, visits):
    """sqrt(p(1-p)/v) for a mean ``p`` over ``visits`` values in [0, 1] (0 visits: 0.5)."""
    p = min(1.0, max(0.0, float(mean)))
    v = int(visits)
    if v <= 0:
        return 0.5
    return math.sqrt(p * (1.0 - p) / v)


def within_noise(alternatives):
    """For ``[(move, visits, mean)]``, best first: a list of booleans, True where the move's win
    chance is within two standard errors of the difference from the first's (the first: True)."""
    if not alternatives:
        return []
    _, v0, m0 = alternatives[0]
    se0 = standard_error(m0, v0)
    out = []
    for _, v, m in alternatives:
        se = standard_error(m, v)
        out.append(abs(float(m0) - float(m)) <= 2.0 * math.sqrt(se0 * se0 + se * se))
    return out


def noise_note(alternatives, names):
    """One sentence for a person: which of the top moves (``names``, in the same order as
    ``alternatives``) the search cannot tell from the best, or None when it can tell them all."""
    flags = within_noise(alternatives)
    tied = [n for n, f in zip(names[1:], flags[1:]) if f]
    if not tied:
        return None
    return (f"within noise of {names[0]}: {', '.join(tied)} (win chances within two standard "
            f"errors of the difference; more search may change the order)")
