"""``Search``: one persistent ISMCTS search of a position, the one object behind every face.

    s = Search(position, SearchConfig(threads=2))
    s.run(iterations=10_000)      # grows the trees
    s.run(seconds=1.0)            # ... and keeps growing the same trees
    info = s.result(multipv=3)    # per root move: visits, win chances, principal variation
    s.advance(info.move)          # the chosen move's subtree becomes the new root

The search keeps ``threads`` root-parallel trees (one per thread, each with its own
determinizations and seed); the per-move statistics of ``result()`` sum them, the one root
merge of the library (DESIGN, search).  ``run(...)`` always continues the same trees, so a
long search is one tree, not a sum of short ones.  ``stop()``, from any thread, ends the
current ``run`` after the batch of iterations in progress (``batch`` iterations, well under a
millisecond a thread); the flag is read between batches whatever the budget.

A search sees only what the player to act at its root may see: the kernels work on
determinizations of his view (search/determinize.py), never on the other hands or the bag
order in the state given.
"""
import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import (TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple,
                    TypedDict, Union, cast)

import numpy as np
import numpy.typing as npt

from tne_ai.core import state as S
from tne_ai.core.notation import move_text
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import make_rng
from tne_ai.errors import TneError
from tne_ai.search import ending
from tne_ai.search.config import SearchConfig, canonical
from tne_ai.search.evaluate import EVAL_DEFAULT, W_LEADER, model_prior, model_weights
from tne_ai.search.policy import policy_of_file, policy_scratch, score_root
from tne_ai.search.value import net_of_file, value_scratch
from tne_ai.search.mcts import (CFG_BELIEF, CFG_C, CFG_EVEN_ROOT, CFG_NORM, CFG_OPEN_LOSING, CFG_ROLLOUT,
                                CFG_SIZE, CFG_WIDEN_A, CFG_WIDEN_C, commit_outcomes,
                                reusable_node, run_iterations, smallest_commit, thread_seed)
from tne_ai.search.tree import Scratch, Tree, copy_subtree

if TYPE_CHECKING:
    from tne_ai.position import Position

State = S.State
# what a search is made from: a Position or its state buffer
PositionOrState = Union["Position", State]
# (action code, visits, mean reward of the mover) of a root move
Alternative = Tuple[int, int, float]
# arrays of weights (the fitted evaluation's, the move-kind prior's)
Weights = npt.ArrayLike

# Nodes per thread a search grows to unless ``capacity`` is set: one node per iteration at
# most; a time budget is sized at 200,000 iterations a second (above what one thread
# reaches here); at most AUTO_NODES (4M nodes, 164 MB a tree).  Past it the tree stops
# growing and the iterations refine the nodes it has.
AUTO_NODES = 1 << 22
NODES_PER_SECOND = 200_000


class SearchError(TneError):
    """A search that cannot be made or run (a finished game, a bad budget)."""


def round_win(x: float) -> float:
    """A win chance or a time as the faces show it: 4 decimals."""
    return round(float(x), 4)


def commit_margin_decides(config: SearchConfig, st: State) -> bool:
    """Whether ``smallest_commit`` (the commit margin), not the visits, chooses the move of a
    search of ``st`` with the resolved ``config``: a root commit decision (revolt or war)
    with a commit margin above 0."""
    return (config.commit_margin or 0.0) > 0 and int(st[S.PHASE]) in (S.PH_REVOLT, S.PH_WAR)


class MoveDict(TypedDict):
    """``MoveInfo.to_dict()``: one root move (a line of the analysis), moves as text."""
    move: str
    code: int
    visits: int
    win: Optional[float]            # None for a forced move (nothing searched)
    wins: Optional[List[float]]
    pv: List[str]
    pv_win: List[Optional[float]]
    exact: Optional[bool]


class AlternativeDict(TypedDict):
    """One root move of ``SearchInfo.to_dict()["alternatives"]``."""
    move: str
    code: int
    visits: int
    mean: float                     # the mover's mean reward through it
    win: Optional[float]            # the same, None for a move never visited


class SearchDict(TypedDict):
    """``SearchInfo.to_dict()``: the one dict of a search's result that every face (the
    Python API, the engine protocol, the web, the CLI's JSON) takes its fields from."""
    move: str
    code: int
    iterations: int
    visits: int
    nodes: int
    seconds: float
    forced: bool
    stopped: bool
    exact: bool
    win_chances: List[float]
    lines: List[MoveDict]           # the result's root moves (multipv), chosen move first
    alternatives: List[AlternativeDict]     # every root move, most visited first


