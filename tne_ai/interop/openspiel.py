"""OpenSpiel interoperability: the game ``python_tigris_euphrates`` and OpenSpiel's search bots
as tournament agents.

Needs the optional extra ``pip install "tne-ai[openspiel]"`` (open_spiel 2.0.2, whose Python
bots are the ones that run on a Python game).  Importing this module registers the game with
``pyspiel``::

    import pyspiel
    import tne_ai.interop.openspiel
    game = pyspiel.load_game("python_tigris_euphrates", {"players": 3})

The game
--------
- Parameters: ``players`` (2 to 4, default 2) and ``max_moves`` (the move cap, default
  ``MOVE_CAP`` = 2,000).  Sequential, imperfect information, explicit chance nodes, one
  reward at the end.
- Actions are the engine's action codes (``tne_ai.core.state``): ``num_distinct_actions`` is
  ``state.N_ACTIONS`` (3042); ``legal_actions`` is the engine's ``legal_moves`` (ascending).
  ``apply_action`` refuses (``OpenSpielError``) a code that is not legal and a chance outcome
  that is not a colour left in the bag: pyspiel does not check a Python game's actions.
- Chance: every tile drawn is a chance node.  The state's bag is the engine's external-draw
  bag (``BAG_ORDERED = BAG_EXTERNAL``, colour counts only): a rule that draws only records the
  draw as owed (``DRAWS_OWED``), and while ``owed_drawer`` names a player the state is a chance
  node.  Its outcomes are the colours 0..3 (red, blue, green, black) that the bag still holds,
  each with probability count / bag total; applying outcome c calls ``resolve_draw(st, c)``.
  The initial state has no hands and 6 draws owed to every player: the deal is the first
  6 x players chance nodes (player 0's six first).  ``max_chance_outcomes`` is 4.
- Move cap: the game also ends after ``max_moves`` player moves (chance outcomes are not
  moves) and is then scored as it stands, by the same final scoring as a finished game.
  ``max_game_length`` is ``max_moves``.  Random games end by the rules after about 140-280
  moves, so the cap only bounds pathological games.  A state built from a position mid-game
  (``state_from_array``) counts its moves from there.
- Returns: the engine's final-ranking reward (``scoring.rewards``): 1 to the winner, players
  sharing first place split 1 evenly, everyone else 0; before the end every return is 0.
  The returns always sum to 1: the game is declared ``CONSTANT_SUM`` with ``utility_sum`` 1,
  ``min_utility`` 0 and ``max_utility`` 1 (no mapping to -1..1 is made).
- ``observation_string(p)``: p's hand and p's own scores (``score r1 b0 g2 k0 t0``: points of
  each colour, treasures taken; the other players' scores are hidden, as in the observation
  tensor), whose decision it is (or the draws owed), the board (11 rows of 16 characters,
  ``. ~ r b g k # x`` as in position files), leaders, treasures, monuments, every player's
  catastrophes and hand size, the bag's size, the tiles out of the game and the hidden
  discards.  Nothing else of another hand, another player's scores or the bag's contents
  shows (``tests/test_openspiel.py`` changes them and checks every player's strings and
  tensors).  ``str(state)`` is the spectator's view: every hand and every score.
- ``information_state_string(p)``: the observation plus the move history made in this state,
  one ``player:move`` token a move, where other players' swaps show only how many tiles they
  discarded (``1:swap 3``) and p's own swaps show the tiles.  The order of p's own draws is
  not listed (his hand is), so it is perfect recall except for that.
- ``observation_tensor(p)``: p's observation tensor of ``tne_ai.interop.env.encode`` (float32,
  shape ``[OBS_SIZE]`` = [5696]: 32 board planes of 11 x 16 squares, then 64 scalars; plane by
  plane in docs/OBSERVATION.md): p's own hand and scores, the public board and counts, the
  pending decision (counts divided by fixed scales); never another hand, another player's
  scores or the bag.  The observer's
  ``dict`` shows it as ``planes`` (32, 11, 16) and ``scalars`` (64,).
- ``information_state_tensor(p)``: shape ``[INFO_SIZE]`` = [5741]: the observation tensor,
  then ``history`` (4, 11): the moves each player made so far, by kind (tile, leader,
  withdraw, catastrophe, swap, pass, commit, war, monument, decline, treasure; players
  relative to p as in the observation; each count / 100), then the moves made / ``max_moves``.  It is a summary of
  the public history, not the whole sequence (the string is the perfect-recall view).
- ``resample_from_infostate(p, probability_sampler)``: the determinizer
  (``search.determinize``) deals the tiles p cannot see to the other hands, the hidden
  discards and the bag; the bag it deals as a sequence is turned back into colour counts of an
  external-draw bag.  The sampler's first number seeds the deal.  The new state has the same
  information state string for p; other players' swaps in its history show only their count
  (p does not know what they discarded, so the sampled world does not either).

The state only calls the engine's kernels (``apply_action``, ``legal_moves``,
``owed_drawer``, ``resolve_draw``, ``rewards``, ``determinize``); no rule is written here.

Agents
------
``OpenSpielIsmctsAgent`` (spec ``openspiel-ismcts``) runs OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with this game's resampler (the bot's
``set_resampler`` hook, calling ``state.resample_from_infostate`` with a seeded sampler).
``OpenSpielMctsAgent`` (spec ``openspiel-mcts``) runs OpenSpiel's perfect-information
``open_spiel.python.algorithms.mcts.MCTSBot`` on a fresh determinization at every move, so it
never sees hidden tiles.  Both start from a determinization of the position as the player to
act sees it.  Options:

- ``simulations=N``: simulations a move (default 100; at least 2 for ISMCTSBot, whose first
  simulation only evaluates the root);
- ``time=S``: seconds a move.  The simulation count is scaled to the time from the measured
  cost of a simulation on earlier moves (capped by ``simulations`` when both are given); the
  first move spends part of its time measuring;
- ``c``: the UCT constant (default 0.7: rewards are in 0..1);
- ``playout=engine|python``: the leaf evaluation.  ``engine`` (the default) plays one
  uniformly random game to the end in the numba engine; ``python`` is OpenSpiel's own
  ``RandomRolloutEvaluator``, the same random game played through pyspiel, about 100 times
  slower;
- ``seed``.
"""
import time as _time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts as _ismcts
from open_spiel.python.algorithms import mcts as _mcts

