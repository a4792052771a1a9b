"""Cholesky factorisation on the GPU. Up to ``2 * BLOCK`` columns: one workgroup per matrix, right-looking
(square root of the pivot, scaling of the column below it, Hermitian rank-1 update of the trailing lower
triangle), split into several dispatches within the loop budget. Larger matrices go in panels of ``nb``
columns (LAPACK's right-looking ``potrf``), three launches a panel: one workgroup per matrix factors the
diagonal block in shared memory and inverts its triangle there (``potrf_diag``), many workgroups form the
rows below it as ``L21 = A21 L11^-H`` by a product with that inverse (``potrf_trmm``: parallel over rows
and columns, where a substitution would walk the columns in turn), and the trailing lower triangle takes
``L21 L21^H`` through :func:`kdsl.linalg.gemm.gemm`. The launches of a shape are recorded once and replayed
(:mod:`kdsl.linalg.graph`); the only host read is the final ``info`` check. Only the lower triangle of the
input is read, as NumPy.

Example:
    >>> import kdsl as kd, numpy as np
    >>> cholesky(kd.asarray(np.array([[4.0, 2.0], [2.0, 5.0]]))).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from functools import partial

import kdsl as kd
from kdsl.linalg import blocked, graph
from kdsl.linalg import kernels as K
from kdsl.linalg.blocked import blocks
from kdsl.linalg.common import LinAlgError, as_array, check_matrices, working_dtype
from kdsl.linalg.gemm import SUBTRACT, Operand, gemm
from kdsl.linalg.graph import Plan

_POTRF = """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer I_ { int info[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint cend; uint batch; uint rend; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n;
    if (k0 == 0u && t == 0u) info[b] = 0;  // a recorded plan runs again on the same info array
    for (uint k = k0; k < k1; ++k) {
        REAL d = RE(a[base + k * n + k]);  // a Hermitian diagonal is real: its imaginary part is ignored
        if (d <= REAL(0)) {  // not positive definite: LAPACK stops; report, keep values finite (a NaN pivot
                             // goes on as OpenBLAS's potrf, NumPy's: the factor is NaN from there, no error)
            if (t == 0u && info[b] == 0) info[b] = int(k) + 1;
            d = REAL(1);
        }
        REAL r = sqrt(d);
        barrier();
        if (t == 0u) a[base + k * n + k] = FROM_REAL(r);
        for (uint i = k + 1u + t; i < rend; i += WG) a[base + i * n + k] /= r;
        memoryBarrierBuffer(); barrier();
        uint w = cend - k - 1u;  // the trailing columns of this panel (all of them when unblocked)
        for (uint e = t; e < (rend - k - 1u) * w; e += WG) {
            uint i = k + 1u + e / w, j = k + 1u + e % w;
            if (j <= i) a[base + i * n + j] -= MUL(a[base + i * n + k], CONJ(a[base + j * n + k]));
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""

# The diagonal block A[k0:k0+w, k0:k0+w] (w <= NB) factored in shared memory by one workgroup per matrix, and
# (with inv) X = L11^-1 formed beside it by forward substitution on the identity, fused into the same steps.
# The block's w steps run one after another, so a step's latency is the kernel's time: each step is one phase
# and one barrier. Columns are scaled only at the end: step k reads the unscaled column k and its pivot
# d = s[k][k] and subtracts s[i][k] conj(s[j][k]) / d from the trailing triangle (= L[i][k] conj(L[j][k])) and
# s[i][k] x[k][j] / d from the rows of X below k (= L[i][k] X[k][j]), so no thread writes what another reads
# in the same step (column k and row k of x stay as they are from step k on). At the end L[i][k] = s[i][k] / r_k,
# L[k][k] = r_k = sqrt(d_k) and X[k][:] = x[k][:] / r_k. L11 goes back to A (lower triangle only); M = X^H
# (upper triangular) to mi, for potrf_trmm. info is reset by the first block and set to 1 + the first column
# whose pivot is not positive (that pivot is then taken as 1: values stay finite).
_DIAG = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer I_ { int info[]; };
layout(set = 0, binding = 2) buffer M_ { T mi[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint w; uint batch; uint inv; };
#define P (NB + PAD)  // padded rows (PAD = 1, where it fits) put a column's entries in different banks
#define RS (WG / NB)  // rows updated side by side; a thread keeps one column (no division in the loops)
shared T s[NB * P];
shared T x[NB * P];

REAL pivot(uint k) {  // a Hermitian diagonal is real: its imaginary part is ignored; a bad pivot counts as 1
    REAL d = RE(s[k * P + k]);
    return d <= REAL(0) ? REAL(1) : d;  // NaN stays NaN (NumPy's NaN factor)
}

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x, tx = t % NB, ty = t / NB;
    uint base = b * n * n + k0 * n + k0;
    if (k0 == 0u && t == 0u) info[b] = 0;
    for (uint i = ty; i < w && ty < RS; i += RS) {
        if (tx < w) {
            s[i * P + tx] = tx <= i ? a[base + i * n + tx] : T(0);
            x[i * P + tx] = i == tx ? FROM_REAL(REAL(1)) : T(0);
        }
    }
    barrier();
    for (uint k = 0u; k < w; ++k) {
        REAL d = RE(s[k * P + k]);
        if (d <= REAL(0)) {  // not positive definite: LAPACK stops; report, keep values finite (a NaN pivot
                             // goes on as OpenBLAS's potrf, NumPy's: the factor is NaN from there, no error)
            if (t == 0u && info[b] == 0) info[b] = int(k0 + k) + 1;
            d = REAL(1);
        }
        REAL rd = REAL(1) / d;
        if (ty < RS && tx < w) {
            uint j = tx;
            T ljk = CONJ(s[j * P + k]) * rd;  // read once a step: a column read (bank-conflicted when unpadded)
            T xkj = x[k * P + j] * rd;
            for (uint i = k + 1u + ty; i < w; i += RS) {
                if (j > i) continue;
                T lik = s[i * P + k];  // the same for the threads of a row: a broadcast
                if (j > k) s[i * P + j] -= MUL(lik, ljk);
                else if (inv != 0u) x[i * P + j] -= MUL(lik, xkj);
            }
        }
        barrier();
    }
    for (uint i = ty; i < w && ty < RS; i += RS) {
        if (tx >= w) continue;
        REAL rc = sqrt(pivot(tx));
        if (tx < i) a[base + i * n + tx] = s[i * P + tx] / rc;
        else if (tx == i) a[base + i * n + tx] = FROM_REAL(rc);
        if (inv != 0u) mi[b * NB * NB + i * NB + tx] = CONJ(x[tx * P + i]) / rc;
    }
}
"""

# A21 = A[k0+w:n, k0:k0+w] <- A21 M (M = L11^-H, upper triangular, from potrf_diag): a workgroup per RB rows of a
# matrix (RB = NB / 4: a panel of the H200's 4096 x 4096 then spans 252 workgroups, not 63, so every SM has work
# on this step of the critical path), its rows and M in shared memory, a thread per element (each row's block is
# read whole before any thread writes it back, and no other workgroup touches those rows)
_TRMM = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer M_ { T mi[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint w; uint batch; };
shared T ms[NB * NB];
shared T rs[RB * NB];

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x, r0 = gl_WorkGroupID.x * RB, rows = n - k0 - w;
    uint base = b * n * n + (k0 + w) * n + k0;
    for (uint e = t; e < w * w; e += WG) ms[(e / w) * NB + e % w] = mi[b * NB * NB + (e / w) * NB + e % w];
    for (uint e = t; e < RB * w; e += WG) {
        uint r = e / w, l = e % w;
        rs[r * NB + l] = r0 + r < rows ? a[base + (r0 + r) * n + l] : T(0);
    }
    barrier();
    for (uint e = t; e < RB * w; e += WG) {
        uint r = e / w, j = e % w;
        if (r0 + r >= rows) continue;
        T acc = T(0);
        for (uint l = 0u; l <= j; ++l) acc += MUL(rs[r * NB + l], ms[l * NB + j]);
        a[base + (r0 + r) * n + j] = acc;
    }
}
"""

# the next panel's diagonal block is factored while the rest of the trailing matrix is updated (see _blocked);
# KDSL_CHOL_LOOKAHEAD=0: one update after each panel
LOOKAHEAD = os.environ.get("KDSL_CHOL_LOOKAHEAD", "1") != "0"
_ITEM = {"float32": 4, "float64": 8, "complex64": 8, "complex128": 16}


def panel(dtype_name: str) -> int:
    """The blocked panel width: ``blocked.BLOCK`` (at most the workgroup size), halved until the two
    ``nb x nb`` shared arrays of potrf_diag (and potrf_trmm) fit the device's shared memory."""
    nb = max(1, min(blocked.BLOCK, _threads()))
    while nb > 1 and 2 * nb * nb * _ITEM[dtype_name] > K.shared_limit():
        nb //= 2
    return nb


def _threads() -> int:
    return min(256, K.workgroup_size(256))


def _diag_threads(nb: int) -> int:
    """potrf_diag's threads: up to nb * nb / 4 (16 rows side by side for nb = 64), within the device's limit
    and at least :func:`_threads` (one per row of the block). The block's nb steps run one after another in
    one workgroup, so its time is the steps' latency: more rows updated side by side, fewer turns a step."""
    limit = K.max_threads()
    wg = _threads()
    while 2 * wg <= min(1024, limit) and wg < nb * nb // 4:
        wg *= 2
    return wg


def _unblocked(a: kd.Array, info: kd.Array) -> None:
    """The whole matrix by one workgroup per matrix, in global memory (small n)."""
    batch, n, _ = a.shape
    wg = K.workgroup_size(n * n)
    kern = K.compiled("potrf", _POTRF, a.dtype.name, wg)
    costs = [K.cdiv(n - k, wg) + K.cdiv((n - k - 1) * (n - k - 1), wg) + 2 for k in range(n)]
    K.run_steps(kern, (a, info), lambda s0, s1: (n, s0, s1, n, batch, n), costs, batch)


def _blocked(a: kd.Array, info: kd.Array, m: kd.Array, nb: int) -> None:
    """Panels of ``nb``: diagonal block and its inverse, ``L21`` by the product, ``A22 -= L21 L21^H``.

    With :data:`LOOKAHEAD` the trailing update is cut in two: the next panel's diagonal block first (a
    one-tile product), and the rest recorded *alongside* the next diagonal step (:func:`graph.alongside`), so
    that the one-workgroup factorisation of that block runs while the rest of the GPU does the big update (the
    two touch disjoint parts of ``a``: the block's rows ``k1 .. k2`` against rows ``k2 ..``).
    """
    batch, n, _ = a.shape
    name = a.dtype.name
    wg = _threads()
    pad = int(2 * nb * (nb + 1) * _ITEM[name] <= K.shared_limit())
    diag = K.compiled(f"potrf_diag{nb}", f"#define NB {nb}u\n#define PAD {pad}u\n" + _DIAG, name, _diag_threads(nb))
    rb = max(1, nb // 4)
    trmm = K.compiled(f"potrf_trmm{nb}", f"#define NB {nb}u\n#define RB {rb}u\n" + _TRMM, name, wg)
    gy = min(batch, 65535)
    rest_update = None  # the previous panel's update of all but the next diagonal block (LOOKAHEAD)
    for k0, k1 in blocks(n, nb):
        w, rest = k1 - k0, n - k1
        diag(a, info, m, n, k0, w, batch, int(rest > 0), groups=K.groups(batch))
        if rest_update is not None:
            with graph.alongside():
                rest_update()
        if rest == 0:
            break
        trmm(a, m, n, k0, w, batch, groups=(K.cdiv(rest, rb), gy, K.cdiv(batch, gy)))
        rest_update = _trailing_update(a, n, k0, k1, nb)


def _trailing_update(a: kd.Array, n: int, k0: int, k1: int, nb: int) -> Callable[[], None] | None:
    """``A22 -= L21 L21^H`` after panel ``k0 .. k1``: all of it now (returns None), or with :data:`LOOKAHEAD` the
    next diagonal block now and the rest as the returned call (None when the next panel is the last)."""
    w, rest = k1 - k0, n - k1
    l21, l21h = Operand(k1 * n + k0, n, 1), Operand(k1 * n + k0, 1, n, conj=True)
    if not LOOKAHEAD:
        gemm(a, a, a, Operand(k1 * n + k1, n, 1), l21, l21h, rest, rest, w, op=SUBTRACT, lower=True)
        return None
    w2 = min(nb, rest)
    k2 = k1 + w2
    gemm(a, a, a, Operand(k1 * n + k1, n, 1), l21, l21h, w2, w2, w, op=SUBTRACT, lower=True)
    if rest == w2:
        return None
    # rows k2.. of all trailing columns; the lower triangle j <= i in local terms is j' <= i' + w2
    return partial(gemm, a, a, a, Operand(k2 * n + k1, n, 1), Operand(k2 * n + k0, n, 1), l21h, rest - w2, rest, w,
                   op=SUBTRACT, lower=True, diag=w2)


def _plan(dtype: kd.DType, batch: int, n: int) -> Plan:
    """The recorded factorisation of a ``(batch, n, n)`` stack: work array ``a`` (factored in place, lower
    triangle), ``info``, and ``m`` (the diagonal blocks' inverses)."""
    nb = panel(dtype.name)
    blocked_ = n > 2 * blocked.BLOCK and nb < n
    arrays = {"a": kd.zeros((batch, n, n), dtype=dtype), "info": kd.zeros((batch,), dtype=kd.int32),
              "m": kd.zeros((batch, nb, nb) if blocked_ else (1,), dtype=dtype)}
    if blocked_:
        return Plan.record(arrays, lambda r: _blocked(r["a"], r["info"], r["m"], nb))
    return Plan.record(arrays, lambda r: _unblocked(r["a"], r["info"]))


def cholesky(x, /, *, upper: bool = False) -> kd.Array:
    """The Cholesky factor ``L`` (``x = L @ L^H``) of each Hermitian (real: symmetric) positive-definite
    matrix of the stack ``x``, or ``U = L^H`` with ``upper=True``; :class:`LinAlgError` when a matrix is not
    positive definite. Only the lower triangle of ``x`` is read, the upper one with ``upper=True``, as NumPy's.
    A NaN reaching a pivot makes the rest of that factor NaN, no error, as NumPy's (its OpenBLAS ``potrf`` tests
    ``pivot <= 0``, which NaN fails).

    >>> import kdsl as kd, numpy as np
    >>> cholesky(kd.asarray([[4.0, np.nan], [np.nan, 1.0]])).tolist()
    [[2.0, 0.0], [nan, nan]]
    """
    a = as_array(x)
    check_matrices(a, "cholesky")
    dtype = working_dtype(a, "cholesky")
    complex_ = dtype.name.startswith("complex")
    if upper:  # NumPy's upper factor reads the upper triangle (LAPACK's 'U'): the lower one of x^H
        a = kd.matrix_transpose(a)
        a = kd.conj(a) if complex_ else a
    n = a.shape[-1]
    batch = math.prod(a.shape[:-2])
    if batch == 0 or n == 0:
        low = kd.zeros(a.shape, dtype=dtype)
    else:
        plan = graph.cached(("potrf", dtype.name, batch, n), lambda: _plan(dtype, batch, n))
        with plan.lock:
            K.copy_into(plan.arrays["a"], a.astype(dtype))
            plan.run()
            bad = kd.any(plan.arrays["info"] != 0)
            low = kd.tril(plan.arrays["a"]).reshape(a.shape)
            kd.realize(low, bad)  # together, and before the next call overwrites the work arrays
        if bool(bad):
            raise LinAlgError("Matrix is not positive definite")
    if not upper:
        return low
    up = kd.matrix_transpose(low)
    return kd.conj(up) if complex_ else up


__all__ = ["cholesky", "panel"]
