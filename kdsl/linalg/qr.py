"""Householder QR on the GPU: one workgroup per matrix; each step builds the reflector of one column (norm as
a scaled workgroup reduction, LAPACK's ``dlarfg`` sign convention so results match NumPy's) and applies it to
the columns on its right, one column per thread. ``Q`` is formed by applying the reflectors to the identity
in reverse order (LAPACK's ``orgqr``). Long factorisations are split into dispatches within the loop budget;
large ones are blocked (:mod:`kdsl.linalg.blocked`: panels by this kernel, the rest as block reflectors
through :mod:`kdsl.linalg.gemm`).

Example:
    >>> import kdsl as kd, numpy as np
    >>> q, r = qr(kd.asarray(np.array([[3.0, 1.0], [4.0, 2.0]])))
    >>> np.round(r.numpy(), 6).tolist()
    [[-5.0, -2.2], [0.0, 0.4]]
"""

from __future__ import annotations

import math
import warnings

import kdsl as kd
from kdsl.linalg import blocked, graph, qr_apply, qr_registers
from kdsl.linalg import kernels as K
from kdsl.linalg import qr_shaders as S
from kdsl.linalg.blocked import Scratch, block_reflector, blocks, orgqr_blocked, panel_width, qr_update
from kdsl.linalg.common import QRResult, as_array, check_matrices, working_dtype
from kdsl.linalg.graph import Plan


