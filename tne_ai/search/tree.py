"""The search tree and the per-thread scratch buffers, as packed arguments for the kernels.

A tree is nine flat arrays (structure of arrays, node 0 the root) that travel into the numba
kernels as ONE tuple, ``Tree.packed``, in the order of ``TREE_FIELDS``; the work arrays of a
search thread travel as one tuple too, ``Scratch.packed``.  A kernel unpacks the tuple in its
first line (numba passes a tuple of arrays like the arrays themselves: nothing is copied).
A tuple of arrays was kept over a record array (array of structures) because it leaves the
layout, and so the kernels' memory traffic, as it was (bench/README.md, kernel packing).
"""
import math

import numpy as np
from numba import njit

from tne_ai.core import state as S
from tne_ai.core.rules.kingdoms import MAX_KINGDOMS
from tne_ai.search.features import N_FEATURES
from tne_ai.search.priors import N_KINDS, N_MASKS

MAX_DEPTH = 1024

# bytes per node: action, parent, first child, next sibling (int32 each), visits and
# availability (int32 each), value (float64), player (int8)
NODE_BYTES = 4 * 4 + 4 * 2 + 8 + 1
TREE_FIELDS = ("action", "parent", "child", "sibling", "player", "visits", "avail", "value", "count")


class Tree:
    """A search tree in flat arrays, capacity nodes; node 0 is the root.  ``count[0]`` is
    the number of nodes in use; ``packed`` is the tuple the kernels take."""

    def __init__(self, capacity):
        self.capacity = capacity
        self.action = np.empty(capacity, dtype=np.int32)
        self.parent = np.empty(capacity, dtype=np.int32)
        self.child = np.empty(capacity, dtype=np.int32)
        self.sibling = np.empty(capacity, dtype=np.int32)
        self.player = np.empty(capacity, dtype=np.int8)
        self.visits = np.empty(capacity, dtype=np.int32)
        self.avail = np.empty(capacity, dtype=np.int32)
        self.value = np.empty(capacity, dtype=np.float64)
        self.count = np.zeros(1, dtype=np.int64)  # nodes in use
        self.packed = tuple(getattr(self, name) for name in TREE_FIELDS)
        reset_tree(self.packed)

    def arrays(self):
        return self.packed

    def children(self, node):
        """The children of node, newest first (the order of the sibling chain)."""
        out = []
        ch = int(self.child[node])
        while ch >= 0:
            out.append(ch)
            ch = int(self.sibling[ch])
        return out

    def root_children(self):
        """(action, visits, mean value) of every child of the root."""
        out = []
        for ch in self.children(0):
            v = int(self.visits[ch])
            out.append((int(self.action[ch]), v, float(self.value[ch]) / v if v else 0.0))
        return out


class Scratch:
    """Work arrays of one search thread, made once and reused by every batch of iterations;
    ``packed`` is the tuple the kernels take (order of ``SCRATCH_FIELDS``)."""

    def __init__(self):
        self.st = np.empty(S.STATE_SIZE, dtype=np.int64)
        self.moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.legal_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
        self.root_moves = np.empty(S.MAX_MOVES, dtype=np.int64)
        self.root_legal = np.zeros(S.N_ACTIONS, dtype=np.int64)
        self.child_stamp = np.zeros(S.N_ACTIONS, dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)
        self.path = np.empty(MAX_DEPTH, dtype=np.int64)
        self.reward = np.empty(4, dtype=np.float64)
        self.kmask = np.empty((MAX_KINGDOMS, 3), dtype=np.uint64)
        self.masks = np.empty((N_MASKS, 3), dtype=np.uint64)
        self.feats = np.empty((4, N_FEATURES), dtype=np.float64)
        self.root_sum = np.zeros(4, dtype=np.float64)   # every player's rewards summed at the root
        self.kind_counts = np.zeros(N_KINDS, dtype=np.float64)
        # per root action: every player's rewards summed over the iterations through it, and
        # (column 4) those iterations: the per-player win chances of each root move
        self.move_sums = np.zeros((S.N_ACTIONS, 5), dtype=np.float64)
        # per kind: the weights of a rescue (a node whose opened children all lose,
        # search/mcts.py)
        self.kind_w = np.zeros(N_KINDS, dtype=np.float64)
        # ln k for the availability counts k of UCB's exploration term (shared, read only)
        self.log_table = LOG_TABLE
        self.packed = tuple(getattr(self, name) for name in SCRATCH_FIELDS)

    def arrays(self):
        return self.packed


SCRATCH_FIELDS = ("st", "moves", "legal_stamp", "root_moves", "root_legal", "child_stamp", "stamp",
                  "path", "reward", "kmask", "masks", "feats", "root_sum", "kind_counts", "move_sums",
                  "kind_w", "log_table")


def _log_table(n):
    """ln k for k < n (entry 0 unused) by ``math.log``, the C library's log that the
    kernels' ``math.log`` calls too, so a lookup gives the very value the call would (built
    in Python: a kernel run at import would load the compiler into every ``tne`` start)."""
    out = np.zeros(n, dtype=np.float64)
    out[1:] = [math.log(k) for k in range(1, n)]
    out.flags.writeable = False
    return out


# UCB's ln(availability) for counts below 2^16 (512 KB): a lookup instead of a call of log
LOG_TABLE = _log_table(1 << 16)


@njit(cache=True)
def copy_subtree(tree, x, dst):
    """Copy the subtree under node x of tree into the empty tree dst (x becomes its root,
    node 0); return the nodes copied, or -1 if they do not fit."""
    action, _, child, sibling, player, visits, avail, value, _ = tree
    d_action, d_parent, d_child, d_sibling, d_player, d_visits, d_avail, d_value, d_count = dst
    size = 1
    stack = np.empty(action.shape[0], dtype=np.int64)   # source nodes still to copy
    where = np.empty(action.shape[0], dtype=np.int64)   # their copies
    reset_tree(dst)
    d_visits[0] = visits[x]
    stack[0] = x
    where[0] = 0
    top = 1
    while top > 0:
        top -= 1
        src = stack[top]
        dst_node = where[top]
        ch = child[src]
        while ch >= 0:
            if size >= d_action.shape[0]:
                return -1
            new = size
            size += 1
            d_action[new] = action[ch]
            d_parent[new] = dst_node
            d_child[new] = -1
            d_sibling[new] = d_child[dst_node]
            d_child[dst_node] = new
            d_player[new] = player[ch]
            d_visits[new] = visits[ch]
            d_avail[new] = avail[ch]
            d_value[new] = value[ch]
            stack[top] = ch
            where[top] = new
            top += 1
            ch = sibling[ch]
    d_count[0] = size
    return size


@njit(cache=True, _nrt=False, nogil=True)
def reset_tree(tree):
    """Empty the tree: only the root, unvisited."""
    action, parent, child, sibling, player, visits, avail, value, count = tree
    action[0] = -1
    parent[0] = -1
    child[0] = -1
    sibling[0] = -1
    player[0] = -1
    visits[0] = 0
    avail[0] = 0
    value[0] = 0.0
    count[0] = 1
