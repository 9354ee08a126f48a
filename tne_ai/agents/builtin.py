"""Agents behind one small protocol, built from spec strings.

An agent has ``name`` and ``choose(position) -> int`` (an action code legal for
``position.to_act``).  It sees only what that player may see: the search and the greedy
look-ahead work on determinizations, never on the hidden hands or bag order in the position.

Spec strings: ``random``, ``greedy``, ``mcts``, ``openspiel-ismcts``, ``openspiel-mcts``, with
options after a colon, e.g. ``mcts:time=0.2,threads=2``, ``mcts:iterations=5000,c=0.7``,
``greedy:seed=3``, ``openspiel-ismcts:simulations=100``, ``engine:python my_bot.py`` (any
program speaking docs/PROTOCOL.md, see tne_ai.agents.external).  The mcts options are those of
``SearchConfig`` (tne_ai/search/config.py ``options()``, docs/search.md's table of options:
iterations, time, threads, c, seed, ...), parsed and bounded there.  The OpenSpiel agents
need the ``openspiel`` extra.
"""
import importlib
import re
import time
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Union

import numpy as np
import numpy.typing as npt

from tne_ai import limits as L
from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action, conflict_strengths
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.rng import below, make_rng
from tne_ai.core.rules.scoring import final_values
from tne_ai.agents.base import Agent, AgentForfeit, AgentSpecError  # noqa: F401 (re-exported)
from tne_ai.agents.external import ExternalAgent, parse_engine_spec
from tne_ai.search.config import SearchConfig, SearchConfigError, options as search_options, spec_items, spec_values
from tne_ai.search.determinize import determinize
from tne_ai.search.session import (Search, SearchInfo, check_files, move_seed, next_search,
                                   seconds_left)

if TYPE_CHECKING:
    from tne_ai.position import Position

# what builds an agent of a kind from its spec's options (a class or a function)
AgentBuilder = Callable[..., Agent]
# an option's value in a spec: a number or a text
SpecValue = Union[int, float, str, bool, None]


