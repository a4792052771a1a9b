"""Cholesky factorisation on the GPU: one workgroup per matrix, right-looking (square root of the pivot,
scaling of the column below it, Hermitian rank-1 update of the trailing lower triangle), split into several
dispatches within the loop budget. Large matrices go in blocks (LAPACK's right-looking ``potrf``): this kernel
factors the diagonal block alone (``rend`` = the block's end), a thread per row solves the rows below it
against the block's triangle (``trsm``), and the trailing lower triangle takes ``L21 L21^H`` through
:func:`kdsl.linalg.gemm.gemm` - three launches a panel, each compiled once for every step (offsets are push
constants), no host read until the final ``info`` check. Only the lower triangle of the input is read, as NumPy.

Example:
    >>> import kdsl as kd, numpy as np
    >>> cholesky(kd.asarray(np.array([[4.0, 2.0], [2.0, 5.0]]))).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.blocked import blocks, panel_width
from kdsl.linalg.common import as_array, batch_copy, check_info, check_matrices, working_dtype
from kdsl.linalg.gemm import SUBTRACT, Operand, gemm

_POTRF = """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer I_ { int info[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint cend; uint batch; uint rend; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n;
    for (uint k = k0; k < k1; ++k) {
        REAL d = RE(a[base + k * n + k]);  // a Hermitian diagonal is real: its imaginary part is ignored
        if (!(d > REAL(0))) {  // not positive definite (or NaN): LAPACK stops; report, keep values finite
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

# A[k1:n, k0:k1] <- A[k1:n, k0:k1] L11^-H, L11 the factored diagonal block: a thread per row, forward
# substitution along the row (x_j = (a_j - sum_{l<j} x_l conj(L_jl)) / L_jj)
_TRSM = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint batch; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    uint i = k1 + gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    if (b >= batch || i >= n) return;
    uint base = b * n * n;
    for (uint j = k0; j < k1; ++j) {
        T s = a[base + i * n + j];
        for (uint l = k0; l < j; ++l) s -= MUL(a[base + i * n + l], CONJ(a[base + j * n + l]));
        a[base + i * n + j] = s / RE(a[base + j * n + j]);
    }
}
"""


def _block(n: int) -> int:
    """The panel width: blocked.BLOCK, twice that for large matrices (half the launches, longer products)."""
    width = panel_width(n)
    return 2 * width if width < n and n >= 32 * width else width


def potrf(a: kd.Array) -> tuple[kd.Array, kd.Array]:
    """Factor the fresh ``(batch, n, n)`` stack in place (lower triangle; the upper one is left as it was);
    returns ``(a, info)`` with info 0 or 1 + the column where positive definiteness failed."""
    batch, n, _ = a.shape
    info = kd.zeros((batch,), dtype=kd.int32)
    if batch == 0 or n == 0:
        return a, info
    width = _block(n)
    blocked = width < n
    wg = K.workgroup_size(width * width if blocked else n * n)
    kern = K.compiled("potrf", _POTRF, a.dtype.name, wg)
    for k0, k1 in blocks(n, width):
        rend = k1 if blocked else n  # blocked: the diagonal block only
        costs = [K.cdiv(rend - k, wg) + K.cdiv((rend - k - 1) * (k1 - k - 1), wg) + 2 for k in range(k0, k1)]
        def push(s0: int, s1: int, k0: int = k0, k1: int = k1, rend: int = rend) -> tuple[int, ...]:
            return n, k0 + s0, k0 + s1, k1, batch, rend

        K.run_steps(kern, (a, info), push, costs, batch)
        if k1 < n:
            _panel_update(a, k0, k1)
    return a, info


def _panel_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the diagonal block ``k0:k1``: ``L21 = A21 L11^-H``, then ``A22 -= L21 L21^H`` (lower triangle)."""
    batch, n, _ = a.shape
    wg = 64
    trsm = K.compiled("potrf_trsm", _TRSM, a.dtype.name, wg)
    gy = min(batch, 65535)
    trsm(a, n, k0, k1, batch, groups=(K.cdiv(n - k1, wg), gy, K.cdiv(batch, gy)))
    w, rest = k1 - k0, n - k1
    l21 = Operand(k1 * n + k0, n, 1)
    gemm(a, a, a, Operand(k1 * n + k1, n, 1), l21, Operand(k1 * n + k0, 1, n, conj=True), rest, rest, w,
         op=SUBTRACT, lower=True)


def cholesky(x, /, *, upper: bool = False) -> kd.Array:
    """The Cholesky factor ``L`` (``x = L @ L^H``) of each Hermitian (real: symmetric) positive-definite
    matrix of the stack ``x``, or ``U = L^H`` with ``upper=True``; :class:`LinAlgError` when a matrix is not
    positive definite."""
    a = as_array(x)
    check_matrices(a, "cholesky")
    dtype = working_dtype(a, "cholesky")
    factor, info = potrf(batch_copy(a, dtype))
    check_info(info, "Matrix is not positive definite")
    low = kd.tril(factor.reshape(a.shape))
    if not upper:
        return low
    up = kd.matrix_transpose(low)
    return kd.conj(up) if dtype.name.startswith("complex") else up


__all__ = ["cholesky", "potrf"]
