"""The batched environment (tne_ai.interop.env.vec): the same games as stepping them one by one."""
import numpy as np
import pytest

from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import deal_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards as final_rewards
from tne_ai.interop.env import Env, EnvError, VecEnv
from tne_ai.interop.env.encode import OBS_SIZE, encode
from tne_ai.interop.env.vec import start_template


class OneGame:
    """A game slot stepped by hand with the engine's own calls: deal from the slot's RNG,
    apply, list the legal moves, encode the whole observation, deal again when it ends."""

    def __init__(self, players, seed, max_moves):
        self.template = start_template(players)
        self.rng = make_rng(seed)
        self.st = np.empty(S.STATE_SIZE, dtype=np.int64)
        self.max_moves = max_moves
        self.moves_buf = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.deal()

    def deal(self):
        deal_start(self.template, self.rng, self.st)
        self.made = 0

    def view(self):
        n = legal_moves(self.st, self.moves_buf)
        mask = np.zeros(S.N_ACTIONS, dtype=np.int8)
        mask[self.moves_buf[:n]] = 1
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        seat = int(self.st[S.TO_ACT])
        encode(self.st, seat, obs)
        return obs, mask, seat, self.moves_buf[:n].copy()

    def step(self, action):
        apply_action(self.st, action, self.rng)
        self.made += 1
        reward = np.zeros(4)
        over = bool(self.st[S.PHASE] == S.PH_OVER)
        capped = not over and self.made >= self.max_moves
        length = 0
        if over or capped:
            final_rewards(self.st, reward)
            length = self.made
            self.deal()
        return reward, over, capped, length


@pytest.mark.parametrize("players,max_moves", [(2, 2000), (3, 2000), (4, 90)])
def test_vec_env_is_the_games_one_by_one(players, max_moves):
    """Slot i of VecEnv(n, players, seed) plays the games of a slot seeded seed + i,
    bit for bit: observations, masks, move lists, rewards, ends, lengths, auto-reset."""
    n, seed = 5, 40
    vec = VecEnv(n, players, seed=seed, max_moves=max_moves)
    games = [OneGame(players, seed + i, max_moves) for i in range(n)]
    rs = np.random.default_rng(1)
    ends = capped_games = 0
    wins = np.zeros(4)
    for step in range(700):
        for i, g in enumerate(games):
            obs, mask, seat, moves = g.view()
            assert vec.to_act[i] == seat
            assert np.array_equal(vec.obs[i], obs)
            assert np.array_equal(vec.mask[i], mask)
            assert np.array_equal(vec.moves[i, :vec.n_moves[i]], moves)
        actions = vec.random_actions(rs)
        vec.step(actions)
        for i, g in enumerate(games):
            reward, over, capped, length = g.step(int(actions[i]))
            assert np.array_equal(vec.rewards[i], reward)
            assert (vec.terminated[i], vec.truncated[i], vec.episode_length[i]) == \
                (over, capped, length)
            ends += over or capped
            capped_games += capped
            wins += reward
    assert ends >= 5 and vec.episodes == ends  # several auto-resets happened
    assert np.array_equal(vec.wins, wins) and vec.moves_made == 700 * n
    # a random game lasts well over 90 moves (about 140-280), never 2000
    assert (capped_games > 0) == (max_moves == 90)


def test_single_env_is_slot_zero():
    env = Env(3, seed=8)
    vec = VecEnv(2, 3, seed=8)
    rs = np.random.default_rng(2)
    for _ in range(300):
        a = vec.random_actions(rs)
        env.step(int(a[0]))
        vec.step(a)
        assert np.array_equal(env.obs[0], vec.obs[0])
        assert np.array_equal(env.mask[0], vec.mask[0])
        assert np.array_equal(env.rewards[0], vec.rewards[0])


