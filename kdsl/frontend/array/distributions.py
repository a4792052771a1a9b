"""NumPy's distributions that are closed-form transforms of uniforms and normals, on the device.

Each is one fused elementwise expression of Philox draws (no loop, no rejection): ``u`` is uniform on the open
interval (0, 1) (so ``log u`` is finite), ``E = -log u`` is Exp(1), ``z`` is standard normal.

* ``lognormal``: ``exp(mean + sigma z)``; ``laplace``: ``loc -/+ scale log(2u | 2(1-u))``;
  ``logistic``: ``loc + scale log(u / (1 - u))``; ``gumbel``: ``loc - scale log(E)``;
  ``standard_cauchy``: ``tan(pi (u - 1/2))``; ``rayleigh``: ``scale sqrt(2 E)``; ``weibull``: ``E**(1/a)``;
  ``pareto``: ``expm1(E / a)``; ``power``: ``u**(1/a)``; ``triangular``: the inverse CDF;
  ``geometric``: ``ceil(log u / log1p(-p))`` (at least 1); ``wald``: Michael-Schucany-Haas.
* ``multivariate_normal``: ``z @ F + mean`` with ``F F^T = cov``; ``F`` (SVD, eigh or Cholesky as NumPy's
  ``method``) is computed on the host from ``cov``, a parameter read back like ``choice``'s ``p``.

Floats are float32 (kdsl's default) unless a parameter is a float64 kdsl array; NumPy's parameter checks run on
the host (a kdsl array parameter is read back for them: NumPy raises ValueError for invalid values).

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).laplace(1.0, 2.0, size=(2, 3))
    >>> x.shape, x.dtype
    ((2, 3), kdsl.float32)
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import (
    PhiloxDraws,
    Size,
    draw_shape,
    host_check,
    host_nonnegative,
    host_param,
    host_positive,
    param_dtype,
    param_operand,
)


class TransformDistributions(PhiloxDraws):
    """Closed-form distributions (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    def _located(self, loc: Any, scale: Any, size: Size, scale_name: str = "scale"):
        """Checks ``scale >= 0``; returns (shape, dtype, loc, scale), the parameters as operands."""
        host_nonnegative(scale, scale_name)
        d = param_dtype(loc, scale)
        shape = draw_shape(size, loc, scale)
        return shape, d, param_operand(loc, d, self._device), param_operand(scale, d, self._device)

    def lognormal(self, mean: Any = 0.0, sigma: Any = 1.0, size: Size = None) -> Array:
        """``exp`` of a normal with mean ``mean`` and standard deviation ``sigma``.

        >>> import kdsl as kd
        >>> bool((kd.random.default_rng(1).lognormal(size=100).numpy() > 0).all())
        True
        """
        shape, d, mu, s = self._located(mean, sigma, size, "sigma")
        return km.exp(self._normals(shape, d, 1)[0] * s + mu)

    def laplace(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None) -> Array:
        """Laplace (double exponential) floats."""
        shape, d, mu, s = self._located(loc, scale, size)
        u = self._open_unit(shape, d)[0]
        two, half = self._const(2.0, d), self._const(0.5, d)
        return where(u < half, km.log(u * two), -km.log((self._const(1.0, d) - u) * two)) * s + mu

    def logistic(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None) -> Array:
        """Logistic floats."""
        shape, d, mu, s = self._located(loc, scale, size)
        u = self._open_unit(shape, d)[0]
        return km.log(u / (self._const(1.0, d) - u)) * s + mu

    def gumbel(self, loc: Any = 0.0, scale: Any = 1.0, size: Size = None) -> Array:
        """Gumbel (extreme value type I) floats."""
        shape, d, mu, s = self._located(loc, scale, size)
        return mu - km.log(-km.log(self._open_unit(shape, d)[0])) * s

    def standard_cauchy(self, size: Size = None) -> Array:
        """Standard Cauchy floats (``tan(pi (u - 1/2))``)."""
        u = self._open_unit(draw_shape(size), dt.float32)[0]
        return km.tan((u - self._const(0.5, dt.float32)) * self._const(math.pi, dt.float32))

    def rayleigh(self, scale: Any = 1.0, size: Size = None) -> Array:
        """Rayleigh floats (``scale * sqrt(-2 log u)``)."""
        shape, d, _, s = self._located(0.0, scale, size)
        return km.sqrt(km.log(self._open_unit(shape, d)[0]) * self._const(-2.0, d)) * s

    def _exp1(self, shape: tuple[int, ...], d: dt.DType) -> Array:
        return -km.log(self._open_unit(shape, d)[0])

    def weibull(self, a: Any, size: Size = None) -> Array:
        """Weibull floats with shape ``a`` (``a = 0`` gives 0, as in NumPy)."""
        host_nonnegative(a, "a")
        d = param_dtype(a)
        av = param_operand(a, d, self._device)
        zero = self._const(0.0, d)
        w = km.exp(km.log(self._exp1(draw_shape(size, a), d)) / av)
        return where(av == zero, zero, w)

    def pareto(self, a: Any, size: Size = None) -> Array:
        """Pareto II (Lomax) floats with shape ``a`` (``expm1(E / a)``)."""
        host_positive(a, "a")
        d = param_dtype(a)
        return km.expm1(self._exp1(draw_shape(size, a), d) / param_operand(a, d, self._device))

    def power(self, a: Any, size: Size = None) -> Array:
        """Power-function floats in [0, 1] with exponent ``a - 1`` (``u**(1/a)``)."""
        host_positive(a, "a")
        d = param_dtype(a)
        return km.exp(km.log(self._open_unit(draw_shape(size, a), d)[0]) / param_operand(a, d, self._device))

    def triangular(self, left: Any, mode: Any, right: Any, size: Size = None) -> Array:
        """Triangular floats on [left, right] peaking at ``mode`` (inverse CDF).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(2).triangular(-1.0, 0.0, 3.0, size=500).numpy()
        >>> bool(((x >= -1) & (x <= 3)).all())
        True
        """
        hl, hm, hr = (np.asarray(host_param(v), dtype=float) for v in (left, mode, right))
        if (hl > hm).any():
            raise ValueError("left > mode")
        if (hm > hr).any():
            raise ValueError("mode > right")
        if (hl == hr).any():
            raise ValueError("left == right")
        d = param_dtype(left, mode, right)
        shape = draw_shape(size, left, mode, right)
        lo, mo, hi = (param_operand(v, d, self._device) for v in (left, mode, right))
        u = self._unit(shape, d)[0]
        width, below, above = hi - lo, mo - lo, hi - mo
        rising = lo + km.sqrt(u * width * below)
        falling = hi - km.sqrt((self._const(1.0, d) - u) * width * above)
        return where(u * width <= below, rising, falling)

    def wald(self, mean: Any, scale: Any, size: Size = None) -> Array:
        """Wald (inverse Gaussian) floats: Michael, Schucany and Haas' transform of a normal and a uniform, with
        the root taken in the cancellation-free form ``mean**2 / (a + b)``."""
        host_positive(mean, "mean")
        host_positive(scale, "scale")
        d = param_dtype(mean, scale)
        shape = draw_shape(size, mean, scale)
        mu, lam = param_operand(mean, d, self._device), param_operand(scale, d, self._device)
        z = self._normals(shape, d, 1)[0]
        y = z * z
        k = mu / (lam * self._const(2.0, d))
        root = km.sqrt(self._const(4.0, d) * mu * lam * y + mu * mu * y * y)
        x = mu * mu / (mu + mu * k * y + k * root)  # = mu + k (mu y - root), without cancellation
        u = self._unit(shape, d)[0]
        return where(u * (mu + x) <= mu, x, mu * mu / x)

    def geometric(self, p: Any, size: Size = None) -> Array:
        """Geometric counts >= 1 (trials to the first success), int64 (int32 without 64-bit ints)."""
        host_check(p, "p", lambda v: (v > 0) & (v <= 1), "<= 0, p > 1 or p contains NaNs")
        d = self._float_work()
        shape = draw_shape(size, p)
        pv = param_operand(p, d, self._device)
        out = self._index_dtype()
        top = self._const(float(np.iinfo(out.np).max // 2), d)  # tiny p: clamp rather than overflow the cast
        k = km.ceil(km.log(self._open_unit(shape, d)[0]) / km.log1p(-pv))
        return km.minimum(km.maximum(k, self._const(1.0, d)), top).astype(out)

    def multivariate_normal(self, mean: Any, cov: Any, size: Size = None, check_valid: str = "warn",
                            tol: float = 1e-8, *, method: str = "svd") -> Array:
        """Normal vectors with ``mean`` (n,) and covariance ``cov`` (n, n): shape ``size + (n,)``.

        ``mean`` and ``cov`` are read on the host (parameters; NumPy checks ``cov``), the factor ``F`` with
        ``F^T F = cov`` is computed there (``method``: ``'svd'``, ``'eigh'`` or ``'cholesky'``), and the draw
        ``z @ F + mean`` runs on the device.

        >>> import kdsl as kd
        >>> kd.random.default_rng(3).multivariate_normal([0.0, 1.0], [[1.0, 0.5], [0.5, 2.0]], size=4).shape
        (4, 2)
        """
        m, c = (np.asarray(v.numpy() if isinstance(v, Array) else v) for v in (mean, cov))
        if np.iscomplexobj(m) or np.iscomplexobj(c):
            raise TypeError("mean and cov must not be complex")  # NumPy's check, before the float cast
        m, c = m.astype(np.float64), c.astype(np.float64)
        if m.ndim != 1:
            raise ValueError("mean must be 1 dimensional")
        if c.ndim != 2 or c.shape[0] != c.shape[1]:
            raise ValueError("cov must be 2 dimensional and square")
        if m.shape[0] != c.shape[0]:
            raise ValueError("mean and cov must have same length")
        if method not in ("svd", "eigh", "cholesky"):
            raise ValueError(f"method must be one of {{'eigh', 'svd', 'cholesky'}}, got {method!r}")
        if check_valid not in ("warn", "raise", "ignore"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        factor = _cov_factor(c, method, check_valid, tol)
        d = param_dtype(*(v for v in (mean, cov) if isinstance(v, Array)))
        shape = draw_shape(size) + (m.shape[0],)
        z = self._normals(shape, d, 1)[0]
        return z @ asarray(factor.astype(d.np), device=self._device) + asarray(m.astype(d.np), device=self._device)


def _cov_factor(c: np.ndarray, method: str, check_valid: str, tol: float) -> np.ndarray:
    """``F`` with ``F.T @ F == cov`` (rows of ``z @ F`` then have covariance ``cov``), checking PSD-ness."""
    if method == "cholesky":
        return np.linalg.cholesky(c).T  # raises LinAlgError when cov is not positive definite, as NumPy
    if method == "eigh":
        s, v = np.linalg.eigh(c)
        psd = not (s < -tol).any()
        factor = (v * np.sqrt(np.maximum(s, 0.0))).T
    else:
        u, s, vh = np.linalg.svd(c)
        psd = np.allclose(vh.T * s @ vh, c, rtol=tol, atol=tol)
        factor = np.sqrt(s)[:, None] * vh
    if not psd and check_valid != "ignore":
        message = "covariance is not symmetric positive-semidefinite."
        if check_valid == "raise":
            raise ValueError(message)
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    return factor
