"""Block Jacobi for ``eigh`` of large matrices: the n indices are cut into blocks of ``b`` (the last one padded),
the blocks are paired by the round-robin ordering of :mod:`kdsl.linalg.jacobi` (so a sweep is ``n/b - 1`` rounds
instead of ``n - 1``), and a round is two dispatches (three with the eigenvectors):

* ``solve``: one workgroup per block pair rotates the ``2b x 2b`` symmetric (Hermitian) matrix ``A[pair, pair]``
  in shared memory by cyclic Jacobi (:data:`INNER_SWEEPS` sweeps, fewer where one rotates nothing), writes it
  back to ``A`` (the rotated entries are zero by construction, as in the scalar sweeps) and its rotations'
  product, the unitary ``Q`` (``2b x 2b``), to a work array;
* ``apply``: one workgroup per pair of pairs ``k > l`` computes ``Q_k^H A[pair k, pair l] Q_l`` in shared memory
  and writes it and its adjoint (``A`` stays exactly Hermitian); a second launch updates the eigenvectors,
  ``V[:, pair l] <- V[:, pair l] Q_l``, one ``2b``-row tile a workgroup, alongside the next round's solve. A
  pair that rotated nothing has ``Q = I`` (the solve says so per pair), and the products by it are skipped
  (the last sweeps rotate few pairs).

A pair's own ``2b x 2b`` block is never recomputed by the product: it is the inner solve's result (rotated
entries exact zeros, not a product's rounding of about ``eps |A|``), so the convergence test - every
off-diagonal entry passing ``|a_pq| <= eps sqrt(|a_pp a_qq|)``, checked by one launch at the end of a sweep, so
that no sweep is run only to find it rotates nothing - can be met, and keeps the relative accuracy of the
scalar method. ``b`` is the largest power of two up to :data:`MAX_BLOCK` whose two ``2b x 2b`` shared matrices
fit the device's shared memory; the inner sweeps stop at :data:`INNER_SWEEPS` or at the loop budget (each sweep
is ``2b - 1`` rounds of a rotation step and a step that rotates rows and columns together).

Example:
    >>> import numpy as np, kdsl as kd
    >>> a = np.diag([3.0, 1.0, 2.0]) + 0.1
    >>> d, v = eigh_block(kd.asarray(a[None]), True)
    >>> bool(np.allclose(np.sort(np.diagonal(d.numpy()[0])), np.linalg.eigvalsh(a)))
    True
"""

from __future__ import annotations

import functools

import kdsl as kd
from kdsl.linalg import graph
from kdsl.linalg import kernels as K
from kdsl.linalg.jacobi import PAIRS, converge, identity, rotation_eps

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
layout(set = 0, binding = 2) writeonly buffer M_ { uint moved[]; };  // per pair: Q is not the identity
layout(push_constant) uniform Push { uint n; uint nb2; uint r; uint batch; uint sweeps; float eps; };
shared T sa[S * LD];
shared T sv[S * LD];
shared REAL sr[HB];  // rot_r: 1 - c
shared T ss[HB];
shared uint srot;