from tne_ai.core import board as B
from tne_ai.core import state as S
from tne_ai.agents.builtin import Agent, AgentSpecError, register_agent
from tne_ai.core.rules.apply import apply_action, draw_tile, owed_drawer, resolve_draw
from tne_ai.core.rules.movegen import legal_moves
from tne_ai.core.rules.playout import random_game
from tne_ai.core.rules.rng import make_rng
from tne_ai.core.rules.scoring import rewards
from tne_ai.interop.env.encode import N_PLANES, OBS_SIZE, encode
from tne_ai.errors import TneError
from tne_ai.core.formats import board_rows, square_flags
from tne_ai.core.notation import move_text
from tne_ai.position import start_state
from tne_ai.core.render import pending_text
from tne_ai.search.determinize import determinize, unseen_pool

GAME_NAME = "python_tigris_euphrates"
MOVE_CAP = 2000
HAND_SIZE = B.HAND_SIZE
_DEFAULTS = {"players": 2, "max_moves": MOVE_CAP}

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Tigris & Euphrates (tne_ai)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.CONSTANT_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
    parameter_specification=_DEFAULTS)


class OpenSpielError(TneError, ValueError):
    """A bad game parameter or state handed to the OpenSpiel layer."""


# the kinds of move the information state tensor counts, by the first code of each
KIND_STARTS = np.array([S.A_TILE, S.A_LEADER, S.A_WITHDRAW, S.A_CATASTROPHE, S.A_SWAP, S.A_PASS,
                        S.A_COMMIT, S.A_WAR, S.A_MONUMENT, S.A_DECLINE, S.A_TREASURE])
N_KINDS = len(KIND_STARTS)
INFO_SIZE = OBS_SIZE + 4 * N_KINDS + 1
HISTORY_SCALE = 100.0  # the information state tensor's move counts are divided by this


