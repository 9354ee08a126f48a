"""numba bitboard primitives: a 176-square set is three uint64 words, 16 bits per row.

Word 0 holds rows 0-3, word 1 rows 4-7, word 2 rows 8-10 (its top 16 bits are always 0);
square s is bit ``s & 63`` of word ``s >> 6``.  The functions take and return the three words
as scalars (numba keeps them in registers), never arrays, so nothing is allocated.
"""
import numpy as np
from numba import njit, types
from numba.extending import intrinsic

U0 = np.uint64(0)
U1 = np.uint64(1)
U16 = np.uint64(16)
U48 = np.uint64(48)
NOT_COL_A = np.uint64(~0x0001000100010001 & 0xFFFFFFFFFFFFFFFF)
NOT_COL_P = np.uint64(~0x8000800080008000 & 0xFFFFFFFFFFFFFFFF)
WORD2 = np.uint64(0x0000FFFFFFFFFFFF)


@intrinsic
def popcount(typingctx, x):
    """Number of set bits of a uint64 (LLVM ctpop)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))
    return sig, codegen


@intrinsic
def lowest_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero uint64 (LLVM cttz)."""
    sig = types.int64(types.uint64)

    def codegen(context, builder, signature, args):
        tz = builder.cttz(args[0], context.get_constant(types.boolean, True))
        return builder.zext(tz, context.get_value_type(types.int64))
    return sig, codegen


@njit(cache=True, _nrt=False, inline="always")
def dilate(a0, a1, a2):
    """The set plus its orthogonal neighbours."""
    e0 = (a0 << U1) & NOT_COL_A
    e1 = (a1 << U1) & NOT_COL_A
    e2 = (a2 << U1) & NOT_COL_A
    w0 = (a0 >> U1) & NOT_COL_P
    w1 = (a1 >> U1) & NOT_COL_P
    w2 = (a2 >> U1) & NOT_COL_P
    s0 = a0 << U16
    s1 = (a1 << U16) | (a0 >> U48)
    s2 = ((a2 << U16) | (a1 >> U48)) & WORD2
    n0 = (a0 >> U16) | (a1 << U48)
    n1 = (a1 >> U16) | (a2 << U48)
    n2 = a2 >> U16
    return (a0 | e0 | w0 | s0 | n0, a1 | e1 | w1 | s1 | n1, a2 | e2 | w2 | s2 | n2)


@njit(cache=True, _nrt=False)
def flood(s0, s1, s2, m0, m1, m2):
    """The part of mask m orthogonally connected to the seed set s (seed clipped to m)."""
    c0 = s0 & m0
    c1 = s1 & m1
    c2 = s2 & m2
    while True:
        d0, d1, d2 = dilate(c0, c1, c2)
        d0 &= m0
        d1 &= m1
        d2 &= m2
        if d0 == c0 and d1 == c1 and d2 == c2:
            return c0, c1, c2
        c0, c1, c2 = d0, d1, d2


@njit(cache=True, _nrt=False, inline="always")
def count3(a0, a1, a2):
    return popcount(a0) + popcount(a1) + popcount(a2)


@njit(cache=True, _nrt=False, inline="always")
def has(a0, a1, a2, s):
    w = s >> 6
    bit = U1 << np.uint64(s & 63)
    if w == 0:
        return (a0 & bit) != U0
    if w == 1:
        return (a1 & bit) != U0
    return (a2 & bit) != U0


@njit(cache=True, _nrt=False, inline="always")
def single(s):
    """The set {s} as three words."""
    bit = U1 << np.uint64(s & 63)
    w = s >> 6
    if w == 0:
        return bit, U0, U0
    if w == 1:
        return U0, bit, U0
    return U0, U0, bit


@njit(cache=True, _nrt=False, inline="always")
def first_square(a0, a1, a2):
    """Lowest square of a non-empty set."""
    if a0 != U0:
        return lowest_bit(a0)
    if a1 != U0:
        return 64 + lowest_bit(a1)
    return 128 + lowest_bit(a2)


@njit(cache=True, _nrt=False, inline="always")
def nth_square(a0, a1, a2, k):
    """The k-th lowest square (k from 0) of a set with more than k squares."""
    c = popcount(a0)
    if k < c:
        x = a0
        base = 0
    else:
        k -= c
        c = popcount(a1)
        if k < c:
            x = a1
            base = 64
        else:
            k -= c
            x = a2
            base = 128
    for _ in range(k):
        x &= x - U1
    return base + lowest_bit(x)


@njit(cache=True, _nrt=False, inline="always")
def up_by(a0, a1, a2, k):
    """The set with every square s moved to s + k (0 < k < 64; squares past 175 dropped).
    Nothing is masked for row ends: callers mask the columns that wrapped."""
    kk = np.uint64(k)
    back = np.uint64(64 - k)
    return a0 << kk, (a1 << kk) | (a0 >> back), ((a2 << kk) | (a1 >> back)) & WORD2


@njit(cache=True, _nrt=False, inline="always")
def down_by(a0, a1, a2, k):
    """The set with every square s moved to s - k (0 < k < 64; squares below 0 dropped)."""
    kk = np.uint64(k)
    back = np.uint64(64 - k)
    return (a0 >> kk) | (a1 << back), (a1 >> kk) | (a2 << back), a2 >> kk
