"""Block Jacobi for ``eigh`` of large matrices: the n indices are cut into blocks of ``b`` (the last one padded),
the blocks are paired by the round-robin ordering of :mod:`kdsl.linalg.jacobi` (so a sweep is ``n/b - 1`` rounds
instead of ``n - 1``), and a round is two dispatches:

* ``solve``: one workgroup per block pair rotates the ``2b x 2b`` symmetric (Hermitian) matrix ``A[pair, pair]``
  in shared memory by cyclic Jacobi (:data:`INNER_SWEEPS` sweeps, fewer where one rotates nothing), writes it
  back to ``A`` (the rotated entries are zero by construction, as in the scalar sweeps) and its rotations'
  product, the unitary ``Q`` (``2b x 2b``), to a work array; a rotation raises the matrix's flag;
* ``apply``: one workgroup per pair of pairs ``k > l`` computes ``Q_k^H A[pair k, pair l] Q_l`` in shared memory
  and writes it and its adjoint (``A`` stays exactly Hermitian); more workgroups update the eigenvectors,
  ``V[:, pair l] <- V[:, pair l] Q_l``, one ``2b``-row tile each. A pair that rotated nothing has ``Q = I``
  (the solve says so per pair), and the products by it are skipped (the last sweeps rotate few pairs).

A pair's own ``2b x 2b`` block is never recomputed by the product: it is the inner solve's result (rotated
entries exact zeros, not a product's rounding of about ``eps |A|``), so the host's convergence test - a sweep in
which no pair rotates, every entry having passed ``|a_pq| <= eps sqrt(|a_pp a_qq|)`` in its pair's block -
can be met, and keeps the relative accuracy of the scalar method. ``b`` is the largest
power of two up to :data:`MAX_BLOCK` whose two ``2b x 2b`` shared matrices fit the device's shared memory; the
inner sweeps stop at :data:`INNER_SWEEPS` or at the loop budget (each sweep is ``2b - 1`` rounds of a rotation,
a row and a column step).

Example:
    >>> import numpy as np, kdsl as kd
    >>> a = np.diag([3.0, 1.0, 2.0]) + 0.1
    >>> d, v = eigh_block(kd.asarray(a[None]), True)
    >>> bool(np.allclose(np.sort(np.diagonal(d.numpy()[0])), np.linalg.eigvalsh(a)))
    True
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg.jacobi import PAIRS, converge, identity, jacobi_eps

# b: a block pair is a 32 x 32 problem. On an H200 (eigh 1024 float32, one call): blocks of 16 took 41.2 ms,
# of 32 50.3 ms (each workgroup's sweeps too long), of 8 57.5 ms (too many rounds)
MAX_BLOCK = 16
INNER_SWEEPS = 1  # inner sweeps per solve at most: more (2, 3, 6) saved at most one outer sweep in ten on lavapipe
# (n = 256), for up to that many times the solve's time, and lost accuracy (each Q a product of more rotations)

_COMMON = PAIRS + """
#define LD (S + 1u)
#define HB (S / 2u)
// element i of the 2b indices of block pair pq (blocks of HB indices)
uint gidx(uvec2 pq, uint i) { return i < HB ? pq.x * HB + i : pq.y * HB + i - HB; }
"""

# S (= 2b) is defined before this source; the shared rows are LD = S + 1 long so that a column's entries fall
# in different banks (the column steps read down columns)
_SOLVE = _COMMON + """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) writeonly buffer Q_ { T q[]; };
layout(set = 0, binding = 2) buffer F_ { uint flag[]; };
layout(set = 0, binding = 3) writeonly buffer M_ { uint moved[]; };  // per pair: Q is not the identity
layout(push_constant) uniform Push { uint n; uint nb2; uint r; uint batch; uint sweeps; float eps; };
shared T sa[S * LD];
shared T sv[S * LD];
shared REAL sr[HB];  // rot_r: 1 - c
shared T ss[HB];
shared uint srot;

