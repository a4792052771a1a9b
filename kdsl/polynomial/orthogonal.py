"""The functions of a ``kd.polynomial`` basis with a three-term recurrence, ``B_{-1} = 0``, ``B_0 = 1``,
``B_{k+1} = (alpha_k x + gamma_k) B_k - beta_k B_{k-1}`` (Chebyshev, Legendre, Hermite, HermiteE, Laguerre):
``val`` (Clenshaw's recurrence, fused arithmetic), ``vander`` (the recurrence on the device), ``fit`` (least
squares on it), and the rest (``mul div der int roots fromroots line``) through the power basis: the series
converted with a triangular matrix of the basis' coefficients (host constants that depend only on the
length), the power-series function applied (``kdsl.polynomial.polynomial``), converted back. Results agree
with NumPy's to rounding at low degrees only: the conversion loses digits as the degree grows (a degree-200
Chebyshev series has power coefficients near 2**199), so ``der`` and ``int`` apply the linear maps of NumPy's
own functions of the basis instead (host constants, one matrix product); like NumPy's they drop trailing zero
coefficients (one read back). For the same reason ``mul mulx div pow roots fromroots`` of series longer than
:data:`EXACT_LENGTH` run NumPy's own function of the basis on the host (one read back).

Example:
    >>> import kdsl as kd
    >>> C = kd.polynomial.chebyshev
    >>> C.chebval(kd.asarray([0.5], dtype=kd.float64), [1.0, 2.0, 3.0]).tolist()   # 1 + 2x + 3(2x**2 - 1)
    [0.5]
    >>> [round(v, 9) for v in C.cheb2poly([1.0, 2.0, 3.0]).tolist()]
    [-2.0, 2.0, 6.0]
"""

from __future__ import annotations

import builtins
import functools
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.polynomial import least_squares
from kdsl.polynomial import polynomial as pp
from kdsl.polynomial.polyutils import as_array, as_int, as_series, floating, points, trimseq

REALIZE_EVERY = 16  # recurrence steps between realisations: no fused expression grows with the degree
EXACT_LENGTH = 8
"""Series up to this many coefficients go through the power basis on the device (relative errors below 1e-13
against NumPy's in float64); longer ones run NumPy's function of the basis on the host (at 12 coefficients the
power basis was 1e-11 off, at 20 1e-6, at 30 1e3)."""

Coefficients = Callable[[int], tuple[float, float, float]]  # k -> (alpha_k, beta_k, gamma_k)
HostFunction = Callable[..., np.ndarray]  # NumPy's chebder, chebint...: host series in, host series out


