"""Singular value decomposition by one-sided Jacobi on the GPU (:mod:`kdsl.linalg.jacobi`), and what is built
on it: ``svdvals``, ``pinv``, ``matrix_rank``, ``lstsq``.

The columns of ``A`` (of ``A^T`` when it is wide) are rotated until orthogonal: ``A V = W``, and the column
norms of ``W`` are the singular values (to high relative accuracy, as Jacobi methods give). ``U`` comes from
a Householder QR of ``W`` sorted by decreasing norm: its columns are ``W``'s normalised up to sign (fixed from
``R``'s diagonal), and its complete form fills out an orthonormal basis even for a rank-deficient ``A`` (where
``W`` has zero columns), which ``full_matrices=True`` needs. A tall matrix is first reduced to the ``R`` of its
QR (the sweeps then rotate short columns), and ``U`` is ``Q`` times the left vectors of ``R``.

Example:
    >>> import kdsl as kd, numpy as np
    >>> np.round(svdvals(kd.asarray(np.array([[3.0, 0.0], [0.0, -4.0]]))).numpy(), 12).tolist()
    [4.0, 3.0]
"""

from __future__ import annotations

import numpy as np

import kdsl as kd
from kdsl.errors import shape_text
from kdsl.linalg import jacobi
from kdsl.linalg.blocked import adjoint
from kdsl.linalg.common import LinAlgError, SVDResult, as_array, as_pair, batch_copy, check_matrices, working_dtype
from kdsl.linalg.jacobi_svd import svd_jacobi
from kdsl.linalg.qr import planned, planned_q
from kdsl.linalg.svd_hermitian import hermitian_svd, hermitian_svdvals


def _columns(a: kd.Array, order: kd.Array) -> kd.Array:
    """``a[b][:, order[b]]`` for a ``(batch, r, c)`` stack and ``(batch, c)`` orders."""
    return kd.take_along_axis(a, kd.broadcast_to(order[:, None, :], a.shape), axis=-1)


PRECONDITION = 2  # a QR first when the (tall) matrix has more than this many times as many rows as columns


def _balanced(work: kd.Array) -> tuple[kd.Array, kd.Array]:
    """``work`` with each matrix scaled by a power of two (exact) that brings its largest ``|entry|`` into
    [0.5, 1), and the exponents ``e`` ((batch, 1)) with ``A = 2**e * scaled``: the sweeps' squared column norms
    and Gram entries then neither overflow (entries near 1e154 in float64) nor flush to zero for a matrix of tiny
    entries (LAPACK's gesvj scales the same way). All-zero and non-finite matrices are left as they are."""
    if work.size == 0:
        return work, kd.zeros((work.shape[0], 1), dtype=kd.int32)
    peak = kd.max(kd.abs(work), axis=(-2, -1))
    _, e = kd.frexp(peak)
    e = kd.where((peak > 0) & kd.isfinite(peak), e, 0)
    unit = kd.ldexp(kd.ones(peak.shape, dtype=peak.dtype), -e).astype(work.dtype)
    return work * unit[:, None, None], e[:, None]


def _jacobi(x, name: str, want_vectors: bool):
    """One-sided Jacobi on ``x`` (on ``x^T`` when wide; on the ``R`` of a QR when tall, so the sweeps rotate
    n-long columns instead of m-long ones: Drmac's preconditioning). Returns the input, whether it was wide,
    the sorted singular values (in the input's real dtype), rotated columns and right vectors, and the QR (or
    None), these three in the sweeps' dtype (float64 for float32 input where the device has it:
    :func:`kdsl.linalg.jacobi.sweep_dtype`)."""
    a = as_array(x)
    check_matrices(a, name, square=False)
    dtype = working_dtype(a, name)
    m, n = a.shape[-2:]
    sweep = jacobi.sweep_dtype(dtype, min(m, n))
    wide = m < n
    work = batch_copy(adjoint(a) if wide else a, sweep)
    rows, k = work.shape[1:]
    factor = None
    if rows > PRECONDITION * k and k > 0:
        h, tau, _ = planned(work, 0)
        factor = (h, tau)
        work = kd.asarray(kd.triu(h[:, :k, :]), copy=True)
    work, exponent = _balanced(work)
    w, v = svd_jacobi(work, want_vectors, threshold=dtype)
    mag = kd.abs(w) if dtype.kind == "c" else w
    s = kd.ldexp(kd.sqrt(kd.sum(mag * mag, axis=-2)), exponent)  # w's directions are those of the unscaled W
    order = kd.argsort(-s, axis=-1, stable=True)
    s = kd.take_along_axis(s, order, axis=-1).astype(kd.finfo(dtype).dtype)
    return a, wide, s, _columns(w, order), _columns(v, order), factor


