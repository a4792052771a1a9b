"""The Householder panel of a blocked QR held in registers: one workgroup per matrix reads its ``m x W`` block
once, factors its ``W`` columns with every norm and dot product a subgroup-and-shared-memory reduction of
values the threads hold, and writes it back once.

The global-memory panel kernel (:mod:`kdsl.linalg.qr`) reads and writes the block through memory at every
column, its lanes exchanging rows through global memory behind buffer barriers: on the H200 a 4096 x 16 block
took ~270 us (its 256 launches were 70 of the 116 ms of a 4096 x 4096 QR). Here a thread keeps rows
``k0 + t + r * WG`` (``r < R``) of the ``W`` columns in registers, so a column costs three workgroup
reductions and nothing else. It serves float32 panels of up to ``R * WG`` rows on devices with subgroup
arithmetic (``R * W`` values a thread: 32 for 4 x 8, within the 64 registers a thread of a 1024-wide
workgroup has); other panels keep the global-memory kernel.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.random.default_rng(0).standard_normal((1, 300, 16)).astype(np.float32))
    >>> fits(a, 0, 16)  # 16 columns: wider than a register panel on every device
    False
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K

WIDTH = 8  # columns a launch factors (the blocked QR's inner block when this kernel serves it)
ROWS = 4  # rows a thread holds at most
LOWEST_SUBGROUP = 4  # the shared partial sums are sized for subgroups at least this wide

# one column's step: row k = k0 + q is thread q's first row (q < W <= WG)
_STEP = """
    if (k0 + QQu < k1) {  // column QQ
        const uint q = QQu;
        uint k = k0 + q;
        REAL ssq = REAL(0);
        for (uint r = 0u; r < R; ++r) {
            uint i = k0 + t + r * WG;
            if (i > k && i < m) ssq += NORM2(v[r][q]);
        }
        if (t == q) alpha_s[q & 1u] = v[0][q];
        ssq = reduce_sum(ssq);  // (its barriers publish alpha_s)
        REAL xnorm = sqrt(ssq);
        if (!(ssq >= SAFE_LOW && ssq <= SAFE_HIGH)) {  // overflow or lost digits: scaled by the largest, as dnrm2
            REAL amax = REAL(0);
            for (uint r = 0u; r < R; ++r) {
                uint i = k0 + t + r * WG;
                if (i > k && i < m) amax = max(amax, abs(v[r][q]));
            }
            amax = reduce_max(amax);
            ssq = REAL(0);
            for (uint r = 0u; r < R; ++r) {
                uint i = k0 + t + r * WG;
                if (i > k && i < m && amax > REAL(0)) ssq += NORM2(v[r][q] / amax);
            }
            xnorm = amax * sqrt(reduce_sum(ssq));
        }
        T alpha = alpha_s[q & 1u];
        T beta = alpha, tk = T(0), scale = T(1);
        if (xnorm != REAL(0)) {  // else H = I (tau 0), as dlarfg
            REAL big = max(abs(alpha), xnorm);
            REAL nrm = big * sqrt((alpha / big) * (alpha / big) + (xnorm / big) * (xnorm / big));
            beta = alpha >= REAL(0) ? -nrm : nrm;
            tk = (beta - alpha) / beta;
            scale = T(1) / (alpha - beta);
        }
        for (uint r = 0u; r < R; ++r) {
            uint i = k0 + t + r * WG;
            if (i > k && i < m) v[r][q] *= scale;
        }
        if (t == q) v[0][q] = beta;
        if (t == 0u) tau[b * kk + k] = tk;
        if (tk != T(0) && q + 1u < nc) {  // (uniform: every thread computed the same tk)
            // w_j = tau (u^T A[:, j]) for the columns j right of q, u = (1 at row k, v below it); A[:, j] -= w_j u
            T pj[W];
            for (uint j = 0u; j < W; ++j) pj[j] = T(0);
            for (uint r = 0u; r < R; ++r) {
                uint i = k0 + t + r * WG;
                if (i < k || i >= m) continue;
                T u = i == k ? T(1) : v[r][q];
                for (uint j = 0u; j < W; ++j) if (j > q) pj[j] += u * v[r][j];
            }
            for (uint j = 0u; j < W; ++j) {
                if (j <= q) continue;  // (uniform)
                T s = subgroupAdd(pj[j]);
                if (subgroupElect()) part[j * NSG + gl_SubgroupID] = s;
            }
            barrier();
            if (t > q && t < W) {
                T s = T(0);
                for (uint g = 0u; g < gl_NumSubgroups; ++g) s += part[t * NSG + g];
                wsum[t] = tk * s;
            }
            barrier();
            for (uint j = 0u; j < W; ++j) {
                if (j <= q) continue;
                T w = wsum[j];
                for (uint r = 0u; r < R; ++r) {
                    uint i = k0 + t + r * WG;
                    if (i >= k && i < m) v[r][j] -= w * (i == k ? T(1) : v[r][q]);
                }
            }
        }
    }
