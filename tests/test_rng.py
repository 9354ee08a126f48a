"""engine.rng: below(rng, n) is exactly the top 53 bits of the next xorshift64* output modulo n
(its floating-point remainder is checked against integer arithmetic), and shuffle_bag is a
permutation of the packed bag tiles."""
import numpy as np

from tne_ai.core import state as S
from tne_ai.core.rules.rng import below, make_rng, shuffle_bag

MUL = 0x2545F4914F6CDD1D
MASK = (1 << 64) - 1


def next_output(x):
    x ^= x >> 12
    x ^= (x << 25) & MASK
    x ^= x >> 27
    return x, (x * MUL) & MASK


def test_below_is_the_exact_remainder_for_small_and_huge_n():
    ns = list(range(1, 3000)) + [2 ** k + d for k in range(12, 54) for d in (-1, 0, 1)]
    rng = make_rng(12345)
    x = int(rng[0])
    for i in range(20000):
        n = ns[i % len(ns)]
        x, out = next_output(x)
        assert below(rng, n) == (out >> 11) % n, (i, n)


def test_shuffle_bag_permutes_the_packed_tiles():
    st = S.empty_state()
    tiles = [c for c in range(4) for _ in range(37)] + [1, 2]  # 150 tiles
    for i, c in enumerate(tiles):
        S.set_bag_tile(st, i, c)
    shuffle_bag(st, len(tiles), make_rng(3))
    after = [int(S.bag_tile(st, i)) for i in range(len(tiles))]
    assert sorted(after) == sorted(tiles) and after != tiles
    assert all(int(S.bag_tile(st, i)) == 0 for i in range(len(tiles), S.MAX_BAG))