def _unit_columns(w: kd.Array) -> kd.Array:
    """``w`` with each column scaled by a power of two that brings its largest ``|entry|`` into [0.5, 1).
    Q of a QR is unchanged by positive column scales; without them a column whose squares underflow (singular
    values 200 decades below the largest, or subnormal entries, which GPUs may flush) gave NaN Householder
    vectors on the H200. The scale goes in two exact halves: ``2**1074`` itself overflows."""
    peak = kd.max(kd.abs(w), axis=-2, keepdims=True)
    _, e = kd.frexp(peak)
    ok = (peak > 0) & kd.isfinite(peak)
    e = kd.where(ok, e, 0)
    one = kd.ones(peak.shape, dtype=peak.dtype)
    half = e // 2
    scaled = w * kd.ldexp(one, -half).astype(w.dtype) * kd.ldexp(one, half - e).astype(w.dtype)
    return kd.where(ok, scaled, kd.zeros((), dtype=w.dtype))


def _left_vectors(w: kd.Array, columns: int) -> kd.Array:
    """The first ``columns`` columns of an orthogonal matrix whose leading ones are ``w``'s normalised (``w``'s
    columns are orthogonal, sorted by decreasing norm): Q of a QR of ``w``, signs fixed by R's diagonal."""
    k = w.shape[-1]
    h, _, q = planned(_unit_columns(w), columns)
    assert q is not None
    diag = kd.diagonal(h, 0, -2, -1)  # real (also for complex: LAPACK's zlarfg makes R's diagonal real)
    signs = kd.where(kd.real(diag) < 0, -1.0, 1.0).astype(q.dtype)
    if columns > k:
        signs = kd.concat([signs, kd.ones((signs.shape[0], columns - k), dtype=q.dtype)], axis=-1)
    return q * signs[:, None, :]


def svd(a, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False) -> SVDResult | kd.Array:
    """``U, S, Vh`` with ``x = U @ diag(S) @ Vh`` for each matrix of the stack ``x``; ``S`` descending.
    NumPy's ``compute_uv=False`` returns ``S`` alone; ``hermitian=True`` takes them from ``eigh`` (NumPy's
    way: only the lower triangle is read; :mod:`kdsl.linalg.svd_hermitian`)."""
    if hermitian:
        a = as_array(a)
        check_matrices(a, "svd")
        return hermitian_svd(a) if compute_uv else hermitian_svdvals(a)
    if not compute_uv:
        return svdvals(a)
    a = as_array(a)
    check_matrices(a, "svd", square=False)
    if 0 in a.shape[-2:]:
        return _empty_svd(a, full_matrices)
    a, wide, s, w, v, factor = _jacobi(a, "svd", True)
    batch = a.shape[:-2]
    k = w.shape[-1]
    rows = max(a.shape[-2:])
    if factor is None:
        u = _left_vectors(w, rows if full_matrices else k)
    else:  # U = Q_A diag(U_R, I)
        q = planned_q(factor[0], factor[1], rows if full_matrices else k)
        u = kd.matmul(q[..., :k], _left_vectors(w, k))
        if full_matrices and rows > k:
            u = kd.concat([u, q[..., k:]], axis=-1)
    u, vh = (v, adjoint(u)) if wide else (u, adjoint(v))
    dtype = working_dtype(a, "svd")  # the sweeps' float64 vectors of float32 input round once, here
    u, vh = u.astype(dtype), vh.astype(dtype)
    return SVDResult(u.reshape(batch + u.shape[-2:]), s.reshape(batch + (k,)), vh.reshape(batch + vh.shape[-2:]))