"""

_GEQRF_REGISTERS = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) buffer T_ { T tau[]; };
layout(push_constant) uniform Push { uint m; uint n; uint k0; uint k1; uint cend; uint batch; };
#define NSG (WG / LOWEST_SUBGROUP)
shared REAL red[NSG];
shared T part[W * NSG];
shared T wsum[W];
shared T alpha_s[2];  // by the column's parity: a step without dot products has no barrier after its read

""" + K.SUBGROUP_REDUCTIONS + """
void main() {
    uint b = batch_index();
    if (b >= batch) return;
    uint t = gl_LocalInvocationID.x;
    uint base = b * m * n, kk = min(m, n), nc = cend - k0;
    T v[R][W];
    for (uint r = 0u; r < R; ++r) {
        uint i = k0 + t + r * WG;
        for (uint j = 0u; j < W; ++j) v[r][j] = i < m && j < nc ? a[base + i * n + k0 + j] : T(0);
    }
    // STEPS: columns k0 + q for q = 0 .. W - 1, each a block of its own with q a constant (``_SOURCE``),
    // so that the register array is never indexed by a variable (which would put it in local memory)
STEPS
    for (uint r = 0u; r < R; ++r) {
        uint i = k0 + t + r * WG;
        if (i >= m) continue;
        for (uint j = 0u; j < W; ++j) if (j < nc) a[base + i * n + k0 + j] = v[r][j];
    }
}
"""


# the kernel with its WIDTH column steps written out
_SOURCE = _GEQRF_REGISTERS.replace("STEPS\n", "".join(_STEP.replace("QQ", str(q)) for q in range(WIDTH)))


def threads() -> int:
    """Invocations of a register panel's workgroup (and of :mod:`kdsl.linalg.qr_apply`'s, which holds the same
    rows): the most the device allows, 1024 at most."""
    return K.workgroup_size(1 << 20)


def fits(a: kd.Array, k0: int, cend: int) -> bool:
    """Whether the panel of columns ``k0 .. cend`` of the ``(batch, m, n)`` stack ``a`` goes to this kernel."""
    m = a.shape[1]
    wg = threads()
    shared = (wg // LOWEST_SUBGROUP) * (WIDTH + 1) * 4 + (WIDTH + 2) * 4
    return a.dtype == kd.float32 and K.subgroups() and cend - k0 <= WIDTH and m - k0 <= ROWS * wg and \
        shared <= K.shared_limit()


def panel(a: kd.Array, tau: kd.Array, k0: int, k1: int, cend: int) -> None:
    """Columns ``k0:k1`` of each matrix factored, their reflectors applied up to column ``cend`` (``fits``)."""
    batch, m, n = a.shape
    wg = threads()
    rows = K.cdiv(m - k0, wg)
    kern = K.compiled(f"geqrf_registers{rows}", f"#define R {rows}u\n#define W {WIDTH}u\n"
                      f"#define LOWEST_SUBGROUP {LOWEST_SUBGROUP}u\n" + _SOURCE, a.dtype.name, wg,
                      K.SUBGROUP_EXTENSIONS)
    kern(a, tau, m, n, k0, k1, cend, batch, groups=K.groups(batch))
