"""Agents: spec strings, legal choices everywhere, the greedy agent's decisions."""
import pytest

from tne_ai.core import state as S
from tne_ai.agents.builtin import AgentSpecError, GreedyAgent, MctsAgent, RandomAgent, make_agent, parse_spec
from tne_ai.position import Position


def test_spec_strings():
    assert isinstance(make_agent("random"), RandomAgent)
    assert isinstance(make_agent("greedy:seed=3"), GreedyAgent)
    agent = make_agent("mcts:iterations=5000,c=0.7")
    assert isinstance(agent, MctsAgent) and agent.iterations == 5000 and agent.c == 0.7 and agent.time is None
    agent = make_agent("mcts:time=0.2,threads=2")
    assert agent.time == 0.2 and agent.threads == 2 and agent.iterations is None
    assert parse_spec(" MCTS : rollout=0 ") == ("mcts", {"rollout": 0})


@pytest.mark.parametrize("spec, words", [
    ("alphazero", "unknown agent 'alphazero'"),
    ("mcts:depth=3", "unknown option 'depth'"),
    ("mcts:time", "needs a value"),
    ("mcts:iterations=many", "not a valid int"),
    ("mcts:threads=0", "out of range"),
    ("", "empty agent spec"),
])
def test_bad_specs(spec, words):
    with pytest.raises(AgentSpecError, match=words):
        make_agent(spec)


@pytest.mark.parametrize("spec", ["random", "greedy", "mcts:iterations=30"])
def test_agents_play_a_whole_game_with_legal_moves(spec):
    pos = Position.new(3, seed=4)
    agents = [make_agent(spec, seed=i) for i in range(3)]
    while not pos.is_over():
        move = agents[pos.to_act].choose(pos)
        assert move in pos.legal_codes()
        pos.push(move)
    assert sorted(pos.ranking())[0] == 1


def revolt_position(attacker_red, defender_red, attacker_commit=None):
    """Player 0's red leader on G3 revolts against player 1's red leader on F2: both stand
    next to the temple F3 only (strength 1 each)."""
    from helpers import position
    d = position(leaders=[(1, "red", "F2"), (0, "red", "G3")],
                 hands=["r" * attacker_red + "k" * (6 - attacker_red), "r" * defender_red + "k" * (6 - defender_red)],
                 pending={"kind": "revolt", "colour": "red", "attacker": 0, "defender": 1,
                          "attacker_commit": attacker_commit})
    return Position.from_json(d)


def test_greedy_attacker_commits_all_when_that_beats_the_board():
    pos = revolt_position(2, 3)
    assert GreedyAgent().choose(pos) == S.A_COMMIT + 2


def test_greedy_defender_commits_just_enough():
    pos = revolt_position(2, 3)
    pos.push("commit 2")  # attacker 1 + 2 = 3 against defender 1: the defender needs 2
    assert pos.to_act == 1
    assert GreedyAgent().choose(pos) == S.A_COMMIT + 2


def test_greedy_defender_saves_tiles_when_it_cannot_win():
    pos = revolt_position(2, 1)
    pos.push("commit 2")  # needs 2, holds 1
    assert GreedyAgent().choose(pos) == S.A_COMMIT


def test_agents_register_themselves():
    """The OpenSpiel agents register with tne_ai.agents.builtin when tne_ai.interop.openspiel is imported;
    agents.py names the module only as a string, and any module can register an agent."""
    import inspect

    import tne_ai.agents.builtin as agents_module
    from tne_ai.agents.builtin import make_agent, register_agent

    assert "from .openspiel" not in inspect.getsource(agents_module)
    agent = make_agent("openspiel-mcts:simulations=3", seed=1)
    assert agent.name == "openspiel-mcts:simulations=3"

    class Fixed(agents_module.Agent):
        def __init__(self, seed=0, move=1797):
            self.name = f"fixed:{move}"
            self.move = move

        def choose(self, position):
            return self.move

    register_agent("fixed-test", Fixed, {"seed": int, "move": int})
    try:
        assert make_agent("fixed-test:move=1797").choose(None) == 1797
    finally:
        del agents_module._OPTIONS["fixed-test"], agents_module._CLASSES["fixed-test"]