def move_kind(code):
    return int(np.searchsorted(KIND_STARTS, code, side="right")) - 1


# --- the state's data -----------------------------------------------------------------------

class _Core:
    """Everything a state holds, in one object.  pyspiel clones a Python state by deep-copying
    its attributes; this object copies itself cheaply (the array, and the history list whose
    entries are immutable tuples).  ``public`` caches the public lines of the text views
    (None until asked for; every action or draw clears it)."""

    __slots__ = ("st", "history", "moves", "max_moves", "public", "kinds")

    def __deepcopy__(self, memo):
        core = _Core.__new__(_Core)
        core.st = self.st.copy()
        core.history = list(self.history)
        core.moves = self.moves
        core.max_moves = self.max_moves
        core.public = self.public
        core.kinds = self.kinds.copy()
        return core


_UNUSED_RNG = make_rng(0)  # apply_action takes an RNG; an external-draw bag never uses it
_TEXT = {}


def _move_text(code):
    text = _TEXT.get(code)
    if text is None:
        text = _TEXT[code] = move_text(code)
    return text


def external_bag(st):
    """Turn st's bag (ordered or counted) into an external-draw bag in place: the colour
    counts stay, the tile order (if any) is dropped."""
    st[S.BAG_ORDERED] = S.BAG_EXTERNAL
    st[S.BAG_LEN] = 0
    st[S.BAG:S.BAG + S.BAG_WORDS] = 0
    return st


def _start_array(players):
    """The start position with an external-draw bag: temples and treasures placed, no hands,
    the 143 tiles left in the bag as counts, 6 draws owed to every player."""
    st = start_state(players, "", deal=False)
    unseen_pool(st, 0, st[S.BAG_COUNT:S.BAG_COUNT + 4])  # no hands yet: every unseen tile is in the bag
    external_bag(st)
    st[S.DRAWS_OWED:S.DRAWS_OWED + players] = HAND_SIZE
    return st


# --- text views -------------------------------------------------------------------------------

_SQUARE_NAMES = [B.square_name(s) for s in range(B.SQUARES)]


def _counts(values):
    return " ".join(f"{B.COLOUR_LETTERS[c]}{int(values[c])}" for c in range(4))


def _score_text(st, p):
    """p's points: red, blue, green, black, then treasures taken (t)."""
    return _counts(st[S.SCORE + 5 * p:S.SCORE + 5 * p + 4]) + \
        f" t{int(st[S.SCORE + 5 * p + S.SCORE_TREASURE])}"


def _public_lines(st, moves, max_moves):
    n = int(st[S.PLAYERS])
    if st[S.PHASE] == S.PH_OVER:
        status = "game over"
    elif moves >= max_moves:
        status = f"game over (move cap {max_moves})"
    else:
        status = (f"turn {int(st[S.TURN])}, {int(st[S.ACTIONS_LEFT])} action(s) left; "
                  f"{pending_text(st)}")
        owed = st[S.DRAWS_OWED:S.DRAWS_OWED + n]
        if owed.any():
            status += "; draws owed " + " ".join(f"{p}:{int(owed[p])}" for p in range(n) if owed[p])
    leaders = " ".join(f"{p}{B.COLOUR_LETTERS[c]}@{_SQUARE_NAMES[int(st[S.LEADER_SQ + 4 * p + c])]}"
                       for p in range(n) for c in range(4) if st[S.LEADER_SQ + 4 * p + c] >= 0)
    treasures = " ".join(_SQUARE_NAMES[s] for s in np.flatnonzero(square_flags(st, S.BB_TREASURE)))
    monuments = " ".join(f"{B.MONUMENT_NAMES[m]}@{_SQUARE_NAMES[int(st[S.MON_SQ + m])]}"
                         for m in range(6) if st[S.MON_SQ + m] >= 0)
    hand_sizes = " ".join(str(int(st[S.HAND + 4 * p:S.HAND + 4 * p + 4].sum())) for p in range(n))
    catastrophes = " ".join(str(int(st[S.CATASTROPHES + p])) for p in range(n))
    return [status,
            "board " + "/".join(board_rows(st)),
            "leaders " + (leaders or "-"),
            "treasures " + (treasures or "-"),
            "monuments " + (monuments or "-"),
            "catastrophes " + catastrophes,
            "hand sizes " + hand_sizes,
            f"bag {int(st[S.BAG_COUNT:S.BAG_COUNT + 4].sum())}; out of game "
            f"{_counts(st[S.OUT_OF_GAME:S.OUT_OF_GAME + 4])}; hidden discards "
            f"{int(st[S.HIDDEN_DISCARDS])}"]


