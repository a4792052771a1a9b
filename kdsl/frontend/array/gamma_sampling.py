"""The gamma family on the device: ``standard_gamma``, ``gamma``, ``beta``, ``chisquare``, ``standard_t``, ``f``,
``dirichlet``.

Gamma variates use Marsaglia and Tsang's squeeze-free rejection method (2000) with a *fixed* number of candidates
drawn in parallel, so a kernel never loops: for shape ``a >= 1`` let ``d = a - 1/3``, ``c = 1/sqrt(9 d)``; a
candidate is a standard normal ``z`` and a uniform ``u`` in (0, 1), ``v = (1 + c z)**3``, accepted when ``v > 0``
and ``log u < z**2 / 2 + d - d v + d log v``; the value is ``d v``. Every candidate is computed and the first
accepted one is kept; the 16 candidates come in 2 rounds of 8, one small kernel per round that compiles once
(``_first_accepted``). A candidate is accepted with probability at least 0.95 for every ``a >= 1`` (the minimum,
about 0.951, is at ``a = 1``), so with 16 candidates all are rejected with probability below
``0.05**16 < 2e-21`` per element; then the result is the fixed value ``d`` (the mode of the proposal), a
well-defined fallback that no test can observe. ``a < 1`` draws ``Gamma(a + 1) * u**(1/a)`` (the boosting identity),
evaluated as ``exp(log u / a)``; ``a = 0`` gives 0 as in NumPy.

``beta`` and ``dirichlet`` combine the gammas in log space (``log Gamma = log(d v) + log(u) / a``), so tiny shapes
whose gammas underflow still give a valid Beta/Dirichlet variate instead of 0/0.

Floats are float32 (kdsl's default) unless a parameter is a float64 kdsl array or ``dtype=float64`` is asked.

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).gamma(2.0, 3.0, size=20_000).numpy()
    >>> bool(abs(x.mean() - 6.0) < 0.3)
    True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.ops import where
from kdsl.frontend.array.random_draws import (
    PhiloxDraws,
    Size,
    draw_float_dtype,
    draw_shape,
    host_nonnegative,
    host_positive,
    out_request,
    param_dtype,
    param_operand,
    store_out,
)

PER_ROUND, ROUNDS = 8, 2  # 16 Marsaglia-Tsang candidates per output: all rejected with probability < 0.05**16


class GammaDistributions(PhiloxDraws):
    """NumPy's gamma-family methods (mixed into :class:`kdsl.random.Generator` and ``RandomState``)."""

    def _log_gamma(self, shape_param: Any, shape: tuple[int, ...], d: dt.DType) -> tuple[Array, Array]:
        """``(log(d v), log_boost)`` for Gamma(``shape_param``): the variate is ``exp`` of their sum (see the
        module docstring); kept apart so callers can multiply ``d v`` directly (no exp/log rounding)."""
        a = param_operand(shape_param, d, self._device).realize()  # a random shape is computed once, not per round
        one, zero, half = self._const(1.0, d), self._const(0.0, d), self._const(0.5, d)
        small = a < one
        a1 = where(small, a + one, a)
        dd = a1 - self._const(1.0 / 3.0, d)
        c = km.rsqrt(dd * self._const(9.0, d))
        nan = self._const(float("nan"), d)

        def one_round() -> Array:
            zs = self._normals(shape, d, PER_ROUND)
            us = self._open_unit(shape, d, PER_ROUND)
            pick = nan
            for z, u in reversed(list(zip(zs, us, strict=True))):
                t = c * z + one
                v = t * t * t
                ok = (v > zero) & (km.log(u) < z * z * half + dd - dd * v + dd * km.log(v))
                pick = where(ok, dd * v, pick)
            return pick

        out = self._first_accepted(shape, d, ROUNDS, one_round, dd)  # fallback (p < 2e-21): the proposal's mode
        boost = where(small, km.log(self._open_unit(shape, d)[0]) / a, zero)  # a = 0: log(u)/0 = -inf, exp -> 0
        return out, boost

    def _gamma_values(self, shape_param: Any, shape: tuple[int, ...], d: dt.DType) -> Array:
        base, boost = self._log_gamma(shape_param, shape, d)
        return base * km.exp(boost)

    def standard_gamma(self, shape: Any, size: Size = None, dtype: Any = None, out: Any = None) -> Array:
        """Gamma(``shape``, 1) floats (Marsaglia-Tsang with 16 candidates: module docstring); ``out``:
        an array to fill, as NumPy's.

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).standard_gamma([0.5, 2.0], size=(3, 2)).shape
        (3, 2)
        """
        host_nonnegative(shape, "shape")
        size, dtype = out_request(out, size, dtype)
        d = draw_float_dtype(dtype, self._device) if dtype is not None else param_dtype(shape)
        return store_out(out, self._gamma_values(shape, draw_shape(size, shape), d))

    def gamma(self, shape: Any, scale: Any = 1.0, size: Size = None) -> Array:
        """Gamma(``shape``, ``scale``) floats (mean ``shape * scale``)."""
        host_nonnegative(shape, "shape")
        host_nonnegative(scale, "scale")
        d = param_dtype(shape, scale)
        g = self._gamma_values(shape, draw_shape(size, shape, scale), d)
        return g * param_operand(scale, d, self._device)

    def beta(self, a: Any, b: Any, size: Size = None) -> Array:
        """Beta(``a``, ``b``) floats in [0, 1], from two gammas combined in log space (tiny ``a``, ``b`` are safe).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(2).beta(0.01, 0.01, size=1000).numpy()
        >>> bool(((x >= 0) & (x <= 1)).all())
        True
        """
        host_positive(a, "a")
        host_positive(b, "b")
        d = param_dtype(a, b)
        shape = draw_shape(size, a, b)
        ga, ba = self._log_gamma(a, shape, d)
        gb, bb = self._log_gamma(b, shape, d)
        # X / (X + Y) = sigmoid(log X - log Y)
        x = km.sigmoid(km.log(ga) + ba - km.log(gb) - bb)
        return self._beta_underflow(a, b, shape, d, x)

    def _beta_underflow(self, a: Any, b: Any, shape: tuple[int, ...], d: dt.DType, x: Array) -> Array:
        """``x`` where host ``a`` and ``b`` both become 0 in ``d`` (below its normal range: -inf - -inf would be
        NaN) replaced by their limit law: 1 with probability ``a / (a + b)`` (from float64 on the host), else 0.
        As a, b -> 0, log X ~ -E_a / a and log Y ~ -E_b / b with E_a, E_b ~ Exp(1), and P(E_a / a < E_b / b) is
        a / (a + b). Parameters that do not underflow (and kdsl arrays) leave ``x`` unchanged, with no extra draw.

        >>> import kdsl as kd, numpy as np
        >>> tiny = np.finfo(np.float64).tiny
        >>> x = kd.random.default_rng(0).beta(tiny / 32, tiny / 40, size=2000).numpy()
        >>> bool(np.isin(x, [0.0, 1.0]).all()), bool(0.5 < x.mean() < 0.61)  # a / (a + b) = 0.556
        (True, True)
        """
        if isinstance(a, Array) or isinstance(b, Array):
            return x
        ah, bh = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
        normal = np.finfo(d.np).tiny  # below it a shader may flush to 0 (subnormals are not kept on every device)
        both_zero = (ah < normal) & (bh < normal)
        if not both_zero.any():
            return x
        share = param_operand(np.where(both_zero, ah / (ah + bh), 0.0), d, self._device)
        coin = where(self._open_unit(shape, d)[0] < share, self._const(1.0, d), self._const(0.0, d))
        return where(param_operand(both_zero, dt.bool_, self._device), coin, x)

    def chisquare(self, df: Any, size: Size = None) -> Array:
        """Chi-square floats with ``df`` degrees of freedom (``2 * Gamma(df / 2)``)."""
        host_positive(df, "df")
        d = param_dtype(df)
        return self._gamma_values(param_operand(df, d, self._device) * 0.5, draw_shape(size, df), d) * 2.0

    def standard_t(self, df: Any, size: Size = None) -> Array:
        """Student's t floats with ``df`` degrees of freedom (``Z / sqrt(chisquare(df) / df)``)."""
        host_positive(df, "df")
        d = param_dtype(df)
        shape = draw_shape(size, df)
        nu = param_operand(df, d, self._device)
        z = self._normals(shape, d, 1)[0]
        return z * km.rsqrt(self._gamma_values(nu * 0.5, shape, d) * 2.0 / nu)

    def f(self, dfnum: Any, dfden: Any, size: Size = None) -> Array:
        """Fisher's F floats (the ratio of two scaled chi-squares, combined in log space)."""
        host_positive(dfnum, "dfnum")
        host_positive(dfden, "dfden")
        d = param_dtype(dfnum, dfden)
        shape = draw_shape(size, dfnum, dfden)
        num, den = param_operand(dfnum, d, self._device), param_operand(dfden, d, self._device)
        half = self._const(0.5, d)
        ga, ba = self._log_gamma(num * half, shape, d)
        gb, bb = self._log_gamma(den * half, shape, d)
        return km.exp(km.log(ga) + ba - km.log(gb) - bb) * (den / num)

    def dirichlet(self, alpha: Any, size: Size = None) -> Array:
        """Dirichlet floats of shape ``size + (len(alpha),)``; each row sums to 1. ``alpha`` (1-D) is read on the
        host to check it, as NumPy does; the gammas are normalised in log space (tiny ``alpha`` are safe).

        >>> import kdsl as kd
        >>> x = kd.random.default_rng(3).dirichlet([1.0, 2.0, 3.0], size=4)
        >>> x.shape, bool(abs(x.numpy().sum(-1) - 1).max() < 1e-5)
        ((4, 3), True)
        """
        host = np.asarray(alpha.numpy() if isinstance(alpha, Array) else alpha, dtype=np.float64)
        if host.ndim != 1:
            raise ValueError(f"alpha must be a one-dimensional sequence (got shape {host.shape})")
        if host.size and not (host >= 0).all():
            raise ValueError("alpha < 0")
        d = dt.float64 if isinstance(alpha, Array) and alpha.dtype is dt.float64 else dt.float32
        shape = draw_shape(size) + (host.shape[0],)
        if host.shape[0] == 0:
            return self._unit(shape, d)[0]
        base, boost = self._log_gamma(host.astype(d.np), shape, d)
        logs = km.log(base) + boost  # alpha = 0: -inf, that component is 0 (NumPy 2's Generator)
        top = logs.max(axis=-1, keepdims=True)
        w = km.exp(logs - where(km.isfinite(top), top, 0.0))
        total = w.sum(axis=-1, keepdims=True)
        return w / where(total > 0, total, 1.0)  # every alpha 0: all components 0, as NumPy (not 0/0)
