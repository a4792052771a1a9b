"""The blocked (right-looking) form of LU and Cholesky for large matrices: a panel of ``BLOCK`` columns is
factored by one workgroup per matrix (the unblocked kernels restricted to the panel's columns), then the rows
to its right are solved with the panel's triangle by many workgroups (``trsm``), and the trailing matrix takes
the panel's rank-``BLOCK`` update as one matrix product through kdsl's matmul kernel (``update``): most of the
arithmetic then runs at matmul speed instead of in one workgroup.

Example:
    >>> blocks(10, 4)
    [(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K

BLOCK = 64  # panel width; matrices up to 2 * BLOCK are factored unblocked

# A[k0:k1, k1:n] <- L^-1 A[k0:k1, k1:n] with L the unit lower triangle of A[k0:k1, k0:k1]; a thread per column
_TRSM_UNIT_LOWER = """
layout(set = 0, binding = 0) buffer A_ { REAL a[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint batch; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    uint j = k1 + gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    if (b >= batch || j >= n) return;
    uint base = b * n * n;
    for (uint i = k0 + 1u; i < k1; ++i) {
        REAL s = a[base + i * n + j];
        for (uint l = k0; l < i; ++l) s -= a[base + i * n + l] * a[base + l * n + j];
        a[base + i * n + j] = s;
    }
}
"""

# A[r0 + i, c0 + j] -= P[i, j] for the (h, w) block of each matrix; each thread a strided set of elements
_SUBTRACT = """
layout(set = 0, binding = 0) buffer A_ { REAL a[]; };
layout(set = 0, binding = 1) readonly buffer P_ { REAL p[]; };
layout(push_constant) uniform Push { uint n; uint r0; uint c0; uint h; uint w; uint batch; uint lower; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (b >= batch) return;
    uint stride = gl_NumWorkGroups.x * WG;
    for (uint e = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x; e < h * w; e += stride) {
        uint i = e / w, j = e % w;
        if (lower == 0u || c0 + j <= r0 + i) a[b * n * n + (r0 + i) * n + c0 + j] -= p[b * h * w + e];
    }
}
"""


def blocks(n: int, block: int) -> list[tuple[int, int]]:
    """The panels ``(k0, k1)`` of an n-column factorisation."""
    return [(k0, min(n, k0 + block)) for k0 in range(0, n, block)]


def panel_width(n: int) -> int:
    """``BLOCK`` when the matrix is large enough to gain from blocking, else ``n`` (one unblocked panel)."""
    return BLOCK if n > 2 * BLOCK else max(n, 1)


def _grid(x: int, batch: int) -> tuple[int, int, int]:
    gy = min(batch, 65535)
    return max(1, x), gy, K.cdiv(batch, gy)


def trsm_unit_lower(a: kd.Array, k0: int, k1: int) -> None:
    """``A[k0:k1, k1:] = L11^-1 A[k0:k1, k1:]`` in place (the U12 block of a blocked LU)."""
    batch, n, _ = a.shape
    wg = 64
    kern = K.compiled("trsm_unit_lower", _TRSM_UNIT_LOWER, a.dtype.name, wg)
    kern(a, n, k0, k1, batch, groups=_grid(K.cdiv(n - k1, wg), batch))


def update(a: kd.Array, k0: int, k1: int, product: kd.Array, lower: bool) -> None:
    """``A[k1:, k1:] -= product`` in place (only on and below the diagonal when ``lower``)."""
    batch, n, _ = a.shape
    h, w = product.shape[-2:]
    wg = 256
    kern = K.compiled("subtract_block", _SUBTRACT, a.dtype.name, wg)
    x = min(K.cdiv(h * w, wg), 4096)
    kern(a, kd.asarray(product, copy=True), n, k1, k1, h, w, batch, int(lower), groups=_grid(x, batch))


def lu_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of an LU: U12 by a triangular solve, then A22 -= L21 @ U12."""
    trsm_unit_lower(a, k0, k1)
    update(a, k0, k1, kd.matmul(a[:, k1:, k0:k1], a[:, k0:k1, k1:]), lower=False)


def cholesky_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of a Cholesky factorisation (which computed L21 too): A22 -= L21 @ L21^T."""
    l21 = a[:, k1:, k0:k1]
    update(a, k0, k1, kd.matmul(l21, kd.matrix_transpose(l21)), lower=True)


__all__ = ["BLOCK", "blocks", "cholesky_update", "lu_update", "panel_width", "trsm_unit_lower", "update"]