def _empty_svd(a: kd.Array, full_matrices: bool) -> SVDResult:
    """NumPy's SVD of matrices without rows or columns: no singular values; ``U`` and ``Vh`` are identities
    (``full_matrices``) or have no columns / rows. Nothing to rotate, so no kernel runs."""
    dtype = working_dtype(a, "svd")
    m, n = a.shape[-2:]
    batch = a.shape[:-2]
    real = {"complex64": kd.float32, "complex128": kd.float64}.get(dtype.name, dtype)

    def eye(size: int, cols: int) -> kd.Array:
        return kd.asarray(kd.broadcast_to(kd.eye(size, cols, dtype=dtype), batch + (size, cols)), copy=True)

    u = eye(m, m if full_matrices else 0)
    vh = eye(n if full_matrices else 0, n)
    return SVDResult(u, kd.zeros(batch + (0,), dtype=real), vh)


def _svd(a: kd.Array, full_matrices: bool, hermitian: bool = False) -> SVDResult:
    result = svd(a, full_matrices=full_matrices, hermitian=hermitian)
    assert isinstance(result, SVDResult)
    return result


def svdvals(x, /) -> kd.Array:
    """The singular values of each matrix of the stack ``x``, descending."""
    a, _, s, _, _, _ = _jacobi(x, "svdvals", False)
    return s.reshape(a.shape[:-2] + (min(a.shape[-2:]),))


def _default_rtol(a: kd.Array, dtype: kd.DType) -> float:
    return max(a.shape[-2:]) * float(kd.finfo(dtype).eps)


class _Unset:
    """The default of pinv's ``rtol``: NumPy tells "not given" (rcond's 1e-15 applies) from ``rtol=None``
    (the array API's ``max(m, n) * eps``)."""

    def __repr__(self) -> str:
        return "<no value>"


_UNSET = _Unset()
PINV_RCOND = 1e-15  # NumPy's pinv default: relative to the largest singular value


def matrix_rank(A, tol=None, hermitian: bool = False, *, rtol=None) -> kd.Array:  # noqa: N803 - NumPy's name
    """Number of singular values above ``rtol * largest`` (default ``max(m, n) * eps``) or above the absolute
    ``tol`` (NumPy's keyword) for each matrix; 1-d input: 1 unless all zero (NumPy). Giving both ``tol``
    and ``rtol`` is a ValueError, as in NumPy."""
    if tol is not None and rtol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    # an integer count, constant between the points where it jumps: no derivative reaches A through it (as
    # torch.linalg.matrix_rank's integer result), so kd.grad need not differentiate the singular values
    a = kd.stop_gradient(as_array(A))
    if a.ndim < 2:
        return kd.any(a != 0).astype(kd.int64)
    s = hermitian_svdvals(a) if hermitian else svdvals(a)
    if tol is not None:
        cutoff = as_array(tol).astype(s.dtype)
        cutoff = cutoff[..., None] if cutoff.ndim else cutoff
    else:
        r = _default_rtol(a, s.dtype) if rtol is None else as_array(rtol).astype(s.dtype)
        r = r[..., None] if isinstance(r, kd.Array) and r.ndim else r
        cutoff = kd.max(s, axis=-1, keepdims=True) * r if s.shape[-1] else kd.zeros(s.shape[:-1] + (1,), s.dtype)
    return kd.count_nonzero(s > cutoff, axis=-1).astype(kd.int64)


