"""tne_ai: a Tigris & Euphrates rules engine and AI (numba kernels, ISMCTS, CLI).

    from tne_ai import Position, make_agent
    p = Position.new(players=2, seed=1)
    p.push(make_agent("mcts:iterations=2000").choose(p))
"""
from .errors import IllegalMoveError, NotationError, PositionError, TneError

__version__ = "0.1.0"
__all__ = ["Position", "Move", "Agent", "make_agent", "run_tournament", "TneError", "NotationError",
           "IllegalMoveError", "PositionError", "__version__"]

# The names below load their modules (and numba) when first used, so that importing a light
# module such as tne_ai.limits or tne_ai.tournament (a worker process starting up, a command
# refusing its input) does not load the engine.
_LAZY = {"Agent": "agents", "make_agent": "agents", "Move": "notation", "Position": "position",
         "run_tournament": "tournament"}


def __getattr__(name):
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tne_ai' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(__all__))