# --- game and state ---------------------------------------------------------------------------

class TigrisEuphratesGame(pyspiel.Game):
    """The pyspiel game; see the module docstring."""

    def __init__(self, params=None):
        params = dict(_DEFAULTS, **(params or {}))
        unknown = set(params) - set(_DEFAULTS)
        if unknown:
            raise OpenSpielError(f"{GAME_NAME}: unknown parameter(s) {', '.join(sorted(unknown))} "
                                 f"(known: players, max_moves)")
        players, max_moves = params["players"], params["max_moves"]
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise OpenSpielError(f"{GAME_NAME}: players must be 2, 3 or 4, not {players!r}")
        if isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1:
            raise OpenSpielError(f"{GAME_NAME}: max_moves must be a positive integer, "
                                 f"not {max_moves!r}")
        info = pyspiel.GameInfo(num_distinct_actions=S.N_ACTIONS, max_chance_outcomes=4,
                                num_players=players, min_utility=0.0, max_utility=1.0,
                                utility_sum=1.0, max_game_length=max_moves)
        super().__init__(GAME_TYPE, info, params)
        self.players = players
        self.max_moves = max_moves
        self._start = _start_array(players)

    def new_initial_state(self):
        return TigrisEuphratesState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return TigrisEuphratesObserver(iig_obs_type, params)


