"""Agents behind one small protocol, built from spec strings.

An agent has ``name`` and ``choose(position) -> int`` (an action code legal for
``position.to_act``).  It sees only what that player may see: the search and the greedy
look-ahead work on determinizations, never on the hidden hands or bag order in the position.

Spec strings: ``random``, ``greedy``, ``mcts``, ``openspiel-ismcts``, ``openspiel-mcts``, with
options after a colon, e.g. ``mcts:time=0.2,threads=2``, ``mcts:iterations=5000,c=0.7``,
``greedy:seed=3``, ``openspiel-ismcts:simulations=100``, ``engine:python my_bot.py`` (any
program speaking docs/PROTOCOL.md, see tne_ai.external).  mcts options: iterations, time
(seconds), threads, c (UCB exploration), rollout (moves of random rollout before the
evaluation; -1 plays to the end, 0 evaluates at once, the default), leader (evaluation value
of a leader on the board), seed.  The OpenSpiel agents need the ``openspiel`` extra.
"""
import importlib
import re

import numpy as np

from . import limits as L
from . import state as S
from .engine.apply import apply_action, conflict_strengths
from .engine.movegen import legal_moves
from .engine.rng import below, make_rng
from .engine.scoring import final_values
from .agent_base import Agent, AgentForfeit, AgentSpecError  # noqa: F401 (re-exported)
from .external import ExternalAgent, parse_engine_spec
from .search.determinize import determinize
from .search.mcts import DEFAULT_ROLLOUT
from .search.session import search


class RandomAgent(Agent):
    """Uniform over the legal moves."""

    def __init__(self, seed=0):
        self.name = "random"
        self.rng = make_rng(seed)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)

    def choose(self, position):
        n = legal_moves(position.st, self.moves)
        return int(self.moves[below(self.rng, n)])


class GreedyAgent(Agent):
    """One ply: the action that most raises its own lowest colour (treasures added), then its
    total; ties broken at random.  Decisions: commit just enough to win a conflict it can win
    (an attacker commits all its tiles when that beats the defender's board strength), fight
    first the war colour in which it is strongest, always build a monument, any treasure."""

    def __init__(self, seed=0):
        self.name = "greedy"
        self.rng = make_rng(seed)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.values = np.empty(4, dtype=np.int64)

    def _key(self, st, player):
        final_values(st, player, self.values)
        return (int(self.values[0]), int(self.values.sum()))

    def choose(self, position):
        st = position.st
        me = int(st[S.TO_ACT])
        n = legal_moves(st, self.moves)
        codes = self.moves[:n].copy()
        if n == 1:
            return int(codes[0])
        phase = int(st[S.PHASE])
        if phase in (S.PH_REVOLT, S.PH_WAR):
            return self._commit(st, me, codes)
        if phase == S.PH_MONUMENT:
            return int(codes[0])
        sample = np.empty_like(st)
        determinize(st, me, self.rng, sample)
        best, best_key = [], None
        for code in codes:
            child = sample.copy()
            apply_action(child, code, self.rng)
            key = self._key(child, me)
            if best_key is None or key > best_key:
                best, best_key = [int(code)], key
            elif key == best_key:
                best.append(int(code))
        return best[below(self.rng, len(best))]

    def _commit(self, st, me, codes):
        att, dfn = conflict_strengths(st)
        most = len(codes) - 1  # commit 0 .. most
        if me == st[S.CF_ATTACKER]:
            return int(S.A_COMMIT + (most if att + most > dfn else 0))
        need = att + st[S.CF_COMMIT] - dfn  # ties go to the defender
        return int(S.A_COMMIT + (need if 0 < need <= most else 0))


class MctsAgent(Agent):
    """ISMCTS (tne_ai.search.mcts) with an iteration and/or time budget per move."""

    def __init__(self, seed=0, iterations=None, time=None, threads=1, c=None, rollout=DEFAULT_ROLLOUT,
                 leader=None, eval="model", prior="kinds", widen=None, wexp=None, settle=None,
                 weights=None, margin=None, reuse=None, **selection):
        if iterations is None and time is None:
            time = 0.2
        self.iterations = iterations
        self.time = time
        self.threads = threads
        self.c = c
        self.rollout = rollout
        self.leader = leader
        self.evaluation = eval
        self.prior = prior
        self.widen = widen
        self.wexp = wexp
        self.settle = None if settle is None else bool(settle)
        self.margin = margin
        from .search.mcts import DEFAULTS
        self.reuse = DEFAULTS[eval]["reuse"] if reuse is None else bool(reuse)
        self.last = None
        self.weights = self.prior_w = None
        if weights is not None:
            from .search.evaluate import load_weights
            self.weights, self.prior_w = load_weights(weights)
        self.seed = seed
        self.calls = 0
        # the selection options (select, cpuct, fpu, open_losing, widen_mass): SearchConfig's own
        from .search.config import SearchConfig
        self.config = SearchConfig().replace(**selection) if selection else None
        parts = [f"iterations={iterations}" if iterations is not None else None,
                 f"time={time}" if time is not None else None]
        self.name = "mcts:" + ",".join(p for p in parts if p)

    def choose(self, position):
        self.calls += 1
        result = search(position.st, reuse=self.last if self.reuse else None, iterations=self.iterations, seconds=self.time,
                        threads=self.threads, seed=self.seed * 100003 + self.calls, c=self.c,
                        rollout_depth=self.rollout, leader_value=self.leader,
                        evaluation=self.evaluation, prior=self.prior, widen=self.widen,
                        widen_exp=self.wexp, settle_leaves=self.settle, weights=self.weights,
                        prior_w=self.prior_w, commit_margin=self.margin, config=self.config)
        self.last = result
        return result.move


