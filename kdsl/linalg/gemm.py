"""One tiled matrix-product kernel for the blocked factorisations: ``C (op)= X @ Y`` on sub-blocks of stacked
matrices, every offset, stride and size a push constant, so one compiled kernel per element type serves every
step of a factorisation (the lazy ``kd.matmul`` compiles a kernel per shape, and the shapes of a blocked
factorisation's updates change at every step).

Operands are addressed as ``X(i, l) = x[xb * batch + xo + i * xr + l * xc]`` (likewise Y and C), so a
transposed or offset block of a bigger matrix needs no copy. An operand may also be read as a *unit
triangle* (the Householder vectors ``V`` stored below R's diagonal: ones on the diagonal, zeros on the other
side; ``UNIT_LOWER`` / ``UNIT_UPPER`` in the operand's own (row, column) terms) and conjugated. ``op`` stores,
subtracts or adds the product; ``lower`` limits the writes to ``j <= i + diag`` (a Hermitian update's lower
triangle), and workgroups whose tile lies wholly above it return at once.

Each workgroup of D x D threads computes a 4D x 4D tile of C (4 x 4 neighbouring elements a thread), staging 4D x 16
slices of X and Y in shared memory; long products are cut into several dispatches within the loop budget.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.arange(6.0).reshape(1, 2, 3)); y = kd.asarray(np.ones((1, 3, 2)))
    >>> c = kd.zeros((1, 2, 2), dtype=kd.float64)
    >>> gemm(c, x, y, Operand(0, 2, 1), Operand(0, 3, 1), Operand(0, 2, 1), 2, 2, 3)  # C, X, Y; m, n, k
    >>> c.numpy().tolist()
    [[[3.0, 3.0], [12.0, 12.0]]]
"""

from __future__ import annotations

from typing import NamedTuple

import kdsl as kd
from kdsl.linalg import kernels as K

STORE, SUBTRACT, ADD = 0, 1, 2
PLAIN, UNIT_LOWER, UNIT_UPPER = 0, 1, 2

_GEMM = """
layout(set = 0, binding = 0) readonly buffer X_ { T x[]; };
layout(set = 0, binding = 1) readonly buffer Y_ { T y[]; };
layout(set = 0, binding = 2) buffer C_ { T c[]; };
// kbase: where this dispatch's slice of the k axis starts (the unit triangles are in whole-product terms)
layout(push_constant) uniform Push {
    uint m; uint n; uint k;
    uint xo; uint xr; uint xc; uint xb;
    uint yo; uint yr; uint yc; uint yb;
    uint co; uint cr; uint cb;
    uint flags; int diag; uint batch; uint kbase; uint nsplit; uint kc;
};
#define D (1u << (LOG_WG / 2u))
#define TS (4u * D)
#define BK 16u
// a thread's 4 rows (columns) of the tile are neighbours, so that its shared-memory reads can merge into one
// 16-byte load (H200, Cholesky 4096: the gemms 3.27 -> 3.02 ms against rows D apart)
#define ROW(p, a) ((p) * 4u + (a))
shared T xs[BK][TS];
shared T ys[BK][TS];

// an operand's element (r, l) of a stored block: zero outside the matrix, and read as a unit triangle by mode
T element(uint mode, bool inside, uint r, uint l, T stored) {
    if (!inside) return T(0);
    if (mode == 1u && r <= l) return r == l ? FROM_REAL(REAL(1)) : T(0);
    if (mode == 2u && r >= l) return r == l ? FROM_REAL(REAL(1)) : T(0);
    return stored;
}

void main() {
    // split-K: workgroup z = b * nsplit + s sums the slice [s kc, (s + 1) kc) of the k axis into its own
    // partial product (C is then the partials' array, one (m, n) block per z; _SUM_SPLITS adds them)
    uint z = gl_WorkGroupID.z, b = z / nsplit, ks = (z % nsplit) * kc, ke = min(k, ks + kc);
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x, tx = t % D, ty = t / D;
    uint i0 = gl_WorkGroupID.y * TS, j0 = gl_WorkGroupID.x * TS;
    bool lower = (flags & 64u) != 0u;
    if (lower && int(j0) > int(i0 + TS - 1u) + diag) return;  // the whole tile is above the written triangle
    uint xmode = flags & 3u, ymode = (flags >> 2) & 3u;
    bool xconj = (flags & 16u) != 0u, yconj = (flags & 32u) != 0u;
    T acc[4][4];
    for (uint a = 0u; a < 4u; ++a) for (uint e = 0u; e < 4u; ++e) acc[a][e] = T(0);
    for (uint l0 = ks; l0 < ke; l0 += BK) {
        for (uint q = t; q < BK * TS; q += WG) {
            // the stride-1 index runs fastest across threads, so the loads coalesce
            uint r = xc == 1u ? q / BK : q % TS, l = xc == 1u ? q % BK : q / TS;
            uint gi = i0 + r, gl = l0 + l;
            bool in_ = gi < m && gl < ke;
            T v = element(xmode, in_, gi, gl + kbase, in_ ? x[xb * b + xo + gi * xr + gl * xc] : T(0));
            xs[l][r] = xconj ? CONJ(v) : v;
            uint cy = yc == 1u ? q % TS : q / BK, ly = yc == 1u ? q / TS : q % BK;
            uint gj = j0 + cy, gly = l0 + ly;
            bool iny = gj < n && gly < ke;
            T w = element(ymode, iny, gly + kbase, gj, iny ? y[yb * b + yo + gly * yr + gj * yc] : T(0));
            ys[ly][cy] = yconj ? CONJ(w) : w;
        }
        barrier();
        for (uint l = 0u; l < BK; ++l) {
            T xv[4], yv[4];
            for (uint a = 0u; a < 4u; ++a) { xv[a] = xs[l][ROW(ty, a)]; yv[a] = ys[l][ROW(tx, a)]; }
            for (uint a = 0u; a < 4u; ++a) for (uint e = 0u; e < 4u; ++e) acc[a][e] += MUL(xv[a], yv[e]);
        }
        barrier();
    }
    uint op = (flags >> 8) & 3u;
    for (uint a = 0u; a < 4u; ++a) {
        uint i = i0 + ROW(ty, a);
        for (uint e = 0u; e < 4u; ++e) {
            uint j = j0 + ROW(tx, e);
            if (i >= m || j >= n || (lower && int(j) > int(i) + diag)) continue;
            uint at = cb * z + co + i * cr + j;
            c[at] = op == 0u ? acc[a][e] : op == 1u ? c[at] - acc[a][e] : c[at] + acc[a][e];
        }
    }
}
"""

