"""Random playouts: uniform over the full legal move list, for fuzzing and the bench."""
import numpy as np
from numba import njit

from .. import state as S
from .apply import apply_action
from .movegen import legal_moves
from .rng import below


@njit(cache=True)
def random_game(st, rng, moves, max_moves):
    """Play uniformly random legal moves in place until the game ends or max_moves are made;
    return the number of moves made."""
    made = 0
    while st[S.PHASE] != S.PH_OVER and made < max_moves:
        n = legal_moves(st, moves)
        apply_action(st, moves[below(rng, n)], rng)
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