def _engine_agent(**options):
    return ExternalAgent(**options)


_OPTIONS = {
    "random": {"seed": int},
    "greedy": {"seed": int},
    "mcts": {"seed": int, "iterations": int, "time": float, "threads": int, "c": float,
             "rollout": int, "leader": float, "eval": str, "prior": str, "widen": float,
             "wexp": float, "settle": int, "weights": str, "margin": float,
             "reuse": int, "select": str, "cpuct": float, "fpu": float, "open_losing": float,
             "widen_mass": float},
}
_CLASSES = {"random": RandomAgent, "greedy": GreedyAgent, "mcts": MctsAgent,
            "engine": _engine_agent}


def register_agent(kind, builder, options):
    """Make ``kind`` buildable from spec strings: ``builder(**options)`` returns the agent;
    ``options`` maps each option name to its type (int, float, str)."""
    _OPTIONS[kind] = dict(options)
    _CLASSES[kind] = builder


# Agents in modules that need an optional extra: kind -> (module, extra, what it needs).  The
# module registers its agents itself when imported (register_agent); nothing here imports it
# until such an agent is asked for.
OPTIONAL_AGENTS = {"openspiel-ismcts": ("tne_ai.openspiel", "openspiel", "OpenSpiel"),
                   "openspiel-mcts": ("tne_ai.openspiel", "openspiel", "OpenSpiel")}


def _registered(kind, spec):
    """Import the optional module of kind on first use; AgentSpecError if kind is unknown."""
    if kind not in _OPTIONS and kind in OPTIONAL_AGENTS:
        module, extra, needs = OPTIONAL_AGENTS[kind]
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise AgentSpecError(f"agent '{kind}' needs {needs}: pip install "
                                 f"\"tne-ai[{extra}]\" ({e})") from None
    if kind not in _OPTIONS:
        known = list(_OPTIONS) + [k for k in OPTIONAL_AGENTS if k not in _OPTIONS]
        raise AgentSpecError(f"unknown agent '{L.clip(kind, 40)}' in spec '{L.clip(spec, 80)}' "
                             f"(known: {', '.join(known)})")


# The range of each numeric option (tne_ai/limits.py; README, "Limits"): (low, high, low open).
_RANGES = {"seed": (0, L.MAX_SEED, False), "iterations": (1, L.MAX_ITERATIONS, False),
           "simulations": (1, L.MAX_SIMULATIONS, False), "threads": (1, L.MAX_THREADS, False),
           "time": (0, L.MAX_SECONDS, True), "c": (0, 1e6, True), "rollout": (-1, L.MAX_PLIES, False),
           "leader": (-1e6, 1e6, False), "widen": (0, 100, False), "wexp": (0, 4, False),
           "margin": (0, 1, False), "settle": (0, 1, False), "reuse": (0, 1, False),
           "cpuct": (0, 1e6, True), "fpu": (0, 1, False), "open_losing": (0, 1, False),
           "widen_mass": (0, 100, False)}
# the text options with a fixed set of values (weights= is a path, checked when it is read)
_CHOICES = {"eval": ("model", "basic"), "prior": ("kinds", "none"), "select": ("ucb", "puct"),
            "playout": ("engine", "python")}
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


def _option_value(kind, key, text, spec):
    """One option's value: ASCII numbers only (no inf, nan, '٣'), within _RANGES."""
    where = f"option {key}={L.clip(text, 40)} in spec '{L.clip(spec, 80)}'"
    convert = _OPTIONS[kind][key]
    if convert is str:
        if key in _CHOICES and text not in _CHOICES[key]:
            raise AgentSpecError(f"{where}: use one of {', '.join(_CHOICES[key])}")
        if not text:
            raise AgentSpecError(f"{where} needs a value")
        return text
    pattern = _INT_TEXT if convert is int else _FLOAT_TEXT
    if not pattern.fullmatch(text):
        raise AgentSpecError(f"{where} is not a valid {convert.__name__}")
    from .io import parse_float, parse_int
    value = (parse_int if convert is int else parse_float)(text, where)
    # an option of a registered agent without a range of its own: any 63-bit magnitude
    lo, hi, lo_open = _RANGES.get(key, (-L.MAX_SEED, L.MAX_SEED, False))
    if value < lo or value > hi or (lo_open and value == lo):
        def shown(v):
            return str(v) if isinstance(v, int) else f"{v:g}"
        low = f"{shown(lo)} < x" if lo_open else f"{shown(lo)} <= x"
        raise AgentSpecError(f"{where} is out of range ({low} <= {shown(hi)})")
    return value


def parse_spec(spec):
    """(kind, options) of a spec string; AgentSpecError naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("empty agent spec")
    if spec.strip().lower().partition(":")[0].partition("[")[0].strip() == "engine":
        return "engine", parse_engine_spec(spec)
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    _registered(kind, spec)
    options = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise AgentSpecError(f"option '{L.clip(item, 40)}' in spec '{L.clip(spec, 80)}' needs "
                                 f"a value (key=value)")
        if key not in _OPTIONS[kind]:
            raise AgentSpecError(f"unknown option '{L.clip(key, 40)}' for {kind} in spec "
                                 f"'{L.clip(spec, 80)}' "
                                 f"(known: {', '.join(_OPTIONS[kind])})")
        options[key] = _option_value(kind, key, value.strip(), spec)
    return kind, options


def make_agent(spec, seed=None):
    """Build an agent from a spec string; ``seed`` is used unless the spec sets its own."""
    kind, options = parse_spec(spec)
    if seed is not None:
        options.setdefault("seed", seed)
    return _CLASSES[kind](**options)
