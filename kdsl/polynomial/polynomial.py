"""NumPy's ``np.polynomial.polynomial``: power series as coefficient arrays, LOWEST degree first
(``[1, 2, 3]`` is ``1 + 2x + 3x**2``; the legacy ``kd.polyval`` family takes the highest first).

Values, Vandermonde matrices, derivatives and antiderivatives are lazy device arithmetic (Horner's rule, running
products). Sums, products and quotients drop trailing zero coefficients as NumPy does, which reads back where the
last nonzero one is (the result's length depends on the values); ``polyfit`` reads back the rank,
``polyroots`` computes eigenvalues (``kd.linalg.eigvals``).

Example:
    >>> import kdsl as kd
    >>> P = kd.polynomial.polynomial
    >>> P.polyval(kd.asarray([0.0, 1.0, 2.0]), [1.0, 2.0, 3.0]).tolist()
    [1.0, 6.0, 17.0]
    >>> P.polymul([1, 1], [1, -1]).tolist(), P.polyder([1, 2, 3]).tolist()
    ([1.0, 0.0, -1.0], [2.0, 6.0])
"""

from __future__ import annotations

from typing import Any

import numpy as np

import kdsl as kd
from kdsl.polynomial import least_squares, multivariate
from kdsl.polynomial.polyutils import as_array, as_int, as_series, floating, points, trimcoef, trimseq

REALIZE_EVERY = 16  # Horner / division steps between realisations: no fused expression grows with the degree

polydomain: np.ndarray = np.array([-1.0, 1.0])
polyzero = np.array([0.0])
polyone = np.array([1.0])
polyx = np.array([0.0, 1.0])
polytrim = trimcoef


def polyline(off: float, scl: float) -> kd.Array:
    """The coefficients of ``off + scl*x``.

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyline(3, 2).tolist()
    [3, 2]
    """
    return kd.asarray(np.array([off, scl] if scl != 0 else [off]))  # NumPy's dtype (int64, float64)


def _coefficients(c: Any) -> kd.Array:
    """``c`` as NumPy's value functions take it: at least 1-D, booleans and integers as float64."""
    a = kd.atleast_1d(as_array(c))
    return floating(a) if a.dtype.kind in "biu" else a


def polyval(x: Any, c: Any, tensor: bool = True) -> kd.Array:
    """The power series ``c`` (lowest degree first) at ``x``, by Horner's rule (one fused kernel per 16
    coefficients). With ``c`` of several dimensions each ``c[:, j...]`` is a series; ``tensor=True`` evaluates
    every one at every ``x`` (shape ``c.shape[1:] + x.shape``), ``tensor=False`` broadcasts them together.

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyval(2.0, [1.0, 0.0, 1.0]).tolist()
    5.0
    """
    cs = _coefficients(c)
    xs = points(x, cs.device)
    if tensor and cs.ndim > 1:
        cs = cs.reshape(cs.shape + (1,) * kd.ndim(xs))
    y = cs[-1] + xs * 0
    for i in range(cs.shape[0] - 2, -1, -1):
        y = cs[i] + y * xs
        if (cs.shape[0] - 1 - i) % REALIZE_EVERY == 0:
            kd.realize(y)
    return y


def polyvander(x: Any, deg: int) -> kd.Array:
    """The Vandermonde matrix of ``x``: ``v[..., i] = x**i`` for ``i`` up to ``deg``, shape ``x.shape + (deg
    + 1,)``, by running products (no ``pow``).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyvander(kd.asarray([2.0, 3.0]), 2).tolist()
    [[1.0, 2.0, 4.0], [1.0, 3.0, 9.0]]
    """
    deg = as_int(deg, "deg")
    if deg < 0:
        raise ValueError("deg must be non-negative")
    xs = floating(kd.atleast_1d(as_array(x)))
    ones = kd.ones(xs.shape + (1,), dtype=xs.dtype, device=xs.device)
    if deg == 0:
        return ones
    steps = kd.broadcast_to(xs[..., None], xs.shape + (deg,))
    return kd.cumprod(kd.concatenate([ones, steps], axis=-1), axis=-1)


