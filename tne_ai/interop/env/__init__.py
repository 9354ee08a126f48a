"""Learning environments (docs/OBSERVATION.md): observation tensors and action masks
(``encode``), a batched numba environment (``VecEnv``), and the PettingZoo and Gymnasium
environments (``aec_env``, ``gym_env``; extra ``rl``)."""
from tne_ai.interop.env.encode import OBS_SIZE, N_PLANES, N_VECTOR
from tne_ai.interop.env.vec import Env, EnvError, VecEnv

__all__ = ["OBS_SIZE", "N_PLANES", "N_VECTOR", "Env", "EnvError", "VecEnv",
           "aec_env", "gym_env"]


def aec_env(players=2, seed=None, render_mode=None, max_moves=None):
    """The PettingZoo AEC environment (needs the extra ``rl``); see tne_ai.interop.env.pettingzoo."""
    from tne_ai.interop.env.pettingzoo import TneAECEnv
    return TneAECEnv(players=players, seed=seed, render_mode=render_mode, max_moves=max_moves)


def gym_env(players=2, seat=0, opponents="random", seed=None, render_mode=None, max_moves=None):
    """The single-agent Gymnasium environment (needs the extra ``rl``); see tne_ai.interop.env.gym."""
    from tne_ai.interop.env.gym import TneGymEnv
    return TneGymEnv(players=players, seat=seat, opponents=opponents, seed=seed,
                     render_mode=render_mode, max_moves=max_moves)