class TigrisEuphratesState(pyspiel.State):
    """A pyspiel state over one engine state array (``st``) plus the move history."""

    def __init__(self, game):
        super().__init__(game)
        core = _Core()
        core.st = game._start.copy()
        core.history = []
        core.moves = 0
        core.max_moves = game.max_moves
        core.public = None
        core.kinds = np.zeros((4, N_KINDS), dtype=np.int64)  # moves by player and kind
        self._core = core

    # --- the engine state ------------------------------------------------------------------
    @property
    def st(self):
        """The engine state array (the state's own; copy it before changing it)."""
        return self._core.st

    @property
    def moves(self):
        """Player moves made in this state (the move cap counts these)."""
        return self._core.moves

    # --- pyspiel API -----------------------------------------------------------------------
    def is_terminal(self):
        core = self._core
        return core.st[S.PHASE] == S.PH_OVER or core.moves >= core.max_moves

    def current_player(self):
        core = self._core
        if core.st[S.PHASE] == S.PH_OVER or core.moves >= core.max_moves:
            return pyspiel.PlayerId.TERMINAL
        if owed_drawer(core.st) >= 0:
            return pyspiel.PlayerId.CHANCE
        return int(core.st[S.TO_ACT])

    def _legal_actions(self, player):
        if player != self.current_player():
            return []
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)  # per call: states may live in threads
        n = legal_moves(self._core.st, moves)
        return moves[:n].tolist()

    def chance_outcomes(self):
        counts = self._core.st[S.BAG_COUNT:S.BAG_COUNT + 4]
        total = float(counts.sum())
        return [(c, int(counts[c]) / total) for c in range(4) if counts[c] > 0]

    def _apply_action(self, action):
        core = self._core
        st = core.st
        if owed_drawer(st) >= 0:
            if not 0 <= action < 4 or st[S.BAG_COUNT + action] <= 0:
                raise OpenSpielError(f"{GAME_NAME}: chance outcome {action} is not a colour "
                                     f"left in the bag")
            core.public = None
            resolve_draw(st, action)
            return
        # pyspiel does not check a Python game's actions: a learner whose masked policy went
        # to NaN could hand in any code, and the engine assumes legal ones
        moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        if action not in moves[:legal_moves(st, moves)]:
            raise OpenSpielError(f"{GAME_NAME}: action {action} is not legal for player "
                                 f"{int(st[S.TO_ACT])}")
        core.public = None
        player = int(st[S.TO_ACT])
        full = f"{player}:{_move_text(action)}"
        if S.A_SWAP <= action < S.A_PASS:
            public = f"{player}:swap {int(S.SWAP_COUNTS[action - S.A_SWAP].sum())}"
        else:
            public = full
        core.history.append((player, public, full))
        core.kinds[player, move_kind(action)] += 1
        apply_action(st, action, _UNUSED_RNG)
        core.moves += 1

    def _action_to_string(self, player, action):
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {B.COLOURS[action]}"
        return _move_text(action)

    def returns(self):
        n = int(self._core.st[S.PLAYERS])
        out = np.zeros(4, dtype=np.float64)
        if self.is_terminal():
            rewards(self._core.st, out)
        return out[:n].tolist()

    def resample_from_infostate(self, player_id, probability_sampler):
        """A state drawn from player_id's information set (see the module docstring)."""
        seed = int(float(probability_sampler()) * (1 << 53))
        sample = np.empty_like(self._core.st)
        determinize(self._core.st, player_id, make_rng(seed), sample)
        external_bag(sample)
        self.view_text(player_id)  # fill the public text cache: the sample shares it
        state = self.clone()
        core = state._core
        core.st = sample
        core.history = [entry if entry[0] == player_id else (entry[0], entry[1], entry[1])
                        for entry in core.history]
        return state

    def view_text(self, player, hands="own", public=True, history=False):
        """The text behind the observation (history False) and information state (history
        True) strings; hands 'own', 'all' or 'none'."""
        core = self._core
        st = core.st
        lines = [f"player {player}"]
        n = int(st[S.PLAYERS])
        # a hand and its player's scores are behind his screen (docs/OBSERVATION.md): a
        # player's own view shows his own, the all-players view every one, the public none
        if hands == "own":
            lines.append("hand " + _counts(st[S.HAND + 4 * player:S.HAND + 4 * player + 4]))
            lines.append("score " + _score_text(st, player))
        elif hands == "all":
            lines.append("hands " + "; ".join(_counts(st[S.HAND + 4 * p:S.HAND + 4 * p + 4])
                                              for p in range(n)))
            lines.append("scores " + "; ".join(_score_text(st, p) for p in range(n)))
        if public:
            if core.public is None:
                core.public = "\n".join(_public_lines(st, core.moves, core.max_moves))
            lines.append(core.public)
        if history:
            if hands == "all":
                tokens = [full for _, _, full in core.history]
            elif hands == "own":
                tokens = [full if p == player else public for p, public, full in core.history]
            else:
                tokens = [public for _, public, _ in core.history]
            lines.append("moves " + (" ".join(tokens) or "-"))
        return "\n".join(lines)

    def __str__(self):
        return self.view_text(0, hands="all", history=True).split("\n", 1)[1]


class TigrisEuphratesObserver:
    """pyspiel's Python observer interface: the strings, and the tensors of the module
    docstring for the observation types that show a player his own hand (the default ones of
    ``observation_tensor`` and ``information_state_tensor``); other types get an empty
    tensor."""

    def __init__(self, iig_obs_type=None, params=None):
        if params:
            raise OpenSpielError(f"{GAME_NAME}: observer parameters are not supported ({params})")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        private = iig_obs_type.private_info
        self.hands = ("own" if private == pyspiel.PrivateInfoType.SINGLE_PLAYER else
                      "all" if private == pyspiel.PrivateInfoType.ALL_PLAYERS else "none")
        self.public = bool(iig_obs_type.public_info)
        self.history = bool(iig_obs_type.perfect_recall)
        self.dict = {}
        if self.hands == "own" and self.public:
            size = INFO_SIZE if self.history else OBS_SIZE
            self.tensor = np.zeros(size, np.float32)
            self.dict["planes"] = self.tensor[:N_PLANES * B.SQUARES].reshape(N_PLANES, B.ROWS, B.COLS)
            self.dict["scalars"] = self.tensor[N_PLANES * B.SQUARES:OBS_SIZE]
            if self.history:
                self.dict["history"] = self.tensor[OBS_SIZE:OBS_SIZE + 4 * N_KINDS].reshape(4, N_KINDS)
                self.dict["moves"] = self.tensor[OBS_SIZE + 4 * N_KINDS:]
        else:
            self.tensor = np.zeros(0, np.float32)

    def set_from(self, state, player):
        if not self.tensor.size:
            return
        core = state._core
        encode(core.st, player, self.tensor[:OBS_SIZE])
        if self.history:
            n = int(core.st[S.PLAYERS])
            history = self.dict["history"]
            history[:] = 0.0
            for p in range(n):
                history[(p - player) % n] = core.kinds[p] / HISTORY_SCALE
            self.dict["moves"][0] = core.moves / core.max_moves

    def string_from(self, state, player):
        return state.view_text(player, self.hands, self.public, self.history)


