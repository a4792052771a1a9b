"""Parallel cyclic Jacobi sweeps on the GPU, the engine of ``eigh`` (two-sided rotations of a symmetric
matrix) and ``svd`` (one-sided rotations of a matrix's columns, Hestenes' method).

A sweep visits every index pair once, in n-1 rounds (n rounded up to even) of n/2 disjoint pairs - the
round-robin tournament ordering - so the rotations of one round are independent and the workgroup of a matrix
computes them in parallel: first every pair's rotation ``(c, s)``, then the row updates, then the column
updates (and the accumulated eigenvector / right singular vector matrix). A pair is rotated only while its
off-diagonal entry is not negligible against its diagonal (``|a_pq| > eps * sqrt(|a_pp a_qq|)``), the
criterion that gives Jacobi its high relative accuracy (``sqrt(m) * eps`` for the m-term dot products of
the one-sided method, as LAPACK's ``dgesvj``); the host repeats sweeps until one rotates nothing (one read a
sweep). A few large matrices are rotated a round per dispatch over the whole GPU instead (``_EIGH_ROUND``;
the one-sided sweeps, with their own such rounds, are in :mod:`kdsl.linalg.jacobi_svd`). Complex (Hermitian)
matrices take the unitary rotation ``[[c, s], [-conj(s), c]]``: the real
rotation of ``|a_pq|`` conjugated by the phase of ``a_pq`` (``rotation_t``).

Example:
    >>> round_pairs(4, 0)
    [(0, 3), (1, 2)]
"""

from __future__ import annotations

from collections.abc import Callable

import kdsl as kd
from kdsl.linalg import graph
from kdsl.linalg import kernels as K
from kdsl.linalg.common import LinAlgError, identity_batch
from kdsl.linalg.graph import Plan

MAX_SWEEPS = 40

# pair k of round r among n2 (even) indices, m = n2 - 1: (r, m) for k = 0, else ((r+k) % m, (r-k) % m)
PAIRS = """
uvec2 pair_of(uint r, uint k, uint n2) {
    uint m = n2 - 1u;
    if (k == 0u) return uvec2(r % m, m);
    return uvec2((r + k) % m, (r + m - k % m) % m);
}

// the rotation zeroing the (p, q) entry of [[app, apq], [apq, aqq]]: (c, s), s = 0 when negligible
void rotation(REAL app, REAL aqq, REAL apq, REAL eps, out REAL c, out REAL s) {
    c = REAL(1); s = REAL(0);
    if (apq == REAL(0) || abs(apq) <= eps * sqrt(abs(app)) * sqrt(abs(aqq))) return;
    REAL theta = (aqq - app) / (REAL(2) * apq);
    REAL at = abs(theta);
    REAL tt = at > REAL(1) ? REAL(1) / (at * (REAL(1) + sqrt(REAL(1) + (REAL(1) / at) * (REAL(1) / at))))
                           : REAL(1) / (at + sqrt(REAL(1) + at * at));
    tt = theta < REAL(0) ? -tt : tt;
    c = REAL(1) / sqrt(REAL(1) + tt * tt);
    s = tt * c;
}

// The unitary rotation J = [[c, s], [-conj(s), c]] (c real) that zeroes the (p, q) entry of J^H A J for the
// Hermitian 2x2 [[app, apq], [conj(apq), aqq]]: the real rotation of |apq| conjugated by the phase d = apq / |apq|,
// s = s_real d (real matrices: d = 1 and s_real from the signed apq, the plain Jacobi rotation)
T rotation_t(T app, T aqq, T apq, REAL eps, out REAL c) {
    REAL s;
#ifdef COMPLEX
    REAL mag = length(apq);
    rotation(RE(app), RE(aqq), mag, eps, c, s);
    return s == REAL(0) ? T(0) : (s / mag) * apq;
#else
    rotation(app, aqq, apq, eps, c, s);
    return s;
#endif
}
"""