def _pinv_rtol(a: kd.Array, dtype: kd.DType, rcond, rtol):
    """NumPy's choice of pinv's relative cutoff: ``rcond`` (default 1e-15), or ``rtol`` (``None``: the array
    API's ``max(m, n) * eps``); both given is a ValueError."""
    if rcond is not None:
        if rtol is not _UNSET:
            raise ValueError("`rtol` and `rcond` can't be both set.")
        return rcond
    if rtol is _UNSET:
        return PINV_RCOND
    return _default_rtol(a, dtype) if rtol is None else rtol


def pinv(a, rcond=None, hermitian: bool = False, *, rtol=_UNSET) -> kd.Array:
    """Moore-Penrose pseudo-inverse of each matrix: singular values at or below ``rcond * largest`` count as
    zero. NumPy's defaults: ``rcond=1e-15``; ``rtol=None`` gives the array API's ``max(m, n) * eps``."""
    a = as_array(a)
    check_matrices(a, "pinv", square=False)
    u, s, vh = _svd(a, full_matrices=False, hermitian=hermitian)
    cutv = as_array(_pinv_rtol(a, s.dtype, rcond, rtol)).astype(s.dtype)
    cutv = cutv[..., None] if cutv.ndim else cutv
    if (grown := np.broadcast_shapes(cutv.shape, s.shape)) != s.shape:  # NumPy divides into s: no larger stack
        raise ValueError(f"non-broadcastable output operand with shape {shape_text(s.shape)} doesn't match the "
                         f"broadcast shape {shape_text(grown)}")
    big = kd.max(s, axis=-1, keepdims=True) if s.shape[-1] else s
    keep = s > big * cutv
    sinv = kd.where(keep, 1.0 / kd.where(keep, s, 1.0), 0.0).astype(s.dtype)
    return kd.matmul(adjoint(vh) * sinv[..., None, :], adjoint(u))


def _tall_factors(a: kd.Array, b: kd.Array) -> tuple[kd.Array, kd.Array, kd.Array]:
    """``S``, ``Vh`` and ``U^H b`` of a tall ``a`` (m x n, m > n) without forming ``U``: one Householder QR
    of ``[a | b]`` gives ``R`` and, in the rows above ``b``'s reflectors, ``Q^H b`` (each reflector changes
    only the rows from its own down); then ``R = U_R S Vh`` and ``U^H b = U_R^H Q^H b``. Forming the m x n
    ``Q`` cost 3 s for m = 20 000 on lavapipe (lstsq of 150 000 points: 22 s), the QR alone 0.1 s.

    >>> import kdsl as kd
    >>> s, vh, utb = _tall_factors(kd.asarray([[3.0], [4.0], [0.0]]), kd.asarray([[3.0], [4.0], [5.0]]))
    >>> s.tolist(), abs(float(utb[0, 0]))
    ([5.0], 5.0)
    """
    n = a.shape[1]
    h, _, _ = planned(kd.concat([a, b], axis=1)[None], 0)
    u_r, s, vh = _svd(kd.triu(h[0, :n, :n]), full_matrices=False)
    return s, vh, kd.matmul(adjoint(u_r), h[0, :n, n:])


