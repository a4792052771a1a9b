"""Cholesky factorisation on the GPU: one workgroup per matrix, right-looking (square root of the pivot,
scaling of the column below it, Hermitian rank-1 update of the trailing lower triangle), split into several
dispatches within the loop budget; large matrices in blocks (:mod:`kdsl.linalg.blocked`: panels by this
kernel, the trailing update by kdsl's matmul). Only the lower triangle of the input is read, as NumPy.

Example:
    >>> import kdsl as kd, numpy as np
    >>> cholesky(kd.asarray(np.array([[4.0, 2.0], [2.0, 5.0]]))).tolist()
    [[2.0, 0.0], [1.0, 2.0]]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.blocked import blocks, cholesky_update, panel_width
from kdsl.linalg.common import as_array, batch_copy, check_info, check_matrices, working_dtype

_POTRF = """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer I_ { int info[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint cend; uint batch; };

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
        for (uint i = k + 1u + t; i < n; i += WG) a[base + i * n + k] /= r;
        memoryBarrierBuffer(); barrier();
        uint w = cend - k - 1u;  // the trailing columns of this panel (all of them when unblocked)
        for (uint e = t; e < (n - k - 1u) * w; e += WG) {
            uint i = k + 1u + e / w, j = k + 1u + e % w;
            if (j <= i) a[base + i * n + j] -= MUL(a[base + i * n + k], CONJ(a[base + j * n + k]));
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""


def potrf(a: kd.Array) -> tuple[kd.Array, kd.Array]:
    """Factor the fresh ``(batch, n, n)`` stack in place (lower triangle; the upper one is left as it was);
    returns ``(a, info)`` with info 0 or 1 + the column where positive definiteness failed."""
    batch, n, _ = a.shape
    info = kd.zeros((batch,), dtype=kd.int32)
    if batch == 0 or n == 0:
        return a, info
    wg = K.workgroup_size(n * n)
    kern = K.compiled("potrf", _POTRF, a.dtype.name, wg)
    for k0, k1 in blocks(n, panel_width(n)):
        costs = [K.cdiv(n - k, wg) + K.cdiv((n - k - 1) * (k1 - k - 1), wg) + 2 for k in range(k0, k1)]
        def push(s0: int, s1: int, k0: int = k0, k1: int = k1) -> tuple[int, ...]:
            return n, k0 + s0, k0 + s1, k1, batch

        K.run_steps(kern, (a, info), push, costs, batch)
        if k1 < n:
            cholesky_update(a, k0, k1)
    return a, info


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
