"""LU factorisation with partial pivoting on the GPU, and what is built on it: ``solve``, ``inv``, ``det``,
``slogdet``.

``getrf`` factors a stack of square matrices in place, one workgroup per matrix (LAPACK's right-looking
algorithm: pivot search as a workgroup reduction, row swap, column scaling, rank-1 update of the trailing
matrix); a matrix whose elimination would run past the loop budget is factored over several dispatches.
Large matrices are factored in blocks (:mod:`kdsl.linalg.blocked`): panels by that kernel, the trailing
update by one gemm (:mod:`kdsl.linalg.gemm`). ``getrs`` then solves for the right-hand sides: one
workgroup per matrix and
column, or, for many columns of a small matrix (``inv``), one thread per column. The same kernels serve
complex matrices (pivots by ``|re| + |im|`` as LAPACK's ``izamax``; :mod:`kdsl.linalg.kernels`).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([[2.0, 1.0], [1.0, 3.0]]))
    >>> solve(a, kd.asarray(np.array([3.0, 5.0]))).tolist()
    [0.8, 1.4]
    >>> round(float(det(a)), 12)
    5.0
"""

from __future__ import annotations

import math

import numpy as np

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.blocked import blocks, lu_update, panel_width
from kdsl.linalg.common import (
    LinAlgError,
    SlogdetResult,
    as_array,
    as_pair,
    batch_copy,
    check_info,
    check_matrices,
    identity_batch,
    working_dtype,
)

_GETRF = """
layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer P_ { int piv[]; };
layout(set = 0, binding = 2) buffer I_ { int info[]; };
layout(push_constant) uniform Push { uint n; uint k0; uint k1; uint cend; uint batch; };
shared REAL best_v[WG];
shared uint best_i[WG];

void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * n * n;
    for (uint k = k0; k < k1; ++k) {
        // pivot: the first row of largest magnitude |re| + |im| in column k (as LAPACK's idamax/izamax)
        REAL bv = REAL(-1);
        uint bi = n;
        for (uint i = k + t; i < n; i += WG) {
            REAL v = ABS1(a[base + i * n + k]);
            if (v > bv) { bv = v; bi = i; }
        }
        best_v[t] = bv; best_i[t] = bi;
        barrier();
        for (uint s = WG / 2u; s > 0u; s >>= 1) {
            if (t < s) {
                REAL o = best_v[t + s]; uint oi = best_i[t + s];
                if (o > best_v[t] || (o == best_v[t] && oi < best_i[t])) { best_v[t] = o; best_i[t] = oi; }
            }
            barrier();
        }
        // idamax starts from row k and takes only a larger magnitude, which a NaN never is: a NaN in row k stays
        // the pivot (the factor is NaN from there: NumPy's NaN results, not a zero pivot's det 0), one below is
        // passed over (a column of NaNs keeps row k)
        uint p = isnan(ABS1(a[base + k * n + k])) || best_i[0] >= n ? k : best_i[0];
        T pv = a[base + p * n + k];
        barrier();
        if (p != k) {
            for (uint j = t; j < n; j += WG) {
                T x = a[base + k * n + j];
                a[base + k * n + j] = a[base + p * n + j];
                a[base + p * n + j] = x;
            }
        }
        if (t == 0u) {
            piv[b * n + k] = int(p);
            if (IS_ZERO(pv) && info[b] == 0) info[b] = int(k) + 1;
        }
        memoryBarrierBuffer(); barrier();
        if (!IS_ZERO(pv)) {  // a zero pivot leaves a zero column below it: nothing to eliminate (LAPACK)
            for (uint i = k + 1u + t; i < n; i += WG) a[base + i * n + k] = DIV(a[base + i * n + k], pv);
        }
        memoryBarrierBuffer(); barrier();
        uint w = cend - k - 1u;  // the trailing columns of this panel (all of them when unblocked)
        for (uint e = t; e < (n - k - 1u) * w; e += WG) {
            uint i = k + 1u + e / w, j = k + 1u + e % w;
            a[base + i * n + j] -= MUL(a[base + i * n + k], a[base + k * n + j]);
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""

# Steps 0..n-1 are forward substitution with the unit lower factor (step 0 first applies the row swaps), steps
# n..2n-1 back substitution with the upper factor, last row first. One workgroup per (matrix, column).
_GETRS = """
layout(set = 0, binding = 0) readonly buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer P_ { int piv[]; };
layout(set = 0, binding = 2) coherent buffer X_ { T x[]; };
layout(push_constant) uniform Push { uint n; uint nrhs; uint s0; uint s1; uint count; };