# C (op)= the sum of the split-K partials P[(b * nsplit + s), i, j]
_SUM_SPLITS = """
layout(set = 0, binding = 0) readonly buffer P_ { T p[]; };
layout(set = 0, binding = 1) buffer C_ { T c[]; };
layout(push_constant) uniform Push { uint m; uint n; uint co; uint cr; uint cb; uint op; uint nsplit; uint batch; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    uint e = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    if (b >= batch || e >= m * n) return;
    T acc = T(0);
    for (uint s = 0u; s < nsplit; ++s) acc += p[(b * nsplit + s) * m * n + e];
    uint at = cb * b + co + (e / n) * cr + e % n;
    c[at] = op == 0u ? acc : op == 1u ? c[at] - acc : c[at] + acc;
}
"""
TARGET_GROUPS = 512  # workgroups a product should spread over before it is split along k (a few per GPU core)
MAX_SPLIT = 16
SPLIT_MIN_K = 256  # no split slice shorter than this


class Operand(NamedTuple):
    """Where an operand's element (r, l) of matrix b lives: ``offset + r * row + l * col + b * batch``, and how
    it is read (``mode``: PLAIN, UNIT_LOWER, UNIT_UPPER; ``conj``)."""
    offset: int
    row: int
    col: int
    batch: int | None = None  # None: the whole (rows x cols) matrix of the stacked array
    mode: int = PLAIN
    conj: bool = False


def _threads(m: int = 64, n: int = 64) -> int:
    """256 threads (16 x 16) where the device allows, else 64 (8 x 8): a square power of two; 16 (4 x 4, a
    16 x 16 tile) for an ``m x n`` output that one such tile holds (a Gram matrix ``V^H V`` or ``V^H C`` of a
    narrow reflector block over a long k: the 64 x 64 tile computed 256 times the 2 x 2 wanted, and forming the
    Q of a 40 000 x 2 QR took 5 s on lavapipe)."""
    if m <= SMALL_TILE and n <= SMALL_TILE:
        return 16
    return 256 if K.workgroup_size(256) >= 256 else 64


SMALL_TILE = 16  # outputs up to this size a side take the 16-thread kernel


