"""The search's options: one frozen dataclass, one name and one bound per option.

``SearchConfig`` is what every face of the search reads (the ``mcts:`` agent spec, the Python
``search()``/``Search``, the engine's ``hello``/``setoption``, the CLI flags, the web
levels).  Each option has ONE canonical name; the older names of the spec string and of
``search()``'s keywords are accepted as aliases (``eval`` for ``evaluation``, ``wexp`` for
``widen_exp``, ``margin`` for ``commit_margin``, ...) and mapped on the way in.  Bounds come
from ``tne_ai/limits.py``.  A bad name or value raises ``SearchConfigError`` (a ``TneError``)
with one line naming the option, the value and the bound.

The options whose best value depends on the evaluation (``c``, ``widen``, ``widen_exp``,
``settle``, ``commit_margin``, ``reuse``, ``open_losing``, ``norm``, ``belief``) default to None, "the
evaluation's own", and ``resolved()`` fills them in from ``EVALUATION_DEFAULTS``, the one
table of those defaults.

    >>> cfg = SearchConfig.from_spec("mcts:iterations=5000,eval=basic,wexp=0.7")
    >>> cfg.evaluation, cfg.widen_exp, cfg.iterations
    ('basic', 0.7, 5000)
    >>> cfg.to_spec()
    'mcts:evaluation=basic,widen_exp=0.7,iterations=5000'
    >>> cfg.resolved().c
    0.7
    >>> SearchConfig().replace(threads=0)
    Traceback (most recent call last):
    ...
    tne_ai.search.config.SearchConfigError: option threads=0 is out of range (1 <= x <= 64)
"""
import dataclasses
import math
import os
import re
from dataclasses import dataclass
from typing import (Any, Collection, Dict, Iterator, List, NamedTuple, Optional, Tuple, Type,
                    Union)

from tne_ai import limits as L
from tne_ai.errors import TneError

# an option's value as a config holds it (a number, a flag, a choice or a path; None: unset)
OptionValue = Union[int, float, bool, str, None]

# per evaluation: the exploration constant, widening, leaf settling, the commit margin, tree
# reuse, no unopened winner, normalised UCB and the hand belief used unless given.  The basic
# evaluation's are the frozen baseline's (no widening, no settling, no commit rule, no reuse,
# no rescue of losing nodes, plain UCB, the other hands dealt uniformly).
EVALUATION_DEFAULTS: Dict[str, Dict[str, OptionValue]] = {
    "basic": {"c": 0.7, "widen": 0.0, "widen_exp": 0.5, "settle": False, "commit_margin": 0.0,
              "reuse": False, "open_losing": 0.0, "norm": False, "belief": False},
    "model": {"c": 0.35, "widen": 1.0, "widen_exp": 0.5, "settle": True, "commit_margin": 0.03,
              "reuse": True, "open_losing": 0.02, "norm": True, "belief": False},
}
# the value network (search/value.py) takes the fitted model's settings, and the hand belief
# (measured with the networks only; the linear search keeps the uniform deal it was measured
# with, so that evaluation=model,prior=kinds is the earlier default)
EVALUATION_DEFAULTS["net"] = dict(EVALUATION_DEFAULTS["model"], belief=True)
# The evaluation's own options whose default depends on the game's player count, per count
# (``resolved(players)``; without a count EVALUATION_DEFAULTS' value holds).  Normalised UCB
# beats plain UCB with 2 players, is level with 3 and 4 at equal iterations while an
# iteration costs about 1.7 times as much, and with 4 players it makes the reported win
# chances overconfident (bench/README.md, "Normalised UCB and the one-ply root order" and
# the calibration): it is off with 4 players.  The hand belief, fitted on 2-player games,
# left 4-player first places level and made the 4-player win chances overconfident (ECE
# 0.0376 against 0.0244 without it, bench/README.md "The whole candidate"): with the value
# network it is on for 2 and 3 players, off for 4.
COUNT_DEFAULTS: Dict[str, Dict[str, Dict[int, OptionValue]]] = {
    "model": {"norm": {2: True, 3: True, 4: False}},
}
COUNT_DEFAULTS["net"] = dict(COUNT_DEFAULTS["model"], belief={2: True, 3: True, 4: False})
# Rollout length used unless one is given: 0 = evaluate the expanded node at once; it beat
# full random rollouts at equal time (see bench/README.md).  -1 plays to the end.
DEFAULT_ROLLOUT = 0
DEFAULT_BATCH = 32