_EIGH = PAIRS + """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) coherent buffer V_ { T v[]; };
layout(set = 0, binding = 2) coherent buffer C_ { T cs[]; };
layout(set = 0, binding = 3) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push { uint n; uint n2; uint r0; uint r1; uint batch; uint wantv; float eps; };

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n, np = n2 / 2u, cbase = b * n2;
    for (uint r = r0; r < r1; ++r) {
        for (uint k = t; k < np; k += WG) {
            uvec2 pq = pair_of(r, k, n2);
            REAL c = REAL(1);
            T s = T(0);
            if (pq.y < n) {
                s = rotation_t(a[base + pq.x * n + pq.x], a[base + pq.y * n + pq.y], a[base + pq.x * n + pq.y],
                               REAL(eps), c);
                if (!IS_ZERO(s)) flag[b] = 1u;
            }
            cs[cbase + 2u * k] = FROM_REAL(c); cs[cbase + 2u * k + 1u] = s;
        }
        memoryBarrierBuffer(); barrier();
        for (uint e = t; e < np * n; e += WG) {  // rows p, q <- J^H A
            uint k = e / n, j = e % n;
            T s = cs[cbase + 2u * k + 1u];
            if (!IS_ZERO(s)) {
                REAL c = RE(cs[cbase + 2u * k]);
                uvec2 pq = pair_of(r, k, n2);
                T x = a[base + pq.x * n + j], y = a[base + pq.y * n + j];
                a[base + pq.x * n + j] = c * x - MUL(s, y);
                a[base + pq.y * n + j] = MUL(CONJ(s), x) + c * y;
            }
        }
        memoryBarrierBuffer(); barrier();
        for (uint e = t; e < np * n; e += WG) {  // columns p, q <- A J, V J
            uint k = e / n, i = e % n;
            T s = cs[cbase + 2u * k + 1u];
            if (!IS_ZERO(s)) {
                REAL c = RE(cs[cbase + 2u * k]);
                uvec2 pq = pair_of(r, k, n2);
                T x = a[base + i * n + pq.x], y = a[base + i * n + pq.y];
                a[base + i * n + pq.x] = c * x - MUL(CONJ(s), y);
                a[base + i * n + pq.y] = MUL(s, x) + c * y;
                if (wantv != 0u) {
                    x = v[base + i * n + pq.x]; y = v[base + i * n + pq.y];
                    v[base + i * n + pq.x] = c * x - MUL(CONJ(s), y);
                    v[base + i * n + pq.y] = MUL(s, x) + c * y;
                }
            }
        }
        memoryBarrierBuffer(); barrier();
        for (uint k = t; k < np; k += WG) {  // the rotated entries are zero by construction
            if (!IS_ZERO(cs[cbase + 2u * k + 1u])) {
                uvec2 pq = pair_of(r, k, n2);
                a[base + pq.x * n + pq.y] = T(0); a[base + pq.y * n + pq.x] = T(0);
            }
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""

# One round of two-sided Jacobi over the whole GPU (large matrices): each invocation owns one 2x2 block
# (pairs k, l) of the output, computes both pairs' rotations from the unchanged input A (the rotation depends only
# on the pair's own 2x2 diagonal block) and writes J_k^H A_kl J_l to the other buffer - no barriers, one dispatch
# a round, A and O swapping roles; the invocations after the blocks rotate V's columns p, q (row i) in place.
_EIGH_ROUND = PAIRS + """
layout(set = 0, binding = 0) readonly buffer A_ { T a[]; };
layout(set = 0, binding = 1) writeonly buffer O_ { T o[]; };
layout(set = 0, binding = 2) buffer V_ { T v[]; };
layout(set = 0, binding = 3) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push { uint n; uint n2; uint r; uint batch; uint wantv; float eps; };

T rot_of(uint base, uvec2 pq, out REAL c) {
    c = REAL(1);
    if (pq.y >= n) return T(0);
    return rotation_t(a[base + pq.x * n + pq.x], a[base + pq.y * n + pq.y], a[base + pq.x * n + pq.y], REAL(eps), c);
}

