"""One-sided (Hestenes) Jacobi sweeps on the GPU, the engine of ``svd``: pairs of a matrix's columns are
rotated until every pair is orthogonal, the rotations accumulated in ``V`` (``A @ V = W``; ``W``'s column norms
are the singular values). The round-robin pair order, the convergence loop and the recorded sweep plans are
those of the two-sided sweeps of ``eigh`` (:mod:`kdsl.linalg.jacobi`), and so is the rotations' form
(Rutishauser's ``x - (s y + r x)``: ``c x - s y`` with ``c`` rounded to 1 grew the norms of float32 columns
by a bias that reached 100 eps at 140 x 135); the criterion is ``dgesvj``'s
``|w_p . w_q| > sqrt(m) * eps * |w_p| |w_q|`` for the m-term dot products, or, for float32 columns swept in
float64 (:func:`kdsl.linalg.jacobi.sweep_dtype`), ``eps_32 / 16`` (:func:`kdsl.linalg.jacobi.rotation_eps`).

Example:
    >>> import numpy as np, kdsl as kd
    >>> w, v = svd_jacobi(kd.asarray(np.array([[[3.0, 1.0], [1.0, 3.0]]])), True)
    >>> sorted(np.round(np.linalg.norm(w.numpy()[0], axis=0), 6).tolist())
    [2.0, 4.0]
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import jacobi
from kdsl.linalg import kernels as K
from kdsl.linalg.common import identity_batch
from kdsl.linalg.jacobi import PAIRS, converge, each_rotated_pair, identity, jacobi_eps, rotation_eps, rotations

# One round of one-sided Jacobi over the whole GPU (few large matrices): a workgroup per pair owns columns p, q of
# W and V, sums their Gram entries as a workgroup reduction, and rotates them - one dispatch a round. W and V are
# stored transposed here ((batch, n, m) and (batch, n, n): a column is contiguous, so the loads coalesce).
_SVD_ROUND = PAIRS + """
layout(set = 0, binding = 0) buffer W_ { T w[]; };
layout(set = 0, binding = 1) buffer V_ { T v[]; };
layout(set = 0, binding = 2) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push { uint m; uint n; uint n2; uint r; uint batch; uint wantv; float eps; };
shared REAL sa[WG];
shared REAL sb[WG];
shared T sg[WG];