class SearchConfigError(TneError, ValueError):
    """A search option that does not exist or has a bad value (one line says which)."""


class OptionInfo(NamedTuple):
    """One row of ``options()``: what a face needs to list, parse and bound an option.

    ``type`` is one of int, float, bool, choice (``choices`` lists the values) or path;
    ``low``/``high`` bound numbers (inclusive, except ``low`` when ``low_open``);
    ``default`` None means "none" for budgets and "the evaluation's own" for the options of
    ``EVALUATION_DEFAULTS``."""
    name: str
    type: str
    default: OptionValue
    low: Optional[float]
    high: Optional[float]
    low_open: bool
    help: str
    aliases: Tuple[str, ...] = ()
    choices: Tuple[str, ...] = ()


_EVAL_OWN = " (default: the evaluation's own, EVALUATION_DEFAULTS)"
_ROWS = (
    OptionInfo("evaluation", "choice", "net", None, None, False,
               "leaf evaluation: the fitted linear model, the value network (net) or the "
               "hand-set basic one",
               ("eval",), ("model", "net", "basic")),
    OptionInfo("prior", "choice", "policy", None, None, False,
               "move priors for progressive widening: the move policy, move-kind scores or "
               "none", (), ("policy", "kinds", "none")),
    OptionInfo("c", "float", None, 0.0, L.MAX_EXPLORATION, True,
               "UCB exploration constant" + _EVAL_OWN),
    OptionInfo("widen", "float", None, 0.0, L.MAX_WIDEN, False,
               "progressive widening: a node opens children while it has fewer than "
               "max(1, widen * visits ** widen_exp); 0 opens untried moves at random" + _EVAL_OWN),
    OptionInfo("widen_exp", "float", None, 0.0, L.MAX_WIDEN_EXP, False,
               "progressive widening exponent" + _EVAL_OWN, ("wexp",)),
    OptionInfo("norm", "bool", None, None, None, False,
               "UCB on the children's mean win chances scaled to [0, 1] between the "
               "least and the best of them before the exploration term is added (the visits "
               "gather on the best children where their win chances differ by little)"
               " (default: the evaluation's own, EVALUATION_DEFAULTS and COUNT_DEFAULTS: "
               "with the fitted evaluation on for 2 and 3 players, off for 4)"),
    OptionInfo("open_losing", "float", None, 0.0, 1.0, False,
               "no unopened winner: a node whose opened children all have a mean win chance "
               "for the chooser below this, after two visits per opened child, opens another "
               "untried move, whatever the widening (0: off)" + _EVAL_OWN),
    OptionInfo("settle", "bool", None, None, None, False,
               "settle pending decisions before scoring a leaf" + _EVAL_OWN, ("settle_leaves",)),
    OptionInfo("commit_margin", "float", None, 0.0, 1.0, False,
               "root commit decisions: the smallest commit of the best outcome within this "
               "win chance of the best (0: the most visited)" + _EVAL_OWN, ("margin",)),
    OptionInfo("reuse", "bool", None, None, None, False,
               "continue the last search's tree when the next position follows from it"
               + _EVAL_OWN),
    OptionInfo("endings", "bool", True, None, None, False,
               "exact endings: when the game can end within the mover's own actions, score "
               "the turn to its end over sampled worlds instead of growing the tree "
               "(search/ending.py)"),
    OptionInfo("belief", "bool", None, None, None, False,
               "deal the other hands of each sampled world by the hand belief's colour "
               "odds (search/determinize.py) instead of uniformly (default: the evaluation's "
               "own, EVALUATION_DEFAULTS and COUNT_DEFAULTS: with the value network on for 2 "
               "and 3 players, off for 4)"),
    OptionInfo("rollout", "int", DEFAULT_ROLLOUT, -1, L.MAX_PLIES, False,
               "random moves before the evaluation (-1: to the game's end, 0: evaluate at once)",
               ("rollout_depth",)),
    OptionInfo("leader", "float", None, -L.MAX_LEADER_VALUE, L.MAX_LEADER_VALUE, False,
               "basic evaluation: the value of a leader on the board (default: 0)",
               ("leader_value",)),
    OptionInfo("threads", "int", 1, 1, L.MAX_THREADS, False,
               "root-parallel search trees (their root statistics are summed)"),
    OptionInfo("weights", "path", None, None, None, False,
               "a weights file of tne train (default: the shipped weights)"),
    OptionInfo("net", "path", None, None, None, False,
               "evaluation=net: a value network file of tne train --net (default: the "
               "shipped search/weights/value.npz)"),
    OptionInfo("policy", "path", None, None, None, False,
               "prior=policy: a move policy file of tne train --policy (default: the "
               "shipped search/weights/policy.npz)"),
    OptionInfo("capacity", "int", None, 2, L.MAX_NODES, False,
               "tree nodes per thread (default: sized from the budget)"),
    OptionInfo("batch", "int", DEFAULT_BATCH, 1, L.MAX_BATCH, False,
               "iterations between checks of the clock and of stop"),
    OptionInfo("iterations", "int", None, 1, L.MAX_ITERATIONS, False,
               "iteration budget per move (all threads together)"),
    OptionInfo("time", "float", None, 0.0, L.MAX_SECONDS, True,
               "time budget per move in seconds", ("seconds",)),
    OptionInfo("seed", "int", 0, 0, L.MAX_SEED, False, "seed of the search"),
)
_BY_NAME = {row.name: row for row in _ROWS}
_ALIASES = {alias: row.name for row in _ROWS for alias in row.aliases}
_INT_TEXT = re.compile(r"[+-]?[0-9]{1,30}")
_FLOAT_TEXT = re.compile(r"[+-]?([0-9]{1,30}(\.[0-9]{0,30})?|\.[0-9]{1,30})([eE][+-]?[0-9]{1,3})?")