void main() {
    uint g = batch_index();
    if (g >= count) return;
    uint t = gl_LocalInvocationID.x;
    uint b = g / nrhs, c = g % nrhs;
    uint abase = b * n * n, xbase = b * n * nrhs + c;
    for (uint s = s0; s < s1; ++s) {
        if (s == 0u && t == 0u) {
            for (uint k = 0u; k < n; ++k) {
                uint p = uint(piv[b * n + k]);
                if (p != k) {
                    T v = x[xbase + k * nrhs];
                    x[xbase + k * nrhs] = x[xbase + p * nrhs];
                    x[xbase + p * nrhs] = v;
                }
            }
        }
        memoryBarrierBuffer(); barrier();
        if (s < n) {
            uint i = s;
            T xi = x[xbase + i * nrhs];
            for (uint j = i + 1u + t; j < n; j += WG) x[xbase + j * nrhs] -= MUL(a[abase + j * n + i], xi);
        } else {
            uint i = 2u * n - 1u - s;
            T xi = DIV(x[xbase + i * nrhs], a[abase + i * n + i]);
            barrier();
            if (t == 0u) x[xbase + i * nrhs] = xi;
            for (uint j = t; j < i; j += WG) x[xbase + j * nrhs] -= MUL(a[abase + j * n + i], xi);
        }
        memoryBarrierBuffer(); barrier();
    }
}
"""


# Many right-hand sides (inv): a thread per column does the substitution, no barriers; the matrix's entries are
# read by all threads at once (a broadcast), the columns' side by side (coalesced). Steps as in _GETRS (0..n-1
# forward, row s; n..2n-1 back, row 2n-1-s), s0..s1 of them a dispatch: a large matrix's substitution takes
# several dispatches within the loop budget.
_GETRS_COLUMNS = """
layout(set = 0, binding = 0) readonly buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer P_ { int piv[]; };
layout(set = 0, binding = 2) buffer X_ { T x[]; };
layout(push_constant) uniform Push { uint n; uint nrhs; uint chunks; uint batch; uint s0; uint s1; };

void main() {
    uint g = batch_index();
    uint b = g / chunks, c = (g % chunks) * WG + gl_LocalInvocationID.x;
    if (b >= batch || c >= nrhs) return;
    uint ab = b * n * n, xb = b * n * nrhs + c;
    for (uint st = s0; st < s1; ++st) {
        if (st == 0u) {
            for (uint k = 0u; k < n; ++k) {
                uint p = uint(piv[b * n + k]);
                if (p != k) { T v = x[xb + k * nrhs]; x[xb + k * nrhs] = x[xb + p * nrhs]; x[xb + p * nrhs] = v; }
            }
        }
        if (st < n) {
            uint i = st;
            T s = x[xb + i * nrhs];
            for (uint l = 0u; l < i; ++l) s -= MUL(a[ab + i * n + l], x[xb + l * nrhs]);
            x[xb + i * nrhs] = s;
        } else {
            uint i = 2u * n - 1u - st;
            T s = x[xb + i * nrhs];
            for (uint l = i + 1u; l < n; ++l) s -= MUL(a[ab + i * n + l], x[xb + l * nrhs]);
            x[xb + i * nrhs] = DIV(s, a[ab + i * n + i]);
        }
    }
}
"""

def _shared_variant(source: str) -> str:
    """``_GETRF`` on a copy of the matrix in shared memory (``NMAX * NMAX`` elements, loaded first and stored
    last): the whole factorisation of a small matrix in one dispatch without global-memory round trips."""
    src = source.replace("layout(set = 0, binding = 0) coherent buffer A_ { T a[]; };",
                         "layout(set = 0, binding = 0) buffer A_ { T a[]; };\nshared T sa[NMAX * NMAX];")
    src = src.replace("a[base + ", "sa[")
    src = src.replace("memoryBarrierBuffer(); barrier();", "memoryBarrierShared(); barrier();")
    src = src.replace("    uint base = b * n * n;\n",
                      "    uint base = b * n * n;\n    for (uint e = t; e < n * n; e += WG) sa[e] = a[base + e];\n"
                      "    memoryBarrierShared(); barrier();\n", 1)
    head, tail = src.rsplit("    }\n}\n", 1)
    return head + "    }\n    for (uint e = t; e < n * n; e += WG) a[base + e] = sa[e];\n}\n" + tail


_GETRF_SHARED = _shared_variant(_GETRF)


def _shared_size(n: int, dtype: kd.DType) -> int:
    """NMAX (16, 32 or 64) for factoring an n x n matrix in shared memory, or 0 when it does not fit."""
    limit = int(kd.device().manager.get_device_properties().get("max_shared_memory_size", 16384))
    for nmax in (16, 32, 64):
        # the matrix plus the pivot search's arrays (WG <= 1024 entries of REAL and uint)
        if n <= nmax and nmax * nmax * dtype.itemsize + 1024 * (8 + 4) <= limit:
            return nmax
    return 0


def _getrf_shared(a: kd.Array, piv: kd.Array, info: kd.Array, nmax: int, wg: int, costs: list[int]) -> bool:
    """Factor the stack of small matrices in shared memory, one workgroup each and one dispatch; False when
    the factorisation would not fit one dispatch's loop budget."""
    batch, n, _ = a.shape
    if sum(costs) + 2 * K.cdiv(n * n, wg) > K.loop_budget():
        return False
    kern = K.compiled(f"getrf_shared{nmax}", f"#define NMAX {nmax}u\n" + _GETRF_SHARED, a.dtype.name, wg)
    kern(a, piv, info, n, 0, n, n, batch, groups=K.groups(batch))
    return True


