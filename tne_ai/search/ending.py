"""Exact endings inside ``Search``: the turn scored to the end over sampled worlds.

When the config's ``endings`` option is on (the default) and ``endgame.ending_applies`` holds
at the root (the game can be over at the end of the current turn through the turn's own
actions: the bag cannot refill the hands, or the last treasures are being taken; SPEC 3),
``Search.run`` does not grow its trees.  It draws determinizations of the root mover's view
(``determinize.determinize``: the other hands and the bag order are never read from the
state given) and solves each with ``endgame.exact_ending``: every line of the turn played to
its end, every player choosing his own best reward in that world.  ``Search.result`` then
reports, per root move, the expected result over those worlds: ``visits`` = the worlds
counted, ``win`` = the mover's mean reward after the move, ``wins`` every player's,
``exact`` whether every line after it ended the game in every world (a line whose game goes
on is scored by the fitted evaluation).  The move played is the best mean (ties: the lower
action code, so at a commit decision the smallest commit of the best value).
``SearchInfo.exact`` says the result came from here.

Budget (``WORK_PER_ITERATION``, below): a world is charged by its work, the decisions
searched plus the lines scored, at the cost ratio of an MCTS iteration measured on end-game
positions (``bench/endgame_cost.py --iterations``, bench/README.md "Exact endings").  With an
iteration budget of N each thread solves worlds until its share of N is charged (the last
world may pass it; the run is charged N, less when stopped early), so the same seed and
budget give the same worlds and the same result; a time budget solves worlds until its
deadline.  At least one world is solved per run; ``stop()`` is read between worlds, and
``report`` (``Search.run``'s) is called between them every ``every`` seconds.  A world
whose work passes the run's limit (``MIN_WORLD_WORK`` or the budget in work units, the
larger) is given up; when every world of a root's first run was given up, the root is
searched by the MCTS.  With ``threads`` > 1 the worlds are shared out among the threads,
each with its own seeded generator and scratch, and their sums are added in thread order.

When the ending does not apply (or ``endings=0``), the search is the MCTS, unchanged.

A limit (bench/README.md, "Exact endings"): each world is solved on its own, so the mover's
own later choices in the turn (his second action, his commits) are made knowing that
world's hidden hands (strategy fusion, as in any perfect-information Monte Carlo); only the
root move is one choice across the worlds.
"""
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from tne_ai.core import state as S
from tne_ai.core.rules.rng import make_rng
from tne_ai.search.determinize import determinize
from tne_ai.search.endgame import (NO_LIMIT, ST_LIMIT, ST_LINES, ST_NODES, ST_SIZE, EndgameScratch, ending_applies,
                      exact_ending)
from tne_ai.search.evaluate import model_weights

# The exchange rate (bench/README.md, "Exact endings"): a world's cost is close to
# proportional to its work, the decisions searched plus the lines scored (ST_NODES +
# ST_LINES, about 1.2 us each of CPU on this machine under load), and an end-game MCTS
# iteration costs about as much as 5 of them, so a world is charged one iteration per
# WORK_PER_ITERATION units of its work.  The work is counted, not timed, so the
# same seed and budget solve the same worlds.  A world also costs about WORLD_OVERHEAD units
# whatever its size (the determinization, the call).
WORK_PER_ITERATION = 5
WORLD_OVERHEAD = 20
# A world may do at most max(MIN_WORLD_WORK, its run's budget in work units) before it is
# given up (endgame.ST_LIMIT): a time budget counts WORK_PER_SECOND units a second.  When
# a root's worlds are all given up in its first run, the root is searched by the MCTS.
MIN_WORLD_WORK = 50_000
PV_WORLDS = 4           # worlds of each later decision of a principal variation
# the work (units above) of one root move's principal variation, all its later decisions
# together: the line stops at the decision that would pass it, so that the line read after
# a timed search costs little more than that search (about 0.06 s)
PV_WORK = 50_000
PLAN_MAX = 16           # moves of a principal variation at most (as session.PV_MAX)
WORK_PER_SECOND = 1_000_000
_SALT = 0x5EED_E4D