pyspiel.register_game(GAME_TYPE, TigrisEuphratesGame)


def load_game(players=2, max_moves=MOVE_CAP):
    """The pyspiel game for that many players."""
    return pyspiel.load_game(GAME_NAME, {"players": int(players), "max_moves": int(max_moves)})


def state_from_array(game, st):
    """A pyspiel state of game holding a copy of engine state st, its bag turned into an
    external-draw bag; the move history starts empty and the move cap counts from here."""
    st = np.asarray(st, dtype=np.int64)
    if st.shape != (S.STATE_SIZE,) or int(st[S.PLAYERS]) != game.num_players():
        raise OpenSpielError(f"state_from_array: need a {game.num_players()}-player engine "
                             f"state of {S.STATE_SIZE} words")
    state = game.new_initial_state()
    state._core.st = external_bag(st.copy())
    state._core.public = None
    return state


# --- leaf evaluation --------------------------------------------------------------------------

class EngineRolloutEvaluator(_mcts.RandomRolloutEvaluator):
    """OpenSpiel's random-rollout evaluator, played in the numba engine: owed draws are
    settled at random from the bag counts, then uniformly random moves until the game ends
    (or the move cap), scored by the final ranking.  Priors are OpenSpiel's (uniform)."""

    def __init__(self, seed=0):
        super().__init__(n_rollouts=1)
        self.rng = make_rng(seed)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.out = np.zeros(4, dtype=np.float64)

    def evaluate(self, state):
        core = state._core
        st = core.st.copy()
        st[S.BAG_ORDERED] = 0  # a counted bag: draw_tile picks colours at random
        q = owed_drawer(st)
        while q >= 0:
            st[S.DRAWS_OWED + q] -= 1
            draw_tile(st, q, self.rng)
            q = owed_drawer(st)
        random_game(st, self.rng, self.moves, max(0, core.max_moves - core.moves))
        rewards(st, self.out)
        return self.out[:int(st[S.PLAYERS])].copy()


# --- agents -----------------------------------------------------------------------------------

_GAMES = {}


def _game(players):
    if players not in _GAMES:
        _GAMES[players] = load_game(players)
    return _GAMES[players]


