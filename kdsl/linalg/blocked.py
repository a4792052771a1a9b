"""The blocked (right-looking) form of LU, Cholesky and Householder QR for large matrices: a panel of
``BLOCK`` columns is factored by one workgroup per matrix (the unblocked kernels restricted to the panel's
columns), then the rows to its right are solved with the panel's triangle by many workgroups (``trsm``), and
the trailing matrix takes the panel's rank-``BLOCK`` update as one matrix product through kdsl's matmul kernel
(``update``): most of the arithmetic then runs at matmul speed instead of in one workgroup. QR's panels become
block reflectors ``I - V T V^H`` (``larft``), applied to the trailing columns and, to form ``Q``, to the
identity by matmuls.

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
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint batch; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    uint j = k1 + gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    if (b >= batch || j >= n) return;
    uint base = b * n * n;
    for (uint i = k0 + 1u; i < k1; ++i) {
        T s = a[base + i * n + j];
        for (uint l = k0; l < i; ++l) s -= MUL(a[base + i * n + l], a[base + l * n + j]);
        a[base + i * n + j] = s;
    }
}
"""

# A[r0 + i, c0 + j] -= P[i, j] for the (h, w) block of each (m, n) matrix; each thread a strided set of elements
_SUBTRACT = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer P_ { T p[]; };
layout(push_constant) uniform Push { uint m; uint n; uint r0; uint c0; uint h; uint w; uint batch; uint lower; };

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (b >= batch) return;
    uint stride = gl_NumWorkGroups.x * WG;
    for (uint e = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x; e < h * w; e += stride) {
        uint i = e / w, j = e % w;
        if (lower == 0u || c0 + j <= r0 + i) a[b * m * n + (r0 + i) * n + c0 + j] -= p[b * h * w + e];
    }
}
"""

# T of the block reflector H_k0 ... H_k1-1 = I - V T V^H (LAPACK's larft, forward and columnwise) from
# G = V^H V and the taus: T[i, i] = tau_i, T[:i, i] = -tau_i T[:i, :i] G[:i, i]
_LARFT = """
layout(set = 0, binding = 0) readonly buffer G_ { T g[]; };
layout(set = 0, binding = 1) readonly buffer U_ { T tau[]; };
layout(set = 0, binding = 2) coherent buffer T_ { T t[]; };
layout(push_constant) uniform Push { uint w; uint batch; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint base = b * w * w;
    for (uint i = 0u; i < w; ++i) {
        T ti = tau[b * w + i];
        for (uint j = gl_LocalInvocationID.x; j < i; j += WG) {
            T s = T(0);
            for (uint l = j; l < i; ++l) s += MUL(t[base + j * w + l], g[base + l * w + i]);
            t[base + j * w + i] = -MUL(ti, s);
        }
        if (gl_LocalInvocationID.x == 0u) t[base + i * w + i] = ti;
        memoryBarrierBuffer(); barrier();
    }
}
"""


def adjoint(x: kd.Array) -> kd.Array:
    """The conjugate transpose of a stack of matrices (the transpose for real ones)."""
    xt = kd.matrix_transpose(x)
    return kd.conj(xt) if x.dtype.kind == "c" else xt


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


def update(a: kd.Array, r0: int, c0: int, product: kd.Array, lower: bool = False) -> None:
    """``A[r0:r0+h, c0:c0+w] -= product`` in place (only on and below the diagonal when ``lower``)."""
    batch, m, n = a.shape
    h, w = product.shape[-2:]
    if h * w == 0:
        return
    wg = 256
    kern = K.compiled("subtract_block", _SUBTRACT, a.dtype.name, wg)
    x = min(K.cdiv(h * w, wg), 4096)
    # computed now, so its graph (views of ``a``) is released: a lazy reader of ``a`` still alive when the kernel
    # binds ``a`` for writing would make the engine search the whole heap for it
    kd.realize(product)
    kern(a, product, m, n, r0, c0, h, w, batch, int(lower), groups=_grid(x, batch))


def lu_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of an LU: U12 by a triangular solve, then A22 -= L21 @ U12."""
    trsm_unit_lower(a, k0, k1)
    update(a, k1, k1, kd.matmul(a[:, k1:, k0:k1], a[:, k0:k1, k1:]))


def cholesky_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of a Cholesky factorisation (which computed L21 too): A22 -= L21 @ L21^H."""
    l21 = a[:, k1:, k0:k1]
    product = kd.matmul(l21, adjoint(l21))
    del l21  # no view of ``a`` may outlive the product (see update)
    update(a, k1, k1, product, lower=True)


def block_reflector(h: kd.Array, tau: kd.Array, k0: int, k1: int) -> tuple[kd.Array, kd.Array]:
    """``(V, T)`` with ``H_k0 ... H_k1-1 = I - V T V^H`` from a Householder QR's output ``h`` (reflector vectors
    below the diagonal, unit diagonal implied) and ``tau``: V is ``(batch, m - k0, k1 - k0)``."""
    batch, m, _ = h.shape
    w = k1 - k0
    v = kd.tril(h[:, k0:, k0:k1], -1) + kd.eye(m - k0, w, dtype=h.dtype)
    gram = kd.asarray(kd.matmul(adjoint(v), v), copy=True)
    t = kd.zeros((batch, w, w), dtype=h.dtype)
    kern = K.compiled("larft", _LARFT, h.dtype.name, 64)
    kern(gram, kd.asarray(tau[:, k0:k1], copy=True), t, w, batch, groups=K.groups(batch))
    kd.realize(v)  # its own buffer: no view of ``h`` outlives this call (see update)
    return v, t


def qr_update(h: kd.Array, tau: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of a Householder QR: ``A[k0:, k1:] -= V T^H V^H A[k0:, k1:]`` (the panel's
    reflectors applied to the columns on its right, as three matrix products)."""
    v, t = block_reflector(h, tau, k0, k1)
    update(h, k0, k1, kd.matmul(v, kd.matmul(adjoint(t), kd.matmul(adjoint(v), h[:, k0:, k1:]))))


def orgqr_blocked(h: kd.Array, tau: kd.Array, q: kd.Array, block: int) -> kd.Array:
    """Form ``Q`` in the identity-initialised ``(batch, m, q)`` stack ``q``: the panels' block reflectors
    applied last to first, ``Q[k0:, k0:] -= V T V^H Q[k0:, k0:]`` (LAPACK's blocked orgqr)."""
    kk = min(h.shape[1], h.shape[2])
    for k0, k1 in reversed(blocks(kk, block)):
        v, t = block_reflector(h, tau, k0, k1)
        update(q, k0, k0, kd.matmul(v, kd.matmul(t, kd.matmul(adjoint(v), q[:, k0:, k0:]))))
    return q


__all__ = ["BLOCK", "adjoint", "block_reflector", "blocks", "cholesky_update", "lu_update", "orgqr_blocked",
           "panel_width", "qr_update", "trsm_unit_lower", "update"]
