"""The noncentral chi-square and F distributions on the device, as Poisson mixtures of central ones.

A noncentral chi-square with ``df`` degrees of freedom and noncentrality ``nonc`` is a central chi-square with
``df + 2K`` degrees of freedom, ``K ~ Poisson(nonc / 2)``: one Poisson count (:mod:`poisson_sampling`, no kernel
loop) feeds one gamma draw (:mod:`gamma_sampling`), for every ``df > 0`` (``nonc = 0`` gives ``K = 0``, the
central law). ``noncentral_f`` divides it by an independent central chi-square, each scaled by its degrees of
freedom.

Example:
    >>> import kdsl as kd
    >>> x = kd.random.default_rng(0).noncentral_chisquare(3.0, 2.0, size=20_000).numpy()
    >>> bool(abs(x.mean() - 5.0) < 0.15)
    True
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.poisson_sampling import PoissonDistributions
from kdsl.frontend.array.random_draws import (
    Size,
    draw_shape,
    host_nonnegative,
    host_positive,
    param_dtype,
    param_operand,
)


class NoncentralDistributions(PoissonDistributions):
    """``noncentral_chisquare`` and ``noncentral_f`` (mixed into :class:`kdsl.random.Generator`)."""

    def _noncentral_chi2(self, df: Any, nonc: Any, shape: tuple[int, ...], d: dt.DType) -> Array:
        half = self._const(0.5, d)
        k = self._poisson_device(param_operand(nonc, d, self._device) * half, shape, d)
        return self._gamma_values(param_operand(df, d, self._device) * half + k, shape, d) * self._const(2.0, d)

    def noncentral_chisquare(self, df: Any, nonc: Any, size: Size = None) -> Array:
        """Noncentral chi-square floats (``df > 0``, ``nonc >= 0``; broadcast against ``size``).

        >>> import kdsl as kd
        >>> kd.random.default_rng(1).noncentral_chisquare([1.0, 4.0], 0.5, size=(3, 2)).shape
        (3, 2)
        >>> kd.random.default_rng(1).noncentral_chisquare(0.0, 1.0)
        Traceback (most recent call last):
        ...
        ValueError: df <= 0
        """
        host_positive(df, "df")
        host_nonnegative(nonc, "nonc")
        d = param_dtype(df, nonc)
        return self._noncentral_chi2(df, nonc, draw_shape(size, df, nonc), d)

    def noncentral_f(self, dfnum: Any, dfden: Any, nonc: Any, size: Size = None) -> Array:
        """Noncentral F floats: ``(noncentral_chisquare(dfnum, nonc) / dfnum) / (chisquare(dfden) / dfden)``.

        >>> import kdsl as kd
        >>> bool((kd.random.default_rng(2).noncentral_f(3.0, 20.0, 3.0, size=100).numpy() > 0).all())
        True
        """
        host_positive(dfnum, "dfnum")
        host_positive(dfden, "dfden")
        host_nonnegative(nonc, "nonc")
        d = param_dtype(dfnum, dfden, nonc)
        shape = draw_shape(size, dfnum, dfden, nonc)
        num, den = param_operand(dfnum, d, self._device), param_operand(dfden, d, self._device)
        top = self._noncentral_chi2(num, nonc, shape, d)
        bottom = self._gamma_values(den * self._const(0.5, d), shape, d) * self._const(2.0, d)
        return (top * den) / (bottom * num)