@dataclass
class MoveInfo:
    """One root move of a search: its visits (all threads), the mover's win chance (mean
    reward of the iterations through it), every player's win chance over this search's
    iterations through it (None for a move only reached through an inherited subtree), its
    principal variation (``Search.pv_line``: the move, then his most visited actions to the
    end of his turn, as action codes) and the mover's win chance at each move of it."""
    move: int
    visits: int
    win: float
    wins: Optional[List[float]]
    pv: List[int]
    pv_win: List[Optional[float]] = field(default_factory=list)
    exact: Optional[bool] = None    # exact endings: every line after it ended the game

    def to_dict(self, forced: bool = False) -> MoveDict:
        """This move with its moves as text and its win chances to 4 decimals (``forced``:
        the root's only move, not searched, so no win chance)."""
        return {"move": move_text(self.move), "code": self.move, "visits": self.visits,
                "win": None if forced else round_win(self.win),
                "wins": None if self.wins is None else [round_win(w) for w in self.wins],
                "pv": [move_text(a) for a in self.pv],
                "pv_win": [None if forced or w is None else round_win(w) for w in self.pv_win],
                "exact": self.exact}


@dataclass
class SearchInfo:
    """What ``Search.result()`` reports: the move to play, the root moves most visited
    first (``multipv`` of them), the iterations run since the root was set, the root's
    visits (those plus the ones inherited by ``advance``), nodes, seconds of ``run``,
    every player's win chance over the iterations run, and whether the move was forced
    (one legal move: nothing searched).  ``exact``: the root was scored by the exact
    endings (search/ending.py): each move's visits are the worlds solved, its win chance
    the mean over them of the best result the mover reaches after it.

    ``search()`` returns one with ``session``, the Search that made it, whose trees a later
    search may continue (``Search(..., reuse=info)``); ``SearchResult`` is its old name."""
    move: int
    moves: List[MoveInfo]
    iterations: int
    visits: int
    nodes: int
    seconds: float
    win_chances: List[float]
    forced: bool = False
    stopped: bool = False
    alternatives: List[Alternative] = field(default_factory=list)   # all root moves
    exact: bool = False
    session: Optional["Search"] = field(default=None, repr=False, compare=False)

    @property
    def reused(self) -> int:
        """The root's visits inherited from an earlier search (``advance``, ``reuse``)."""
        return self.visits - self.iterations

    @property
    def trees(self) -> List[Optional[Tree]]:
        """The session's trees, one per thread ([] without a session)."""
        return self.session.trees if self.session is not None else []

    @property
    def root(self) -> Optional[State]:
        """The state the session searched from (None without a session)."""
        return self.session.root if self.session is not None else None

    @property
    def viewer(self) -> Optional[int]:
        """The player to act at the session's root (None without a session)."""
        return self.session.viewer if self.session is not None else None

    def to_dict(self) -> SearchDict:
        """The result as one JSON-ready dict: moves as text (with their codes), win chances
        and seconds to 4 decimals; the faces take their fields from it."""
        return {"move": move_text(self.move), "code": self.move,
                "iterations": self.iterations, "visits": self.visits, "nodes": self.nodes,
                "seconds": round_win(self.seconds), "forced": self.forced, "stopped": self.stopped,
                "exact": self.exact, "win_chances": [round_win(w) for w in self.win_chances],
                "lines": [m.to_dict(self.forced) for m in self.moves],
                "alternatives": [{"move": move_text(a), "code": a, "visits": v, "mean": round_win(m),
                                  "win": round_win(m) if v > 0 else None}
                                 for a, v, m in self.alternatives]}


# the result's old name (``search()`` once returned a type of its own)
SearchResult = SearchInfo


def _state_of(position_or_state: object) -> State:
    st = getattr(position_or_state, "st", position_or_state)
    if not isinstance(st, np.ndarray) or st.dtype != np.int64 or st.shape != (S.STATE_SIZE,):
        raise SearchError("a search needs a Position or a state array (int64, STATE_SIZE)")
    copy: State = st.copy()
    return copy


# the trees a search inherits from: (trees, the root they were searched from, its viewer)
Inherited = Tuple[List[Optional[Tree]], State, int]