// one inner round: the HB disjoint rotations of local round rr, then J^H A J and V J in one step: a thread takes
// the 2 x 2 block of A at the rows of one pair and the columns of another (it alone reads and writes those four
// entries, so rows and columns need no barrier between them) and a row's two entries of V at one pair
void inner_round(uint rr, uint t) {
    for (uint k = t; k < HB; k += WG) {
        uvec2 xy = pair_of(rr, k, S);
        REAL c;
        T s = rotation_t(sa[xy.x * LD + xy.x], sa[xy.y * LD + xy.y], sa[xy.x * LD + xy.y], REAL(eps), c);
        sr[k] = rot_r(c, s); ss[k] = s;
        if (!IS_ZERO(s)) srot = 1u;
    }
    barrier();
    for (uint e = t; e < HB * HB; e += WG) {  // rows x1, y1 of pair k1 and columns x2, y2 of pair k2
        uint k1 = e / HB, k2 = e % HB;
        T s1 = ss[k1], s2 = ss[k2];
        if (IS_ZERO(s1) && IS_ZERO(s2)) continue;
        REAL w1 = sr[k1], w2 = sr[k2];
        uvec2 r = pair_of(rr, k1, S), c = pair_of(rr, k2, S);
        T a = sa[r.x * LD + c.x], b = sa[r.x * LD + c.y], d = sa[r.y * LD + c.x], f = sa[r.y * LD + c.y];
        if (!IS_ZERO(s1)) {  // rows: J^H A
            T a1 = rot_lo(a, d, s1, w1), d1 = rot_hi(a, d, CONJ(s1), w1);
            T b1 = rot_lo(b, f, s1, w1), f1 = rot_hi(b, f, CONJ(s1), w1);
            a = a1; d = d1; b = b1; f = f1;
        }
        if (!IS_ZERO(s2)) {  // columns: (J^H A) J; a pair's own rotated entries are zero
            bool own = k1 == k2;
            T a2 = rot_lo(a, b, CONJ(s2), w2), b2 = own ? T(0) : rot_hi(a, b, s2, w2);
            T d2 = own ? T(0) : rot_lo(d, f, CONJ(s2), w2), f2 = rot_hi(d, f, s2, w2);
            a = a2; b = b2; d = d2; f = f2;
        }
        sa[r.x * LD + c.x] = a; sa[r.x * LD + c.y] = b; sa[r.y * LD + c.x] = d; sa[r.y * LD + c.y] = f;
    }
    for (uint e = t; e < HB * S; e += WG) {  // V J
        uint k = e / S, i = e % S;
        T s = ss[k];
        if (!IS_ZERO(s)) {
            REAL w = sr[k];
            uvec2 xy = pair_of(rr, k, S);
            T x = sv[i * LD + xy.x], y = sv[i * LD + xy.y];
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
    if (t == 0u) moved[b * (nb2 / 2u) + k] = rotated ? 1u : 0u;
    uint qbase = (b * (nb2 / 2u) + k) * S * S;
    for (uint e = t; e < S * S; e += WG) {
        uint i = e / S, j = e % S, gi = gidx(pk, i), gj = gidx(pk, j);
        if (gi < n && gj < n) a[base + gi * n + gj] = sa[i * LD + j];
        q[qbase + e] = sv[i * LD + j];
    }
}
"""

# part 0: workgroups [0, np^2), the pair of pairs (k, l) = (g / np, g % np), k > l (the others return); part 1
# (the eigenvectors wanted): (row tile, pair l) for V. WG = (S / PT)^2: each thread computes a PT x PT block of the
# S x S products (rows ty + a D, columns tx + e D), 2 PT shared loads for PT^2 products.
_APPLY = _COMMON + """
#define D (S / PT)
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer V_ { T v[]; };
layout(set = 0, binding = 2) readonly buffer Q_ { T q[]; };
layout(set = 0, binding = 3) readonly buffer M_ { uint moved[]; };
// part 0: the blocks of A, workgroup g the pair of pairs (g / np, g % np); part 1: the eigenvectors, workgroup g
// the row tile g / np of pair g % np
layout(push_constant) uniform Push { uint n; uint nb2; uint r; uint batch; uint part; };
shared T sx[S * LD];
shared T sq[S * LD];

void load_q(uint qbase, uint t) {
    for (uint e = t; e < S * S; e += WG) sq[(e / S) * LD + e % S] = q[qbase + e];
}

// sx <- sx sq, or sq^H sx with adj
void product(bool adj, uint t) {
    uint tx = t % D, ty = t / D;
    T acc[PT][PT];
    for (uint a = 0u; a < PT; ++a) for (uint e = 0u; e < PT; ++e) acc[a][e] = T(0);
    for (uint m = 0u; m < S; ++m) {
        T xv[PT], yv[PT];
        for (uint a = 0u; a < PT; ++a) {
            uint i = ty + a * D, j = tx + a * D;
            xv[a] = adj ? CONJ(sq[m * LD + i]) : sx[i * LD + m];
            yv[a] = adj ? sx[m * LD + j] : sq[m * LD + j];
        }
        for (uint a = 0u; a < PT; ++a) for (uint e = 0u; e < PT; ++e) acc[a][e] += MUL(xv[a], yv[e]);
    }
    barrier();
    for (uint a = 0u; a < PT; ++a) for (uint e = 0u; e < PT; ++e) sx[(ty + a * D) * LD + tx + e * D] = acc[a][e];
    barrier();
}

void main() {
    uint b = gl_WorkGroupID.z;
    uint g = gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x;
    uint t = gl_LocalInvocationID.x, np = nb2 / 2u, base = b * n * n;
    if (b >= batch) return;
    if (part == 0u) {
        if (g >= np * np) return;
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
    } else {
        uint row0 = (g / np) * S, l = g % np;
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


# flag[b] = 1 where an off-diagonal entry of matrix b fails the rotation test (``rotation_t`` itself: the test a
# solve applies), i.e. where the next sweep would rotate anything; a thread per entry above the diagonal
_CHECK = PAIRS + """
layout(set = 0, binding = 0) readonly buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer F_ { uint flag[]; };
layout(push_constant) uniform Push { uint n; uint batch; float eps; };

void main() {
    uint b = gl_WorkGroupID.z;
    uint e = (gl_WorkGroupID.x + gl_WorkGroupID.y * gl_NumWorkGroups.x) * WG + gl_LocalInvocationID.x;
    if (b >= batch || e >= n * n) return;
    uint i = e / n, j = e % n, base = b * n * n;
    if (i >= j) return;
    REAL c;
    T s = rotation_t(a[base + i * n + i], a[base + j * n + j], a[base + e], REAL(eps), c);
    if (!IS_ZERO(s)) flag[b] = 1u;
}
"""


def block_size(dtype: kd.DType) -> int:
    """b: the largest power of two up to :data:`MAX_BLOCK` (a power of two, at least 2) whose two padded
    ``2b x (2b + 1)`` shared matrices (and the rotations) fit the device's shared memory, and the products'
    ``(b / 2)^2`` threads its workgroup size."""
    b = MAX_BLOCK
    size = dtype.itemsize
    threads = K.max_threads()
    while b > 2 and ((2 * (2 * b) * (2 * b + 1) + 2 * b) * size + 16 > K.shared_limit() or (b // 2) ** 2 > threads):
        b //= 2
    return max(b, 2)  # the products' threads take 4 x 4 blocks of the 2b x 2b tile at least (product_block)


def product_block(s: int) -> int:
    """The side of the block of a ``s x s`` product one thread of the apply kernel computes: 2 where ``(s/2)^2``
    threads fit a workgroup (on the H200, eigh 1024: shorter chains a workgroup than 4 x 4 blocks), else 4; on
    CPU drivers 8 (a workgroup's invocations take turns on one core and each barrier switches between them:
    lavapipe, eigh 256, the apply launches 5.4 s with 2 x 2 blocks, 1.2-1.5 s with 8 x 8 or 4 x 4)."""
    if K.cpu_device():
        return min(8, s // 2)
    limit = K.max_threads()
    return 2 if (s // 2) ** 2 <= limit else 4


def _solve_threads(s: int) -> int:
    """Threads of the inner solve: one per pair of V entries a round rotates (a 2 x 2 block of A takes one
    thread too: a quarter as many), within the limit; on CPU drivers 64 (lavapipe, eigh 256: the solves 3.2-3.9
    s with 512 threads, 1.0-1.4 s with 64; 32 and 16 were slower again)."""
    limit = K.max_threads()
    most = max(1, 1 << (limit.bit_length() - 1))  # the largest power of two within the limit
    if K.cpu_device():
        return min(64, most)
    wg = 32
    while wg < min(s * s // 2, 1024, limit):
        wg *= 2
    return min(wg, most)


def inner_sweeps(s: int, wg: int) -> int:
    """Inner sweeps per solve: :data:`INNER_SWEEPS`, fewer where the loop budget allows fewer (at least one)."""
    per_sweep = (s - 1) * (K.cdiv(s // 2, wg) + K.cdiv(s * s // 4, wg) + K.cdiv(s * s // 2, wg) + 3) + 2
    load = 2 * K.cdiv(s * s, wg)
    return max(1, min(INNER_SWEEPS, (K.loop_budget() - load) // per_sweep))


def fits(batch: int) -> bool:
    """Whether the batch fits the device's third workgroup-grid axis (where the block kernels put it)."""
    limit = kd.device().manager.get_device_properties().get("max_work_group_count", (65535,) * 3)
    return batch <= int(limit[2])


def eigh_block(a: kd.Array, want_vectors: bool, threshold: kd.DType | None = None) -> tuple[kd.Array, kd.Array]:
    """Diagonalise the Hermitian ``(batch, n, n)`` stack by block Jacobi; returns fresh ``(a, v)`` with the
    eigenvalues on ``a``'s diagonal (unsorted) and the eigenvectors in ``v``'s columns. ``threshold``: the
    dtype whose epsilon scales the rotation test (default ``a``'s)."""
    batch, n, _ = a.shape
    dtype = a.dtype
    eps = rotation_eps(dtype, threshold)
    b = block_size(dtype)
    nb = K.cdiv(n, b)
    nb2 = nb + nb % 2
    s = 2 * b

    def make() -> dict[str, kd.Array]:
        # q and moved twice: a round's eigenvector update reads one while the next round's solve writes the other
        return {"a": kd.zeros(a.shape, dtype=dtype), "v": kd.zeros(a.shape, dtype=dtype),
                "q0": kd.zeros((batch, nb2 // 2, s, s), dtype=dtype),
                "q1": kd.zeros((batch, nb2 // 2, s, s), dtype=dtype), "flag": kd.zeros((batch,), dtype=kd.uint32),
                "moved0": kd.zeros((batch, nb2 // 2), dtype=kd.uint32),
                "moved1": kd.zeros((batch, nb2 // 2), dtype=kd.uint32)}

    key = ("eigh-block", dtype.name, batch, n, want_vectors, b, INNER_SWEEPS, eps, _solve_threads(s), product_block(s))
    d, v = converge(key, make, lambda r: _sweep(r, b, want_vectors, eps), {"a": a, "v": identity(batch, n, dtype)},
                    ("a", "v"), "Eigenvalues", reset=False)
    return d, v


def _sweep(r: dict[str, kd.Array], b: int, want_vectors: bool, eps: float) -> None:
    """One outer sweep: ``nb2 - 1`` rounds of a solve and an apply dispatch (two with the eigenvectors: a
    round's update of ``V`` is recorded alongside the next round's solve, which touches only ``A`` and the other
    ``q``/``moved``, so the update fills the GPU cores the solve's few workgroups leave idle)."""
    a = r["a"]
    batch, n, _ = a.shape
    nb = K.cdiv(n, b)
    nb2 = nb + nb % 2
    np_ = nb2 // 2
    s = 2 * b
    head = f"#define S {s}u\n"
    wg = _solve_threads(s)
    solve = K.compiled("eigh_block_solve", head + _SOLVE, a.dtype.name, wg)
    pt = product_block(s)
    apply = K.compiled(f"eigh_block_apply{pt}", head + f"#define PT {pt}u\n" + _APPLY, a.dtype.name, (s // pt) ** 2)
    sweeps = inner_sweeps(s, wg)
    gx, gy, _ = K.groups(np_)
    ax, ay, _ = K.groups(np_ * np_)
    vx, vy, _ = K.groups(K.cdiv(n, s) * np_)
    pending = None  # the previous round's eigenvector update, not recorded yet
    for rnd in range(nb2 - 1):
        q, moved = r[f"q{rnd % 2}"], r[f"moved{rnd % 2}"]
        solve(a, q, moved, n, nb2, rnd, batch, sweeps, eps, groups=(gx, gy, batch))
        if pending is not None:
            with graph.alongside():
                pending()
        apply(a, r["v"], q, moved, n, nb2, rnd, batch, 0, groups=(ax, ay, batch))
        if want_vectors:
            pending = functools.partial(apply, a, r["v"], q, moved, n, nb2, rnd, batch, 1, groups=(vx, vy, batch))
    if pending is not None:
        pending()
    # the flag says whether the *next* sweep would rotate anything: if all entries pass the rotation test now, no
    # round of it rotates (nothing changes), so the sweep that only confirms convergence is never run
    K.zero_flags(r["flag"])
    check = K.compiled("eigh_block_check", _CHECK, a.dtype.name, 256)
    cx, cy, _ = K.groups(K.cdiv(n * n, 256))
    check(a, r["flag"], n, batch, eps, groups=(cx, cy, batch))


__all__ = ["INNER_SWEEPS", "MAX_BLOCK", "block_size", "eigh_block", "fits", "inner_sweeps"]