T at(uint base, uint i, uint j) { return i < n && j < n ? a[base + i * n + j] : T(0); }

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    uint e = gl_WorkGroupID.x * WG + gl_LocalInvocationID.x;
    uint np = n2 / 2u, base = b * n * n;
    if (b >= batch) return;
    if (e < np * np) {
        uint k = e / np, l = e % np;
        uvec2 pq = pair_of(r, k, n2), rs = pair_of(r, l, n2);
        REAL ck, cl;
        T sk = rot_of(base, pq, ck), sl = rot_of(base, rs, cl);
        if (l == 0u && !IS_ZERO(sk)) flag[b] = 1u;
        T x0 = at(base, pq.x, rs.x), x1 = at(base, pq.x, rs.y), y0 = at(base, pq.y, rs.x), y1 = at(base, pq.y, rs.y);
        // rows p, q <- J_k^H (rows), then columns r, s <- (.) J_l
        T p0 = ck * x0 - MUL(sk, y0), p1 = ck * x1 - MUL(sk, y1);
        T q0 = MUL(CONJ(sk), x0) + ck * y0, q1 = MUL(CONJ(sk), x1) + ck * y1;
        T pr = cl * p0 - MUL(CONJ(sl), p1), ps = MUL(sl, p0) + cl * p1;
        T qr = cl * q0 - MUL(CONJ(sl), q1), qs = MUL(sl, q0) + cl * q1;
        if (k == l && !IS_ZERO(sk)) { ps = T(0); qr = T(0); }  // the rotated entries are zero by construction
        if (pq.x < n && rs.x < n) o[base + pq.x * n + rs.x] = pr;
        if (pq.x < n && rs.y < n) o[base + pq.x * n + rs.y] = ps;
        if (pq.y < n && rs.x < n) o[base + pq.y * n + rs.x] = qr;
        if (pq.y < n && rs.y < n) o[base + pq.y * n + rs.y] = qs;
    } else if (wantv != 0u && e < np * np + n * np) {
        uint i = (e - np * np) / np, k = (e - np * np) % np;
        uvec2 pq = pair_of(r, k, n2);
        REAL c;
        T s = rot_of(base, pq, c);
        if (!IS_ZERO(s)) {
            T x = v[base + i * n + pq.x], y = v[base + i * n + pq.y];
            v[base + i * n + pq.x] = c * x - MUL(CONJ(s), y);
            v[base + i * n + pq.y] = MUL(s, x) + c * y;
        }
    }
}
"""

# eigh of a few matrices (up to WIDE_BATCH) from WIDE_EIGH on runs a round per dispatch over the whole GPU (one
# workgroup per matrix would leave most of it idle; many matrices fill it anyway, in one dispatch for many rounds)
WIDE_EIGH = 128
WIDE_BATCH = 8



def round_pairs(n: int, r: int) -> list[tuple[int, int]]:
    """The index pairs of round ``r`` for ``n`` indices (as the kernels compute them; for tests and docs)."""
    n2 = n + n % 2
    m = n2 - 1
    pairs = [(r % m, m)] + [((r + k) % m, (r - k) % m) for k in range(1, n2 // 2)]
    return [p for p in pairs if max(p) < n]


def jacobi_eps(dtype: kd.DType) -> float:
    """The machine epsilon of ``dtype``, the rotation threshold's scale."""
    return float(kd.finfo(dtype).eps)


def converge(key: tuple, make: Callable[[], dict[str, kd.Array]], sweep: Callable[[dict[str, kd.Array]], None],
              inputs: dict[str, kd.Array], outputs: tuple[str, ...], what: str) -> list[kd.Array]:
    """Sweeps until one rotates nothing in any matrix (LinAlgError after MAX_SWEEPS): the arrays ``make()``
    gives (``flag``, the rotated-anything flags, among them) take ``inputs``, then a recorded plan of one
    sweep (``sweep``, after a reset of the flags) runs as one submit per sweep, followed by one read of the
    flags; returns fresh copies of the ``outputs`` arrays."""

    def record() -> Plan:
        def body(r: dict[str, kd.Array]) -> None:
            K.zero_flags(r["flag"])
            sweep(r)
        return Plan.record(make(), body)

    plan = graph.cached(key, record)
    with plan.lock:
        for name, x in inputs.items():
            K.copy_into(plan.arrays[name], x)
        for _ in range(MAX_SWEEPS):
            plan.run()
            if not bool(kd.any(plan.arrays["flag"] != 0)):
                out = [kd.asarray(plan.arrays[name], copy=True) for name in outputs]
                kd.realize(*out)  # before the next call overwrites the work arrays
                return out
    raise LinAlgError(f"{what} did not converge")


