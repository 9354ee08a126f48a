"""The best turn and game review, on top of the public search API (tne_ai.search.mcts.search).

Win chance
----------
The win chance of a move is the search's mean reward of that root action for the player who
chooses it (SearchResult.alternatives: ``(action, visits, mean)``; a won game is 1, a shared
first place its share, a lost one 0, an unfinished line the evaluation's win estimate).  The
win chance of a position is that of its best (most visited) move.

The best turn
-------------
A turn is two actions (SPEC section 3) plus the decisions inside them.  ``best_turn`` searches
the position, then, while the same player still acts in the same turn (the second action, or a
decision of his own such as a monument or his commit as attacker), applies the chosen move to
his view and searches again: that is the principal variation to the end of the turn (``pv``).
It stops at a ``swap`` (the tiles drawn are unknown), when another player must act (a defender's
commit, a trader's treasure), and after ``PV_MAX`` moves.  A follow-up search gets a quarter of
the iterations of the first; with a time budget the first search gets ``FIRST_SHARE`` of it and
the follow-ups split the rest.

Game review
-----------
``review`` replays a tne-game/1 record; for every move it searches the position as the mover
saw it (his own hand, the public board, counts of the rest: ``determinize`` never reads the
others' hands or the bag), and records the best move, its win chance, and the win chance of the
move played (its mean in the same search).  The loss is best minus played, in points of win
chance (0-100).  Classes (``CLASSES``): a loss of at least 20 points is a blunder, 10 a mistake,
5 an inaccuracy.  A move with one legal choice is forced: not searched, loss 0.  A played move
the search never tried has no win chance of its own; it is classed by the best move's win chance
minus the worst tried move's (a lower bound of what it gave up is not known, so it is marked
``"untried": true`` and not classed when that gap is below the inaccuracy threshold).
"""
import json
import time

import numpy as np

from . import state as S
from .engine.apply import apply_action
from .engine.rng import make_rng
from .errors import TneError
from .notation import move_text

PV_MAX = 4
FIRST_SHARE = 0.8
# (name, least loss in points of win chance), largest first
CLASSES = (("blunder", 20.0), ("mistake", 10.0), ("inaccuracy", 5.0))


class AnalyseError(TneError):
    """Arguments or a record that a review cannot use."""


def merge(results):
    """Root statistics of several searches of one information set, summed per action (the
    way root-parallel trees merge): ``[(action, visits, mean)]``, most visited first."""
    stats = {}
    for alternatives in results:
        for a, v, m in alternatives:
            tv, tval = stats.get(a, (0, 0.0))
            stats[a] = (tv + v, tval + m * v)
    return sorted(((a, v, val / v if v else 0.0) for a, (v, val) in stats.items()),
                  key=lambda x: (-x[1], -x[2], x[0]))


def forced(st):
    """The only legal move of st, or None when there is a choice."""
    from .engine.movegen import legal_moves
    moves = np.empty(S.MAX_MOVES, dtype=np.int64)
    n = legal_moves(st, moves)
    return int(moves[0]) if n == 1 else None


def after_own_move(st, code):
    """The state after the player to act plays ``code``, if he still acts in the same turn and
    nothing unknown to him was drawn; else None."""
    if S.A_SWAP <= code < S.A_PASS:
        return None
    me, turn = int(st[S.TO_ACT]), int(st[S.TURN])
    child = st.copy()
    apply_action(child, int(code), make_rng(0))
    if child[S.PHASE] == S.PH_OVER or int(child[S.TO_ACT]) != me or int(child[S.TURN]) != turn:
        return None
    return child


def may_continue(st):
    """Whether a move now may be followed by another of the same player in this turn."""
    return int(st[S.PHASE]) != S.PH_ACTION or int(st[S.ACTIONS_LEFT]) == 2


def _search(st, iterations, seconds, threads, seed, options):
    from .search.mcts import search
    return search(st, iterations=iterations, seconds=seconds, threads=threads, seed=seed,
                  **options)


def plan_rest(st, first, iterations=None, seconds=None, threads=1, seed=0, options=None):
    """The moves after ``first`` that the same player plays to the end of the turn, as
    ``[(action, win chance, SearchResult)]`` (empty when his turn or knowledge stops).
    ``iterations``/``seconds`` are the budget of each follow-up search."""
    options = options or {}
    out = []
    child = after_own_move(st, first)
    step = 1
    while child is not None and len(out) < PV_MAX - 1:
        only = forced(child)
        if only is not None:
            out.append((only, None, None))
            nxt = only
        else:
            r = _search(child, iterations, seconds, threads, seed * 31 + step, options)
            out.append((r.move, r.alternatives[0][2], r))
            nxt = r.move
        child = after_own_move(child, nxt)
        step += 1
    return out


def follow_up_budget(iterations, seconds):
    """(iterations, seconds) of one follow-up search for a first search of that budget."""
    it = max(1, iterations // 4) if iterations is not None else None
    sec = seconds * (1 - FIRST_SHARE) / (PV_MAX - 1) if seconds is not None else None
    return it, sec


class TurnResult:
    """The best move, its win chance, the rest of the turn and the search statistics."""

    def __init__(self, player, result, rest):
        self.player = player
        self.result = result
        self.move = result.move
        self.win = result.alternatives[0][2] if result.iterations else None
        self.rest = rest  # [(action, win or None, SearchResult or None)]

    @property
    def pv(self):
        return [self.move] + [a for a, _, _ in self.rest]

    def to_dict(self, alternatives=10):
        r = self.result
        return {"player": self.player, "move": move_text(self.move),
                "win": _round(self.win),
                "pv": [move_text(a) for a in self.pv],
                "pv_win": [_round(self.win)] + [_round(w) for _, w, _ in self.rest],
                "iterations": r.iterations + sum(x.iterations for _, _, x in self.rest if x),
                "seconds": round(r.seconds + sum(x.seconds for _, _, x in self.rest if x), 4),
                "nodes": r.nodes,
                "alternatives": [{"move": move_text(a), "visits": v, "win": round(m, 4)}
                                 for a, v, m in r.alternatives[:alternatives]]}


def _round(x):
    return None if x is None else round(float(x), 4)


def best_turn(st, iterations=None, seconds=None, threads=1, seed=0, pv=True, **options):
    """Search st for the player to act and plan the rest of his turn (module docstring).
    ``options`` go to search (c, rollout_depth, leader_value)."""
    if iterations is None and seconds is None:
        raise AnalyseError("give an iteration budget, a time budget or both")
    if int(st[S.PHASE]) == S.PH_OVER:
        raise AnalyseError("the game is over; there is no move to choose")
    more = pv and may_continue(st)
    first_seconds = seconds * FIRST_SHARE if seconds is not None and more else seconds
    result = _search(st, iterations, first_seconds, threads, seed, options)
    rest = []
    if more:
        it, sec = follow_up_budget(iterations, seconds)
        rest = plan_rest(st, result.move, it, sec, threads, seed, options)
    return TurnResult(int(st[S.TO_ACT]), result, rest)