def options() -> List[OptionInfo]:
    """The table of every search option (``OptionInfo`` rows, in a fixed order)."""
    return list(_ROWS)


def canonical(name: object) -> str:
    """The canonical name of an option or of one of its aliases; SearchConfigError if none."""
    key = str(name).strip().lower() if isinstance(name, str) else name
    if key in _BY_NAME:
        return key
    if key in _ALIASES:
        return _ALIASES[key]
    raise SearchConfigError(f"unknown search option '{L.clip(name, 40)}' "
                            f"(known: {', '.join(_BY_NAME)})")


def _shown(v: float) -> str:
    return str(v) if isinstance(v, int) else f"{v:g}"


def _bounded(row: OptionInfo, value: float, where: str) -> float:
    lo, hi = row.low, row.high
    if lo is None or hi is None:       # a number option always has both bounds
        raise SearchConfigError(f"{where}: option {row.name} is not a number")
    if value < lo or value > hi or (row.low_open and value == lo):
        low = f"{_shown(lo)} < x" if row.low_open else f"{_shown(lo)} <= x"
        raise SearchConfigError(f"{where} is out of range ({low} <= {_shown(hi)})")
    return value


def check_value(name: str, value: object, where: Optional[str] = None) -> OptionValue:
    """The value of option ``name`` as the config holds it (ints as int, numbers as float,
    paths as str), or SearchConfigError naming the option, the value and its bound."""
    row = _BY_NAME[canonical(name)]
    where = where or f"option {row.name}={L.clip(value, 40)}"
    if value is None:
        if row.default is None:
            return None
        raise SearchConfigError(f"{where}: needs a value")
    if row.type == "choice":
        if value not in row.choices:
            raise SearchConfigError(f"{where}: use one of {', '.join(row.choices)}")
        return value
    if row.type == "path":
        if not isinstance(value, (str, os.PathLike)) or not os.fspath(value):
            raise SearchConfigError(f"{where}: needs a file path")
        return os.fspath(value)
    if row.type == "bool":
        if isinstance(value, bool) or (type(value) is int and value in (0, 1)):
            return bool(value)
        raise SearchConfigError(f"{where}: expected true or false (1 or 0)")
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (row.type == "int" and not isinstance(value, int)):
        raise SearchConfigError(f"{where}: expected {'an integer' if row.type == 'int' else 'a number'}")
    if not math.isfinite(value):
        raise SearchConfigError(f"{where}: expected a finite number")
    return _bounded(row, int(value) if row.type == "int" else float(value), where)


