"""The PettingZoo AEC environment: ``tne_ai.interop.env.aec_env(players=2..4, seed=...)``.

Agents ``player_0`` .. ``player_{n-1}`` (the engine's seats).  Each agent's observation is a
dict: ``observation`` (the seat's float32 tensor of ``OBS_SIZE`` values, docs/OBSERVATION.md:
only what that seat may see) and ``action_mask`` (int8 over the ``N_ACTIONS`` action codes;
all 0 for an agent that does not act now).  The action space is ``Discrete(N_ACTIONS)``.
The agent to act (``agent_selection``) is whoever must decide: the player whose turn it is,
or the attacker or defender committing to a conflict, the player choosing a war, building a
monument or taking a treasure.  The reward comes at the end: the final ranking gives 1 to
the winner (players sharing first place split it), 0 to the others; a game that reaches
``max_moves`` moves is truncated and scored as it stands.

Seeds: ``reset(seed=s)`` deals the game of ``Env(players, s)`` (slot i of ``VecEnv`` with
seed s - i); ``reset()`` without a seed deals the next game of the same RNG stream (the
first from the constructor's seed, 0 if None).

``render()``: ``render_mode="ansi"`` returns the board as text with the summary (what
``tne show`` prints, every hand shown: the picture is for a spectator, not an agent),
``"svg"`` the SVG picture of ``tne show --svg``.
"""
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from tne_ai.core import state as S
from tne_ai.core.rules.apply import apply_action
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import deal_start
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards as final_rewards
from tne_ai.core.render import ascii_board, summary, svg
from tne_ai.interop.env.encode import OBS_SIZE, encode
from tne_ai.interop.env.vec import DEFAULT_MAX_MOVES, EnvError, check_max_moves, check_players, check_seed, \
    start_template

OBS_HIGH = 255.0  # no value of the tensor is above this (the largest count is the bag's 143)


def observation_space():
    return spaces.Dict({
        "observation": spaces.Box(0.0, OBS_HIGH, (OBS_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (S.N_ACTIONS,), dtype=np.int8)})


class TneAECEnv(AECEnv):
    metadata = {"name": "tigris_euphrates_v0", "render_modes": ["ansi", "svg"],
                "is_parallelizable": False}

    def __init__(self, players=2, seed=None, render_mode=None, max_moves=None):
        super().__init__()
        self.players = check_players(players)
        self.seed = 0 if seed is None else check_seed(seed)
        self.max_moves = DEFAULT_MAX_MOVES if max_moves is None else check_max_moves(max_moves)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode must be ansi, svg or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(self.players)]
        self._spaces = {a: observation_space() for a in self.possible_agents}
        self._actions = {a: spaces.Discrete(S.N_ACTIONS) for a in self.possible_agents}
        self._template = start_template(self.players)
        self._rng = None
        self.st = np.empty(S.STATE_SIZE, dtype=np.int64)
        self._moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self._n_moves = 0
        self._out = np.zeros(4, dtype=np.float64)

    def observation_space(self, agent):
        return self._spaces[agent]

    def action_space(self, agent):
        return self._actions[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = make_rng(check_seed(seed))
        elif self._rng is None:
            self._rng = make_rng(self.seed)
        deal_start(self._template, self._rng, self.st)
        self.made = 0
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._after_move()

    def _after_move(self):
        self._n_moves = legal_moves(self.st, self._moves)
        self.agent_selection = self.possible_agents[int(self.st[S.TO_ACT])]

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        obs = np.empty(OBS_SIZE, dtype=np.float32)
        encode(self.st, seat, obs)
        mask = np.zeros(S.N_ACTIONS, dtype=np.int8)
        if (agent == self.agent_selection and not self.terminations[agent]
                and not self.truncations[agent]):
            mask[self._moves[:self._n_moves]] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise EnvError(f"an action is an integer code 0..{S.N_ACTIONS - 1}, not {action!r}")
        if not 0 <= action < S.N_ACTIONS or action not in self._moves[:self._n_moves]:
            raise EnvError(f"action {int(action)} is not legal for {agent}")
        self._cumulative_rewards[agent] = 0.0
        apply_action(self.st, int(action), self._rng)
        self.made += 1
        over = self.st[S.PHASE] == S.PH_OVER
        capped = not over and self.made >= self.max_moves
        if over or capped:
            final_rewards(self.st, self._out)
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(self._out[i])
                self.terminations[a] = bool(over)
                self.truncations[a] = bool(capped)
            self._n_moves = 0
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            self._after_move()
        self._accumulate_rewards()

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "svg":
            return svg(self.st)
        return ascii_board(self.st) + "\n" + summary(self.st, [True] * self.players)

    def close(self):
        pass