def _apply_cost(c: int, r: int, wg: int, log_wg: int) -> int:
    """Loop iterations of applying one reflector to ``c`` columns of ``r`` rows, the way the kernel does it."""
    if c > wg:
        return K.cdiv(c, wg) * 2 * r
    cp = 1 << max(c - 1, 0).bit_length()
    return 2 * K.cdiv(r, max(1, wg // cp)) + 2 * log_wg + 4


TALL = 1024  # rows from which the panel kernel takes the largest workgroup


def geqrf(a: kd.Array) -> tuple[kd.Array, kd.Array]:
    """Householder QR of the fresh ``(batch, m, n)`` stack in place: R on and above the diagonal, the
    reflectors' vectors below it; returns ``(a, tau)``."""
    batch, m, n = a.shape
    tau = kd.zeros((batch, min(m, n)), dtype=a.dtype)
    factor(a, tau)
    return a, tau


def _panel(a: kd.Array, tau: kd.Array, k0: int, k1: int, cend: int) -> None:
    """Columns ``k0:k1`` factored by one workgroup per matrix, their reflectors applied up to column ``cend``."""
    batch, m, n = a.shape
    if qr_registers.fits(a, k0, cend):
        qr_registers.panel(a, tau, k0, k1, cend)
        return
    # tall columns: as many threads as the device allows (1024 at most), since a column step of one workgroup
    # is bound by how many memory requests it keeps in flight
    wg = K.workgroup_size(max(m, n) if m < TALL else 1 << 20)
    if K.subgroups():
        kern = K.compiled("geqrf_subgroups", "#define SUBGROUP 1\n" + S.GEQRF, a.dtype.name, wg,
                          K.SUBGROUP_EXTENSIONS)
    else:
        kern = K.compiled("geqrf", S.GEQRF, a.dtype.name, wg)
    log_wg = int(math.log2(wg))
    costs = [4 * K.cdiv(m - k, wg) + 3 * log_wg + _apply_cost(cend - k - 1, m - k, wg, log_wg) + 2
             for k in range(k0, k1)]

    def push(s0: int, s1: int) -> tuple[int, ...]:
        return m, n, k0 + s0, k0 + s1, cend, batch

    K.run_steps(kern, (a, tau), push, costs, batch)


def factor(a: kd.Array, tau: kd.Array, keep_t: bool = False) -> Scratch | None:
    """:func:`geqrf` into ``tau``. Blocked: panels of ``BLOCK`` columns, each factored in blocks of ``INNER``
    columns by :func:`_panel` (one workgroup per matrix, so its column steps stay short) whose block
    reflectors update the rest of the panel by gemms; the panel's block reflector then updates the trailing
    matrix (LAPACK's blocked ``geqrf``, with a blocked panel). With ``keep_t`` returns the Scratch that keeps
    every panel's ``T`` (for :func:`form_q`; None when unblocked)."""
    batch, m, n = a.shape
    kk = min(m, n)
    if batch == 0 or kk == 0:
        return None
    width = panel_width(kk)
    if width >= kk:
        _panel(a, tau, 0, kk, n)
        return None
    # inner blocks as wide as the register-resident panel kernel takes, where it serves this matrix
    inner = max(1, min(qr_registers.WIDTH if qr_registers.fits(a, 0, qr_registers.WIDTH) else blocked.INNER, width))
    panels = blocks(kk, width)
    outer = Scratch(batch, width, n, a.dtype, slots=len(panels) if keep_t else 1)
    # the inner blocks' own block reflectors, unless qr_apply serves them all (it does when it serves the first:
    # later blocks have fewer rows)
    small = Scratch(batch, inner, width, a.dtype) if inner < width and not qr_apply.fits(a, 0, inner) else None
    for p, (p0, p1) in enumerate(panels):
        for k0, k1 in blocks(p1 - p0, inner):
            k0, k1 = p0 + k0, p0 + k1
            _panel(a, tau, k0, k1, k1)
            if k1 < p1 and qr_apply.fits(a, k0, k1):
                qr_apply.apply(a, tau, k0, k1, k1, p1)
            elif k1 < p1:
                assert small is not None
                qr_update(a, tau, k0, k1, small, c1=p1)
        slot = p if keep_t else 0
        if p1 < n:
            qr_update(a, tau, p0, p1, outer, slot=slot)
        elif keep_t:
            block_reflector(a, tau, p0, p1, outer, slot)
    return outer if keep_t else None


def orgqr(a: kd.Array, tau: kd.Array, q: int) -> kd.Array:
    """The first ``q`` columns of ``Q`` from :func:`geqrf`'s output, as a new ``(batch, m, q)`` stack."""
    batch, m, _ = a.shape
    out = kd.zeros((batch, m, q), dtype=a.dtype)
    form_q(a, tau, out)
    return out


def form_q(a: kd.Array, tau: kd.Array, out: kd.Array, ts: Scratch | None = None) -> None:
    """:func:`orgqr` into ``out`` (``(batch, m, q)``), which is first set to the identity; ``ts``: the panels'
    T kept by :func:`factor`."""
    batch, m, n = a.shape
    kk, q = min(m, n), out.shape[2]
    if batch == 0 or q == 0:
        return
    total = batch * m * q
    K.compiled("eye", S.EYE, a.dtype.name, 256)(out, m, q, total, groups=K.groups(K.cdiv(total, 256)))
    if kk == 0:
        return
    if panel_width(kk) < kk:
        orgqr_blocked(a, tau, out, panel_width(kk), ts)
        return
    wg = K.workgroup_size(q)
    costs = [K.cdiv(q - (kk - 1 - s), wg) * 2 * (m - (kk - 1 - s)) + 2 for s in range(kk)]
    if max(costs) > K.loop_budget():
        # a thread walks a column's rows twice per reflector: past the budget for a tall, narrow matrix (lavapipe
        # cut the loops, leaving Q's rows after ~32768 wrong: lstsq of 40000 points); one block reflector
        # applied by gemms instead, which split their long k into dispatches
        orgqr_blocked(a, tau, out, kk, ts)
        return
    kern = K.compiled("orgqr", S.ORGQR, a.dtype.name, wg)
    K.run_steps(kern, (a, tau, out), lambda s0, s1: (m, n, q, s0, s1, batch), costs, batch)


def _plan(dtype: kd.DType, batch: int, m: int, n: int, q: int) -> Plan:
    """The recorded QR of a ``(batch, m, n)`` stack: ``h`` (factored in place), ``tau``, and ``q`` columns of
    ``Q`` (none: R only)."""
    arrays = {"h": kd.zeros((batch, m, n), dtype=dtype), "tau": kd.zeros((batch, min(m, n)), dtype=dtype),
              "q": kd.zeros((batch, m, q) if q else (1,), dtype=dtype)}

    def body(r: dict[str, kd.Array]) -> None:
        ts = factor(r["h"], r["tau"], keep_t=q > 0)
        if q:
            form_q(r["h"], r["tau"], r["q"], ts)

    return Plan.record(arrays, body)


NARROW = 8
"""Reflectors up to which the ``Q`` of a matrix too tall for the orgqr kernel's loop budget is formed by array
operations (:func:`narrow_q`) instead of the blocked gemms, which took 1.7 s for 150 000 x 2 on lavapipe."""


def _narrow(m: int, n: int, q: int) -> bool:
    """Whether ``q`` columns of the ``Q`` of an ``m x n`` QR are formed by :func:`narrow_q`: few reflectors and
    columns, and rows past the loop budget of the one-workgroup kernel (which then went to the gemms)."""
    kk = min(m, n)
    return 0 < kk <= NARROW and 0 < q <= kk and K.cdiv(q, K.workgroup_size(q)) * 2 * m + 2 > K.loop_budget()


def narrow_q(h: kd.Array, tau: kd.Array, q: int) -> kd.Array:
    """The first ``q`` columns of ``Q = H_0 H_1 ... H_k-1`` from :func:`geqrf`'s ``(batch, m, n)`` output, each
    reflector ``I - tau v v^H`` applied to the identity's columns last to first (LAPACK's ``org2r``) as a
    reduction over the rows and an update: every row in parallel, for the few reflectors of a tall, narrow
    matrix.

    >>> import kdsl as kd, numpy as np
    >>> h, tau = geqrf(kd.asarray(np.array([[[3.0], [4.0]]])))
    >>> np.round(narrow_q(h, tau, 1).numpy(), 6).tolist()
    [[[-0.6], [-0.8]]]
    """
    batch, m, n = h.shape
    rows = kd.arange(m)[None, :]
    out = kd.broadcast_to(kd.eye(m, q, dtype=h.dtype), (batch, m, q))
    for j in reversed(range(min(m, n))):
        v = kd.where(rows > j, h[:, :, j], (rows == j).astype(h.dtype))  # the unit diagonal implied, zeros above
        w = kd.sum(kd.conj(v)[:, :, None] * out, axis=1)  # v^H Q: (batch, q)
        out = out - (tau[:, j, None] * v)[:, :, None] * w[:, None, :]
    return kd.asarray(out, copy=True)


def planned(a: kd.Array, q: int) -> tuple[kd.Array, kd.Array, kd.Array | None]:
    """:func:`geqrf` of the ``(batch, m, n)`` stack ``a`` (any layout, the working dtype) and the first ``q``
    columns of ``Q`` (None for q = 0), through the shape's recorded plan: fresh ``(h, tau, Q)``."""
    batch, m, n = a.shape
    if batch and _narrow(m, n, q):
        h, tau, _ = planned(a, 0)
        return h, tau, narrow_q(h, tau, q)
    if batch == 0 or m == 0 or n == 0:
        h = kd.asarray(a, copy=True)
        tau = kd.zeros((batch, min(m, n)), dtype=a.dtype)
        return h, tau, (orgqr(h, tau, q) if q else None)
    plan = graph.cached(("geqrf", a.dtype.name, batch, m, n, q), lambda: _plan(a.dtype, batch, m, n, q))
    with plan.lock:
        K.copy_into(plan.arrays["h"], a)
        plan.run()
        out = [kd.asarray(plan.arrays[name], copy=True) for name in ("h", "tau", "q")[:3 if q else 2]]
        kd.realize(*out)  # before the next call overwrites the work arrays
    return out[0], out[1], (out[2] if q else None)


def _q_plan(dtype: kd.DType, batch: int, m: int, n: int, q: int) -> Plan:
    arrays = {"h": kd.zeros((batch, m, n), dtype=dtype), "tau": kd.zeros((batch, min(m, n)), dtype=dtype),
              "q": kd.zeros((batch, m, q), dtype=dtype)}
    return Plan.record(arrays, lambda r: form_q(r["h"], r["tau"], r["q"]))


def planned_q(h: kd.Array, tau: kd.Array, q: int) -> kd.Array:
    """:func:`orgqr` through the shape's recorded plan (a fresh ``(batch, m, q)`` stack)."""
    batch, m, n = h.shape
    if batch == 0 or m == 0 or n == 0 or q == 0:
        return orgqr(h, tau, q)
    if _narrow(m, n, q):
        return narrow_q(h, tau, q)
    plan = graph.cached(("orgqr", h.dtype.name, batch, m, n, q), lambda: _q_plan(h.dtype, batch, m, n, q))
    with plan.lock:
        K.copy_into(plan.arrays["h"], h)
        K.copy_into(plan.arrays["tau"], tau)
        plan.run()
        out = kd.asarray(plan.arrays["q"], copy=True)
        kd.realize(out)
    return out


_DEPRECATED_MODES = {"f": "reduced", "full": "reduced", "e": "economic", "economic": "economic"}


def _qr_mode(mode: str) -> str:
    """NumPy's mode names: 'reduced', 'complete', 'r', 'raw', and the deprecated 'full' (now 'reduced') and
    'economic' (the raw Householder matrix), which warn as NumPy's do."""
    if mode in ("reduced", "complete", "r", "raw"):
        return mode
    if mode not in _DEPRECATED_MODES:
        raise ValueError(f"Unrecognized mode '{mode}'")
    if _DEPRECATED_MODES[mode] == "reduced":
        warnings.warn("The 'full' option is deprecated in favor of 'reduced'.\nFor backward compatibility let "
                      "mode default.", DeprecationWarning, stacklevel=3)
    else:
        warnings.warn("The 'economic' option is deprecated.", DeprecationWarning, stacklevel=3)
    return _DEPRECATED_MODES[mode]


def qr(a, mode: str = "reduced") -> QRResult | kd.Array | tuple[kd.Array, kd.Array]:
    """QR decomposition of each matrix of the stack ``x``: ``mode='reduced'`` (Q is m x k, R is k x n with
    k = min(m, n)), ``'complete'`` (Q m x m, R m x n), NumPy's ``'r'`` (R only) or ``'raw'`` (LAPACK's
    Householder vectors and scalars: ``(h, tau)``, ``h`` with its last two axes swapped, as NumPy returns it)."""
    mode = _qr_mode(mode)
    a = as_array(a)
    check_matrices(a, "qr", square=False)
    dtype = working_dtype(a, "qr")
    m, n = a.shape[-2:]
    shape = a.shape[:-2]
    rows = m if mode == "complete" else min(m, n)
    cols = rows if mode in ("reduced", "complete") else 0
    h, tau, q = planned(a.astype(dtype).reshape((math.prod(shape), m, n)), cols)
    if mode == "raw":
        return kd.swapaxes(h.reshape(shape + (m, n)), -1, -2), tau.reshape(shape + (min(m, n),))
    if mode == "economic":
        return h.reshape(shape + (m, n))
    r = kd.triu(h[:, :rows, :]).reshape(shape + (rows, n))
    if mode == "r":
        return r
    # cols is 0 for a matrix without rows or columns: planned() then gives no Q, NumPy an m x 0 one
    q = kd.zeros((math.prod(shape), m, 0), dtype=dtype) if q is None else q
    return QRResult(q.reshape(shape + (m, cols)), r)


__all__ = ["factor", "form_q", "geqrf", "orgqr", "planned", "planned_q", "qr"]
