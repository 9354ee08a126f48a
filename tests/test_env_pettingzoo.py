"""The PettingZoo AEC environment (tne_ai.interop.env.aec_env): PettingZoo's own API and seed tests,
the end-of-game rewards, rendering."""
import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import tne_ai.interop.env as E
from tne_ai.core import state as S
from tne_ai.core.rules.scoring import rewards as final_rewards
from tne_ai.interop.env.encode import OBS_SIZE, V, V_HAND


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test(players):
    api_test(E.aec_env(players=players, seed=players), num_cycles=1000)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_seed_test(players):
    seed_test(lambda: E.aec_env(players=players), num_cycles=400)


def play_out(env, rs):
    """Random legal moves until the game ends; returns the moves made."""
    made = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        assert agent == f"player_{int(env.st[S.TO_ACT])}"
        env.step(int(rs.choice(np.flatnonzero(obs["action_mask"]))))
        made += 1
    return made


def test_a_whole_game_rewards_the_final_ranking():
    env = E.aec_env(players=3, seed=11)
    env.reset()
    rs = np.random.default_rng(0)
    totals = {a: 0.0 for a in env.possible_agents}
    # collect each agent's reward as it is reported at the end
    made = 0
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        totals[agent] += reward
        if term or trunc:
            assert term and not trunc and env.st[S.PHASE] == S.PH_OVER
            assert not obs["action_mask"].any()
            env.step(None)
            continue
        assert reward == 0.0  # nothing before the end
        env.step(int(rs.choice(np.flatnonzero(obs["action_mask"]))))
        made += 1
    expected = np.zeros(4)
    final_rewards(env.st, expected)
    assert [totals[f"player_{p}"] for p in range(3)] == list(expected[:3])
    assert sum(totals.values()) == 1.0 and made > 50 and env.agents == []


def test_observe_is_the_seats_view_and_only_the_actor_has_a_mask():
    env = E.aec_env(players=2, seed=2)
    env.reset()
    actor = env.agent_selection
    assert actor == "player_0"
    for p, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
        # the seat's own hand, tile for tile
        assert list(obs["observation"][V + V_HAND:V + V_HAND + 4] * 6) == \
            pytest.approx(list(env.st[S.HAND + 4 * p:S.HAND + 4 * p + 4]))
        assert obs["action_mask"].any() == (agent == actor)


def test_move_cap_truncates():
    env = E.aec_env(players=2, seed=2, max_moves=12)
    env.reset()
    rs = np.random.default_rng(1)
    made = play_out(env, rs)
    assert made == 12


def test_reset_with_a_seed_is_the_env_of_that_seed():
    env = E.aec_env(players=2)
    env.reset(seed=77)
    single = E.Env(2, seed=77)
    assert np.array_equal(env.st, single.states[0])
    assert np.array_equal(env.observe("player_0")["observation"], single.obs[0])
    assert np.array_equal(env.observe("player_0")["action_mask"], single.mask[0])


def test_render_text_and_svg():
    env = E.aec_env(players=2, seed=3, render_mode="ansi")
    env.reset()
    text = env.render()
    assert text.splitlines()[0].split() == list("ABCDEFGHIJKLMNOP")
    assert "player 0 (turn)" in text and "bag: 131 tiles" in text
    env = E.aec_env(players=2, seed=3, render_mode="svg")
    env.reset()
    picture = env.render()
    assert picture.startswith("<svg") and picture.rstrip().endswith("</svg>")
    assert E.aec_env(players=2).render() is None


def test_bad_arguments():
    with pytest.raises(E.EnvError, match="players must be 2, 3 or 4"):
        E.aec_env(players=1)
    with pytest.raises(E.EnvError, match="render_mode"):
        E.aec_env(render_mode="human")
    with pytest.raises(E.EnvError, match="seed must be"):
        E.aec_env(seed="x")
    env = E.aec_env(players=2, seed=1)
    env.reset()
    with pytest.raises(E.EnvError, match="not legal for player_0"):
        env.step(S.A_COMMIT)
    with pytest.raises(E.EnvError, match="integer code"):
        env.step(1.5)


def test_observations_and_infos_hide_what_an_agent_cannot_see():
    """Along a 3-player game, every agent's observation (tensor and mask) and info stay the
    same when the other hands, the bag order and the other players' scores change (the
    flip of tests/test_env_encode.py); the render is a spectator's view and is not checked."""
    from test_env_encode import flip_hidden
    env = E.aec_env(players=3, seed=5)
    env.reset()
    rng = np.random.default_rng(5)
    checked = 0
    for step, agent in enumerate(env.agent_iter()):
        obs, reward, terminated, truncated, info = env.last()
        if step % 15 == 0 or terminated or truncated:
            for p, other in enumerate(env.possible_agents):
                seen = env.observe(other)
                infos = dict(env.infos)
                real = env.st.copy()
                env.st[:] = flip_hidden(real, p, seed=step + p)
                assert not np.array_equal(env.st, real)
                after = env.observe(other)
                assert np.array_equal(after["observation"], seen["observation"])
                assert np.array_equal(after["action_mask"], seen["action_mask"])
                assert env.infos == infos == {a: {} for a in env.agents}
                env.st[:] = real
                checked += 1
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert checked > 30
