"""A register panel's reflectors applied to the columns on its right, one workgroup per column: the inner
update of a blocked QR's panel in one launch.

Inside a 64-column panel, the blocked QR (:func:`kdsl.linalg.qr.factor`) factors 8 columns at a time in
registers (:mod:`kdsl.linalg.qr_registers`) and must apply their 8 reflectors to the rest of the panel (at most
56 columns) before the next 8 are factored. As a block reflector that is a Gram matrix, ``larft`` and three
small products: seven dependent launches of a few microseconds of work each. Here each workgroup holds one
column and the 8 reflectors' rows in registers (a thread keeps rows ``k0 + t + r * WG``, ``r < R``) and applies
the reflectors in order, each a workgroup sum and an update: one launch, every column in parallel (H200, 4096 x
4096 float32 QR: 98.6 -> 64.2 ms). It serves blocks of at most 8 reflectors on rows a register panel holds.

Example:
    >>> import kdsl as kd, numpy as np
    >>> fits(kd.asarray(np.zeros((1, 300, 16))), 0, 8)  # float64: the register panels serve float32 only
    False
"""

from __future__ import annotations

import kdsl as kd
from kdsl.linalg import kernels as K
from kdsl.linalg import qr_registers

_STEP = """
    if (k0 + QQu < k1) {  // reflector QQ (uniform)
        uint k = k0 + QQu;
        T tk = tau[b * kk + k];
        T p = T(0);
        for (uint r = 0u; r < R; ++r) {
            uint i = k0 + t + r * WG;
            if (i >= k && i < m) p += (i == k ? T(1) : v[r][QQ]) * c[r];
        }
        T w = tk * reduce_sum(p);
        for (uint r = 0u; r < R; ++r) {
            uint i = k0 + t + r * WG;
            if (i >= k && i < m) c[r] -= w * (i == k ? T(1) : v[r][QQ]);
        }
    }
"""

_APPLY = """
layout(set = 0, binding = 0) buffer A_ { T a[]; };
layout(set = 0, binding = 1) readonly buffer T_ { T tau[]; };
layout(push_constant) uniform Push { uint m; uint n; uint k0; uint k1; uint c0; uint cols; uint batch; };
shared REAL red[WG / LOWEST_SUBGROUP];

""" + K.SUBGROUP_REDUCTIONS + """
void main() {
    uint g = batch_index(), b = g / cols, j = c0 + g % cols;
    if (b >= batch) return;  // (uniform: a workgroup is one column)
    uint t = gl_LocalInvocationID.x, base = b * m * n, kk = min(m, n), nw = k1 - k0;
    T v[R][W];
    T c[R];
    for (uint r = 0u; r < R; ++r) {
        uint i = k0 + t + r * WG;
        for (uint q = 0u; q < W; ++q) v[r][q] = i < m && q < nw ? a[base + i * n + k0 + q] : T(0);
        c[r] = i < m ? a[base + i * n + j] : T(0);
    }
STEPS
    for (uint r = 0u; r < R; ++r) {
        uint i = k0 + t + r * WG;
        if (i < m) a[base + i * n + j] = c[r];
    }
}
"""

# the steps written out, each with its reflector's index a constant (a register array indexed by a variable
# would live in local memory)
_SOURCE = _APPLY.replace("STEPS\n", "".join(_STEP.replace("QQ", str(q)) for q in range(qr_registers.WIDTH)))


def fits(a: kd.Array, k0: int, k1: int) -> bool:
    """Whether the reflectors of columns ``k0:k1`` of the stack ``a`` are applied here: at most ``WIDTH`` of
    them, on rows the register panel kernel would hold (:func:`kdsl.linalg.qr_registers.fits`)."""
    return k1 - k0 <= qr_registers.WIDTH and qr_registers.fits(a, k0, k0 + qr_registers.WIDTH)


def apply(a: kd.Array, tau: kd.Array, k0: int, k1: int, c0: int, c1: int) -> None:
    """``A[k0:, c0:c1] = H^T A[k0:, c0:c1]`` in place, ``H = H_k0 ... H_k1-1`` the reflectors stored below the
    diagonal of columns ``k0:k1`` (at most ``WIDTH`` of them) with their ``tau``."""
    batch, m, n = a.shape
    if c1 <= c0 or batch == 0:
        return
    wg = qr_registers.threads()
    rows = K.cdiv(m - k0, wg)
    kern = K.compiled(f"qr_apply{rows}", f"#define R {rows}u\n#define W {qr_registers.WIDTH}u\n"
                      f"#define LOWEST_SUBGROUP {qr_registers.LOWEST_SUBGROUP}u\n" + _SOURCE, a.dtype.name, wg,
                      K.SUBGROUP_EXTENSIONS)
    kern(a, tau, m, n, k0, k1, c0, c1 - c0, batch, groups=K.groups((c1 - c0) * batch))


__all__ = ["apply", "fits"]
