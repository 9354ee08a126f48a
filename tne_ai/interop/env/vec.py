"""Batched environments: n games in one state array, stepped together in one numba call.

``VecEnv(n, players, seed)`` keeps n games (2-4 players) side by side.  Game slot i is
seeded with ``seed + i``: its games are dealt one after the other from that slot's RNG
(``engine.playout.deal_start``), so slot i of a VecEnv plays exactly the games of
``Env(players, seed + i)`` given the same actions.  After every ``reset`` and ``step`` these
preallocated arrays hold, per slot:

- ``obs``: the observation of the seat to act (``encode``; float32, ``OBS_SIZE``),
- ``mask``: its legal actions over the ``N_ACTIONS`` codes (int8, 1 = legal),
- ``moves[:n_moves]``: the same legal codes as a list (ascending), ``to_act``: the seat,
- after a step, ``rewards`` (float64, one per seat, non-zero only when the game ended),
  ``terminated`` (the game ended by the rules), ``truncated`` (it reached ``max_moves``
  moves and was scored as it stands), and ``episode_length`` (moves of the game that ended,
  else 0).

A slot whose game ended is dealt its next game in the same call (auto-reset): ``obs`` and
``mask`` are then already the new game's.  ``episodes``, ``wins`` (rewards summed per seat)
and ``moves_made`` count every finished game and step since construction.

Only what changes is written: the mask entries of the previous legal moves are cleared and
the new ones set, and the observation is brought up to date square by square from the state
it last showed (``encode_update``).
"""
import numpy as np
from numba import njit

from tne_ai import limits as L
from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import deal_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards as final_rewards
from tne_ai.errors import TneError
from tne_ai.position import start_state
from tne_ai.interop.env.encode import OBS_SIZE, SHADOW_SIZE, clear_mask, encode_update, write_mask

FULL_BAG = "r" * 47 + "b" * 36 + "g" * 30 + "k" * 30
MAX_ENVS = 65_536          # game slots in one VecEnv
DEFAULT_MAX_MOVES = 2000   # the move cap (as the OpenSpiel game's MOVE_CAP)


class EnvError(TneError, ValueError):
    """A bad argument to an environment: players, seed, slot count, action."""


def check_players(players):
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) \
            or players not in (2, 3, 4):
        raise EnvError(f"players must be 2, 3 or 4, not {L.clip(repr(players), 40)}")
    return int(players)


def check_seed(seed, span=1):
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) \
            or not 0 <= seed <= L.MAX_SEED - span + 1:
        raise EnvError(f"seed must be an integer 0 to {L.MAX_SEED - span + 1}, "
                       f"not {L.clip(repr(seed), 40)}")
    return int(seed)


def check_max_moves(max_moves):
    if isinstance(max_moves, bool) or not isinstance(max_moves, (int, np.integer)) \
            or not 1 <= max_moves <= L.MAX_PLIES:
        raise EnvError(f"max_moves must be an integer 1 to {L.MAX_PLIES}, "
                       f"not {L.clip(repr(max_moves), 40)}")
    return int(max_moves)


def start_template(players):
    """The start position with the full bag (ordered) and no hands, for deal_start."""
    return start_state(players, FULL_BAG, deal=False)


@njit(cache=True)
def _refresh(st, moves, n_moves, mask, shadow, obs, i):
    """Slot i's legal moves, mask and observation after its state changed."""
    clear_mask(moves[i], n_moves[i], mask[i])
    n = legal_moves(st, moves[i])
    n_moves[i] = n
    write_mask(moves[i], n, mask[i])
    seat = st[S.TO_ACT]
    encode_update(st, seat, shadow[i], obs[i])
    return seat


@njit(cache=True)
def reset_all(template, states, rngs, moves, n_moves, mask, shadow, obs, to_act, ep_moves):
    for i in range(states.shape[0]):
        deal_start(template, rngs[i:i + 1], states[i])
        ep_moves[i] = 0
        to_act[i] = _refresh(states[i], moves, n_moves, mask, shadow, obs, i)


@njit(cache=True)
def first_illegal(actions, mask):
    """The first slot whose action is not legal (outside 0..N_ACTIONS-1 or masked), or -1."""
    for i in range(actions.shape[0]):
        a = actions[i]
        if a < 0 or a >= S.N_ACTIONS or mask[i, a] == 0:
            return i
    return -1


@njit(cache=True)
def step_all(template, states, rngs, actions, moves, n_moves, mask, shadow, obs, to_act,
             ep_moves, rewards, terminated, truncated, episode_length, wins, counters,
             max_moves):
    """Apply actions[i] (legal) in every slot; finished games are scored and re-dealt.
    counters[0] += finished games, counters[1] += moves."""
    for i in range(states.shape[0]):
        st = states[i]
        rng = rngs[i:i + 1]
        apply_action(st, actions[i], rng)
        ep_moves[i] += 1
        over = st[S.PHASE] == S.PH_OVER
        capped = (not over) and ep_moves[i] >= max_moves
        terminated[i] = over
        truncated[i] = capped
        for p in range(4):
            rewards[i, p] = 0.0
        episode_length[i] = 0
        if over or capped:
            final_rewards(st, rewards[i])
            for p in range(st[S.PLAYERS]):
                wins[p] += rewards[i, p]
            episode_length[i] = ep_moves[i]
            counters[0] += 1
            deal_start(template, rng, st)
            ep_moves[i] = 0
        to_act[i] = _refresh(st, moves, n_moves, mask, shadow, obs, i)
    counters[1] += states.shape[0]


