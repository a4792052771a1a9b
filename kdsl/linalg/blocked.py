"""The blocked (right-looking) form of LU, Cholesky and Householder QR for large matrices: a panel of
``BLOCK`` columns is factored by one workgroup per matrix (the unblocked kernels restricted to the panel's
columns), then the rows to its right are solved with the panel's triangle by many workgroups (``trsm``), and
the trailing matrix takes the panel's rank-``BLOCK`` update as one product (:func:`kdsl.linalg.gemm.gemm`,
offsets as push constants: no kernel is compiled per step, no host read between steps). QR's panels become
block reflectors ``I - V T V^H`` (``larft``), applied to the trailing columns and, to form ``Q``, to the
identity by three gemms each, through work arrays made once per factorisation (:class:`Scratch`).

Example:
    >>> blocks(10, 4)
    [(0, 4), (4, 8), (8, 10)]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.gemm import MAX_SPLIT, SUBTRACT, UNIT_LOWER, UNIT_UPPER, Operand, gemm

BLOCK = 64  # panel width; matrices up to 2 * BLOCK are factored unblocked
INNER = 16  # QR: a panel is factored in blocks of this many columns (one workgroup each), the rest by gemms

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

# T of the block reflector H_k0 ... H_k1-1 = I - V T V^H (LAPACK's larft, forward and columnwise) from
# G = V^H V and the taus: T[i, i] = tau_i, T[:i, i] = -tau_i T[:i, :i] G[:i, i]
_LARFT = """
layout(set = 0, binding = 0) readonly buffer G_ { T g[]; };
layout(set = 0, binding = 1) readonly buffer U_ { T tau[]; };
layout(set = 0, binding = 2) coherent buffer T_ { T t[]; };
// G and T are (batch, ld, ld) scratch of which the leading w x w block is used; tau is (batch, kk), the panel's
// taus from k0 on
// T of matrix b starts at t[b * tstride + toff] (a slot of a store that keeps every panel's T)
layout(push_constant) uniform Push { uint w; uint batch; uint ld; uint kk; uint k0; uint toff; uint tstride; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint base = b * ld * ld, tb = b * tstride + toff;
    for (uint i = 0u; i < w; ++i) {
        T ti = tau[b * kk + k0 + i];
        for (uint j = gl_LocalInvocationID.x; j < i; j += WG) {
            T s = T(0);
            for (uint l = j; l < i; ++l) s += MUL(t[tb + j * ld + l], g[base + l * ld + i]);
            t[tb + j * ld + i] = -MUL(ti, s);
        }
        if (gl_LocalInvocationID.x == 0u) t[tb + i * ld + i] = ti;
        memoryBarrierBuffer(); barrier();
    }
}
"""


# larft with G and T in shared memory (one array, rows padded to LD + 1 against bank conflicts): T on and above
# the diagonal, the strict upper part of G stored transposed below it (G[l][i] at (i, l)); step i reads T's
# columns before i and G's row i, and writes T's column i, so the steps need one barrier each
_LARFT_SHARED = """
layout(set = 0, binding = 0) readonly buffer G_ { T g[]; };
layout(set = 0, binding = 1) readonly buffer U_ { T tau[]; };
layout(set = 0, binding = 2) buffer T_ { T t[]; };
layout(push_constant) uniform Push { uint w; uint batch; uint ld; uint kk; uint k0; uint toff; uint tstride; };
#define P (LD + 1u)
shared T sh[LD * P];

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint base = b * ld * ld, tid = gl_LocalInvocationID.x;
    for (uint e = tid; e < w * w; e += WG) {
        uint i = e / w, l = e % w;
        sh[i * P + l] = l < i ? g[base + l * ld + i] : T(0);
    }
    barrier();
    for (uint i = 0u; i < w; ++i) {
        T ti = tau[b * kk + k0 + i];
        for (uint j = tid; j < i; j += WG) {
            T s = T(0);
            for (uint l = j; l < i; ++l) s += MUL(sh[j * P + l], sh[i * P + l]);
            sh[j * P + i] = -MUL(ti, s);
        }
        if (tid == 0u) sh[i * P + i] = ti;
        barrier();
    }
    for (uint e = tid; e < w * w; e += WG) {
        uint j = e / w, i = e % w;
        if (j <= i) t[b * tstride + toff + j * ld + i] = sh[j * P + i];
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


def lu_update(a: kd.Array, k0: int, k1: int) -> None:
    """After the panel ``k0:k1`` of an LU: U12 by a triangular solve, then ``A22 -= L21 @ U12`` (one gemm)."""
    trsm_unit_lower(a, k0, k1)
    n = a.shape[-1]
    rest = n - k1
    gemm(a, a, a, Operand(k1 * n + k1, n, 1), Operand(k1 * n + k0, n, 1), Operand(k0 * n + k1, n, 1), rest, rest,
         k1 - k0, op=SUBTRACT)


class Scratch:
    """The work arrays of a blocked QR's reflector products, made once per factorisation: the Gram matrix
    ``V^H V`` and ``T`` (``(batch, slots, width, width)``: one T, or one per panel when ``Q`` is formed from
    them afterwards; T's strict lower part stays zero), and ``W``, ``W2`` (``(batch, width, cols)``) for
    ``V^H A`` and ``T^H V^H A``, and ``part`` for the partial products of those with a long k (the rows below
    the panel): :func:`kdsl.linalg.gemm.gemm` splits them along k."""

    def __init__(self, batch: int, width: int, cols: int, dtype: kd.DType, slots: int = 1):
        self.ld, self.cols, self.slots = width, cols, slots
        self.gram = kd.zeros((batch, width, width), dtype=dtype)
        self.t = kd.zeros((batch, slots, width, width), dtype=dtype)
        self.w = kd.zeros((batch, width, cols), dtype=dtype)
        self.w2 = kd.zeros((batch, width, cols), dtype=dtype)
        self.part = kd.zeros((MAX_SPLIT * batch * width * max(width, cols),), dtype=dtype)  # split-K partials


def _v(h: kd.Array, k0: int, adjoint: bool = False) -> Operand:
    """The panel's reflector vectors ``V`` (unit lower triangle of ``h`` from (k0, k0)), or ``V^H``."""
    n = h.shape[-1]
    if adjoint:
        return Operand(k0 * n + k0, 1, n, mode=UNIT_UPPER, conj=True)
    return Operand(k0 * n + k0, n, 1, mode=UNIT_LOWER)


def _t(s: Scratch, slot: int, adjoint_t: bool) -> Operand:
    """``T`` of slot ``slot`` of ``s.t``, or ``T^H``."""
    ld = s.ld
    off, stride = slot * ld * ld, s.slots * ld * ld
    return Operand(off, 1, ld, stride, conj=True) if adjoint_t else Operand(off, ld, 1, stride)


def block_reflector(h: kd.Array, tau: kd.Array, k0: int, k1: int, s: Scratch, slot: int = 0) -> None:
    """``T`` (in slot ``slot`` of ``s.t``) with ``H_k0 ... H_k1-1 = I - V T V^H`` from a Householder QR's
    output ``h`` (reflector vectors below the diagonal, unit diagonal implied) and ``tau``: ``G = V^H V`` by a
    gemm, then ``larft``."""
    batch, m, _ = h.shape
    w = k1 - k0
    gemm(s.gram, h, h, Operand(0, s.ld, 1), _v(h, k0, True), _v(h, k0), w, w, m - k0, work=s.part)
    if s.ld * (s.ld + 1) * h.dtype.itemsize <= K.shared_limit():
        kern = K.compiled(f"larft_shared{s.ld}", f"#define LD {s.ld}u\n" + _LARFT_SHARED, h.dtype.name, 64)
    else:
        kern = K.compiled("larft", _LARFT, h.dtype.name, 64)
    kern(s.gram, tau, s.t, w, batch, s.ld, tau.shape[-1], k0, slot * s.ld * s.ld, s.slots * s.ld * s.ld,
         groups=K.groups(batch))


def _apply(h: kd.Array, k0: int, k1: int, c: kd.Array, c0: int, s: Scratch, adjoint_t: bool,
           c1: int | None = None, slot: int = 0, ts: Scratch | None = None) -> None:
    """``C[k0:, c0:c1] -= V T' V^H C[k0:, c0:c1]`` with ``T' = T^H`` or ``T`` (``c1`` None: to C's last column;
    T from slot ``slot`` of ``ts``, default ``s``): three gemms through ``s.w``, ``s.w2``."""
    ts = s if ts is None else ts
    m, cols = c.shape[1], c.shape[2]
    w, width, rows = k1 - k0, (cols if c1 is None else c1) - c0, m - k0
    if width <= 0:
        return
    gemm(s.w, h, c, Operand(0, s.cols, 1), _v(h, k0, True), Operand(k0 * cols + c0, cols, 1), w, width, rows,
         work=s.part)
    t = _t(ts, slot, adjoint_t)
    gemm(s.w2, ts.t, s.w, Operand(0, s.cols, 1), t, Operand(0, s.cols, 1), w, width, w)
    gemm(c, h, s.w2, Operand(k0 * cols + c0, cols, 1), _v(h, k0), Operand(0, s.cols, 1), rows, width, w,
         op=SUBTRACT)


def qr_update(h: kd.Array, tau: kd.Array, k0: int, k1: int, s: Scratch, c1: int | None = None,
              slot: int = 0) -> None:
    """After the panel ``k0:k1`` of a Householder QR: ``A[k0:, k1:c1] -= V T^H V^H A[k0:, k1:c1]`` (the panel's
    reflectors applied to the columns on its right, up to ``c1`` (None: all), as three gemms; T kept in slot
    ``slot``)."""
    block_reflector(h, tau, k0, k1, s, slot)
    _apply(h, k0, k1, h, k1, s, adjoint_t=True, c1=c1, slot=slot)


def orgqr_blocked(h: kd.Array, tau: kd.Array, q: kd.Array, block: int, ts: Scratch | None = None) -> kd.Array:
    """Form ``Q`` in the identity-initialised ``(batch, m, q)`` stack ``q``: the panels' block reflectors
    applied last to first, ``Q[k0:, k0:] -= V T V^H Q[k0:, k0:]`` (LAPACK's blocked orgqr). ``ts``: the
    factorisation's Scratch that kept every panel's T (slot p for panel p), which then is not recomputed."""
    kk = min(h.shape[1], h.shape[2])
    s = Scratch(h.shape[0], block, q.shape[2], h.dtype)
    for p, (k0, k1) in reversed(list(enumerate(blocks(kk, block)))):
        if ts is None:
            block_reflector(h, tau, k0, k1, s)
            _apply(h, k0, k1, q, k0, s, adjoint_t=False)
        else:
            _apply(h, k0, k1, q, k0, s, adjoint_t=False, slot=p, ts=ts)
    return q


__all__ = ["BLOCK", "Scratch", "adjoint", "block_reflector", "blocks", "lu_update", "orgqr_blocked",
           "panel_width", "qr_update", "trsm_unit_lower"]