def test_same_seed_same_games_and_reset():
    a = VecEnv(3, 2, seed=5)
    b = VecEnv(3, 2, seed=5)
    rs1, rs2 = np.random.default_rng(3), np.random.default_rng(3)
    start_obs = a.obs.copy()
    for _ in range(200):
        a.step(a.random_actions(rs1))
        b.step(b.random_actions(rs2))
    assert np.array_equal(a.states, b.states) and np.array_equal(a.obs, b.obs)
    a.reset()
    assert np.array_equal(a.obs, start_obs) and a.episodes == 0 and a.moves_made == 0
    c = VecEnv(3, 2, seed=6)
    assert not np.array_equal(c.obs, start_obs)


def test_truncation_scores_the_game_as_it_stands():
    """A game capped after 10 moves is scored by the final ranking of that state."""
    vec = VecEnv(1, 2, seed=3, max_moves=10)
    rs = np.random.default_rng(0)
    for k in range(10):
        before = vec.states[0].copy()
        a = vec.random_actions(rs)
        vec.step(a)
    apply_action(before, int(a[0]), make_rng(0))
    expected = np.zeros(4)
    final_rewards(before, expected)
    assert vec.truncated[0] and not vec.terminated[0] and vec.episode_length[0] == 10
    assert np.array_equal(vec.rewards[0], expected) and expected.sum() == 1.0
    assert vec.ep_moves[0] == 0  # the next game was dealt


def test_bad_arguments_are_refused_before_anything_moves():
    vec = VecEnv(2, 2, seed=1)
    states = vec.states.copy()
    illegal = int(np.flatnonzero(vec.mask[1] == 0)[0])
    legal = int(vec.moves[0, 0])
    with pytest.raises(EnvError, match=f"slot 1: action {illegal} is not legal"):
        vec.step(np.array([legal, illegal]))
    with pytest.raises(EnvError, match="integer array of 2"):
        vec.step(np.array([legal]))
    with pytest.raises(EnvError, match="integer array of 2"):
        vec.step(np.array([0.5, 1.0]))
    with pytest.raises(EnvError, match="not legal"):
        vec.step(np.array([legal, S.N_ACTIONS]))
    assert np.array_equal(vec.states, states)
    for bad in (dict(n=0), dict(n=10 ** 6), dict(n=True)):
        with pytest.raises(EnvError, match="n \\(game slots\\)"):
            VecEnv(**bad)
    with pytest.raises(EnvError, match="players must be 2, 3 or 4"):
        VecEnv(1, players=5)
    with pytest.raises(EnvError, match="seed must be"):
        VecEnv(1, seed=-1)
    with pytest.raises(EnvError, match="max_moves must be"):
        VecEnv(1, max_moves=0)
    env = Env(2, seed=1)
    with pytest.raises(EnvError, match="integer code"):
        env.step("pass")
    with pytest.raises(EnvError, match="not legal"):
        env.step(S.A_COMMIT)


def test_bench_env_figures():
    """tne bench's environment figures: the three rates of one run (no speed asserted)."""
    from tne_ai.matches.bench import measure_env_steps
    figures = measure_env_steps(2, envs=4, steps=400, repeats=2)
    assert set(figures) == {"vec", "single", "openspiel"}
    for name, f in figures.items():
        assert 0 < f["min"] <= f["median"] <= f["max"], name


def test_no_env_kernel_allocates():
    """DESIGN (performance notes): the kernels of a step (VecEnv's step and reset, the
    encoders, the mask) and everything they call make no array."""
    import inspect

    from test_no_allocation import ALLOCATING, reached

    from tne_ai.interop.env import encode as E_
    from tne_ai.interop.env import vec as V_
    found = reached([V_.step_all, V_.reset_all, V_.first_illegal, E_.encode, E_.encode_update,
                     E_.write_mask, E_.clear_mask])
    assert {"tne_ai.interop.env.encode._write_vector", "tne_ai.core.rules.apply.apply_action",
            "tne_ai.core.rules.playout.deal_start", "tne_ai.core.rules.movegen.legal_moves"} <= set(found)
    offenders = []
    for name, d in sorted(found.items()):
        source = inspect.getsource(d.py_func)
        body = source.split('"""')[2] if source.count('"""') >= 2 else source
        if ALLOCATING.search(body):
            offenders.append(name)
    assert offenders == []
