"""tne_ai: a Tigris & Euphrates rules engine and AI (numba kernels, ISMCTS, CLI).

    from tne_ai import Position, make_agent
    p = Position.new(players=2, seed=1)
    p.push(make_agent("mcts:iterations=2000").choose(p))

The search API is ``tne_ai.api`` (``from tne_ai.api import Limit, analyse, analysis, play``).
The package's folders are DESIGN's layers, each importing only those below it: ``core`` (the
board, the state, the rules kernels, notation, formats, pictures), ``search``, ``protocol``,
``agents``, ``interop`` (learning environments, OpenSpiel), ``matches`` (tournaments,
ratings, training, review, the terminal game, bench), ``web`` and ``cli``; this module,
``position``, ``api``, ``errors`` and ``limits`` are the public facade.
"""
from typing import TYPE_CHECKING, Any, List

from tne_ai.errors import IllegalMoveError, NotationError, PositionError, TneError

__version__ = "0.1.0"
__all__ = ["Position", "Move", "Agent", "make_agent", "run_tournament", "TneError", "NotationError",
           "IllegalMoveError", "PositionError", "Limit", "LimitError", "Analysis", "PlayResult",
           "Search", "SearchError", "SearchConfig", "SearchConfigError", "__version__"]

# The names below load their modules (and numba) when first used, so that importing a light
# module such as tne_ai.limits or tne_ai.matches.tournament (a worker process starting up, a command
# refusing its input) does not load the engine.
_LAZY = {"Agent": "agents.base", "make_agent": "agents.builtin", "Move": "core.notation",
         "Position": "position", "run_tournament": "matches.tournament", "Analysis": "api", "Limit": "api", "LimitError": "api",
         "PlayResult": "api", "SearchConfig": "search.config", "SearchConfigError": "search.config",
         "Search": "search.session", "SearchError": "search.session"}


if TYPE_CHECKING:      # what the lazy names are, for type checkers (loaded on first use)
    from tne_ai.agents.base import Agent
    from tne_ai.agents.builtin import make_agent
    from tne_ai.api import Analysis, Limit, LimitError, PlayResult
    from tne_ai.core.notation import Move
    from tne_ai.matches.tournament import run_tournament
    from tne_ai.position import Position
    from tne_ai.search.config import SearchConfig, SearchConfigError
    from tne_ai.search.session import Search, SearchError


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tne_ai' has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(__all__))