// one inner round: the HB disjoint rotations of local round rr, applied to the rows, then the columns of sa and sv
void inner_round(uint rr, uint t) {
    for (uint k = t; k < HB; k += WG) {
        uvec2 xy = pair_of(rr, k, S);
        REAL c;
        T s = rotation_t(sa[xy.x * LD + xy.x], sa[xy.y * LD + xy.y], sa[xy.x * LD + xy.y], REAL(eps), c);
        sr[k] = rot_r(c, s); ss[k] = s;
        if (!IS_ZERO(s)) srot = 1u;
    }
    barrier();
    for (uint e = t; e < HB * S; e += WG) {  // rows x, y <- J^H A
        uint k = e / S, j = e % S;
        T s = ss[k];
        if (!IS_ZERO(s)) {
            REAL w = sr[k];
            uvec2 xy = pair_of(rr, k, S);
            T x = sa[xy.x * LD + j], y = sa[xy.y * LD + j];
            sa[xy.x * LD + j] = rot_lo(x, y, s, w);
            sa[xy.y * LD + j] = rot_hi(x, y, CONJ(s), w);
        }
    }
    barrier();
    for (uint e = t; e < HB * S; e += WG) {  // columns x, y <- A J, V J; the rotated entries are zero
        uint k = e / S, i = e % S;
        T s = ss[k];
        if (!IS_ZERO(s)) {
            REAL w = sr[k];
            uvec2 xy = pair_of(rr, k, S);
            T x = sa[i * LD + xy.x], y = sa[i * LD + xy.y];
            sa[i * LD + xy.x] = i == xy.y ? T(0) : rot_lo(x, y, CONJ(s), w);
            sa[i * LD + xy.y] = i == xy.x ? T(0) : rot_hi(x, y, s, w);
            x = sv[i * LD + xy.x]; y = sv[i * LD + xy.y];
            sv[i * LD + xy.x] = rot_lo(x, y, CONJ(s), w);
            sv[i * LD + xy.y] = rot_hi(x, y, s, w);
        }
    }
    barrier();
}

void main() {
    uint b = gl_WorkGroupID.z;
    uint k = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    if (b >= batch || k >= nb2 / 2u) return;
    uint t = gl_LocalInvocationID.x, base = b * n * n;
    uvec2 pk = pair_of(r, k, nb2);
    for (uint e = t; e < S * S; e += WG) {
        uint i = e / S, j = e % S, gi = gidx(pk, i), gj = gidx(pk, j);
        sa[i * LD + j] = gi < n && gj < n ? a[base + gi * n + gj] : T(0);  // padding: zero, never rotated
        sv[i * LD + j] = i == j ? FROM_REAL(REAL(1)) : T(0);
    }
    bool rotated = false;
    for (uint sw = 0u; sw < sweeps; ++sw) {
        if (t == 0u) srot = 0u;
        barrier();
        for (uint rr = 0u; rr < S - 1u; ++rr) inner_round(rr, t);
        bool more = srot != 0u;
        barrier();  // everyone has read srot before it is reset
        if (!more) break;
        rotated = true;
    }
    if (rotated && t == 0u) flag[b] = 1u;
    if (t == 0u) moved[b * (nb2 / 2u) + k] = rotated ? 1u : 0u;
    uint qbase = (b * (nb2 / 2u) + k) * S * S;
    for (uint e = t; e < S * S; e += WG) {
        uint i = e / S, j = e % S, gi = gidx(pk, i), gj = gidx(pk, j);
        if (gi < n && gj < n) a[base + gi * n + gj] = sa[i * LD + j];
        q[qbase + e] = sv[i * LD + j];
    }
}
"""

# workgroups [0, np^2): the pair of pairs (k, l) = (g / np, g % np), k > l (the others return); then, with the
# eigenvectors wanted, (row tile, pair l) for V. WG = (S / 4)^2: each thread computes a 4 x 4 block of the
# S x S products (rows ty + a D, columns tx + e D, as gemm.py's tiles), 8 shared loads for 16 products.
_APPLY = _COMMON + """
#define D (S / 4u)
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer V_ { T v[]; };
layout(set = 0, binding = 2) readonly buffer Q_ { T q[]; };
layout(set = 0, binding = 3) readonly buffer M_ { uint moved[]; };
layout(push_constant) uniform Push { uint n; uint nb2; uint r; uint batch; uint wantv; };
shared T sx[S * LD];
shared T sq[S * LD];