def lstsq(a, b, rcond=None) -> tuple[kd.Array, kd.Array, kd.Array, kd.Array]:
    """NumPy's least-squares solution of ``a @ x = b`` (2-d ``a``): ``(x, residuals, rank, s)``, through the
    SVD; singular values at or below ``rcond * largest`` (default ``eps * max(m, n)``; a negative ``rcond``,
    NumPy's old ``rcond=-1``: ``eps``) count as zero.
    ``residuals`` holds the squared residual norms when ``a`` has full column rank and m > n, else is empty;
    ``rank`` is a 0-d int32 array (NumPy's dtype). Reads ``rank`` to the host once: whether residuals exist
    decides their shape; and one bool, whether ``a`` is finite (NumPy's LinAlgError if not).

    >>> import kdsl as kd
    >>> a = kd.asarray([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> x, res, rank, s = kd.linalg.lstsq(a, kd.asarray([1.0, 2.0, 3.0]))
    >>> [round(v, 4) for v in x.tolist()], rank.dtype, int(rank)
    ([1.0, 2.0], kdsl.int32, 2)
    """
    a, b = as_pair(a, b)  # host floats beside float64 at float64
    if a.ndim != 2:
        raise LinAlgError(f"lstsq: {a.ndim}-dimensional array given. Array must be two-dimensional")
    m, n = a.shape
    vector = b.ndim == 1
    bm = b[:, None] if vector else b
    if bm.ndim != 2 or bm.shape[0] != m:
        raise LinAlgError(f"lstsq: Incompatible dimensions: a is {a.shape}, b is {b.shape}")
    dtype = kd.result_type(working_dtype(a, "lstsq"), working_dtype(b, "lstsq"))
    work = jacobi.sweep_dtype(dtype, min(m, n))  # NumPy computes float32 lstsq in double and rounds x; so do we
    # where we can (not for a GPU's large matrices: sweep_dtype)
    # NaN or inf in a: LAPACK's SVD fails (NumPy's message names the routine); one bool read back, which also
    # spares the Jacobi sweeps that would run to their limit on NaN (an inf could even pass them as NaN results)
    if a.size and not bool(kd.all(kd.isfinite(a))):
        raise LinAlgError("SVD did not converge in Linear Least Squares")
    if m > PRECONDITION * n and n > 0:
        s, vh, utb = _tall_factors(a.astype(work), bm.astype(work))
    else:
        u, s, vh = _svd(a.astype(work), full_matrices=False)
        utb = kd.matmul(adjoint(u), bm.astype(work))
    top = kd.max(s) if s.size else kd.asarray(0.0, dtype=s.dtype)
    keep = s > top * lstsq_cutoff(work, m, n, rcond)
    rank = kd.count_nonzero(keep).astype(kd.int32)  # NumPy's lstsq gives an int32 rank (LAPACK's integer)
    sinv = kd.where(keep, 1.0 / kd.where(keep, s, 1.0), 0.0).astype(work)
    xm = kd.matmul(adjoint(vh) * sinv[None, :], utb)
    # LAPACK's gelsd scales b by its largest magnitude first: an inf anywhere in b makes every x NaN (a NaN
    # stays in its own column, as the product above already gives)
    xm = kd.where(kd.any(kd.isinf(bm)), float("nan"), xm).astype(xm.dtype)
    real = kd.finfo(dtype).dtype
    if int(rank) == n and m > n:
        diff = kd.matmul(a.astype(work), xm) - bm.astype(work)
        resid = kd.sum(kd.abs(diff) ** 2 if dtype.kind == "c" else diff ** 2, axis=0)  # real, as NumPy's
    else:
        resid = kd.zeros((0,), dtype=s.dtype)
    xm, resid, s = xm.astype(dtype), resid.astype(real), s.astype(real)
    return (xm[:, 0] if vector else xm), (resid if not vector or resid.size == 0 else resid.reshape(1)), rank, s


def lstsq_cutoff(work: kd.DType, m: int, n: int, rcond) -> float:
    """``lstsq``'s relative cutoff for singular values computed in ``work``: ``rcond``, by default NumPy's
    ``eps * max(m, n)`` with the epsilon of the precision computed in (NumPy's is always double's: it
    computes float32 input in double; so does kdsl where the device has float64); a negative ``rcond``,
    LAPACK's (and NumPy's documented) ``rcond=-1``: that epsilon.

    >>> lstsq_cutoff(kd.float64, 3, 2, None) == 3 * 2.0 ** -52
    True
    """
    eps = float(kd.finfo(work).eps)
    cut = eps * max(m, n) if rcond is None else float(rcond)
    return eps if cut < 0 else cut


__all__ = ["lstsq", "lstsq_cutoff", "matrix_rank", "pinv", "svd", "svdvals"]
