"""The agent protocol and its errors, below every module that makes agents.

``agents.py`` builds agents from spec strings and ``external.py`` runs an outside engine as
one; both import this module, and ``agents`` imports ``external`` (never the other way), so
the layers of DESIGN ("a layer calls only layers below it") hold.
"""
from typing import TYPE_CHECKING

from tne_ai.errors import TneError

if TYPE_CHECKING:
    from tne_ai.position import Position


class AgentSpecError(TneError):
    """An agent spec string that names no agent or carries a bad option."""


class AgentForfeit(TneError):
    """An agent that cannot go on (an external engine crashed, hung or answered an illegal
    move): it loses the game and the message is the reason recorded."""


class Agent:
    """The protocol: ``choose(position)`` returns an action code for ``position.to_act``."""

    name: str = "agent"

    def choose(self, position: "Position") -> int:
        raise NotImplementedError

    def __repr__(self) -> str:
        return self.name