class _OpenSpielAgent(Agent):
    kind = "openspiel"
    MIN_SIMULATIONS = 1
    CALIBRATION = 4  # simulations of the first, measuring search under a time budget

    def __init__(self, seed=0, simulations=None, time=None, c=0.7, playout="engine"):
        if simulations is not None and simulations < self.MIN_SIMULATIONS:
            raise AgentSpecError(f"{self.kind}: simulations={simulations} is out of range "
                                 f"(>= {self.MIN_SIMULATIONS})")
        if time is not None and time <= 0:
            raise AgentSpecError(f"{self.kind}: time={time} is out of range (> 0)")
        if c <= 0:
            raise AgentSpecError(f"{self.kind}: c={c} is out of range (> 0)")
        if playout not in ("engine", "python"):
            raise AgentSpecError(f"{self.kind}: playout={playout} is not engine or python")
        if simulations is None and time is None:
            simulations = 100
        self.seed = int(seed)
        self.simulations = simulations
        self.time = time
        self.c = c
        self.playout = playout
        parts = [f"simulations={simulations}" if simulations is not None else None,
                 f"time={time}" if time is not None else None,
                 None if playout == "engine" else f"playout={playout}"]
        self.name = self.kind + ":" + ",".join(p for p in parts if p)
        self.rng = make_rng(self.seed)
        self.random_state = np.random.RandomState(self.seed % (1 << 32))
        self.sampler = pyspiel.UniformProbabilitySampler(self.seed % (1 << 31), 0.0, 1.0)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.bots = {}
        self.seconds_per_simulation = None
        self.last_simulations = 0

    def _evaluator(self):
        if self.playout == "engine":
            return EngineRolloutEvaluator(seed=self.seed)
        return _mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=self.random_state)

    def _bot(self, players):
        if players not in self.bots:
            self.bots[players] = self._make_bot(_game(players), self._evaluator())
        return self.bots[players]

    def _seen_state(self, position):
        """The position as the player to act sees it: a determinization of it."""
        sample = np.empty_like(position.st)
        determinize(position.st, position.to_act, self.rng, sample)
        return state_from_array(_game(position.players), sample)

    def _run(self, bot, position, simulations):
        self._set_simulations(bot, simulations)
        start = _time.perf_counter()
        action = self._search(bot, position)
        elapsed = _time.perf_counter() - start
        # the cost of a simulation: a lower measurement is taken at once (the first ones
        # can include loading compiled kernels), a higher one half-way
        per = elapsed / simulations
        old = self.seconds_per_simulation
        self.seconds_per_simulation = per if old is None or per < old else 0.5 * (old + per)
        self.last_simulations = simulations
        return action, elapsed

    def choose(self, position):
        n = legal_moves(position.st, self.moves)
        if n == 1:
            self.last_simulations = 0
            return int(self.moves[0])
        bot = self._bot(position.players)
        if self.time is None:
            return int(self._run(bot, position, self.simulations)[0])
        spent = 0.0
        if self.seconds_per_simulation is None:
            # a first, short search warms the kernels up; the second measures
            spent = self._run(bot, position, self.MIN_SIMULATIONS)[1]
            self.seconds_per_simulation = None
            spent += self._run(bot, position, self.CALIBRATION)[1]
        budget = max(self.MIN_SIMULATIONS, int((self.time - spent) / self.seconds_per_simulation))
        if self.simulations is not None:
            budget = min(budget, self.simulations)
        return int(self._run(bot, position, budget)[0])


class OpenSpielIsmctsAgent(_OpenSpielAgent):
    """OpenSpiel's ISMCTSBot, resampling through ``resample_from_infostate``."""

    kind = "openspiel-ismcts"
    MIN_SIMULATIONS = 2  # its first simulation only evaluates the root

    def _make_bot(self, game, evaluator):
        bot = _ismcts.ISMCTSBot(game, evaluator, self.c, 1, random_state=self.random_state,
                                final_policy_type=_ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        sampler = self.sampler
        bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
        return bot

    def _set_simulations(self, bot, simulations):
        bot._max_simulations = simulations

    def _search(self, bot, position):
        return bot.step(self._seen_state(position))


class OpenSpielMctsAgent(_OpenSpielAgent):
    """OpenSpiel's perfect-information MCTSBot on a fresh determinization at every move."""

    kind = "openspiel-mcts"

    def _make_bot(self, game, evaluator):
        return _mcts.MCTSBot(game, self.c, 1, evaluator, random_state=self.random_state)

    def _set_simulations(self, bot, simulations):
        bot.max_simulations = simulations

    def _search(self, bot, position):
        return bot.step(self._seen_state(position))


AGENTS = {"openspiel-ismcts": OpenSpielIsmctsAgent, "openspiel-mcts": OpenSpielMctsAgent}
AGENT_OPTIONS = {"seed": int, "simulations": int, "time": float, "c": float, "playout": str}


def make_openspiel_agent(kind, **options):
    """The agent of that kind (``openspiel-ismcts`` or ``openspiel-mcts``) with options."""
    return AGENTS[kind](**options)


# the two agents register themselves with tne_ai.agents.builtin (which never imports this module)
for _kind, _cls in AGENTS.items():
    register_agent(_kind, _cls, AGENT_OPTIONS)