def _cost_per_k(wg: int) -> int:
    """Loop iterations a thread spends per element of k, rounded up: a slice of 16 costs about
    ``16 + 2 * 16 * TS / WG + 4`` (TS = 4 sqrt(WG)): 2 for 256 threads, 4 for 16."""
    ts = 4 * int(round(wg ** 0.5))
    return K.cdiv(16 + 32 * ts // wg + 4, 16)


def split_count(m: int, n: int, k: int, batch: int) -> int:
    """How many slices of the k axis a product of few output tiles and a long k is cut into (1: none)."""
    tiles = K.cdiv(m, 64) * K.cdiv(n, 64) * batch
    return max(1, min(MAX_SPLIT, K.cdiv(TARGET_GROUPS, tiles), k // SPLIT_MIN_K))


def gemm(c: kd.Array, x: kd.Array, y: kd.Array, co: Operand, xo: Operand, yo: Operand, m: int, n: int, k: int,
         op: int = STORE, lower: bool = False, diag: int = 0, work: kd.Array | None = None) -> None:
    """``C[:m, :n] (op)= X[:m, :k] @ Y[:k, :n]`` for each matrix of the stacks (C's ``col`` must be 1), in place
    in ``c``; with ``lower`` only the elements ``j <= i + diag`` are written. ``work`` (a flat array of c's
    dtype, at least ``MAX_SPLIT * batch * m * n`` long) lets a product with few output tiles and a long k be
    split along k (:func:`split_count`) and its partial products added by a second kernel."""
    batch = c.shape[0]
    splits = split_count(m, n, k, batch) if work is not None and not lower else 1
    wg = _threads(m, n)
    if splits > 1 and K.cdiv(k, splits) * _cost_per_k(wg) <= K.loop_budget():
        assert work is not None
        kc = K.cdiv(K.cdiv(k, splits), 16) * 16
        splits = K.cdiv(k, kc)
        _split_gemm(work, x, y, xo, yo, m, n, k, batch, splits, kc, wg)
        wg = 256
        total = K.compiled("gemm_sum_splits", _SUM_SPLITS, c.dtype.name, wg)
        gy = min(batch, 65535)
        total(work, c, m, n, co.offset, co.row, _batch_stride(c, co), op, splits, batch,
              groups=(K.cdiv(m * n, wg), gy, K.cdiv(batch, gy)))
        return
    if batch == 0 or m <= 0 or n <= 0:
        return
    if k <= 0:
        if op == STORE:  # an empty product: zeros
            k, x, y = 1, c, c
            xo = yo = Operand(0, 0, 0, 0)
        else:
            return
    kern = K.compiled("gemm", _GEMM, c.dtype.name, wg)
    ts = 4 * int(round(wg ** 0.5))
    strides = [_batch_stride(a, o) for a, o in ((x, xo), (y, yo), (c, co))]
    # per invocation, a slice of 16 costs about 16 + 2 * 16 * TS / WG loop iterations
    step = max(16, (K.loop_budget() // (16 + 32 * ts // wg + 4)) * 16)
    for l0 in range(0, k, step):
        kk = min(step, k - l0)
        flags = xo.mode | yo.mode << 2 | int(xo.conj) << 4 | int(yo.conj) << 5 | int(lower) << 6
        flags |= (op if l0 == 0 else (SUBTRACT if op == SUBTRACT else ADD)) << 8
        for b0 in range(0, batch, 65535):
            nb = min(65535, batch - b0)
            kern(x, y, c, m, n, kk,
                 xo.offset + l0 * xo.col + b0 * strides[0], xo.row, xo.col, strides[0],
                 yo.offset + l0 * yo.row + b0 * strides[1], yo.row, yo.col, strides[1],
                 co.offset + b0 * strides[2], co.row, strides[2], flags, diag, nb, l0, 1, kk,
                 groups=(K.cdiv(n, ts), K.cdiv(m, ts), nb))


def _split_gemm(work: kd.Array, x: kd.Array, y: kd.Array, xo: Operand, yo: Operand, m: int, n: int, k: int,
                batch: int, splits: int, kc: int, wg: int) -> None:
    """The partial products of the k slices of ``kc`` into ``work``: one (m, n) block per (matrix, slice)."""
    kern = K.compiled("gemm", _GEMM, work.dtype.name, wg)
    ts = 4 * int(round(wg ** 0.5))
    bx, by = _batch_stride(x, xo), _batch_stride(y, yo)
    flags = xo.mode | yo.mode << 2 | int(xo.conj) << 4 | int(yo.conj) << 5
    per = max(1, 65535 // splits)  # workgroups in z: matrices x slices
    for b0 in range(0, batch, per):
        nb = min(per, batch - b0)
        kern(x, y, work, m, n, k, xo.offset + b0 * bx, xo.row, xo.col, bx, yo.offset + b0 * by, yo.row, yo.col, by,
             b0 * splits * m * n, n, m * n, flags, 0, nb, 0, splits, kc,
             groups=(K.cdiv(n, ts), K.cdiv(m, ts), nb * splits))


def _batch_stride(a: kd.Array, o: Operand) -> int:
    if o.batch is not None:
        return o.batch
    return a.size // a.shape[0] if a.shape[0] else 0


__all__ = ["ADD", "PLAIN", "STORE", "SUBTRACT", "UNIT_LOWER", "UNIT_UPPER", "Operand", "gemm"]