def polyfit(x: Any, y: Any, deg: Any, rcond: float | None = None, full: bool = False, w: Any = None) -> Any:
    """The least-squares power series (lowest degree first) of degree ``deg`` (or with only the listed
    degrees) through the points ``(x, y)``, weights ``w`` on the residuals; ``full=True`` adds
    ``[residuals, rank, singular_values, rcond]``. Reads back the rank (``RankWarning`` as NumPy).

    >>> import kdsl as kd
    >>> x = kd.asarray([-1.0, 0.0, 1.0, 2.0])
    >>> [round(v, 6) for v in kd.polynomial.polynomial.polyfit(x, x * x - 1.0, 2).tolist()]
    [-1.0, 0.0, 1.0]
    """
    return least_squares.fit(polyvander, x, y, deg, rcond, full, w)


def _moved(c: Any, axis: int) -> tuple[kd.Array, int]:
    a = _coefficients(c)
    axis = as_int(axis, "the axis")
    if not -a.ndim <= axis < a.ndim:
        raise np.exceptions.AxisError(axis, a.ndim)
    return kd.moveaxis(a, axis, 0), axis


def _along(k: kd.Array, ndim: int) -> kd.Array:
    """A per-coefficient factor shaped to multiply coefficients on axis 0 of an ``ndim``-d array."""
    return k.reshape(k.shape + (1,) * (ndim - 1))


def polyder(c: Any, m: int = 1, scl: Any = 1, axis: int = 0) -> kd.Array:
    """The ``m``-th derivative of the series ``c`` along ``axis``, each differentiation multiplied by ``scl``
    (NumPy's rules: a derivative past the degree is ``[0]``).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyder([1.0, 2.0, 3.0, 4.0], m=2).tolist()
    [6.0, 24.0]
    """
    m = as_int(m, "the order of derivation")
    if m < 0:
        raise ValueError("The order of derivation must be non-negative")
    a, axis = _moved(c, axis)
    if m == 0:
        return kd.moveaxis(a, 0, axis)
    if m >= a.shape[0]:
        return kd.moveaxis(a[:1] * 0, 0, axis)
    for _ in range(m):
        n = a.shape[0]
        powers = kd.arange(1, n, dtype=a.dtype if a.dtype.kind != "c" else a.real.dtype, device=a.device)
        a = a[1:] * _along(powers, a.ndim) * scl
    return kd.moveaxis(a, 0, axis)


def _integration_constants(k: Any, m: int) -> list[Any]:
    """One constant per integration: a number is the first one's, a sequence lists them; the rest are 0."""
    host = k.numpy() if isinstance(k, kd.Array) else k
    ks = list(np.ravel(np.asarray(host, dtype=object))) if np.iterable(host) else [host]
    if len(ks) > m:
        raise ValueError("Too many integration constants")
    return ks + [0] * (m - len(ks))