class Search:
    """A persistent search of one position for the player to act there (see the module)."""

    config: SearchConfig
    root: State                          # the state searched from
    viewer: int                          # the player to act there
    legal: List[int]                     # the legal moves at the root
    trees: List[Optional[Tree]]          # one per thread (None until it runs)
    scratch: List[Scratch]
    iterations: int                      # run since the root was set
    seconds: float
    _inherit: Optional[Inherited]        # the trees to take this root's subtree from

    def __init__(self, position_or_state: PositionOrState, config: Optional[SearchConfig] = None,
                 *, weights: Optional[Weights] = None, prior_w: Optional[Weights] = None,
                 reuse: Union["Search", SearchInfo, None] = None) -> None:
        """``config``: a SearchConfig (default ``SearchConfig()``); ``weights``/``prior_w``:
        arrays replacing the config's weights; ``reuse``: an earlier Search (or the
        SearchInfo of ``search()``, through its ``session``) whose subtree of this position
        the trees start from, when the position follows from its root without a draw."""
        st = _state_of(position_or_state)
        self.config = (config if config is not None else SearchConfig()).resolved(
            int(st[S.PLAYERS]))
        cfg = self.config
        self._model_w, self._prior_w = _ingredients(cfg, weights, prior_w)
        self._net = _value_net(cfg)
        self._policy = policy_of_file(cfg.policy) if cfg.prior == "policy" else None
        self._settle = True if cfg.settle else None
        self._rollout = True if cfg.rollout != 0 else None     # 0: no playout compiled (mcts)
        self._cfg = np.zeros(CFG_SIZE)
        self._cfg[CFG_WIDEN_C] = cfg.widen
        self._cfg[CFG_WIDEN_A] = cfg.widen_exp
        self._cfg[CFG_EVEN_ROOT] = 1.0 if (cfg.commit_margin or 0.0) > 0 else 0.0
        self._cfg[CFG_C] = cfg.c
        self._cfg[CFG_ROLLOUT] = cfg.rollout
        self._cfg[CFG_OPEN_LOSING] = cfg.open_losing
        self._cfg[CFG_NORM] = 1.0 if cfg.norm else 0.0
        self._cfg[CFG_BELIEF] = 1.0 if cfg.belief else 0.0
        self._eval = EVAL_DEFAULT.copy()
        self._eval[W_LEADER] = cfg.leader
        self._stop = threading.Event()
        self._lock = threading.Lock()          # one run at a time
        self._rngs = [make_rng(thread_seed(cfg.seed, i)) for i in range(cfg.threads)]
        self._set_root(st)
        source = reuse.session if isinstance(reuse, SearchInfo) else reuse
        if source is not None:
            self._inherit = (source.trees, source.root, source.viewer)

    def _set_root(self, st: State, inherit: Optional[Inherited] = None) -> None:
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        n = legal_moves(st, moves) if st[S.PHASE] != S.PH_OVER else 0
        if n == 0:
            raise SearchError("the game is over: no move to search")
        self.root = st
        self.viewer = int(st[S.TO_ACT])
        self.legal = [int(m) for m in moves[:n]]
        self.trees = [None] * self.config.threads
        self.scratch = [Scratch() for _ in range(self.config.threads)]
        self._net_scratch: List[Optional[tuple]] = [
            None if self._net is None else value_scratch(self._net)
            for _ in range(self.config.threads)]
        # per thread, the policy's arguments (network, scratch, root scores and kinds): the root's
        # moves are scored once, their scores read by every thread
        self._policy_args: List[Optional[tuple]] = [None] * self.config.threads
        if self._policy is not None:
            scratch = [policy_scratch(self._policy) for _ in range(self.config.threads)]
            root_scores = np.zeros(S.N_ACTIONS)
            root_kinds = np.zeros(S.N_ACTIONS, dtype=np.int64)
            score_root(st, self._policy, scratch[0], root_scores, root_kinds)
            self._policy_args = [(self._policy, s, root_scores, root_kinds) for s in scratch]
        self.iterations = 0
        self.seconds = 0.0
        self._inherit = inherit                # (trees, root, viewer) to take subtrees from

    # --- running ------------------------------------------------------------------------
    @property
    def forced(self) -> bool:
        """True when the root has one legal move (nothing to search)."""
        return len(self.legal) == 1

    def run(self, iterations: Optional[int] = None, seconds: Optional[float] = None,
            report: Optional[Callable[["SearchInfo"], None]] = None,
            every: Optional[float] = None) -> "SearchInfo":
        """Continue the search: ``iterations`` more (all threads together) and/or
        ``seconds`` more, whichever ends first; neither: until ``stop()``.  Returns
        ``result()``.  A forced move is not searched.  ``report(info)``, when given, is
        called with ``result()`` every ``every`` seconds of the run (between rounds of
        batches, all threads paused, so the statistics are consistent); the rounds do not
        change the search: each thread keeps its share of the iterations, so the same
        budget and seed give the same trees with or without reports."""
        if iterations is not None:
            if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
                raise SearchError(f"iterations={iterations!r}: a positive integer")
        for name, value in (("seconds", seconds), ("every", every)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not math.isfinite(value) or value <= 0):
                raise SearchError(f"{name}={value!r}: a positive number")
        if report is not None and every is None:
            raise SearchError("report needs every (seconds between reports)")
        with self._lock:
            if not self.forced:
                self._run(iterations, seconds, report, every)
            self._stop.clear()
        return self.result()

    def stop(self) -> None:
        """End the current run after the batch in progress (callable from any thread; a
        stop before a run starts ends that run after its first batch)."""
        self._stop.set()

    def _capacity(self, share: Optional[int], seconds: Optional[float]) -> int:
        if self.config.capacity is not None:
            return self.config.capacity
        if share is not None:
            need = share + 2
            if seconds is not None:
                need = min(need, max(1 << 16, int(seconds * NODES_PER_SECOND)))
        else:
            need = max(1 << 16, int(seconds * NODES_PER_SECOND)) if seconds is not None else 1 << 16
        return min(need, AUTO_NODES)

    def _tree(self, i: int, share: Optional[int], seconds: Optional[float]) -> Tree:
        """Thread i's tree, made (from an inherited subtree when there is one) or grown to
        hold this run's nodes."""
        want = self._capacity(share, seconds)
        tree = self.trees[i]
        if tree is None:
            tree = Tree(want)
            old = self._inherited(i)
            if old is not None:
                bigger = Tree(want + int(old[0].count[0]))
                if copy_subtree(old[0].packed, old[1], bigger.packed) > 0:
                    tree = bigger
        elif self.config.capacity is None and int(tree.count[0]) + want > tree.capacity \
                and tree.capacity < AUTO_NODES:
            tree = _grown(tree, min(AUTO_NODES, max(int(tree.count[0]) + want, 2 * tree.capacity)))
        self.trees[i] = tree
        return tree

    def _inherited(self, i: int) -> Optional[Tuple[Tree, int]]:
        """(old tree, node) whose subtree is this root in thread i's inherited tree, or None."""
        if self._inherit is None:
            return None
        trees, root, viewer = self._inherit
        return _subtree_of(trees[i] if i < len(trees) else None, root, viewer, self.root, self.legal)

    def _run(self, iterations: Optional[int], seconds: Optional[float],
             report: Optional[Callable[[SearchInfo], None]] = None,
             every: Optional[float] = None) -> None:
        # --- exact endings (search/ending.py): when the game can end within the mover's own
        # actions, the turn is scored to its end over sampled worlds and no tree is grown
        if ending.run(self, iterations, seconds, report, every):
            return
        # --- end of exact endings
        threads = self.config.threads
        start = time.perf_counter()
        deadline = start + seconds if seconds is not None else None
        share = -(-iterations // threads) if iterations is not None else None
        for i in range(threads):
            self._tree(i, share, seconds)
        self._inherit = None
        pool = ThreadPoolExecutor(max_workers=threads) if threads > 1 else None
        try:
            # the next report's time
            clock: List[Optional[float]] = [None if report is None or every is None
                                            else start + every]
            self._rounds(pool, iterations, deadline, report, every, clock)
        finally:
            if pool is not None:
                pool.shutdown()

    def _rounds(self, pool: Optional[ThreadPoolExecutor], iterations: Optional[int],
                deadline: Optional[float], report: Optional[Callable[[SearchInfo], None]],
                every: Optional[float], clock: List[Optional[float]]) -> None:
        """Run ``iterations`` (all threads together; None: no count) until ``deadline``
        (None: none) or stop, in rounds of batches that pause for ``report(result())`` at
        the times ``clock[0]`` (then ``every`` seconds later; one round unless ``report`` is
        given)."""
        threads = self.config.threads
        left: List[Optional[int]] = [None] * threads
        if iterations is not None:
            left = [iterations // threads + (1 if i < iterations % threads else 0) for i in range(threads)]
        while True:     # rounds of batches: one round unless reports are asked for
            begin = time.perf_counter()
            until = deadline if clock[0] is None else \
                (clock[0] if deadline is None else min(deadline, clock[0]))

            def one(j: int) -> int:
                return self._batches(j, left[j], until)
            done = [one(0)] if pool is None else list(pool.map(one, range(threads)))
            self.iterations += sum(done)
            self.seconds += time.perf_counter() - begin
            left = [None if x is None else x - d for x, d in zip(left, done)]
            now = time.perf_counter()
            if clock[0] is not None and now >= clock[0] and report is not None \
                    and every is not None:
                report(self.result())
                clock[0] = time.perf_counter() + every
            if self._stop.is_set() or (deadline is not None and now >= deadline) \
                    or all(x is not None and x <= 0 for x in left) or clock[0] is None:
                return

    def _batches(self, i: int, budget: Optional[int], deadline: Optional[float]) -> int:
        """Batches of iterations on thread i's tree until its budget, the deadline or stop;
        a tree about to fill is grown first (twice the size, up to AUTO_NODES) unless the
        config fixes the capacity."""
        batch = self.config.batch
        tree, scratch, rng = self.trees[i], self.scratch[i], self._rngs[i]
        assert tree is not None, "a thread's tree is made before it runs (_tree)"
        done = 0
        while True:
            step = batch if budget is None else min(batch, budget - done)
            if step <= 0:
                break
            if self.config.capacity is None and int(tree.count[0]) + step > tree.capacity \
                    and tree.capacity < AUTO_NODES:
                tree = self.trees[i] = _grown(tree, min(AUTO_NODES, 2 * tree.capacity))
            net = None if self._net is None else (self._net, self._net_scratch[i])
            run_iterations(self.root, self.viewer, step, self._cfg, self._eval, self._model_w,
                           self._prior_w, self._settle, self._rollout, rng, scratch.packed,
                           tree.packed, net, self._policy_args[i])
            done += step
            if (deadline is not None and time.perf_counter() >= deadline) or self._stop.is_set():
                break
        return done

    # --- reading ------------------------------------------------------------------------
    def alternatives(self) -> List[Tuple[int, int, float]]:
        """(action, visits, mean reward of the mover) of every root move, all threads
        summed, most visited first (ties: the better mean, then the lower code)."""
        if self.forced:
            return [(self.legal[0], 0, 0.0)]
        stats: Dict[int, Tuple[int, float]] = {}
        for tree in self.trees:
            if tree is None:
                continue
            for a, v, m in tree.root_children():
                tv, tval = stats.get(a, (0, 0.0))
                stats[a] = (tv + v, tval + m * v)
        return sorted(((a, v, val / v if v else 0.0) for a, (v, val) in stats.items()),
                      key=lambda x: (-x[1], -x[2], x[0]))

    def best_move(self, alternatives: Optional[List[Alternative]] = None) -> int:
        """The move to play: the most visited, except at a root commit decision with a
        commit margin, where ``smallest_commit`` chooses (search/mcts.py)."""
        alternatives = self.alternatives() if alternatives is None else alternatives
        if not alternatives:
            return self.legal[0]
        move = alternatives[0][0]
        if commit_margin_decides(self.config, self.root) and alternatives[0][1] > 0:
            move = smallest_commit(alternatives, self.config.commit_margin, commit_outcomes(self.root))
        return move

    def pv(self, move: int) -> List[int]:
        """The principal variation of a root move (``pv_line``'s moves)."""
        return self.pv_line(move)[0]

    def pv_line(self, move: int) -> Tuple[List[int], List[Optional[float]]]:
        """(moves, win chances) of a root move's principal variation: the move, then the
        most visited child while the root's player chooses in the same turn, read from the
        tree where the move has the most visits.  It ends where his turn ends, where
        another player acts, or after a swap that draws tiles (what he draws is unknown);
        each move's win chance is the mean reward of its node for him (None: unvisited)."""
        best: Optional[Tree] = None
        node = -1
        for tree in self.trees:
            if tree is None:
                continue
            for ch in tree.children(0):
                if int(tree.action[ch]) == move and (best is None or tree.visits[ch] > best.visits[node]):
                    best, node = tree, ch
        line, wins = [int(move)], [_mean(best, node)]
        st = own_next(self.root, move)
        while best is not None and st is not None and len(line) < PV_MAX:
            t = best
            kids = [ch for ch in t.children(node) if t.visits[ch] > 0]
            if not kids:
                break
            node = max(kids, key=lambda ch: (int(t.visits[ch]), -int(t.action[ch])))
            if int(t.player[node]) != self.viewer:
                break
            line.append(int(t.action[node]))
            wins.append(_mean(t, node))
            st = own_next(st, int(t.action[node]))
        return line, wins

    def result(self, multipv: int = 1) -> SearchInfo:
        """The search so far as a SearchInfo, with ``multipv`` root moves (the chosen move
        first, then the most visited others), each with its principal variation."""
        if isinstance(multipv, bool) or not isinstance(multipv, int) or multipv < 1:
            raise SearchError(f"multipv={multipv!r}: a positive integer")
        # exact endings
        exact: Optional[SearchInfo] = ending.result(self, multipv, SearchInfo, MoveInfo, own_next)
        if exact is not None:
            return exact
        alts = self.alternatives()
        move = self.best_move(alts)
        order = [a for a in alts if a[0] == move] + [a for a in alts if a[0] != move]
        sums = cast(npt.NDArray[np.float64], sum(sc.move_sums for sc in self.scratch))
        players = int(self.root[S.PLAYERS])
        infos = []
        for a, v, m in order[:multipv]:
            through = sums[a, 4]
            wins = [float(x / through) for x in sums[a, :players]] if through > 0 else None
            line, line_wins = self.pv_line(a)
            infos.append(MoveInfo(int(a), int(v), float(m), wins, line, line_wins))
        root_sum = cast(npt.NDArray[np.float64], sum(sc.root_sum for sc in self.scratch))
        return SearchInfo(
            move=int(move), moves=infos, iterations=self.iterations,
            visits=sum(int(t.visits[0]) for t in self.trees if t is not None),
            nodes=sum(int(t.count[0]) for t in self.trees if t is not None) if not self.forced else 1,
            seconds=self.seconds,
            win_chances=[float(x) / max(1, self.iterations) for x in root_sum[:players]],
            forced=self.forced, alternatives=alts)

    # --- moving on ----------------------------------------------------------------------
    def advance(self, move_or_position: Union[int, np.integer, PositionOrState]) -> bool:
        """Move the root to the position after ``move`` (an action code legal at the root),
        or to a later position given (the state or Position after the opponents' decisions,
        for instance), keeping the subtree that leads there.  True when done; False, with
        the search left as it was, when the position does not follow from the trees
        without a tile draw (a new turn) or another player acts there: make a new Search
        of the position then."""
        if isinstance(move_or_position, (int, np.integer)) and not isinstance(move_or_position, bool):
            move = int(move_or_position)
            if move not in self.legal:
                raise SearchError(f"advance: {move} is not a legal move at the root")
            after = self.root.copy()
            apply_action(after, move, make_rng(0))
        else:
            after = _state_of(move_or_position)
        if after[S.PHASE] == S.PH_OVER or int(after[S.TO_ACT]) != self.viewer:
            return False
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        legal = [int(m) for m in moves[:legal_moves(after, moves)]]
        # a root that was never searched (a forced move) passes on the trees it inherited
        source: Inherited = (self.trees, self.root, self.viewer)
        if all(t is None for t in self.trees) and self._inherit is not None:
            source = self._inherit
        trees, root, viewer = source
        if not any(_subtree_of(t, root, viewer, after, legal) for t in trees):
            return False
        with self._lock:
            self._set_root(after, inherit=source)
        return True


PV_MAX = 16     # moves of a principal variation at most (a turn is two actions and decisions)


def _mean(tree: Optional[Tree], node: int) -> Optional[float]:
    if tree is None or node < 0 or tree.visits[node] <= 0:
        return None
    return float(tree.value[node]) / int(tree.visits[node])


def own_next(st: State, code: int) -> Optional[State]:
    """The state after the player to act plays ``code``, while he still acts in the same
    turn and nothing unknown to him was drawn (a swap from a non-empty bag draws); else None."""
    if S.A_SWAP <= code < S.A_PASS and int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum()) > 0:
        return None
    me, turn = int(st[S.TO_ACT]), int(st[S.TURN])
    child: State = st.copy()
    apply_action(child, int(code), make_rng(0))
    if child[S.PHASE] == S.PH_OVER or int(child[S.TO_ACT]) != me or int(child[S.TURN]) != turn:
        return None
    return child


def move_seed(seed: int, k: int) -> int:
    """The seed of the k-th move's search for a player (agent or engine) seeded ``seed``."""
    return (int(seed) * 100003 + int(k)) & 0x7FFFFFFFFFFFFFFF


def seconds_left(seconds: Optional[float], since: float) -> Optional[float]:
    """What is left of a time budget of ``seconds`` counted from ``time.perf_counter()`` value
    ``since`` (None: no time budget), at least a millisecond.  The engine and the agents count
    a move's time from when it was asked for, so the search's setup (``next_search``: finding
    the last tree's subtree, which replays its nodes a few plies deep) is part of it."""
    if seconds is None:
        return None
    return max(0.001, seconds - (time.perf_counter() - since))


def next_search(last: Optional["Search"], position_or_state: PositionOrState,
                config: SearchConfig, *, weights: Optional[Weights] = None,
                prior_w: Optional[Weights] = None) -> "Search":
    """The Search for the next decision of a player: ``last`` moved on to the position
    (``advance``: its trees and random streams continue) when the config asks for reuse,
    the config is unchanged but for the seed, and the position follows from last's root;
    else a new Search of the position with ``config``.  The agents and ``tne engine`` both
    use it, so the same decisions give the same searches."""
    cfg = config.resolved(int(_state_of(position_or_state)[S.PLAYERS]))
    if last is not None and cfg.reuse and last.config.replace(seed=cfg.seed) == cfg \
            and last.advance(position_or_state):
        return last
    return Search(position_or_state, config, weights=weights, prior_w=prior_w)


def _subtree_of(old: Optional[Tree], root: State, viewer: int, st: State,
                legal: Sequence[int]) -> Optional[Tuple[Tree, int]]:
    """(old, node) when tree old (searched from root for viewer) holds a node whose position
    is st as viewer sees it (``reusable_node``) and every child there is legal in st."""
    if old is None or viewer != int(st[S.TO_ACT]):
        return None
    x = reusable_node(old, root, st, viewer)
    if x <= 0:
        return None
    allowed = set(legal)
    if any(int(old.action[ch]) not in allowed for ch in old.children(x)):
        return None                     # every root child must be legal here
    return old, x


def _grown(tree: Tree, capacity: int) -> Tree:
    """A copy of tree with room for capacity nodes (node numbers unchanged)."""
    bigger = Tree(capacity)
    n = int(tree.count[0])
    for a, b in zip(tree.packed[:-1], bigger.packed[:-1]):
        b[:n] = a[:n]
    bigger.count[0] = n
    return bigger


def check_files(cfg: SearchConfig) -> None:
    """Read the value network and policy files cfg searches with now (TneError for a bad
    one), so that a bad file is one error at once, not one a move."""
    if cfg.evaluation == "net":
        net_of_file(cfg.net)
    if cfg.prior == "policy":
        policy_of_file(cfg.policy)


def _value_net(cfg: SearchConfig) -> Optional[tuple]:
    """The value network's arrays (the kernels' tuple) when the config evaluates with it:
    the config's file, else the shipped one; None otherwise."""
    return net_of_file(cfg.net) if cfg.evaluation == "net" else None


def _ingredients(cfg: SearchConfig, weights: Optional[Weights], prior_w: Optional[Weights]
                 ) -> Tuple[Optional[npt.NDArray[np.float64]], Optional[npt.NDArray[np.float64]]]:
    """(fitted evaluation weights or None, prior weights or None) for the config: arrays
    given win over the config's weights file, which wins over the shipped weights."""
    if weights is None and prior_w is None and cfg.weights is not None:
        from tne_ai.search.evaluate import load_weights
        weights, prior_w = load_weights(cfg.weights)
    model_w = None if cfg.evaluation != "model" else \
        (model_weights() if weights is None else np.asarray(weights, dtype=np.float64))
    prior = np.asarray(model_prior() if prior_w is None else prior_w, dtype=np.float64) \
        if cfg.prior in ("kinds", "policy") else None
    return model_w, prior


# --- search(): one run of a new Search, the call of the faces that search once -----------

# search()'s keyword arguments that are options of SearchConfig under another name
_KEYWORDS = {"seconds": "time", "rollout_depth": "rollout", "leader_value": "leader",
             "settle_leaves": "settle"}


def config_of(config: Optional[SearchConfig] = None, **keywords: Any) -> SearchConfig:
    """The SearchConfig of ``search()``'s keyword arguments: ``config`` (default
    ``SearchConfig()``) with every keyword that is not None put in, by canonical name or
    alias (``search(evaluation="basic", widen=0)``, ``search(config=cfg, seconds=2)``)."""
    given = {_KEYWORDS.get(k, k): v for k, v in keywords.items() if v is not None}
    for k in given:
        canonical(k)
    return (config if config is not None else SearchConfig()).replace(**given)


def search(st: PositionOrState, iterations: Optional[int] = None,
           seconds: Optional[float] = None, threads: Optional[int] = None,
           seed: Optional[int] = None, c: Optional[float] = None,
           rollout_depth: Optional[int] = None, leader_value: Optional[float] = None,
           capacity: Optional[int] = None, batch: Optional[int] = None,
           evaluation: Optional[str] = None, prior: Optional[str] = None,
           widen: Optional[float] = None, widen_exp: Optional[float] = None,
           settle_leaves: Optional[bool] = None,
           weights: Union[Weights, str, "os.PathLike[str]", None] = None,
           prior_w: Optional[Weights] = None, commit_margin: Optional[float] = None,
           reuse: Union["Search", SearchInfo, None] = None,
           config: Optional[SearchConfig] = None,
           on_start: Optional[Callable[["Search"], None]] = None) -> SearchInfo:
    """ISMCTS from state st for the player to act there; budgets by iterations, by seconds,
    or both (whichever is reached first).  ``threads`` root-parallel trees, merged at the root
    by summing visits and values per action.  Returns the run's SearchInfo (what
    ``Search.run`` returns; its ``session`` is the Search, its ``reused`` the visits
    inherited; a forced move is answered unsearched, with 0 iterations).

    The options are those of ``config`` (a ``SearchConfig``; default ``SearchConfig()``),
    each keyword given (not None) replacing its option: ``evaluation``: "net" (the value
    network of search/value.py, the default), "model" (the fitted linear evaluation,
    ``weights`` or the shipped ones) or "basic" (the hand-set one of the frozen baseline).
    ``prior``: "policy" (the move policy of search/policy.py at the root, the move-kind
    scores below it; the default), "kinds" (the move-kind scores of ``priors``) or "none".
    ``widen``, ``widen_exp``: progressive widening (0 turns it off: untried moves open at
    random).  ``settle_leaves``: settle pending decisions before scoring a leaf (default:
    with the net and the model).  Unset options take ``EVALUATION_DEFAULTS`` for the evaluation chosen,
    (and ``COUNT_DEFAULTS`` for the position's player count), so ``evaluation="basic",
    prior="none", widen=0`` is the search as it was before the
    fitted evaluation (the frozen baseline).  ``weights`` and ``prior_w`` may be arrays
    (they then replace the config's weights file); ``reuse`` is an earlier result (or
    Search) whose tree is continued when this position follows from its root; ``on_start(s)`` is
    called with the Search before it runs, so that another thread can ``s.stop()`` it."""
    arrays: Optional[Weights] = None
    weights_path: Union[str, "os.PathLike[str]", None] = None
    if isinstance(weights, (str, bytes, os.PathLike)):
        weights_path = weights if not isinstance(weights, bytes) else weights.decode()
    else:
        arrays = weights
    cfg = config_of(config, iterations=iterations, seconds=seconds, threads=threads, seed=seed,
                    c=c, rollout_depth=rollout_depth, leader_value=leader_value,
                    capacity=capacity, batch=batch, evaluation=evaluation, prior=prior,
                    widen=widen, widen_exp=widen_exp, settle_leaves=settle_leaves,
                    commit_margin=commit_margin, weights=weights_path)
    if arrays is None and prior_w is None and cfg.weights is not None:
        from tne_ai.search.evaluate import load_weights
        arrays, prior_w = load_weights(cfg.weights)
    return _search(st, cfg.resolved(int(_state_of(st)[S.PLAYERS])), arrays, prior_w, reuse,
                   on_start)


def _search(st: PositionOrState, cfg: SearchConfig, weights: Optional[Weights],
            prior_w: Optional[Weights], reuse: Union["Search", SearchInfo, None],
            on_start: Optional[Callable[["Search"], None]] = None) -> SearchInfo:
    """search() with a resolved SearchConfig: one run of a new ``Search`` (search/session.py)
    from the subtree of ``reuse`` when the position follows from it; the run's SearchInfo
    with the Search as its ``session``."""
    if cfg.iterations is None and cfg.time is None:
        raise ValueError("give an iteration budget, a time budget or both")
    s = Search(st, cfg, weights=weights, prior_w=prior_w, reuse=reuse)
    if on_start is not None:       # the caller may stop it from another thread (tne engine)
        on_start(s)
    info = s.run(cfg.iterations, cfg.time)      # a forced move is answered unsearched
    info.session = s
    return info