def parse_option(name: str, text: str, where: Optional[str] = None) -> OptionValue:
    """The value of option ``name`` (or an alias) from its text, as a command-line flag gives
    it: parsed and bounded as in a spec (ASCII numbers only); SearchConfigError naming
    ``where`` (default ``option name=text``) and the bound.

    >>> parse_option("iterations", "5000")
    5000
    >>> parse_option("iterations", "0", "--iterations 0")
    Traceback (most recent call last):
    ...
    tne_ai.search.config.SearchConfigError: --iterations 0 is out of range (1 <= x <= 10000000)
    """
    row = _BY_NAME[canonical(name)]
    text = str(text).strip()
    return _from_text(row, text, where or f"option {row.name}={L.clip(text, 40)}")


def _from_text(row: OptionInfo, text: str, where: str) -> OptionValue:
    """An option's value from its spec text: ASCII numbers only (no inf, nan, '٣')."""
    if row.type in ("choice", "path"):
        if not text:
            raise SearchConfigError(f"{where} needs a value")
        return check_value(row.name, text, where)
    pattern = _FLOAT_TEXT if row.type == "float" else _INT_TEXT
    if not pattern.fullmatch(text):
        kind = {"int": "int", "float": "float", "bool": "int (0 or 1)"}[row.type]
        raise SearchConfigError(f"{where} is not a valid {kind}")
    if row.type == "bool":
        return check_value(row.name, int(text), where)
    return check_value(row.name, int(text) if row.type == "int" else float(text), where)