class RandomAgent(Agent):
    """Uniform over the legal moves."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "random"
        self.rng = make_rng(seed)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)

    def choose(self, position: "Position") -> int:
        n = legal_moves(position.st, self.moves)
        return int(self.moves[below(self.rng, n)])


class GreedyAgent(Agent):
    """One ply: the action that most raises its own lowest colour (treasures added), then its
    total; ties broken at random.  Decisions: commit just enough to win a conflict it can win
    (an attacker commits all its tiles when that beats the defender's board strength), fight
    first the war colour in which it is strongest, always build a monument, any treasure."""

    def __init__(self, seed: int = 0) -> None:
        self.name = "greedy"
        self.rng = make_rng(seed)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.values = np.empty(4, dtype=np.int64)

    def _key(self, st: npt.NDArray[np.int64], player: int) -> Tuple[int, int]:
        final_values(st, player, self.values)
        return (int(self.values[0]), int(self.values.sum()))

    def choose(self, position: "Position") -> int:
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
        return best[int(below(self.rng, len(best)))]

    def _commit(self, st: npt.NDArray[np.int64], me: int, codes: npt.NDArray[np.int64]) -> int:
        att, dfn = conflict_strengths(st)
        most = len(codes) - 1  # commit 0 .. most
        if me == st[S.CF_ATTACKER]:
            return int(S.A_COMMIT + (most if att + most > dfn else 0))
        need = att + st[S.CF_COMMIT] - dfn  # ties go to the defender
        return int(S.A_COMMIT + (need if 0 < need <= most else 0))


class MctsAgent(Agent):
    """ISMCTS (tne_ai.search) with an iteration and/or time budget per move: the options
    are those of a ``SearchConfig`` (tne_ai/search/config.py; canonical names or aliases),
    each move's search a ``Search`` of the position as the mover sees it.  With reuse (the
    model evaluation's default) the last Search moves on to the next decision when it
    follows from it (``session.next_search``), so the tree grows on across a turn."""

    def __init__(self, seed: int = 0, config: Optional[SearchConfig] = None,
                 **options: Any) -> None:
        cfg = config if config is not None else SearchConfig()
        try:
            cfg = cfg.replace(**options)
        except SearchConfigError as e:
            raise AgentSpecError(str(e)) from None
        if cfg.iterations is None and cfg.time is None:
            cfg = cfg.replace(time=0.2)
        self.config = cfg
        self.weights: Optional[npt.NDArray[np.float64]] = None
        self.prior_w: Optional[npt.NDArray[np.float64]] = None
        if cfg.weights is not None:
            from tne_ai.search.evaluate import load_weights
            self.weights, self.prior_w = load_weights(cfg.weights)
        check_files(cfg)             # a bad network or policy file: one error now, not one a move
        self.seed = int(seed)
        self.calls = 0
        # the Search of the last move (continued when it can be)
        self.last: Optional[Search] = None
        # its SearchInfo: visits and win chances of every root move
        self.info: Optional[SearchInfo] = None
        parts = [f"iterations={cfg.iterations}" if cfg.iterations is not None else None,
                 f"time={cfg.time}" if cfg.time is not None else None]
        self.name = "mcts:" + ",".join(p for p in parts if p)

    def __getattr__(self, name: str) -> Any:          # agent.iterations, agent.c, ...: the config's
        if name != "config" and "config" in self.__dict__ and hasattr(self.config, name):
            return getattr(self.config, name)
        raise AttributeError(name)

    def choose(self, position: "Position") -> int:
        self.calls += 1
        start = time.perf_counter()
        cfg = self.config.replace(seed=move_seed(self.seed, self.calls))
        s = next_search(self.last, position, cfg, weights=self.weights, prior_w=self.prior_w)
        self.info = s.run(cfg.iterations, seconds_left(cfg.time, start))
        self.last = s
        return self.info.move


def _engine_agent(**options: Any) -> Agent:
    return ExternalAgent(**options)


# per kind, each option's type: int, float or str for the agents built here, the option
# table's type names ("int", "choice", ...) for mcts (search/config.py parses those)
_OPTIONS: Dict[str, Dict[str, Union[type, str]]] = {
    "random": {"seed": int},
    "greedy": {"seed": int},
    # mcts: every option of SearchConfig by its canonical name (aliases accepted), parsed and
    # bounded by search/config.py (spec_values)
    "mcts": {row.name: row.type for row in search_options()},
}
_CLASSES: Dict[str, AgentBuilder] = {"random": RandomAgent, "greedy": GreedyAgent,
                                     "mcts": MctsAgent, "engine": _engine_agent}


def register_agent(kind: str, builder: AgentBuilder, options: Dict[str, type]) -> None:
    """Make ``kind`` buildable from spec strings: ``builder(**options)`` returns the agent;
    ``options`` maps each option name to its type (int, float, str)."""
    _OPTIONS[kind] = dict(options)
    _CLASSES[kind] = builder


# Agents in modules that need an optional extra: kind -> (module, extra, what it needs).  The
# module registers its agents itself when imported (register_agent); nothing here imports it
# until such an agent is asked for.
OPTIONAL_AGENTS = {"openspiel-ismcts": ("tne_ai.interop.openspiel", "openspiel", "OpenSpiel"),
                   "openspiel-mcts": ("tne_ai.interop.openspiel", "openspiel", "OpenSpiel")}


def _registered(kind: str, spec: str) -> None:
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


# The range of each numeric option (tne_ai/limits.py; docs/cli.md, "Limits"): (low, high, low open).
# The range of each numeric option of the other agents (tne_ai/limits.py; docs/cli.md, "Limits"):
# (low, high, low open).  The mcts options are bounded by search/config.py.
_RANGES = {"seed": (0, L.MAX_SEED, False), "simulations": (1, L.MAX_SIMULATIONS, False),
           "time": (0, L.MAX_SECONDS, True), "c": (0, L.MAX_EXPLORATION, True)}
# the text options with a fixed set of values
_CHOICES = {"playout": ("engine", "python")}
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


def _option_value(kind: str, key: str, text: str, spec: str) -> SpecValue:
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
        raise AgentSpecError(f"{where} is not a valid {'int' if convert is int else 'float'}")
    from tne_ai.core.io import parse_float, parse_int
    value: Union[int, float] = (parse_int if convert is int else parse_float)(text, where)
    # an option of a registered agent without a range of its own: any 63-bit magnitude
    lo, hi, lo_open = _RANGES.get(key, (-L.MAX_SEED, L.MAX_SEED, False))
    if value < lo or value > hi or (lo_open and value == lo):
        def shown(v: float) -> str:
            return str(v) if isinstance(v, int) else f"{v:g}"
        low = f"{shown(lo)} < x" if lo_open else f"{shown(lo)} <= x"
        raise AgentSpecError(f"{where} is out of range ({low} <= {shown(hi)})")
    return value


def parse_spec(spec: object) -> Tuple[str, Dict[str, Any]]:
    """(kind, options) of a spec string; AgentSpecError naming what is wrong."""
    if not isinstance(spec, str) or not spec.strip():
        raise AgentSpecError("empty agent spec")
    if spec.strip().lower().partition(":")[0].partition("[")[0].strip() == "engine":
        return "engine", parse_engine_spec(spec)
    kind, _, rest = spec.strip().partition(":")
    kind = kind.strip().lower()
    _registered(kind, spec)
    if kind == "mcts":        # the search's own parser: one name and one bound per option
        try:
            return kind, spec_values(spec)
        except SearchConfigError as e:
            raise AgentSpecError(str(e)) from None
    options = {}
    for key, value in spec_items(rest, spec, kind, _OPTIONS[kind], list(_OPTIONS[kind]),
                                 AgentSpecError):
        options[key] = _option_value(kind, key, value, spec)
    return kind, options


def make_agent(spec: str, seed: Optional[int] = None) -> Agent:
    """Build an agent from a spec string; ``seed`` is used unless the spec sets its own."""
    kind, options = parse_spec(spec)
    if seed is not None:
        options.setdefault("seed", seed)
    return _CLASSES[kind](**options)