def identity(batch: int, n: int, dtype: kd.DType) -> kd.Array:
    """``batch`` identity matrices of order ``n``, as a broadcast view (the sweeps' starting V)."""
    return kd.broadcast_to(kd.eye(n, dtype=dtype), (batch, n, n))


def eigh_jacobi(a: kd.Array, want_vectors: bool) -> tuple[kd.Array, kd.Array]:
    """Diagonalise the symmetric ``(batch, n, n)`` stack; returns fresh ``(a, v)`` with the eigenvalues on
    ``a``'s diagonal (unsorted) and the eigenvectors in ``v``'s columns."""
    batch, n, _ = a.shape
    if batch == 0 or n <= 1:
        return a, identity_batch(batch, n, a.dtype)
    wide = n >= WIDE_EIGH and batch <= WIDE_BATCH
    dtype = a.dtype
    n2 = n + n % 2

    def make() -> dict[str, kd.Array]:
        arrays = {"a": kd.zeros(a.shape, dtype=dtype), "v": kd.zeros(a.shape, dtype=dtype),
                  "flag": kd.zeros((batch,), dtype=kd.uint32)}
        arrays["work"] = kd.zeros(a.shape if wide else (batch, n2), dtype=dtype)  # the second buffer, or cs
        return arrays

    sweep = _eigh_rounds if wide else _eigh_sweep
    d, v = converge(("eigh", dtype.name, batch, n, want_vectors, wide), make,
                     lambda r: sweep(r, want_vectors), {"a": a, "v": identity(batch, n, dtype)}, ("a", "v"),
                     "Eigenvalues")
    return d, v


def _eigh_sweep(r: dict[str, kd.Array], want_vectors: bool) -> None:
    """One sweep by one workgroup per matrix, its rounds split into dispatches within the loop budget."""
    a = r["a"]
    batch, n, _ = a.shape
    n2 = n + n % 2
    wg = K.workgroup_size(n2 // 2 * n)
    kern = K.compiled("eigh_jacobi", _EIGH, a.dtype.name, wg)
    per_round = 4 * K.cdiv(n2 // 2, wg) + 2 * K.cdiv(n2 // 2 * n, wg) + 4
    eps = jacobi_eps(a.dtype)
    K.run_steps(kern, (a, r["v"], r["work"], r["flag"]),
                lambda r0, r1: (n, n2, r0, r1, batch, int(want_vectors), eps), [per_round] * (n2 - 1), batch)


def _eigh_rounds(r: dict[str, kd.Array], want_vectors: bool) -> None:
    """One sweep for large matrices: a dispatch per round (``_EIGH_ROUND``) from one buffer into the other, and
    the result copied back to ``a`` after an odd number of rounds."""
    a, v = r["a"], r["v"]
    batch, n, _ = a.shape
    n2 = n + n % 2
    np2 = (n2 // 2) ** 2 + (n * (n2 // 2) if want_vectors else 0)
    wg = 256
    kern = K.compiled("eigh_round", _EIGH_ROUND, a.dtype.name, wg)
    bufs = [a, r["work"]]
    eps = jacobi_eps(a.dtype)
    gy = min(batch, 65535)
    grid = (K.cdiv(np2, wg), gy, K.cdiv(batch, gy))
    for rnd in range(n2 - 1):
        kern(bufs[0], bufs[1], v, r["flag"], n, n2, rnd, batch, int(want_vectors), eps, groups=grid)
        bufs.reverse()
    if bufs[0] is not a:
        K.copy_into(a, bufs[0])


__all__ = ["MAX_SWEEPS", "PAIRS", "WIDE_BATCH", "WIDE_EIGH", "converge", "eigh_jacobi", "identity", "jacobi_eps",
           "round_pairs"]
