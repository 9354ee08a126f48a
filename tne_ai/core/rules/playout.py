"""Random playouts: uniform over the full legal move list, for fuzzing and the bench."""
import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.board import HAND_SIZE
from tne_ai.core.rules.apply import apply_action, draw_tile
from tne_ai.core.rules.movegen import legal_moves, random_move
from tne_ai.core.rules.rng import shuffle_bag


@njit(cache=True, _nrt=False)
def random_game(st, rng, moves, max_moves):
    """Play uniformly random legal moves in place until the game ends or max_moves are made;
    return the number of moves made."""
    made = 0
    while st[S.PHASE] != S.PH_OVER and made < max_moves:
        apply_action(st, random_move(st, rng, moves), rng)
        made += 1
    return made


@njit(cache=True)
def perft(st, depth, rng, moves_stack):
    """Number of move sequences of length depth from st (games ending early count nothing).
    moves_stack has shape (depth, MAX_MOVES)."""
    if st[S.PHASE] == S.PH_OVER:
        return 0
    n = legal_moves(st, moves_stack[depth - 1])
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        child = st.copy()
        apply_action(child, moves_stack[depth - 1, i], rng)
        total += perft(child, depth - 1, rng, moves_stack)
    return total


@njit(cache=True, _nrt=False)
def deal_start(template, rng, st):
    """Write into st a start position from a template (board, players and catastrophes set,
    the full bag of 143 in the ordered bag, no hands): shuffle the bag with rng, then each
    player draws 6 in turn order."""
    S.copy_into(st, template)
    shuffle_bag(st, st[S.BAG_LEN], rng)
    for p in range(st[S.PLAYERS]):
        for _ in range(HAND_SIZE):
            draw_tile(st, p, rng)


@njit(cache=True)
def shuffled_start(template, rng):
    """A new start position from a template (see deal_start)."""
    st = np.empty_like(template)
    deal_start(template, rng, st)
    return st


@njit(cache=True)
def random_games(template, rng, games, max_moves, moves):
    """Play that many random games from shuffled starts; return the total moves made."""
    total = 0
    st = np.empty_like(template)  # one state for all the games
    for _ in range(games):
        deal_start(template, rng, st)
        total += random_game(st, rng, moves, max_moves)
    return total