def polyint(c: Any, m: int = 1, k: Any = (), lbnd: Any = 0, scl: Any = 1, axis: int = 0) -> kd.Array:
    """The ``m``-th antiderivative of the series ``c`` along ``axis``: the ``i``-th integration has the value
    ``k[i]`` (default 0) at ``lbnd`` and is multiplied by ``scl``. A 1-coefficient series that is zero stays
    one coefficient long, as in NumPy (one scalar read back to decide).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyint([1.0, 2.0, 3.0], k=1.0).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    m = as_int(m, "the order of integration")
    if m < 0:
        raise ValueError("The order of integration must be non-negative")
    if np.ndim(lbnd) != 0:
        raise ValueError("lbnd must be a scalar.")
    if np.ndim(scl) != 0:
        raise ValueError("scl must be a scalar.")
    ks = _integration_constants(k, m)
    a, axis = _moved(c, axis)
    for i in range(m):
        if a.shape[0] == 1 and not bool(kd.any(a != 0)):  # NumPy adds k to a zero constant, keeping its length
            a = a + ks[i]
            continue
        n = a.shape[0]
        steps = kd.arange(1, n + 1, dtype=a.dtype if a.dtype.kind != "c" else a.real.dtype, device=a.device)
        higher = a * scl / _along(steps, a.ndim)
        tail = kd.concatenate([a[:1] * 0, higher])
        start = ks[i] - polyval(lbnd, tail, tensor=False)
        a = kd.concatenate([(tail[0] + start)[None], tail[1:]])
    return kd.moveaxis(a, 0, axis)


def _aligned(c1: Any, c2: Any) -> tuple[kd.Array, kd.Array]:
    a, b = as_series([c1, c2])
    n = max(a.shape[0], b.shape[0])
    return kd.pad(a, (0, n - a.shape[0])), kd.pad(b, (0, n - b.shape[0]))


def polyadd(c1: Any, c2: Any) -> kd.Array:
    """The sum of two power series (trailing zeros dropped: one read back).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyadd([1, 2, 3], [3, 2, 1]).tolist()
    [4.0, 4.0, 4.0]
    """
    a, b = _aligned(c1, c2)
    return trimseq(a + b)


def polysub(c1: Any, c2: Any) -> kd.Array:
    """The difference of two power series (trailing zeros dropped: one read back).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polysub([1, 2, 3], [1, 2, 1]).tolist()
    [0.0, 0.0, 2.0]
    """
    a, b = _aligned(c1, c2)
    return trimseq(a - b)


def polymulx(c: Any) -> kd.Array:
    """The series ``c`` multiplied by ``x`` (every coefficient one degree up).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polymulx([1, 2]).tolist()
    [0.0, 1.0, 2.0]
    """
    [a] = as_series([c])
    if a.shape[0] == 1 and not bool(kd.any(a != 0)):
        return a
    return kd.pad(a, (1, 0))


def polymul(c1: Any, c2: Any) -> kd.Array:
    """The product of two power series: the convolution of their coefficients (trailing zeros dropped).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polymul([1, 2], [3, 4]).tolist()
    [3.0, 10.0, 8.0]
    """
    a, b = as_series([c1, c2])
    return trimseq(kd.flip(kd.polymul(kd.flip(a), kd.flip(b))))


def polydiv(c1: Any, c2: Any) -> tuple[kd.Array, kd.Array]:
    """Quotient and remainder of the power series ``c1`` by ``c2`` (long division from the highest degree,
    one lazy update per quotient coefficient; the remainder's trailing zeros dropped: one read back). A zero
    divisor raises ZeroDivisionError, as NumPy's.

    >>> import kdsl as kd
    >>> q, r = kd.polynomial.polynomial.polydiv([1.0, 2.0, 3.0], [1.0, 1.0])
    >>> q.tolist(), r.tolist()
    ([-1.0, 3.0], [2.0])
    """
    a, b = as_series([c1, c2])
    n, d = a.shape[0], b.shape[0]
    if d == 1 and not bool(kd.any(b != 0)):
        raise ZeroDivisionError("polynomial division by zero")
    if n < d:
        return a[:1] * 0, a
    if d == 1:
        return a / b[-1], a[:1] * 0
    lead = b[-1]
    rest = b[:-1] / lead
    frame, quotient = a, []
    zero = kd.zeros(1, dtype=a.dtype, device=a.device)
    for _ in range(n - d + 1):  # quotient coefficients from the top
        # frame[n - 1] is NumPy's c1[j], frame[n - d:n - 1] its c1[i:j]: the frame moves one place right per
        # step, so every step is the same graph (one program; moving the window compiled one per step)
        q = frame[n - 1]
        quotient.append(q)
        frame = kd.concat([zero, frame[:n - d], frame[n - d:n - 1] - rest * q])
        if len(quotient) % REALIZE_EVERY == 0:
            kd.realize(frame)
    q_all = kd.flip(kd.stack(quotient)) / lead
    return q_all, trimseq(frame[n - d + 1:])


def polypow(c: Any, pow: int, maxpower: int | None = None) -> kd.Array:  # noqa: A002 - NumPy's name
    """The series ``c`` to the non-negative integer power ``pow`` (repeated products; ``maxpower`` limits it as
    NumPy's does: no limit by default for power series, 16 for the other bases' ``*pow``).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polypow([1, 1], 3).tolist()
    [1.0, 3.0, 3.0, 1.0]
    """
    [a] = as_series([c])
    power = int(pow)  # NumPy's rule: 2.0 and np.int64(2) are powers; 1.5, -1 and '2' are not (ValueError)
    if power != pow or power < 0:
        raise ValueError("Power must be a non-negative integer.")
    if maxpower is not None and power > maxpower:
        raise ValueError("Power is too large")
    result = kd.ones(1, dtype=a.dtype, device=a.device)
    for _ in range(power):
        result = polymul(result, a)
    return result


def polycompanion(c: Any) -> kd.Array:
    """The companion matrix of the series ``c``: its eigenvalues are the roots.

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polycompanion([2.0, -3.0, 1.0]).tolist()
    [[0.0, -2.0], [1.0, 3.0]]
    """
    [a] = as_series([c])
    n = a.shape[0] - 1
    if n < 1:
        raise ValueError("Series must have maximum degree of at least 1.")
    if n == 1:
        return (-a[0] / a[1]).reshape(1, 1)
    shift = kd.eye(n, k=-1, dtype=a.dtype, device=a.device)
    last = kd.pad((-a[:-1] / a[-1])[:, None], ((0, 0), (n - 1, 0)))
    return shift + last


def polyroots(c: Any) -> kd.Array:
    """The roots of the series ``c``, sorted (complex when any is), from the companion matrix's eigenvalues.

    >>> import kdsl as kd
    >>> [round(v, 6) for v in kd.polynomial.polynomial.polyroots([2.0, -3.0, 1.0]).tolist()]
    [1.0, 2.0]
    """
    [a] = as_series([c])
    if a.shape[0] < 2:
        return kd.zeros(0, dtype=a.dtype, device=a.device)
    if a.shape[0] == 2:
        return (-a[0] / a[1])[None]
    # the companion matrix rotated, as NumPy's: the Schur form (without LAPACK's balancing) found the root 5.6e-13
    # of [-1.8e-19, 3.2e-7, 0.059, 1] as -4.1e-14 from the unrotated matrix
    r = kd.linalg.eigvals(polycompanion(a)[::-1, ::-1])
    return kd.sort_complex(r) if r.dtype.kind == "c" else kd.sort(r)


def polyfromroots(roots: Any) -> kd.Array:
    """The monic series whose roots are ``roots`` (the product of ``x - r``).

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyfromroots([1.0, 2.0]).tolist()
    [2.0, -3.0, 1.0]
    """
    given = kd.atleast_1d(as_array(roots))
    if given.size == 0:
        return kd.ones(1, dtype=kd.float64 if given.device.supports(kd.float64) else kd.float32,
                       device=given.device)
    [r] = as_series([given], trim=False)
    result = kd.ones(1, dtype=r.dtype, device=r.device)
    for i in range(r.shape[0]):
        factor = kd.stack([-r[i], kd.ones((), dtype=r.dtype, device=r.device)])
        result = kd.flip(kd.polymul(kd.flip(result), kd.flip(factor)))
    return result


def polyvalfromroots(x: Any, r: Any, tensor: bool = True) -> kd.Array:
    """The monic polynomial with roots ``r`` at ``x``: the product of ``x - r`` over ``r``'s first axis. With
    ``r`` of several dimensions each ``r[:, j...]`` is one polynomial's roots; ``tensor=True`` evaluates each
    at every ``x`` (shape ``r.shape[1:] + x.shape``), ``tensor=False`` broadcasts ``x`` over them.

    >>> import kdsl as kd
    >>> kd.polynomial.polynomial.polyvalfromroots([0.0, 3.0], [1.0, 2.0]).tolist()
    [2.0, 2.0]
    """
    roots = _coefficients(r)
    xs = points(x, roots.device)
    if tensor:
        roots = roots.reshape(roots.shape + (1,) * kd.ndim(xs))
    elif kd.ndim(xs) >= roots.ndim:
        raise ValueError("x.ndim must be < r.ndim when tensor == False")
    return kd.prod(xs - roots, axis=0)


(polyval2d, polyval3d, polygrid2d, polygrid3d, polyvander2d,
 polyvander3d) = multivariate.functions(polyval, polyvander, "poly")

__all__ = ["polyadd", "polycompanion", "polyder", "polydiv", "polydomain", "polyfit", "polyfromroots",
           "polyint", "polyline", "polymul", "polymulx", "polyone", "polypow", "polyroots", "polysub", "polytrim",
           "polyval", "polyvander", "polyx", "polyzero", "polyvalfromroots", "polyval2d", "polyval3d",
           "polygrid2d", "polygrid3d", "polyvander2d", "polyvander3d"]