def getrf(a: kd.Array) -> tuple[kd.Array, kd.Array, kd.Array]:
    """Factor the fresh ``(batch, n, n)`` stack ``a`` in place as ``P A = L U``; returns ``(a, piv, info)``:
    LAPACK's 0-based pivot rows and, per matrix, 0 or 1 + the first zero pivot's column."""
    batch, n, _ = a.shape
    piv = kd.zeros((batch, n), dtype=kd.int32)
    info = kd.zeros((batch,), dtype=kd.int32)
    if batch == 0 or n == 0:
        return a, piv, info
    wg = K.workgroup_size(n * n)
    log_wg = int(math.log2(wg))
    width = panel_width(n)
    nmax = _shared_size(n, a.dtype) if width == n else 0
    if nmax:
        wg = min(wg, K.workgroup_size(nmax * nmax // 16))  # a 64 x 64 matrix: 256 threads, 16 elements each
        costs = [2 * K.cdiv(n - k, wg) + K.cdiv(n, wg) + K.cdiv((n - k - 1) ** 2, wg) + log_wg for k in range(n)]
        if _getrf_shared(a, piv, info, nmax, wg, costs):
            return a, piv, info
    wg = K.workgroup_size(n * n)
    kern = K.compiled("getrf", _GETRF, a.dtype.name, wg)
    for k0, k1 in blocks(n, width):
        costs = [2 * K.cdiv(n - k, wg) + K.cdiv(n, wg) + K.cdiv((n - k - 1) * (k1 - k - 1), wg) + log_wg
                 for k in range(k0, k1)]
        def push(s0: int, s1: int, k0: int = k0, k1: int = k1) -> tuple[int, ...]:
            return n, k0 + s0, k0 + s1, k1, batch

        K.run_steps(kern, (a, piv, info), push, costs, batch)
        if k1 < n:
            lu_update(a, k0, k1)
    return a, piv, info


def getrs(lu: kd.Array, piv: kd.Array, rhs: kd.Array) -> kd.Array:
    """Solve ``A X = B`` in place in the fresh ``(batch, n, nrhs)`` stack ``rhs`` from :func:`getrf`'s output."""
    batch, n, nrhs = rhs.shape
    if rhs.size == 0:
        return rhs
    if nrhs >= 16 and (n * (n + 2) <= K.loop_budget() or K.cpu_device()):
        _getrs_columns(lu, piv, rhs)
        return rhs
    wg = K.workgroup_size(n)
    kern = K.compiled("getrs", _GETRS, rhs.dtype.name, wg)
    costs = [K.cdiv(n - s, wg) + (n if s == 0 else 0) + 2 for s in range(n)] + \
        [K.cdiv(n - 1 - s, wg) + 2 for s in range(n)]
    K.run_steps(kern, (lu, piv, rhs), lambda s0, s1: (n, nrhs, s0, s1, batch * nrhs), costs, batch * nrhs)
    return rhs


def _getrs_columns(lu: kd.Array, piv: kd.Array, rhs: kd.Array) -> None:
    """:func:`getrs` by a thread per right-hand side (``_GETRS_COLUMNS``), in one dispatch where the loop budget
    allows. Past it (n > 172 on lavapipe) GPUs take a workgroup per column instead (``_GETRS``, n threads a
    step), but a CPU driver runs those steps' barriers slowly: ``inv`` of 176 x 176 took 1.0 s there (0.02 s
    for 172 x 172), 300 x 300 2.6 s; the columns' substitution split into dispatches keeps the thread per column."""
    batch, n, nrhs = rhs.shape
    wg = 32 if nrhs <= 32 else 64
    chunks = K.cdiv(nrhs, wg)
    kern = K.compiled("getrs_columns", _GETRS_COLUMNS, rhs.dtype.name, wg)
    costs = [i + 1 + (n if i == 0 else 0) for i in range(n)] + [i + 1 for i in range(n)]
    K.run_steps(kern, (lu, piv, rhs), lambda s0, s1: (n, nrhs, chunks, batch, s0, s1), costs, batch * chunks)


def solve(a, b) -> kd.Array:
    """Solve ``a @ x = b`` for stacks of square matrices ``a``. ``b`` is one vector when it is 1-d, else
    a stack of matrices (the array API's and NumPy 2's rule); batch axes broadcast. Raises
    :class:`LinAlgError` for a singular matrix."""
    a, b = as_pair(a, b)  # host floats beside float64 at float64
    check_matrices(a, "solve")
    da, db = working_dtype(a, "solve"), working_dtype(b, "solve")
    dtype = da if da == db else kd.result_type(da, db)
    n = a.shape[-1]
    vector = b.ndim == 1
    bm = b[..., None] if vector else b
    if bm.shape[-2] != n:
        raise ValueError(f"solve: b has {bm.shape[-2]} rows but a is {n}x{n}; shapes {a.shape} and {b.shape}")
    batch_shape = np.broadcast_shapes(a.shape[:-2], bm.shape[:-2])
    a = kd.broadcast_to(a, batch_shape + (n, n))
    bm = kd.broadcast_to(bm, batch_shape + bm.shape[-2:])
    lu, piv, info = getrf(batch_copy(a, dtype))
    check_info(info, "Singular matrix")
    out = getrs(lu, piv, batch_copy(bm, dtype)).reshape(batch_shape + bm.shape[-2:])
    return out[..., 0] if vector else out


def inv(a) -> kd.Array:
    """The inverse of each square matrix of the stack ``x``; :class:`LinAlgError` if one is singular."""
    a = as_array(a)
    check_matrices(a, "inv")
    dtype = working_dtype(a, "inv")
    n = a.shape[-1]
    batch = math.prod(a.shape[:-2])
    lu, piv, info = getrf(batch_copy(a, dtype))
    check_info(info, "Singular matrix")
    return getrs(lu, piv, identity_batch(batch, n, dtype)).reshape(a.shape)


def _lu_diagonal(a: kd.Array, dtype: kd.DType) -> tuple[kd.Array, kd.Array]:
    """The LU factor's diagonal of each matrix of ``a``, ``(*stack, n)``, and the pivots' parity (+-1 in
    ``dtype``, of the stack's shape). Shaped as ``a``'s stack before the reductions, so the determinants are
    fresh results, not views (a 0-d one stands for NumPy's scalar: ``d += 1`` rebinds, scalar_like.py)."""
    n, stack = a.shape[-1], a.shape[:-2]
    lu, piv, _ = getrf(batch_copy(a, dtype))
    diag = kd.diagonal(lu, 0, -2, -1).reshape(stack + (n,))
    swaps = kd.sum(piv.reshape(stack + (n,)) != kd.arange(n, dtype=kd.int32), axis=-1)
    return diag, kd.where(swaps % 2 == 1, -1.0, 1.0).astype(dtype)


def slogdet(a) -> SlogdetResult:
    """Sign and natural log of the absolute determinant of each square matrix (sign 0 and log -inf when
    singular), as NumPy: for complex input the sign is a complex number of modulus 1 (or 0), ``logabsdet``
    is real."""
    a = as_array(a)
    check_matrices(a, "slogdet")
    dtype = working_dtype(a, "slogdet")
    diag, parity = _lu_diagonal(a, dtype)
    mag = kd.abs(diag)
    # z / |z| for complex pivots (kd.sign), the sign of the product being the product of the signs; a NaN pivot
    # counts as positive, as NumPy's (its logabsdet is NaN)
    sign = parity * kd.prod(kd.where(kd.isnan(diag), 1, kd.sign(diag)), axis=-1)
    logabs = kd.sum(kd.log(mag), axis=-1)
    # a zero pivot is LAPACK's singular matrix: NumPy's sign +0.0 (not -0.0 after an odd number of swaps) and
    # log -inf, whatever NaN the other pivots hold
    singular = kd.any(diag == 0, axis=-1)
    return SlogdetResult(kd.where(singular, 0, sign), kd.where(singular, -math.inf, logabs))


def det(a) -> kd.Array:
    """The determinant of each square matrix of the stack ``x`` (product of the LU factor's diagonal)."""
    a = as_array(a)
    check_matrices(a, "det")
    dtype = working_dtype(a, "det")
    diag, parity = _lu_diagonal(a, dtype)
    # a zero pivot gives NumPy's +0.0 (its det is sign * exp(logdet) with sign 0), not the product's -0.0 after an
    # odd number of row swaps: print(det([[1., 2.], [2., 4.]])) shows 0.0
    return kd.where(kd.any(diag == 0, axis=-1), 0, parity * kd.prod(diag, axis=-1))


__all__ = ["LinAlgError", "det", "getrf", "getrs", "inv", "slogdet", "solve"]