class Basis:
    """One basis' functions, from its recurrence coefficients (and NumPy's ``der`` and ``int`` of the basis, whose
    linear maps give derivatives and integrals without the power basis)."""

    def __init__(self, recurrence: Coefficients, numpy_module: tuple[Any, str] | None = None) -> None:
        self.recurrence = recurrence
        module, prefix = numpy_module if numpy_module is not None else (None, "")
        self.calculus: tuple[HostFunction, HostFunction] | None = None if module is None else \
            (getattr(module, prefix + "der"), getattr(module, prefix + "int"))  # NumPy's chebder, chebint...
        self.numpy_module = numpy_module  # (np.polynomial.legendre, "leg"): NumPy's functions of long series

    # ----- host constants (depend on the length only)
    @functools.lru_cache(maxsize=64)  # noqa: B019 - a handful of Basis objects live as long as the process
    def to_power(self, n: int) -> np.ndarray:
        """``M[:, k]``: the power-series coefficients of ``B_k``, for k < n (upper triangular)."""
        m = np.zeros((n, n))
        m[0, 0] = 1.0
        for k in range(n - 1):
            alpha, beta, gamma = self.recurrence(k)
            m[1:, k + 1] = alpha * m[:-1, k]
            m[:, k + 1] += gamma * m[:, k]
            if k > 0:
                m[:, k + 1] -= beta * m[:, k - 1]
        return m

    @functools.lru_cache(maxsize=64)  # noqa: B019
    def from_power(self, n: int) -> np.ndarray:
        """``M[:, k]``: the coefficients of ``x**k`` in this basis (by ``x B_j = (B_{j+1} - gamma_j B_j +
        beta_j B_{j-1}) / alpha_j``)."""
        m = np.zeros((n, n))
        m[0, 0] = 1.0
        for k in range(1, n):
            prev = m[:, k - 1]
            for j in range(k):  # x * B_j, spread over B_{j+1}, B_j and B_{j-1}
                if prev[j] == 0:
                    continue
                alpha, beta, gamma = self.recurrence(j)
                m[j + 1, k] += prev[j] / alpha
                m[j, k] -= prev[j] * gamma / alpha
                if j > 0:
                    m[j - 1, k] += prev[j] * beta / alpha
        return m

    def _convert(self, c: kd.Array, matrix: np.ndarray) -> kd.Array:
        if c.shape[0] == 0:
            return c
        wide = kd.result_type(c.dtype, kd.float64 if c.device.supports(kd.float64) else kd.float32)
        m = kd.asarray(matrix, dtype=kd.float64 if c.device.supports(kd.float64) else kd.float32, device=c.device)
        flat = c.astype(wide).reshape(c.shape[0], -1)
        return kd.matmul(m.astype(wide), flat).reshape(c.shape)

    def to_poly(self, c: Any) -> kd.Array:
        [a] = as_series([c])
        return trimseq(self._convert(a, self.to_power(a.shape[0])))

    def from_poly(self, p: Any) -> kd.Array:
        [a] = as_series([p])
        return trimseq(self._convert(a, self.from_power(a.shape[0])))

    # ----- on the device
    def val(self, x: Any, c: Any, tensor: bool = True) -> kd.Array:
        """The series ``c`` at ``x`` by Clenshaw's recurrence (NumPy's ``tensor`` rule for several series)."""
        cs = kd.atleast_1d(as_array(c))
        cs = floating(cs) if cs.dtype.kind in "biu" else cs
        xs = points(x, cs.device)
        if tensor and cs.ndim > 1:
            cs = cs.reshape(cs.shape + (1,) * kd.ndim(xs))
        n = cs.shape[0]
        later, b = cs[-1] + xs * 0, cs[-1] * 0 + xs * 0  # b_{k+1}, b_{k+2}
        for k in range(n - 2, -1, -1):
            alpha, _, gamma = self.recurrence(k)
            beta_next = self.recurrence(k + 1)[1]
            later, b = cs[k] + (alpha * xs + gamma) * later - beta_next * b, later
            if (n - k) % REALIZE_EVERY == 0:
                kd.realize(later, b)
        return later

    def vander(self, x: Any, deg: int) -> kd.Array:
        """``v[..., k] = B_k(x)`` for k up to ``deg``."""
        deg = as_int(deg, "deg")
        if deg < 0:
            raise ValueError("deg must be non-negative")
        xs = floating(kd.atleast_1d(as_array(x)))
        columns = [xs * 0 + 1]
        for k in range(deg):
            alpha, beta, gamma = self.recurrence(k)
            step = (alpha * xs + gamma) * columns[k]
            columns.append(step - beta * columns[k - 1] if k > 0 else step)
            if (k + 1) % REALIZE_EVERY == 0:
                kd.realize(columns[-1], columns[-2])
        return kd.stack(columns, axis=-1)

    def fit(self, x: Any, y: Any, deg: Any, rcond: float | None = None, full: bool = False, w: Any = None) -> Any:
        return least_squares.fit(self.vander, x, y, deg, rcond, full, w)

    # ----- through the power basis
    def add(self, c1: Any, c2: Any) -> kd.Array:
        return pp.polyadd(c1, c2)  # the same coefficientwise sum in any basis

    def sub(self, c1: Any, c2: Any) -> kd.Array:
        return pp.polysub(c1, c2)

    def mul(self, c1: Any, c2: Any) -> kd.Array:
        if self._long(c1, c2):
            return _kept(self._on_host("mul", c1, c2), c1, c2)
        return _kept(self.from_poly(pp.polymul(self.to_poly(c1), self.to_poly(c2))), c1, c2)

    def mulx(self, c: Any) -> kd.Array:
        if self._long(c):
            return _kept(self._on_host("mulx", c), c)
        return _kept(self.from_poly(pp.polymulx(self.to_poly(c))), c)

    def div(self, c1: Any, c2: Any) -> tuple[kd.Array, kd.Array]:
        if self._long(c1, c2):
            return self._on_host("div", c1, c2)
        q, r = pp.polydiv(self.to_poly(c1), self.to_poly(c2))
        return self.from_poly(q), self.from_poly(r)

    def pow(self, c: Any, power: int, maxpower: int | None = 16) -> kd.Array:  # noqa: A003
        times = power if isinstance(power, int) and power > 1 else 1  # (NumPy checks the power itself)
        if self._long(_length(c) * times):
            return _kept(self._on_host("pow", c, power, maxpower), c)
        return _kept(self.from_poly(pp.polypow(self.to_poly(c), power, maxpower)), c)

    def _long(self, *series: Any) -> bool:
        """Whether a series (or a length) is longer than :data:`EXACT_LENGTH` and NumPy's own function of this
        basis is known: then the power basis would lose digits, and NumPy's function runs instead
        (see :meth:`_on_host`)."""
        lengths = (c if isinstance(c, int) else _length(c) for c in series)
        return self.numpy_module is not None and builtins.max(lengths) > EXACT_LENGTH

    def _on_host(self, name: str, *args: Any) -> Any:
        """NumPy's function ``name`` of this basis (``legmul``...) on the coefficients read back, its results
        uploaded to the coefficients' device: series longer than :data:`EXACT_LENGTH` lose digits through the
        power basis (a degree-30 Legendre product was off by 1e3 relative), and a series of a few hundred
        coefficients is host work (one read back, as NumPy's trimming of trailing zeros needs anyway)."""
        module, prefix = self.numpy_module  # type: ignore[misc]  # (_long checked it)
        arrays = [a for a in args if isinstance(a, kd.Array)]
        device = arrays[0].device if arrays else None
        host = [a.numpy() if isinstance(a, kd.Array) else a for a in args]
        result = getattr(module, prefix + name)(*host)
        if isinstance(result, tuple):
            return tuple(kd.asarray(r, device=device) for r in result)
        return kd.asarray(result, device=device)

    def _along_axis(self, c: Any, axis: int, fn: Callable[[kd.Array], kd.Array]) -> kd.Array:
        a = kd.atleast_1d(as_array(c))
        a = floating(a) if a.dtype.kind in "biu" else a
        moved = kd.moveaxis(a, as_int(axis, "the axis"), 0)
        p = self._convert(moved, self.to_power(moved.shape[0]))
        out = fn(p)
        return _kept(kd.moveaxis(self._convert(out, self.from_power(out.shape[0])), 0, axis), a)

    def _mapped(self, c: Any, axis: Any, host: Callable[[np.ndarray], np.ndarray]) -> kd.Array:
        """``host`` (NumPy's function of this basis, affine in the coefficients: a derivative or an integral with
        its constants) along ``axis`` as one matrix product on the device. Its matrix and offset are host
        constants, ``host`` of the identity's columns and of twice the first, so NumPy's own recurrences (and
        errors) give them; the power basis cannot: a degree-200 Chebyshev series has coefficients near 2**199 there.

        >>> import kdsl as kd
        >>> kd.polynomial.chebyshev.chebder(kd.asarray([1.0, 2.0, 3.0, 4.0])).tolist()  # NumPy's: [14, 12, 24]
        [14.0, 12.0, 24.0]
        """
        a = kd.atleast_1d(as_array(c))
        a = floating(a) if a.dtype.kind in "biu" else a
        moved = kd.moveaxis(a, as_int(axis, "the axis"), 0)
        n = moved.shape[0]
        # the offset by linearity, host(2 e0) = 2 M e0 + b: NumPy integrates a series of zeros of length 1 to
        # its constant alone (one coefficient, not two), so zeros cannot probe it
        columns = host(np.eye(n))
        offset = 2 * columns[:, :1] - host(2 * np.eye(n)[:, :1])
        matrix = columns - offset
        wide = kd.result_type(a.dtype, kd.float64 if a.device.supports(kd.float64) else kd.float32)
        constant = kd.float64 if a.device.supports(kd.float64) else kd.float32
        flat = moved.astype(wide).reshape(n, -1)
        out = kd.matmul(kd.asarray(matrix, dtype=constant, device=a.device).astype(wide), flat)
        out = out + kd.asarray(offset, dtype=constant, device=a.device).astype(wide)
        return _kept(kd.moveaxis(out.reshape((matrix.shape[0],) + moved.shape[1:]), 0, axis), a)

    def der(self, c: Any, m: int = 1, scl: Any = 1, axis: int = 0) -> kd.Array:
        if self.calculus is None or _on_device(scl):
            return self._along_axis(c, axis, lambda p: pp.polyder(p, m, scl))
        numpy_der = self.calculus[0]
        return self._mapped(c, axis, lambda series: numpy_der(series, m, scl, axis=0))

    def int(self, c: Any, m: int = 1, k: Any = (), lbnd: Any = 0, scl: Any = 1,  # noqa: A003
            axis: int = 0) -> kd.Array:
        if self.calculus is None or _on_device(k, lbnd, scl):
            return self._along_axis(c, axis, lambda p: pp.polyint(p, m, k, lbnd, scl))
        numpy_int = self.calculus[1]
        return self._mapped(c, axis, lambda series: numpy_int(series, m, k, lbnd, scl, axis=0))

    def roots(self, c: Any) -> kd.Array:
        if self._long(c):
            return self._on_host("roots", c)
        return pp.polyroots(self.to_poly(c))

    def fromroots(self, roots: Any) -> kd.Array:
        if self._long(roots):
            return self._on_host("fromroots", roots)
        return self.from_poly(pp.polyfromroots(roots))

    def line(self, off: float, scl: float) -> kd.Array:
        """The series of ``off + scl*x``: ``off + scl * (x's series)``, computed on the host as NumPy's formulas
        (``[off, scl]`` for Chebyshev, ``[off, scl / 2]`` Hermite, ``[off + scl, -scl]`` Laguerre), so integer
        arguments give integers where NumPy's do."""
        if scl == 0:
            return kd.asarray(np.array([off]))
        x0, x1 = (int(v) if float(v).is_integer() else float(v) for v in self.from_power(2)[:, 1])
        return kd.asarray(np.array([off + scl * x0, scl * x1]))


def _length(c: Any) -> int:
    """The number of coefficients of a series (or roots) ``c``: a kdsl array, a NumPy array or a sequence."""
    shape = c.shape if isinstance(c, (kd.Array, np.ndarray)) else np.shape(c)
    return int(shape[0]) if shape else 1


def _on_device(*values: Any) -> bool:
    """Whether an argument is a kdsl array (then the device path: the constants are not on the host)."""
    return any(isinstance(v, kd.Array) for v in values)


def _kept(result: kd.Array, *coefficients: Any) -> kd.Array:
    """``result``, computed through the power basis in float64, in the dtype NumPy's functions give: the
    coefficients' common floating dtype (float32 coefficients stay float32; integers give float64)."""
    d = kd.result_type(*(floating(as_array(c, result.device)).dtype for c in coefficients))
    return result if result.dtype == d else result.astype(d)


__all__ = ["Basis"]