class VecEnv:
    """n games of ``players`` players stepped in one numba call (see the module docstring)."""

    def __init__(self, n, players=2, seed=0, max_moves=DEFAULT_MAX_MOVES):
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or not 1 <= n <= MAX_ENVS:
            raise EnvError(f"n (game slots) must be an integer 1 to {MAX_ENVS}, "
                           f"not {L.clip(repr(n), 40)}")
        self.n = n = int(n)
        self.players = check_players(players)
        self.seed = check_seed(seed, n)
        self.max_moves = check_max_moves(max_moves)
        self.template = start_template(self.players)
        self.states = np.empty((n, S.STATE_SIZE), dtype=np.int64)
        self.rngs = np.empty(n, dtype=np.uint64)
        self.moves = np.zeros((n, S.MAX_MOVES), dtype=np.int64)
        self.n_moves = np.zeros(n, dtype=np.int64)
        self.mask = np.zeros((n, S.N_ACTIONS), dtype=np.int8)
        self.obs = np.zeros((n, OBS_SIZE), dtype=np.float32)
        self.shadow = np.zeros((n, SHADOW_SIZE), dtype=np.int64)
        self.to_act = np.zeros(n, dtype=np.int64)
        self.ep_moves = np.zeros(n, dtype=np.int64)
        self.rewards = np.zeros((n, 4), dtype=np.float64)
        self.terminated = np.zeros(n, dtype=np.bool_)
        self.truncated = np.zeros(n, dtype=np.bool_)
        self.episode_length = np.zeros(n, dtype=np.int64)
        self.wins = np.zeros(4, dtype=np.float64)
        self.counters = np.zeros(2, dtype=np.int64)
        self.reset()

    @property
    def episodes(self):
        return int(self.counters[0])

    @property
    def moves_made(self):
        return int(self.counters[1])

    def reset(self, seed=None):
        """Deal a new game in every slot (slot i from seed + i; seed None: the constructor's)
        and clear the statistics; returns (obs, mask)."""
        if seed is not None:
            self.seed = check_seed(seed, self.n)
        for i in range(self.n):
            self.rngs[i] = make_rng(self.seed + i)[0]
        self.mask[:] = 0
        self.n_moves[:] = 0
        self.shadow[:, S.STATE_SIZE] = -1
        self.rewards[:] = 0.0
        self.terminated[:] = False
        self.truncated[:] = False
        self.episode_length[:] = 0
        self.wins[:] = 0.0
        self.counters[:] = 0
        reset_all(self.template, self.states, self.rngs, self.moves, self.n_moves, self.mask,
                  self.shadow, self.obs, self.to_act, self.ep_moves)
        return self.obs, self.mask

    def step(self, actions):
        """Apply one action per slot (an int array of n legal codes for the seats in
        ``to_act``); returns (obs, mask, rewards, terminated, truncated), the arrays updated
        in place.  An illegal action raises EnvError before any slot moves."""
        actions = np.asarray(actions)
        if actions.shape != (self.n,) or actions.dtype.kind not in "iu":
            raise EnvError(f"step needs an integer array of {self.n} action codes, "
                           f"not shape {actions.shape} of {actions.dtype}")
        actions = actions.astype(np.int64, copy=False)
        bad = first_illegal(actions, self.mask)
        if bad >= 0:
            raise EnvError(f"slot {bad}: action {int(actions[bad])} is not legal for seat "
                           f"{int(self.to_act[bad])}")
        step_all(self.template, self.states, self.rngs, actions, self.moves, self.n_moves,
                 self.mask, self.shadow, self.obs, self.to_act, self.ep_moves, self.rewards,
                 self.terminated, self.truncated, self.episode_length, self.wins,
                 self.counters, self.max_moves)
        return self.obs, self.mask, self.rewards, self.terminated, self.truncated

    def random_actions(self, rng):
        """A uniformly random legal action per slot, drawn with numpy Generator rng."""
        pick = (rng.random(self.n) * self.n_moves).astype(np.int64)
        return self.moves[np.arange(self.n), pick]


class Env(VecEnv):
    """One game: a VecEnv of one slot, stepped with a single action (Python int)."""

    def __init__(self, players=2, seed=0, max_moves=DEFAULT_MAX_MOVES):
        super().__init__(1, players, seed, max_moves)
        self._action = np.zeros(1, dtype=np.int64)

    def step(self, action):
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise EnvError(f"an action is an integer code 0..{S.N_ACTIONS - 1}, "
                           f"not {L.clip(repr(action), 40)}")
        if not 0 <= action < S.N_ACTIONS or self.mask[0, action] == 0:
            raise EnvError(f"action {int(action) if abs(action) < 1 << 62 else '(huge)'} is "
                           f"not legal for seat {int(self.to_act[0])}")
        self._action[0] = action
        step_all(self.template, self.states, self.rngs, self._action, self.moves, self.n_moves,
                 self.mask, self.shadow, self.obs, self.to_act, self.ep_moves, self.rewards,
                 self.terminated, self.truncated, self.episode_length, self.wins,
                 self.counters, self.max_moves)
        return self.obs[0], self.mask[0], self.rewards[0], bool(self.terminated[0]), \
            bool(self.truncated[0])
