"""Explicit random number state: xorshift64* in a uint64 array of one word, seeded by the user."""
import numpy as np
from numba import njit

from tne_ai.core import state as S

_MUL = np.uint64(0x2545F4914F6CDD1D)


def make_rng(seed):
    """A fresh RNG state from any integer seed (splitmix64 of it, never zero)."""
    z = (int(seed) + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    z ^= z >> 31
    return np.array([z or 1], dtype=np.uint64)


@njit(cache=True, _nrt=False)
def next_u64(rng):
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return x * _MUL


@njit(cache=True, _nrt=False)
def below(rng, n):
    """A uniform integer in 0..n-1 (n >= 1): the top 53 bits of the next output modulo n.

    The remainder is taken through a floating-point quotient (faster than a 64-bit integer
    division): both operands are below 2**53, so they are exact doubles and the rounded
    quotient is off by at most one, which the correction step fixes; the result is exactly
    ``x % n``."""
    x = np.int64(next_u64(rng) >> np.uint64(11))
    r = x - np.int64(float(x) / float(n)) * n
    if r < 0:
        r += n
    elif r >= n:
        r -= n
    return r


@njit(cache=True, _nrt=False)
def shuffle_bag(st, n, rng):
    """Shuffle tiles 0..n-1 of the ordered bag in place: Fisher-Yates on the packed 2-bit
    tiles (so no tile array is made), two tiles swapped by xor-ing in their difference
    (branch-free: equal tiles xor in 0)."""
    words = st.view(np.uint64)
    for i in range(n - 1, 0, -1):
        j = below(rng, i + 1)
        wi = S.BAG + (i >> 5)
        wj = S.BAG + (j >> 5)
        si = np.uint64(2 * (i & 31))
        sj = np.uint64(2 * (j & 31))
        x = ((words[wi] >> si) ^ (words[wj] >> sj)) & np.uint64(3)
        words[wi] ^= x << si
        words[wj] ^= x << sj