@dataclass(frozen=True)
class SearchConfig:
    """Every option of the search (see ``options()`` for each one's bounds and meaning).

    Frozen: change options with ``replace(**kw)``, which checks them.  Budgets
    (``iterations``, ``time``) and ``seed`` are the defaults of a per-move search (the agent
    spec's); an explicit budget given to ``search()``/``Search.run`` wins."""
    evaluation: str = "net"
    prior: str = "policy"
    c: Optional[float] = None
    widen: Optional[float] = None
    widen_exp: Optional[float] = None
    norm: Optional[bool] = None
    open_losing: Optional[float] = None
    settle: Optional[bool] = None
    commit_margin: Optional[float] = None
    reuse: Optional[bool] = None
    endings: bool = True
    belief: Optional[bool] = None
    rollout: int = DEFAULT_ROLLOUT
    leader: Optional[float] = None
    threads: int = 1
    weights: Optional[str] = None
    net: Optional[str] = None
    policy: Optional[str] = None
    capacity: Optional[int] = None
    batch: int = DEFAULT_BATCH
    iterations: Optional[int] = None
    time: Optional[float] = None
    seed: int = 0

    def __post_init__(self) -> None:
        for row in _ROWS:
            object.__setattr__(self, row.name, check_value(row.name, getattr(self, row.name)))

    def replace(self, **kw: Any) -> "SearchConfig":
        """A copy with the options given changed (canonical names or aliases), checked."""
        changes = {}
        for key, value in kw.items():
            name = canonical(key)
            if name in changes:
                raise SearchConfigError(f"option {name} given twice")
            changes[name] = value
        return dataclasses.replace(self, **changes)

    def resolved(self, players: Optional[int] = None) -> "SearchConfig":
        """This config with every "evaluation's own" option (None) filled in from
        ``EVALUATION_DEFAULTS`` (those of ``COUNT_DEFAULTS`` for a game of ``players``
        players when it is given) and the leader value from the basic evaluation's."""
        own = dict(EVALUATION_DEFAULTS[self.evaluation])
        if players is not None:
            for k, by_count in COUNT_DEFAULTS.get(self.evaluation, {}).items():
                own[k] = by_count[players]
        # values of several types, each checked by the dataclass as it is put in
        fill: Dict[str, Any] = {k: v for k, v in own.items() if getattr(self, k) is None}
        if self.leader is None:
            from tne_ai.search.evaluate import EVAL_DEFAULT, W_LEADER
            fill["leader"] = float(EVAL_DEFAULT[W_LEADER])
        return dataclasses.replace(self, **fill) if fill else self

    def changed(self) -> Dict[str, OptionValue]:
        """{canonical name: value} of the options that differ from the defaults."""
        return {row.name: getattr(self, row.name) for row in _ROWS
                if getattr(self, row.name) != row.default}

    @classmethod
    def from_spec(cls, spec: str) -> "SearchConfig":
        """The config of an ``mcts:`` agent spec (``mcts:iterations=5000,c=0.7``; the
        ``mcts:`` may be left out).  Every name of ``options()`` and its aliases is
        accepted; SearchConfigError names the first bad option."""
        values: Dict[str, Any] = spec_values(spec)    # each value checked for its option
        return cls(**values)

    def to_spec(self) -> str:
        """The ``mcts:`` spec of this config: the changed options by canonical name
        (``from_spec(cfg.to_spec()) == cfg``)."""
        def text(v: OptionValue) -> str:
            if isinstance(v, bool):
                return "1" if v else "0"
            return repr(v) if isinstance(v, float) else str(v)
        return "mcts:" + ",".join(f"{k}={text(v)}" for k, v in self.changed().items())


def spec_items(rest: str, spec: str, kind: str, known: Collection[str], listed: List[str],
               error: Type[Exception]) -> Iterator[Tuple[str, str]]:
    """(key, value text) of each ``key=value`` of an agent spec's option text ``rest``
    (lower-case keys, stripped values); ``error`` (an exception class) names an item
    without ``=`` or a key not in ``known`` (``listed`` is what the message lists)."""
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, text = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise error(f"option '{L.clip(item, 40)}' in spec '{L.clip(spec, 80)}' needs a value "
                        f"(key=value)")
        if key not in known:
            raise error(f"unknown option '{L.clip(key, 40)}' for {kind} in spec "
                        f"'{L.clip(spec, 80)}' (known: {', '.join(listed)})")
        yield key, text.strip()


def spec_values(spec: object) -> Dict[str, OptionValue]:
    """{canonical name: checked value} of the options an ``mcts:`` spec gives (the parser
    behind ``SearchConfig.from_spec`` and the ``mcts`` agent spec); SearchConfigError names
    the first bad option."""
    if not isinstance(spec, str):
        raise SearchConfigError("a search spec is a string such as 'mcts:iterations=5000'")
    kind, colon, rest = spec.strip().partition(":")
    if not colon:
        kind, rest = ("mcts", "") if kind.strip().lower() == "mcts" else ("mcts", kind)
    if kind.strip().lower() != "mcts":
        raise SearchConfigError(f"not an mcts spec: '{L.clip(spec, 80)}'")
    values = {}
    for key, text in spec_items(rest, spec, "mcts", list(_BY_NAME) + list(_ALIASES),
                                list(_BY_NAME), SearchConfigError):
        row = _BY_NAME[canonical(key)]
        where = f"option {key}={L.clip(text, 40)} in spec '{L.clip(spec, 80)}'"
        if row.name in values:
            raise SearchConfigError(f"option {row.name} given twice in spec '{L.clip(spec, 80)}'")
        values[row.name] = _from_text(row, text, where)
    return values