void load_q(uint qbase, uint t) {
    for (uint e = t; e < S * S; e += WG) sq[(e / S) * LD + e % S] = q[qbase + e];
}

// sx <- sx sq, or sq^H sx with adj
void product(bool adj, uint t) {
    uint tx = t % D, ty = t / D;
    T acc[4][4];
    for (uint a = 0u; a < 4u; ++a) for (uint e = 0u; e < 4u; ++e) acc[a][e] = T(0);
    for (uint m = 0u; m < S; ++m) {
        T xv[4], yv[4];
        for (uint a = 0u; a < 4u; ++a) {
            uint i = ty + a * D, j = tx + a * D;
            xv[a] = adj ? CONJ(sq[m * LD + i]) : sx[i * LD + m];
            yv[a] = adj ? sx[m * LD + j] : sq[m * LD + j];
        }
        for (uint a = 0u; a < 4u; ++a) for (uint e = 0u; e < 4u; ++e) acc[a][e] += MUL(xv[a], yv[e]);
    }
    barrier();
    for (uint a = 0u; a < 4u; ++a) for (uint e = 0u; e < 4u; ++e) sx[(ty + a * D) * LD + tx + e * D] = acc[a][e];
    barrier();
}

void main() {
    uint b = gl_WorkGroupID.z;
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint t = gl_LocalInvocationID.x, np = nb2 / 2u, base = b * n * n;
    if (b >= batch) return;
    if (g < np * np) {
        uint k = g / np, l = g % np;
        bool mk = moved[b * np + k] != 0u, ml = moved[b * np + l] != 0u;
        if (k <= l || !(mk || ml)) return;  // an identity Q leaves the block as it is, exactly
        uvec2 pk = pair_of(r, k, nb2), pl = pair_of(r, l, nb2);
        for (uint e = t; e < S * S; e += WG) {
            uint i = e / S, j = e % S, gi = gidx(pk, i), gj = gidx(pl, j);
            sx[i * LD + j] = gi < n && gj < n ? a[base + gi * n + gj] : T(0);
        }
        if (ml) {
            load_q((b * np + l) * S * S, t);
            barrier();
            product(false, t);
        }
        if (mk) {
            load_q((b * np + k) * S * S, t);
            barrier();
            product(true, t);
        }
        for (uint e = t; e < S * S; e += WG) {
            uint i = e / S, j = e % S, gi = gidx(pk, i), gj = gidx(pl, j);
            if (gi < n && gj < n) a[base + gi * n + gj] = sx[i * LD + j];
            i = e % S; j = e / S; gi = gidx(pk, i); gj = gidx(pl, j);  // the mirror, written along its rows
            if (gi < n && gj < n) a[base + gj * n + gi] = CONJ(sx[i * LD + j]);
        }
    } else if (wantv != 0u) {
        uint h = g - np * np, row0 = (h / np) * S, l = h % np;
        if (row0 >= n || moved[b * np + l] == 0u) return;
        uvec2 pl = pair_of(r, l, nb2);
        for (uint e = t; e < S * S; e += WG) {
            uint i = e / S, j = e % S, gj = gidx(pl, j);
            sx[i * LD + j] = row0 + i < n && gj < n ? v[base + (row0 + i) * n + gj] : T(0);
        }
        load_q((b * np + l) * S * S, t);
        barrier();
        product(false, t);
        for (uint e = t; e < S * S; e += WG) {
            uint i = e / S, j = e % S, gj = gidx(pl, j);
            if (row0 + i < n && gj < n) v[base + (row0 + i) * n + gj] = sx[i * LD + j];
        }
    }
}
"""


def block_size(dtype: kd.DType) -> int:
    """b: the largest power of two up to :data:`MAX_BLOCK` (a power of two, at least 2) whose two padded
    ``2b x (2b + 1)`` shared matrices (and the rotations) fit the device's shared memory, and the products'
    ``(b / 2)^2`` threads its workgroup size."""
    b = MAX_BLOCK
    size = dtype.itemsize
    threads = int(kd.device().manager.get_device_properties().get("max_work_group_invocations", 128))
    while b > 2 and ((2 * (2 * b) * (2 * b + 1) + 2 * b) * size + 16 > K.shared_limit() or (b // 2) ** 2 > threads):
        b //= 2
    return max(b, 2)  # the products' (2b / 4)^2 threads take 4 x 4 blocks of the 2b x 2b tile


def _solve_threads(s: int) -> int:
    """Threads of the inner solve: one per rotated element pair of a row or column step, within the limit."""
    limit = int(kd.device().manager.get_device_properties().get("max_work_group_invocations", 128))
    wg = 32
    while wg < min(s * s // 2, 1024, limit):
        wg *= 2
    return min(wg, max(1, 1 << (limit.bit_length() - 1)))


def inner_sweeps(s: int, wg: int) -> int:
    """Inner sweeps per solve: :data:`INNER_SWEEPS`, fewer where the loop budget allows fewer (at least one)."""
    per_sweep = (s - 1) * (K.cdiv(s // 2, wg) + 2 * K.cdiv(s * s // 2, wg) + 3) + 2
    load = 2 * K.cdiv(s * s, wg)
    return max(1, min(INNER_SWEEPS, (K.loop_budget() - load) // per_sweep))


def fits(batch: int) -> bool:
    """Whether the batch fits the device's third workgroup-grid axis (where the block kernels put it)."""
    limit = kd.device().manager.get_device_properties().get("max_work_group_count", (65535,) * 3)
    return batch <= int(limit[2])