void main() {
    uint b = gl_WorkGroupID.y + gl_WorkGroupID.z * gl_NumWorkGroups.y;
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uvec2 pq = pair_of(r, gl_WorkGroupID.x, n2);
    if (pq.y >= n) return;  // the odd index's idle partner (uniform over the workgroup)
    uint wbase = b * m * n, vbase = b * n * n;
    REAL al = REAL(0), be = REAL(0);
    T ga = T(0);
    for (uint i = t; i < m; i += WG) {
        T x = w[wbase + pq.x * m + i], y = w[wbase + pq.y * m + i];
        al += NORM2(x); be += NORM2(y); ga += MUL(CONJ(x), y);
    }
    sa[t] = al; sb[t] = be; sg[t] = ga;
    barrier();
    for (uint h = WG / 2u; h > 0u; h >>= 1) {
        if (t < h) { sa[t] += sa[t + h]; sb[t] += sb[t + h]; sg[t] += sg[t + h]; }
        barrier();
    }
    REAL c;
    T s = rotation_t(FROM_REAL(sa[0]), FROM_REAL(sb[0]), sg[0], REAL(eps), c);
    if (IS_ZERO(s)) return;
    if (t == 0u) flag[b] = 1u;
    REAL rr = rot_r(c, s);
    for (uint i = t; i < m; i += WG) {
        T x = w[wbase + pq.x * m + i], y = w[wbase + pq.y * m + i];
        w[wbase + pq.x * m + i] = rot_lo(x, y, CONJ(s), rr);
        w[wbase + pq.y * m + i] = rot_hi(x, y, s, rr);
    }
    for (uint i = t; wantv != 0u && i < n; i += WG) {
        T x = v[vbase + pq.x * n + i], y = v[vbase + pq.y * n + i];
        v[vbase + pq.x * n + i] = rot_lo(x, y, CONJ(s), rr);
        v[vbase + pq.y * n + i] = rot_hi(x, y, s, rr);
    }
}
"""

# one-sided: W (batch, m, n) columns are rotated until orthogonal; V (batch, n, n) accumulates the rotations
_SVD = PAIRS + """
layout(set = 0, binding = 0) coherent buffer W_ { T w[]; };
layout(set = 0, binding = 1) coherent buffer V_ { T v[]; };
layout(set = 0, binding = 2) coherent buffer C_ { T cs[]; };
layout(set = 0, binding = 3) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push {
    uint m; uint n; uint n2; uint r0; uint r1; uint batch; uint wantv; float eps; uint lanes;
};

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x, slot = t / lanes, lane = t % lanes;
    uint wbase = b * m * n, vbase = b * n * n, np = n2 / 2u, cbase = b * n2;
    for (uint r = r0; r < r1; ++r) {
""" + rotations("""
                REAL al = REAL(0), be = REAL(0);
                T ga = T(0);
                for (uint i = 0u; i < m; ++i) {
                    T x = w[wbase + i * n + pq.x], y = w[wbase + i * n + pq.y];
                    al += NORM2(x); be += NORM2(y); ga += MUL(CONJ(x), y);
                }
                s = rotation_t(FROM_REAL(al), FROM_REAL(be), ga, REAL(eps), c);""", "rot_r(c, s)") + \
    each_rotated_pair("columns p, q <- W J, V J", """
            for (uint i = lane; i < m; i += lanes) {
                T x = w[wbase + i * n + pq.x], y = w[wbase + i * n + pq.y];
                w[wbase + i * n + pq.x] = rot_lo(x, y, CONJ(s), rr);
                w[wbase + i * n + pq.y] = rot_hi(x, y, s, rr);
            }
            for (uint i = lane; wantv != 0u && i < n; i += lanes) {
                T x = v[vbase + i * n + pq.x], y = v[vbase + i * n + pq.y];
                v[vbase + i * n + pq.x] = rot_lo(x, y, CONJ(s), rr);
                v[vbase + i * n + pq.y] = rot_hi(x, y, s, rr);
            }""") + """
        memoryBarrierBuffer(); barrier();
    }
}
"""


def svd_jacobi(w: kd.Array, want_vectors: bool, threshold: kd.DType | None = None) -> tuple[kd.Array, kd.Array]:
    """Orthogonalise the columns of the ``(batch, m, n)`` stack; returns fresh ``(w, v)`` with ``A @ v = w``
    (``w``'s column norms are the singular values, unsorted). ``threshold``: the dtype whose epsilon scales the
    rotation test (default ``w``'s; float32 for a float32 matrix swept in float64)."""
    batch, m, n = w.shape
    if batch == 0 or n <= 1 or m == 0:
        return w, identity_batch(batch, n, w.dtype)
    wide = whole_gpu_rounds(batch, n)
    dtype = w.dtype
    eps = _svd_eps(dtype, threshold or dtype, m)
    n2 = n + n % 2

    def make() -> dict[str, kd.Array]:
        return {"w": kd.zeros((batch, n, m) if wide else w.shape, dtype=dtype),
                "v": kd.zeros((batch, n, n), dtype=dtype), "flag": kd.zeros((batch,), dtype=kd.uint32),
                "cs": kd.zeros((batch, n2), dtype=dtype)}

    key = ("svd", dtype.name, batch, m, n, want_vectors, wide, eps)
    eye = identity(batch, n, dtype)
    if not wide:
        out, v = converge(key, make, lambda r: _svd_sweep(r, want_vectors, eps), {"w": w, "v": eye}, ("w", "v"),
                          "SVD")
        return out, v
    # the whole-GPU rounds keep W and V transposed (columns contiguous)
    out, v = converge(key, make, lambda r: _svd_rounds(r, m, want_vectors, eps),
                      {"w": kd.matrix_transpose(w), "v": eye}, ("w", "v"), "SVD")
    return kd.matrix_transpose(out), kd.matrix_transpose(v)


def whole_gpu_rounds(batch: int, n: int) -> bool:
    """Whether a ``(batch, m, n)`` stack is swept a round per dispatch over the whole GPU (``_SVD_ROUND``): a few
    matrices of many columns on a GPU. Not on a CPU driver: lavapipe's dispatches of a workgroup per pair cost
    more than they share out (``svdvals`` of a 256 x 256 matrix took 31 s that way, 6.6 s by one workgroup per
    matrix; 160 x 160: 9.7 s, 1.0 s).

    Example:
        >>> whole_gpu_rounds(1, 2)
        False
    """
    return n >= jacobi.WIDE_EIGH and batch <= jacobi.WIDE_BATCH and not K.cpu_device()


def _svd_eps(work: kd.DType, threshold: kd.DType, m: int) -> float:
    """The rotation test's scale for ``m``-row columns of ``work`` to converge as ``threshold`` allows."""
    if work.itemsize > threshold.itemsize:  # float64 Gram sums of float32 data: no sqrt(m) rounding noise
        return rotation_eps(work, threshold)
    return jacobi_eps(work) * max(1.0, m) ** 0.5  # the Gram entries are m-term sums: dgesvj's sqrt(m) eps


def _svd_sweep(r: dict[str, kd.Array], want_vectors: bool, eps: float) -> None:
    """One sweep by one workgroup per matrix, its rounds split into dispatches within the loop budget."""
    w = r["w"]
    batch, m, n = w.shape
    n2 = n + n % 2
    vrows = n if want_vectors else 0
    wg = K.workgroup_size(n2 // 2 * (m + vrows))
    kern = K.compiled("svd_jacobi", _SVD, w.dtype.name, wg)
    lanes = K.pair_lanes(n2 // 2, m + vrows, wg)
    rotate = K.cdiv(n2 // 2, wg // lanes) * (K.cdiv(m, lanes) + K.cdiv(vrows, lanes) + 1)
    per_round = K.cdiv(n2 // 2, wg) * (m + 2) + rotate + 4
    K.run_steps(kern, (w, r["v"], r["cs"], r["flag"]),
                lambda r0, r1: (m, n, n2, r0, r1, batch, int(want_vectors), eps, lanes), [per_round] * (n2 - 1), batch)


def _svd_rounds(r: dict[str, kd.Array], m: int, want_vectors: bool, eps: float) -> None:
    """One sweep for large matrices: a dispatch per round (``_SVD_ROUND``, a workgroup per pair) on the
    transposed ``(batch, n, m)`` W."""
    w, v = r["w"], r["v"]
    batch, n, _ = w.shape
    n2 = n + n % 2
    wg = K.workgroup_size(m)
    kern = K.compiled("svd_round", _SVD_ROUND, w.dtype.name, wg)
    gy = min(batch, 65535)
    for rnd in range(n2 - 1):
        kern(w, v, r["flag"], m, n, n2, rnd, batch, int(want_vectors), eps, groups=(n2 // 2, gy, K.cdiv(batch, gy)))


__all__ = ["svd_jacobi", "whole_gpu_rounds"]
