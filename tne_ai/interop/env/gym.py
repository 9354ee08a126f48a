"""A single-agent Gymnasium environment: one seat learns, the other seats are played by
agents built from spec strings (``tne_ai.agents.builtin.make_agent``: ``random``, ``greedy``,
``mcts:iterations=50``...).

``tne_ai.interop.env.gym_env(players=2, seat=0, opponents="random", seed=None)``: ``opponents`` is one
spec for every other seat or a list of one spec per other seat (in seat order).  The
observation is the dict of the PettingZoo environment (``observation``: the seat's tensor,
``action_mask``: its legal codes), the action space ``Discrete(N_ACTIONS)``.  ``step`` applies
the seat's action, then lets the agents act until the seat must decide again or the game
ends; the reward is the seat's final-ranking reward (1 for a win, a share of 1 for a shared
first place, else 0) when the game ends, 0 before.  ``info`` holds ``to_act`` and, at the
end, ``rewards`` (every seat's).  The agents see positions through ``choose``, which only
looks at what their own seat may see (agents.py).

Seeds: ``reset(seed=s)`` deals the game of ``Env(players, s)`` and seeds the agents with
``s + 1 + k`` (k = 0, 1, ... for the other seats in order); ``reset()`` deals the next game
of the same stream and keeps the agents.
"""
import gymnasium
import numpy as np
from gymnasium import spaces

from tne_ai.core import state as S
from tne_ai.agents.builtin import make_agent
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import deal_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards as final_rewards
from tne_ai.position import Position
from tne_ai.core.render import ascii_board, summary, svg
from tne_ai.interop.env.encode import OBS_SIZE, encode
from tne_ai.interop.env.pettingzoo import observation_space
from tne_ai.interop.env.vec import DEFAULT_MAX_MOVES, EnvError, check_max_moves, check_players, check_seed, \
    start_template


class TneGymEnv(gymnasium.Env):
    metadata = {"render_modes": ["ansi", "svg"]}

    def __init__(self, players=2, seat=0, opponents="random", seed=None, render_mode=None,
                 max_moves=None):
        self.players = check_players(players)
        if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.players:
            raise EnvError(f"seat must be 0 to {self.players - 1}, not {seat!r}")
        self.seat = int(seat)
        others = self.players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others or not all(isinstance(s, str) for s in specs):
            raise EnvError(f"opponents must be one agent spec or a list of {others} specs, "
                           f"not {opponents!r}")
        self.specs = specs
        self.agents = [make_agent(s, seed=0) for s in specs]  # a bad spec fails here
        self.seed = 0 if seed is None else check_seed(seed)
        self.max_moves = DEFAULT_MAX_MOVES if max_moves is None else check_max_moves(max_moves)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode must be ansi, svg or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = spaces.Discrete(S.N_ACTIONS)
        self._template = start_template(self.players)
        self._rng = None
        self.st = np.empty(S.STATE_SIZE, dtype=np.int64)
        self._moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self._n_moves = 0
        self._out = np.zeros(4, dtype=np.float64)

    def _seat_agent(self, p):
        return self.agents[p if p < self.seat else p - 1]

    def _observation(self):
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        encode(self.st, self.seat, obs)
        mask = np.zeros(S.N_ACTIONS, dtype=np.int8)
        if not self._over():
            mask[self._moves[:self._n_moves]] = 1
        return {"observation": obs, "action_mask": mask}

    def _over(self):
        return self.st[S.PHASE] == S.PH_OVER or self.made >= self.max_moves

    def _play_others(self):
        """Let the agents act until the seat must decide or the game ends."""
        while not self._over():
            self._n_moves = legal_moves(self.st, self._moves)
            p = int(self.st[S.TO_ACT])
            if p == self.seat:
                return
            code = int(self._seat_agent(p).choose(Position(self.st.copy())))
            apply_action(self.st, code, self._rng)
            self.made += 1

    def _info(self):
        info = {"to_act": int(self.st[S.TO_ACT])}
        if self._over():
            final_rewards(self.st, self._out)
            info["rewards"] = self._out[:self.players].tolist()
        return info

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            seed = check_seed(seed)
            self._rng = make_rng(seed)
            self.agents = [make_agent(s, seed=seed + 1 + k) for k, s in enumerate(self.specs)]
        elif self._rng is None:
            self._rng = make_rng(self.seed)
            self.agents = [make_agent(s, seed=self.seed + 1 + k)
                           for k, s in enumerate(self.specs)]
        deal_start(self._template, self._rng, self.st)
        self.made = 0
        self._play_others()
        return self._observation(), self._info()

    def step(self, action):
        if self._over():
            raise EnvError("the game is over: call reset()")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise EnvError(f"an action is an integer code 0..{S.N_ACTIONS - 1}, not {action!r}")
        if not 0 <= action < S.N_ACTIONS or action not in self._moves[:self._n_moves]:
            raise EnvError(f"action {int(action)} is not legal for seat {self.seat}")
        apply_action(self.st, int(action), self._rng)
        self.made += 1
        self._play_others()
        info = self._info()
        over = self.st[S.PHASE] == S.PH_OVER
        capped = not over and self.made >= self.max_moves
        reward = info["rewards"][self.seat] if (over or capped) else 0.0
        return self._observation(), float(reward), bool(over), bool(capped), info

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "svg":
            return svg(self.st)
        return ascii_board(self.st) + "\n" + summary(self.st, [True] * self.players)
