"""Parallel cyclic Jacobi sweeps on the GPU, the engine of ``eigh`` (two-sided rotations of a symmetric
matrix) and ``svd`` (one-sided rotations of a matrix's columns, Hestenes' method).

A sweep visits every index pair once, in n-1 rounds (n rounded up to even) of n/2 disjoint pairs - the
round-robin tournament ordering - so the rotations of one round are independent and the workgroup of a matrix
computes them in parallel: first every pair's rotation ``(c, s)``, then the row updates, then the column
updates (and the accumulated eigenvector / right singular vector matrix). A pair is rotated only while its
off-diagonal entry is not negligible against its diagonal (``|a_pq| > eps * sqrt(|a_pp a_qq|)``), the
criterion that gives Jacobi its high relative accuracy (``sqrt(m) * eps`` for the m-term dot products of
the one-sided method, as LAPACK's ``dgesvj``); the host repeats sweeps until one rotates nothing (one read a
sweep). Large symmetric matrices are diagonalised by block Jacobi instead (:mod:`kdsl.linalg.jacobi_block`,
whose inner solves reuse the rotations here); the one-sided sweeps, with their own rounds over the whole GPU for
a few large matrices, are in :mod:`kdsl.linalg.jacobi_svd`. Complex (Hermitian)
matrices take the unitary rotation ``[[c, s], [-conj(s), c]]``: the real
rotation of ``|a_pq|`` conjugated by the phase of ``a_pq`` (``rotation_t``). float32 (complex64) matrices are
swept in float64 (complex128) where the device has it (:func:`sweep_dtype`), to float32's threshold
(:func:`rotation_eps`), and rounded once: NumPy's results (it computes float32 linalg in double) to an ulp.

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

// A rotation's two outputs in Rutishauser's form, x - (s y + r x) and y + (s x - r y) with r = 1 - c =
// |s|^2 / (1 + c) (rot_r): c x - s y would take c rounded to 1 for a tiny angle, growing the pair's norm by
// about |s|^2 / 2 at every rotation, a bias that adds up over a sweep's rounds; here the r x term still counts
REAL rot_r(REAL c, T s) { return NORM2(s) / (REAL(1) + c); }
T rot_lo(T x, T y, T s, REAL r) { return x - (MUL(s, y) + r * x); }
T rot_hi(T x, T y, T s, REAL r) { return y + (MUL(s, x) - r * y); }

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


def rotations(angle: str, stored: str) -> str:
    """GLSL of a round's first loop (eigh's and the SVD's): each invocation's pairs ``(p, q)`` with ``q < n``
    get the rotation ``(c, s)`` that the statements ``angle`` set, stored in ``cs`` as ``(stored, s)``;
    ``flag[b]`` marks a matrix that rotated. The kernel's body text around it declares what it uses.

    >>> print(rotations(" s = T(1); c = REAL(0);", "c").splitlines()[4])
                if (pq.y < n) { s = T(1); c = REAL(0);
    """
    return f"""        for (uint k = t; k < np; k += WG) {{
            uvec2 pq = pair_of(r, k, n2);
            REAL c = REAL(1);
            T s = T(0);
            if (pq.y < n) {{{angle}
                if (!IS_ZERO(s)) flag[b] = 1u;
            }}
            cs[cbase + 2u * k] = FROM_REAL({stored}); cs[cbase + 2u * k + 1u] = s;
        }}
        memoryBarrierBuffer(); barrier();"""


def each_rotated_pair(what: str, body: str) -> str:
    """GLSL of a loop that applies a round's stored rotations: ``lanes`` invocations a pair (``slot`` the pair,
    ``lane`` the invocation's row), pairs that did not rotate skipped; ``body`` sees ``pq``, ``s`` and Rutishauser's
    ``rr`` (``cs``'s stored ``rot_r(c, s)``). ``what`` names the rows or columns it rotates, as a comment.

    >>> print(each_rotated_pair("rows", "").splitlines()[4])
                REAL rr = RE(cs[cbase + 2u * k]);
    """
    return f"""
        for (uint k = slot; k < np; k += WG / lanes) {{  // {what}: `lanes` invocations a pair
            T s = cs[cbase + 2u * k + 1u];
            if (IS_ZERO(s)) continue;
            REAL rr = RE(cs[cbase + 2u * k]);
            uvec2 pq = pair_of(r, k, n2);{body}
        }}"""


_EIGH = PAIRS + """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) coherent buffer V_ { T v[]; };
layout(set = 0, binding = 2) coherent buffer C_ { T cs[]; };
layout(set = 0, binding = 3) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push {
    uint n; uint n2; uint r0; uint r1; uint batch; uint wantv; float eps; uint lanes;
};

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x, slot = t / lanes, lane = t % lanes;
    uint base = b * n * n, np = n2 / 2u, cbase = b * n2;
    for (uint r = r0; r < r1; ++r) {
""" + rotations("""
                s = rotation_t(a[base + pq.x * n + pq.x], a[base + pq.y * n + pq.y], a[base + pq.x * n + pq.y],
                               REAL(eps), c);""", "rot_r(c, s)") + each_rotated_pair("rows p, q <- J^H A", """
            for (uint j = lane; j < n; j += lanes) {
                T x = a[base + pq.x * n + j], y = a[base + pq.y * n + j];
                a[base + pq.x * n + j] = rot_lo(x, y, s, rr);
                a[base + pq.y * n + j] = rot_hi(x, y, CONJ(s), rr);
            }""") + """
        memoryBarrierBuffer(); barrier();""" + each_rotated_pair("columns p, q <- A J, V J", """
            for (uint i = lane; i < n; i += lanes) {
                T x = a[base + i * n + pq.x], y = a[base + i * n + pq.y];
                a[base + i * n + pq.x] = rot_lo(x, y, CONJ(s), rr);
                a[base + i * n + pq.y] = rot_hi(x, y, s, rr);
                if (wantv != 0u) {
                    x = v[base + i * n + pq.x]; y = v[base + i * n + pq.y];
                    v[base + i * n + pq.x] = rot_lo(x, y, CONJ(s), rr);
                    v[base + i * n + pq.y] = rot_hi(x, y, s, rr);
                }
            }""") + """
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

# svd of a few matrices (up to WIDE_BATCH) from WIDE_EIGH columns on runs a round per dispatch over the whole GPU
# (one workgroup per matrix would leave most of it idle; many matrices fill it anyway, in one dispatch for many
# rounds); eigh of large matrices goes to block Jacobi instead (kdsl.linalg.jacobi_block)
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


# the rotation test of float32 data swept in float64 is a fraction of float32's eps: at float32's own test the
# pairs are left at about eps (SVD: dgesvj's sqrt(m) eps), and then U S Vh (U a QR's orthonormalisation of the
# rotated columns) misses A, and A V - V diag(w) is, by that much (SVD 200 x 200: 26 eps; eigh 130: 2.4 eps; NumPy:
# 0.4 eps); at eps / 16 they match NumPy's, for no sweep more (Jacobi converges quadratically: the last sweeps
# leave the pairs far below either test)
NARROW_EPS_FRACTION = 1 / 16
_WIDER = {"float32": kd.float64, "complex64": kd.complex128}


def rotation_eps(work: kd.DType, threshold: kd.DType | None) -> float:
    """The rotation test's scale for a ``work`` matrix that is to converge as far as ``threshold`` (its own dtype
    by default, or the narrower dtype it was widened from) allows.

    >>> rotation_eps(kd.float64, kd.float32) == 2.0 ** -23 / 16
    True
    """
    if threshold is None or work.itemsize <= threshold.itemsize:
        return jacobi_eps(work)
    return jacobi_eps(threshold) * NARROW_EPS_FRACTION


def sweep_dtype(dtype: kd.DType, columns: int = 0) -> kd.DType:
    """The dtype a ``dtype`` matrix of ``columns`` columns is rotated in: float64 (complex128) for float32
    (complex64) on a device with float64 (``shaderFloat64``: lavapipe, NVIDIA), else ``dtype`` itself. The sweeps
    still stop at float32's threshold (``threshold=`` of the sweep functions, :func:`rotation_eps`), so they are
    about as many; but every rotation rounds to float64 instead of float32: a float32 entry is rotated a few
    hundred times at n = 200 (n - 1 rotations a sweep), and those roundings, each up to half a float32 ulp, left
    singular values about 6 eps off (eigenvalues 20 eps at n = 256) where NumPy's (computed in double, then
    rounded) are within one. Swept in float64 and rounded once, they are NumPy's to an ulp. A device without
    float64 keeps float32.

    On a GPU, matrices of ``WIDE_EIGH`` columns or more keep float32 too: they are swept across the whole GPU
    (a round a dispatch, or block Jacobi), bound by the memory traffic that float64 doubles (H100: ``eigh`` of
    1024 x 1024 took 47.4 ms swept in float64, against 29.6 in float32 and torch's 10.7; issue 11 asks for 3x),
    and Rutishauser's rotations keep their float32 drift to a few eps (svd 140 x 135: 3.8 eps, was 104).

    >>> sweep_dtype(kd.float64).name
    'float64'
    """
    wider = _WIDER.get(dtype.name)
    if wider is None or not kd.device().supports(wider):
        return dtype
    if columns >= WIDE_EIGH and not K.cpu_device():
        return dtype
    return wider


def converge(key: tuple, make: Callable[[], dict[str, kd.Array]], sweep: Callable[[dict[str, kd.Array]], None],
              inputs: dict[str, kd.Array], outputs: tuple[str, ...], what: str, reset: bool = True) -> list[kd.Array]:
    """Sweeps until one rotates nothing in any matrix (LinAlgError after MAX_SWEEPS): the arrays ``make()``
    gives (``flag``, the rotated-anything flags, among them) take ``inputs``, then a recorded plan of one
    sweep (``sweep``, after a reset of the flags unless ``reset`` is False: a sweep that sets every flag itself)
    runs as one submit per sweep, followed by one read of the flags; returns fresh copies of the ``outputs``
    arrays."""

    def record() -> Plan:
        def body(r: dict[str, kd.Array]) -> None:
            if reset:
                K.zero_flags(r["flag"])
            sweep(r)
        return Plan.record(make(), body)

    plan = graph.cached(key, record)
    with plan.lock:
        for name, x in inputs.items():
            K.copy_into(plan.arrays[name], x)
        for _ in range(MAX_SWEEPS):
            plan.run()
            if not plan.arrays["flag"].numpy().any():  # a plain read: no reduction kernel and its own wait
                out = [kd.asarray(plan.arrays[name], copy=True) for name in outputs]
                kd.realize(*out)  # before the next call overwrites the work arrays
                return out
    raise LinAlgError(f"{what} did not converge")


def identity(batch: int, n: int, dtype: kd.DType) -> kd.Array:
    """``batch`` identity matrices of order ``n``, as a broadcast view (the sweeps' starting V)."""
    return kd.broadcast_to(kd.eye(n, dtype=dtype), (batch, n, n))


def eigh_jacobi(a: kd.Array, want_vectors: bool, threshold: kd.DType | None = None) -> tuple[kd.Array, kd.Array]:
    """Diagonalise the symmetric ``(batch, n, n)`` stack; returns fresh ``(a, v)`` with the eigenvalues on
    ``a``'s diagonal (unsorted) and the eigenvectors in ``v``'s columns. ``threshold``: the dtype whose
    epsilon scales the rotation test (default ``a``'s; float32 for a float32 matrix swept in float64)."""
    batch, n, _ = a.shape
    if batch == 0 or n <= 1:
        return a, identity_batch(batch, n, a.dtype)
    dtype = a.dtype
    eps = rotation_eps(dtype, threshold)
    n2 = n + n % 2

    def make() -> dict[str, kd.Array]:
        return {"a": kd.zeros(a.shape, dtype=dtype), "v": kd.zeros(a.shape, dtype=dtype),
                "flag": kd.zeros((batch,), dtype=kd.uint32), "work": kd.zeros((batch, n2), dtype=dtype)}

    d, v = converge(("eigh", dtype.name, batch, n, want_vectors, eps), make,
                     lambda r: _eigh_sweep(r, want_vectors, eps), {"a": a, "v": identity(batch, n, dtype)},
                     ("a", "v"), "Eigenvalues")
    return d, v


def _eigh_sweep(r: dict[str, kd.Array], want_vectors: bool, eps: float) -> None:
    """One sweep by one workgroup per matrix, its rounds split into dispatches within the loop budget."""
    a = r["a"]
    batch, n, _ = a.shape
    n2 = n + n % 2
    wg = K.workgroup_size(n2 // 2 * n)
    kern = K.compiled("eigh_jacobi", _EIGH, a.dtype.name, wg)
    lanes = K.pair_lanes(n2 // 2, n, wg)
    per_round = 4 * K.cdiv(n2 // 2, wg) + 2 * K.cdiv(n2 // 2, wg // lanes) * (K.cdiv(n, lanes) + 1) + 4
    K.run_steps(kern, (a, r["v"], r["work"], r["flag"]),
                lambda r0, r1: (n, n2, r0, r1, batch, int(want_vectors), eps, lanes), [per_round] * (n2 - 1), batch)


__all__ = ["MAX_SWEEPS", "PAIRS", "WIDE_BATCH", "WIDE_EIGH", "converge", "eigh_jacobi", "identity", "jacobi_eps",
           "each_rotated_pair", "rotation_eps", "rotations", "round_pairs", "sweep_dtype"]