class EndingSearch:
    """The worlds solved so far for one root (a Search's ``root``)."""

    def __init__(self, root, legal, threads, seed, weights):
        self.root = root
        self.moves = np.array(legal, dtype=np.int64)
        self.players = int(root[S.PLAYERS])
        self.viewer = np.int64(root[S.TO_ACT])
        self.weights = model_weights() if weights is None else weights
        n = len(legal)
        self.totals = [np.zeros((n, 4), dtype=np.float64) for _ in range(threads)]
        self.exact = [np.ones(n, dtype=np.bool_) for _ in range(threads)]
        self.stats = [np.zeros(ST_SIZE, dtype=np.int64) for _ in range(threads)]
        self.worlds = [0] * threads
        self.given_up = 0
        self.lines = {}                 # move -> its principal variation (pv_line)
        self.pv_seed = int(seed) & 0x7FFFFFFFFFFFFFFF
        self.scratch = [EndgameScratch() for _ in range(threads)]
        self.rngs = [make_rng((int(seed) * 1000003 + 7919 * i + _SALT) & 0x7FFFFFFFFFFFFFFF)
                     for i in range(threads)]

    def _world(self, i, allowance):
        """Solve one world on thread i within ``allowance`` work units: the iterations it
        is charged, or None when it was given up."""
        sc, stats = self.scratch[i], self.stats[i]
        before = int(stats[ST_NODES] + stats[ST_LINES])
        stats[ST_LIMIT] = before + allowance
        determinize(self.root, self.viewer, self.rngs[i], sc.world)
        done = exact_ending(sc.world, self.moves, np.int64(len(self.moves)), np.bool_(True),
                            self.weights, *sc.arrays(), self.rngs[i], stats, self.totals[i],
                            self.exact[i])
        if not done:
            self.given_up += 1
            return None
        self.worlds[i] += 1
        work = int(stats[ST_NODES] + stats[ST_LINES]) - before + WORLD_OVERHEAD
        return -(-work // WORK_PER_ITERATION)

    def run(self, iterations, seconds, stop: threading.Event):
        """Solve worlds for this budget (module note); return the iterations charged."""
        threads = len(self.worlds)
        deadline = time.perf_counter() + seconds if seconds is not None else None
        if iterations is not None:
            shares = [iterations // threads + (1 if i < iterations % threads else 0) for i in range(threads)]
            allowance = max(MIN_WORLD_WORK, -(-iterations // threads) * WORK_PER_ITERATION)
        else:
            shares = [None] * threads
            allowance = NO_LIMIT if seconds is None else max(MIN_WORLD_WORK, int(seconds * WORK_PER_SECOND))

        def one(i):
            charged = 0
            first = True
            while shares[i] is None or charged < shares[i]:
                if not first or i > 0:
                    if stop.is_set() or (deadline is not None and time.perf_counter() >= deadline):
                        break
                if shares[i] is not None and shares[i] == 0:
                    break
                first = False
                cost = self._world(i, allowance)
                if cost is None:                 # given up: this thread's run ends
                    return shares[i] if shares[i] is not None else charged
                charged += cost
            return min(charged, shares[i]) if shares[i] is not None else charged

        if threads == 1:
            return one(0)
        with ThreadPoolExecutor(max_workers=threads) as pool:
            return sum(pool.map(one, range(threads)))

    def pv_line(self, move, win, own_next):
        """(moves, win chances) of a root move's principal variation: the move, then, while
        the mover still acts in the turn and draws nothing unknown (``session.own_next``),
        the best of his next decision by ``solve_ending`` over PV_WORLDS worlds of it (made
        once per move, seeded by the root's seed), within PV_WORK for the whole line."""
        if move in self.lines:
            return self.lines[move]
        from tne_ai.search.endgame import solve_ending
        line, wins = [int(move)], [win]
        st = own_next(self.root, move)
        left = PV_WORK
        while st is not None and len(line) < PLAN_MAX and left > 0:
            r = solve_ending(st, worlds=PV_WORLDS, seed=self.pv_seed, weights=self.weights,
                             scratch=self.scratch[0], work=left)
            if r is None:                       # the next decision would pass PV_WORK
                break
            left -= int(r.stats[ST_NODES] + r.stats[ST_LINES])
            best, value, _ = r.moves[0]
            line.append(best)
            wins.append(value)
            st = own_next(st, best)
        self.lines[move] = (line, wins)
        return line, wins

    def rows(self):
        """(action, worlds, every player's mean reward, exact) per root move, best first (the
        mover's mean, then the lower code)."""
        worlds = sum(self.worlds)
        totals = sum(self.totals)
        exact = np.logical_and.reduce(self.exact)
        out = [(int(a), worlds, [float(x) / worlds for x in totals[k, :self.players]], bool(exact[k]))
               for k, a in enumerate(self.moves)]
        out.sort(key=lambda r: (-r[2][self.viewer], r[0]))
        return out


def ending_of(search):
    """The EndingSearch of ``search``'s root, made on first use, or None when the exact
    endings are off or do not apply there (decided once per root)."""
    cached = getattr(search, "_ending", None)
    if cached is not None and cached[0] is search.root:
        return cached[1]
    e = None
    if search.config.endings and ending_applies(search.root):
        e = EndingSearch(search.root, search.legal, search.config.threads, search.config.seed,
                         search._model_w)
    search._ending = (search.root, e)
    return e


def run(search, iterations, seconds, report=None, every=None):
    """``Search._run`` through the exact endings: True when they apply at the root (the
    worlds were solved and the search's iterations and seconds counted), else False (the
    MCTS runs: the endings are off, do not apply, or the root's first worlds were all
    given up, their seconds counted).  ``report(result)`` is called every ``every`` seconds
    between worlds, as ``Search.run`` does between rounds of batches."""
    e = ending_of(search)
    if e is None:
        return False
    deadline = time.perf_counter() + seconds if seconds is not None else None
    left = iterations
    while True:
        begin = time.perf_counter()
        until = deadline if every is None else \
            (begin + every if deadline is None else min(deadline, begin + every))
        charged = e.run(left, None if until is None else max(until - begin, 1e-6), search._stop)
        search.seconds += time.perf_counter() - begin
        if sum(e.worlds) == 0:              # every world given up: the MCTS searches this root
            search._ending = (search.root, None)
            return False
        search.iterations += charged
        left = None if left is None else left - charged
        if search._stop.is_set() or (deadline is not None and time.perf_counter() >= deadline) \
                or (left is not None and left <= 0) or report is None:
            return True
        report(search.result())


def result(search, multipv, SearchInfo, MoveInfo, own_next):
    """``Search.result`` of a root scored by the exact endings (a SearchInfo with ``exact``
    True), or None when it was not.  session.py passes its SearchInfo and MoveInfo classes
    and its ``own_next`` (this module does not import it: no import cycle)."""
    cached = getattr(search, "_ending", None)
    if cached is None or cached[0] is not search.root or cached[1] is None:
        return None
    e = cached[1]
    if sum(e.worlds) == 0:
        return None
    rows = e.rows()
    me = int(e.viewer)
    infos = []
    for a, w, wins, ex in rows[:multipv]:
        line, line_wins = e.pv_line(a, wins[me], own_next)
        infos.append(MoveInfo(a, w, wins[me], wins, line, line_wins, exact=ex))
    return SearchInfo(
        move=rows[0][0], moves=infos, iterations=search.iterations, visits=search.iterations,
        nodes=int(sum(s[ST_NODES] for s in e.stats)), seconds=search.seconds,
        win_chances=list(rows[0][2]), forced=False, exact=True,
        alternatives=[(a, w, wins[me]) for a, w, wins, _ in rows])
