"""The one-ply order of a root's moves (``order=eval``): each legal move of the viewer scored
by the fitted evaluation of the position it leads to, before any search.

A move's score is the viewer's win chance (``evaluate_model``) after the move, with the
decisions it leaves pending settled by the greedy rule (``evaluate.settle``, as a leaf is),
averaged over ``worlds`` determinizations of the viewer's view: a tile or a leader placed
into a conflict is fought with the hands of the sampled world.  Many moves change nothing the
evaluation reads (a tile next to no kingdom, most leader moves), so ties are common: they
are broken by the move-kind prior (``KIND_TIE`` times the kind's weight, far below the gaps
the evaluation draws) and then at random.  The root then opens its
moves in the order of these scores, best first, where widening would draw a kind by the
prior and a move of it at random (``mcts._new_move``); below the root the kinds order as
before.  Nothing is allocated here: the buffers are the search thread's scratch.
"""
from numba import njit

from .. import state as S
from ..engine.apply import apply_action
from ..engine.rng import below
from .determinize import determinize
from .evaluate import evaluate_model, settle
from .priors import move_kind, prepare

WORLDS = 4          # determinizations a score averages
KIND_TIE = 1e-5     # a kind weight's share of a score (weights span about -3 .. 3)
JITTER = 1e-9       # a random share, the last tie-break


@njit(cache=True, _nrt=False, nogil=True)
def one_ply_scores(root, viewer, moves, n, worlds, weights, prior_w, rng, world, st, work, kmask,
                   masks, feats, reward, scores):
    """scores[moves[i]] = the viewer's mean win chance after moves[i] over ``worlds``
    determinizations of root (``world``, ``st``: state buffers; ``work``: a move buffer for
    settling), plus the tie-breaks: KIND_TIE times the kind's prior weight (``prior_w``, or
    none when None) and JITTER times a uniform draw."""
    prepare(root, kmask, masks)
    for i in range(n):
        tie = JITTER * below(rng, 1 << 30) / (1 << 30)
        if prior_w is not None:
            tie += KIND_TIE * prior_w[move_kind(root, masks, moves[i])]
        scores[moves[i]] = tie * worlds
    for _ in range(worlds):
        determinize(root, viewer, rng, world)
        for i in range(n):
            S.copy_into(st, world)
            apply_action(st, moves[i], rng)
            settle(st, rng, work)
            evaluate_model(st, weights, kmask, feats, reward)
            scores[moves[i]] += reward[viewer]
    for i in range(n):
        scores[moves[i]] /= worlds