def eigh_block(a: kd.Array, want_vectors: bool) -> tuple[kd.Array, kd.Array]:
    """Diagonalise the Hermitian ``(batch, n, n)`` stack by block Jacobi; returns fresh ``(a, v)`` with the
    eigenvalues on ``a``'s diagonal (unsorted) and the eigenvectors in ``v``'s columns."""
    batch, n, _ = a.shape
    dtype = a.dtype
    b = block_size(dtype)
    nb = K.cdiv(n, b)
    nb2 = nb + nb % 2
    s = 2 * b

    def make() -> dict[str, kd.Array]:
        return {"a": kd.zeros(a.shape, dtype=dtype), "v": kd.zeros(a.shape, dtype=dtype),
                "q": kd.zeros((batch, nb2 // 2, s, s), dtype=dtype), "flag": kd.zeros((batch,), dtype=kd.uint32),
                "moved": kd.zeros((batch, nb2 // 2), dtype=kd.uint32)}

    key = ("eigh-block", dtype.name, batch, n, want_vectors, b, INNER_SWEEPS)
    d, v = converge(key, make, lambda r: _sweep(r, b, want_vectors), {"a": a, "v": identity(batch, n, dtype)},
                    ("a", "v"), "Eigenvalues")
    return d, v


def _sweep(r: dict[str, kd.Array], b: int, want_vectors: bool) -> None:
    """One outer sweep: ``nb2 - 1`` rounds of a solve and an apply dispatch."""
    a = r["a"]
    batch, n, _ = a.shape
    nb = K.cdiv(n, b)
    nb2 = nb + nb % 2
    np_ = nb2 // 2
    s = 2 * b
    head = f"#define S {s}u\n"
    wg = _solve_threads(s)
    solve = K.compiled("eigh_block_solve", head + _SOLVE, a.dtype.name, wg)
    apply = K.compiled("eigh_block_apply", head + _APPLY, a.dtype.name, (s // 4) ** 2)
    sweeps = inner_sweeps(s, wg)
    eps = jacobi_eps(a.dtype)
    gx, gy, _ = K.groups(np_)
    ax, ay, _ = K.groups(np_ * np_ + (K.cdiv(n, s) * np_ if want_vectors else 0))
    for rnd in range(nb2 - 1):
        solve(a, r["q"], r["flag"], r["moved"], n, nb2, rnd, batch, sweeps, eps, groups=(gx, gy, batch))
        apply(a, r["v"], r["q"], r["moved"], n, nb2, rnd, batch, int(want_vectors), groups=(ax, ay, batch))


__all__ = ["INNER_SWEEPS", "MAX_BLOCK", "block_size", "eigh_block", "fits", "inner_sweeps"]
