"""Agents behind one small protocol, built from spec strings.

An agent has ``name`` and ``choose(position) -> int`` (an action code legal for
``position.to_act``).  It sees only what that player may see: the search and the greedy
look-ahead work on determinizations, never on the hidden hands or bag order in the position.

Spec strings: ``random``, ``greedy``, ``mcts``, ``openspiel-ismcts``, ``openspiel-mcts``, with
options after a colon, e.g. ``mcts:time=0.2,threads=2``, ``mcts:iterations=5000,c=0.7``,
``greedy:seed=3``, ``openspiel-ismcts:simulations=100``.  mcts options: iterations, time
(seconds), threads, c (UCB exploration), rollout (moves of random rollout before the
evaluation; -1 plays to the end, 0 evaluates at once, the default), leader (evaluation value
of a leader on the board), seed.  The OpenSpiel agents need the ``openspiel`` extra.
"""
import importlib

import numpy as np

from . import state as S
from .engine.apply import apply_action, conflict_strengths
from .engine.movegen import legal_moves
from .engine.rng import below, make_rng
from .engine.scoring import final_values
from .errors import TneError
from .search.determinize import determinize
from .search.mcts import DEFAULT_ROLLOUT, search


class AgentSpecError(TneError):
    """An agent spec string that names no agent or carries a bad option."""


class Agent:
    """The protocol: ``choose(position)`` returns an action code for ``position.to_act``."""

    name = "agent"

    def choose(self, position):
        raise NotImplementedError

    def __repr__(self):
        return self.name


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

    def __init__(self, seed=0, iterations=None, time=None, threads=1, c=0.7, rollout=DEFAULT_ROLLOUT,
                 leader=None):
        if iterations is None and time is None:
            time = 0.2
        self.iterations = iterations
        self.time = time
        self.threads = threads
        self.c = c
        self.rollout = rollout
        self.leader = leader
        self.seed = seed
        self.calls = 0
        parts = [f"iterations={iterations}" if iterations is not None else None,
                 f"time={time}" if time is not None else None]
        self.name = "mcts:" + ",".join(p for p in parts if p)

    def choose(self, position):
        self.calls += 1
        result = search(position.st, iterations=self.iterations, seconds=self.time,
                        threads=self.threads, seed=self.seed * 100003 + self.calls, c=self.c,
                        rollout_depth=self.rollout, leader_value=self.leader)
        self.last = result
        return result.move


# --- the registry -----------------------------------------------------------------------------

_AGENTS = {}  # kind -> (builder, {option: type})


def register_agent(kind, builder, options):
    """Make ``kind`` buildable from spec strings: ``builder(**options)`` returns the agent;
    ``options`` maps each option name to its type (int, float, str)."""
    _AGENTS[kind] = (builder, dict(options))


register_agent("random", RandomAgent, {"seed": int})
register_agent("greedy", GreedyAgent, {"seed": int})
register_agent("mcts", MctsAgent, {"seed": int, "iterations": int, "time": float, "threads": int,
                                   "c": float, "rollout": int, "leader": float})

# Agents in modules that need an optional extra: kind -> (module, extra, what it needs).  The
# module registers its agents itself when imported (register_agent); nothing here imports it
# until such an agent is asked for.
OPTIONAL_AGENTS = {"openspiel-ismcts": ("tne_ai.openspiel", "openspiel", "OpenSpiel"),
                   "openspiel-mcts": ("tne_ai.openspiel", "openspiel", "OpenSpiel")}


def _registered(kind, spec):
    """(builder, options) of kind, importing its optional module on first use."""
    if kind not in _AGENTS and kind in OPTIONAL_AGENTS:
        module, extra, needs = OPTIONAL_AGENTS[kind]
        try:
            importlib.import_module(module)
        except ImportError as e:
            raise AgentSpecError(f"agent '{kind}' needs {needs}: pip install "
                                 f"\"tne-ai[{extra}]\" ({e})") from None
    if kind not in _AGENTS:
        known = list(_AGENTS) + [k for k in OPTIONAL_AGENTS if k not in _AGENTS]
        raise AgentSpecError(f"unknown agent '{kind}' in spec '{spec}' (known: {', '.join(known)})")
    return _AGENTS[kind]


def parse_spec(spec):
    """(kind, options) of a spec string; AgentSpecError naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("empty agent spec")
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    known = _registered(kind, spec)[1]
    options = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise AgentSpecError(f"option '{item}' in spec '{spec}' needs a value (key=value)")
        if key not in known:
            raise AgentSpecError(f"unknown option '{key}' for {kind} in spec '{spec}' "
                                 f"(known: {', '.join(known)})")
        try:
            options[key] = known[key](value.strip())
        except ValueError:
            raise AgentSpecError(f"option {key}={value.strip()} in spec '{spec}' is not "
                                 f"a valid {known[key].__name__}") from None
        if key in ("iterations", "threads") and options[key] < 1 or key in ("time", "c") and options[key] <= 0 \
                or key == "rollout" and options[key] < -1:
            raise AgentSpecError(f"option {key}={value.strip()} in spec '{spec}' is out of range")
    return kind, options


def make_agent(spec, seed=None):
    """Build an agent from a spec string; ``seed`` is used unless the spec sets its own."""
    kind, options = parse_spec(spec)
    if seed is not None:
        options.setdefault("seed", seed)
    return _registered(kind, spec)[0](**options)
