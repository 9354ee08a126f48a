"""tne_ai: a Tigris & Euphrates rules engine and AI (numba kernels, ISMCTS, CLI).

    from tne_ai import Position, make_agent
    p = Position.new(players=2, seed=1)
    p.push(make_agent("mcts:iterations=2000").choose(p))

The search API is ``tne_ai.api`` (``from tne_ai.api import Limit, analyse, analysis, play``:
``tne_ai.analyse`` and ``tne_ai.play`` name the modules of ``tne analyse`` and ``tne play``).
"""
from .agents import Agent, make_agent
from .api import Analysis, Limit, LimitError, PlayResult
from .errors import IllegalMoveError, NotationError, PositionError, TneError
from .notation import Move
from .position import Position
from .search.config import SearchConfig, SearchConfigError
from .search.session import Search, SearchError
from .tournament import run_tournament

__version__ = "0.1.0"
__all__ = ["Position", "Move", "Agent", "make_agent", "run_tournament", "TneError", "NotationError",
           "IllegalMoveError", "PositionError", "Limit", "LimitError", "Analysis", "PlayResult", "Search", "SearchError", "SearchConfig", "SearchConfigError", "__version__"]
