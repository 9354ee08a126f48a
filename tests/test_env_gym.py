"""The single-agent Gymnasium environment (tne_ai.interop.env.gym_env)."""
import numpy as np
import pytest

import tne_ai.interop.env as E
from tne_ai.core import state as S
from tne_ai.agents.builtin import AgentSpecError
from tne_ai.core.rules.scoring import rewards as final_rewards


def play(env, rs, limit=10_000):
    obs, info = env.reset()
    steps = 0
    while True:
        assert env.observation_space.contains(obs)
        assert info["to_act"] == env.seat
        obs, reward, term, trunc, info = env.step(int(rs.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if term or trunc or steps >= limit:
            return obs, reward, term, trunc, info, steps
        assert reward == 0.0


@pytest.mark.parametrize("players,seat,spec", [(2, 1, "random"), (3, 0, "greedy"),
                                               (4, 2, ["random", "greedy", "random"])])
def test_whole_games_against_agents(players, seat, spec):
    env = E.gym_env(players=players, seat=seat, opponents=spec, seed=5)
    obs, reward, term, trunc, info, steps = play(env, np.random.default_rng(players))
    assert term and not trunc and env.st[S.PHASE] == S.PH_OVER
    expected = np.zeros(4)
    final_rewards(env.st, expected)
    assert info["rewards"] == list(expected[:players]) and reward == expected[seat]
    assert not obs["action_mask"].any() and steps > 10
    with pytest.raises(E.EnvError, match="game is over"):
        env.step(S.A_PASS)


def test_mcts_opponent_moves():
    env = E.gym_env(players=2, seat=0, opponents="mcts:iterations=50", seed=1)
    obs, info = env.reset()
    rs = np.random.default_rng(0)
    for _ in range(4):
        obs, reward, term, trunc, info = env.step(int(rs.choice(np.flatnonzero(obs["action_mask"]))))
        assert info["to_act"] == 0 and obs["action_mask"].any()
    assert env.made >= 6  # the search made moves for seat 1 in between


def test_same_seed_same_game():
    runs = []
    for _ in range(2):
        env = E.gym_env(players=2, seat=0, opponents="greedy", seed=9)
        runs.append(play(env, np.random.default_rng(4), limit=40)[0]["observation"])
    assert np.array_equal(runs[0], runs[1])


def test_bad_arguments():
    with pytest.raises(E.EnvError, match="seat must be 0 to 1"):
        E.gym_env(players=2, seat=2)
    with pytest.raises(E.EnvError, match="list of 2 specs"):
        E.gym_env(players=3, opponents=["random"])
    with pytest.raises(AgentSpecError, match="unknown agent"):
        E.gym_env(opponents="nobody")
    env = E.gym_env(seed=1)
    env.reset()
    with pytest.raises(E.EnvError, match="not legal for seat 0"):
        env.step(S.A_COMMIT)
