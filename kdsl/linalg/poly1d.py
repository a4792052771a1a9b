"""NumPy's ``poly1d`` class (``kd.poly1d``): a polynomial held as a kdsl coefficient array (highest power
first, leading zeros dropped), with NumPy's arithmetic, evaluation, ``deriv``/``integ``, ``roots`` and
printed form. The arithmetic is kdsl's polynomial functions (``kd.polyadd``, ``kd.polymul``, ``kd.polydiv``,
``kd.polyval``, ...) on the device; dropping leading zeros reads back where the first non-zero coefficient is
(one sync per new polynomial), and ``str``/``repr``/``==`` read the coefficients back.

Example:
    >>> import kdsl as kd
    >>> p = kd.poly1d([1.0, -3.0, 2.0])
    >>> print(p)
       2
    1 x - 3 x + 2
    >>> p(kd.asarray([0.0, 1.0, 3.0])).tolist(), p.order, sorted(round(r, 5) for r in p.roots.tolist())
    ([2.0, 0.0, 2.0], 2, [1.0, 2.0])
"""

from __future__ import annotations

import operator
import re
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.linalg.poly_roots import poly, roots

_POWER = re.compile(r"\*\*([0-9]*)")
WRAP = 70  # NumPy's line width for the printed form


def _fmt_real(q: float) -> str:
    s = f"{q:.4g}"
    return s[:-5] if s.endswith(".0000") else s


def _fmt_coefficient(c: complex) -> str:
    """One coefficient as NumPy prints it: real, ``<imag>j``, or ``(<real> + <imag>j)`` (sign kept inside)."""
    if c.imag == 0:
        return _fmt_real(c.real)
    if c.real == 0:
        return f"{_fmt_real(c.imag)}j"
    return f"({_fmt_real(c.real)} + {_fmt_real(c.imag)}j)"


def _term(coefficient: str, var: str, power: int, first: bool) -> str:
    if coefficient == "0":
        return "0" if power == 0 and first else ""
    if power == 0:
        return coefficient
    return f"{coefficient} {var}" if power == 1 else f"{coefficient} {var}**{power}"


def _one_line(coeffs: np.ndarray, var: str) -> str:
    """``1 x**2 - 3 x + 2``: the terms joined, minus signs pulled out of the terms."""
    out = "0"
    top = len(coeffs) - 1
    for k, c in enumerate(coeffs):
        text = _term(_fmt_coefficient(complex(c)), var, top - k, k == 0)
        if k == 0:
            out = text
        elif text:
            out += f" - {text[1:]}" if text.startswith("-") else f" + {text}"
    return out


def _raise_powers(text: str, wrap: int = WRAP) -> str:
    """The one-line form with each ``**n`` moved to a line above its term, wrapped at ``wrap`` columns."""
    upper, lower, out, pos = "", "", " ", 0
    for match in _POWER.finditer(text):
        part, power = text[pos:match.start()], match.group(1)
        pos = match.end()
        add_lower = part + " " * (len(power) - 1)
        add_upper = " " * (len(part) - 1) + power
        if len(lower) + len(add_lower) > wrap or len(upper) + len(add_upper) > wrap:
            out += f"{upper}\n{lower}\n "
            upper, lower = add_upper, add_lower
        else:
            upper, lower = upper + add_upper, lower + add_lower
    return f"{out}{upper}\n{lower}{text[pos:]}"


def _is_scalar(x: Any) -> bool:
    return np.isscalar(x)


class poly1d:  # noqa: N801 - NumPy's name
    """A one-variable polynomial: ``poly1d(c)`` from coefficients (highest power first), ``poly1d(r,
    r=True)`` from roots; ``variable`` names the variable in the printed form (default ``'x'``)."""

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as NumPy's

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._coeffs: kd.Array = c_or_r._coeffs
            self._variable: str = variable if variable is not None else c_or_r._variable
            return
        if r:
            c_or_r = poly(c_or_r)
        c = kd.atleast_1d(c_or_r if isinstance(c_or_r, kd.Array) else kd.asarray(c_or_r))
        if c.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        c = kd.trim_zeros(c, trim="f")
        self._coeffs = kd.zeros(1, dtype=c.dtype, device=c.device) if c.shape[0] == 0 else c
        self._variable = "x" if variable is None else variable

    # the coefficients and NumPy's aliases
    @property
    def coeffs(self) -> kd.Array:
        """The coefficients, highest power first (a kdsl array); ``p.coeffs += 1`` changes them in place, as
        in NumPy, and assigning another array raises NumPy's AttributeError."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value: kd.Array) -> None:
        if value is not self._coeffs:  # only the in-place operators' own array comes back
            raise AttributeError("Cannot set attribute")

    c = coef = coefficients = coeffs

    @property
    def variable(self) -> str:
        return self._variable

    @property
    def order(self) -> int:
        """The degree: the number of coefficients minus one."""
        return self._coeffs.shape[0] - 1

    o = order

    @property
    def roots(self) -> kd.Array:
        """The roots (:func:`kdsl.roots`: the companion matrix's eigenvalues)."""
        return roots(self._coeffs)

    r = roots

    def __kdsl_array__(self) -> kd.Array:
        """The coefficients, for kdsl functions given a poly1d (``kd.square(p)``, ``kd.polyder(p)``: no copy)."""
        return self._coeffs

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self._coeffs.numpy(), dtype=dtype)

    def __repr__(self) -> str:
        # the values as NumPy's array repr shows them (wrapped as after "array("), without a dtype suffix
        host = np.asarray(self._coeffs.numpy())
        return f"poly1d({np.array2string(host, separator=', ', prefix='array(')})"

    def __str__(self) -> str:
        host = np.asarray(self._coeffs.numpy())
        host = host[np.logical_or.accumulate(host != 0)]
        return _raise_powers(_one_line(host, self._variable))

    def __len__(self) -> int:
        return self.order

    def __call__(self, val: Any) -> Any:
        if isinstance(val, poly1d):  # composition, by Horner's rule on polynomials
            out = poly1d(self._coeffs[:1])
            for k in range(1, self._coeffs.shape[0]):
                out = out * val + poly1d(self._coeffs[k:k + 1])
            return out
        return kd.polyval(self._coeffs, val)

    def __neg__(self) -> poly1d:
        return poly1d(-self._coeffs)

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other: Any) -> poly1d:
        if _is_scalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(kd.polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other: Any) -> poly1d:
        if _is_scalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(kd.polymul(poly1d(other)._coeffs, self._coeffs))

    def __add__(self, other: Any) -> poly1d:
        return poly1d(kd.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other: Any) -> poly1d:
        return poly1d(kd.polyadd(poly1d(other)._coeffs, self._coeffs))

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(kd.polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(kd.polysub(poly1d(other)._coeffs, self._coeffs))

    def __pow__(self, val: Any) -> poly1d:
        if not _is_scalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        out = poly1d([1])
        for _ in range(int(val)):
            out = poly1d(kd.polymul(self._coeffs, out._coeffs))
        return out

    def __truediv__(self, other: Any) -> Any:
        if _is_scalar(other):
            return poly1d(self._coeffs / other)
        q, rem = kd.polydiv(self._coeffs, poly1d(other)._coeffs)
        return poly1d(q), poly1d(rem)

    def __rtruediv__(self, other: Any) -> Any:
        if _is_scalar(other):
            return poly1d(other / self._coeffs)
        q, rem = kd.polydiv(poly1d(other)._coeffs, self._coeffs)
        return poly1d(q), poly1d(rem)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return bool(kd.all(self._coeffs == other._coeffs))

    def __ne__(self, other: object) -> bool:
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    def __getitem__(self, val: int) -> kd.Array:
        """The coefficient of ``x**val`` (0 for powers beyond the order or negative, as NumPy's)."""
        power = operator.index(val)
        if power > self.order or power < 0:
            return kd.zeros((), dtype=self._coeffs.dtype, device=self._coeffs.device)
        return self._coeffs[self.order - power]

    def __setitem__(self, key: int, val: Any) -> None:
        power = operator.index(key)
        if power < 0:
            raise ValueError("Does not support negative powers.")
        c = self._coeffs
        if power > self.order:
            c = kd.concatenate([kd.zeros(power - self.order, dtype=c.dtype, device=c.device), c])
        at = kd.arange(c.shape[0], device=c.device) == (c.shape[0] - 1 - power)
        self._coeffs = kd.where(at, kd.asarray(val, dtype=c.dtype, device=c.device), c)

    def __iter__(self) -> Any:
        return iter(self._coeffs)

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative."""
        return poly1d(kd.polyder(self._coeffs, m))

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative, with integration constants ``k`` (as :func:`kdsl.polyint`)."""
        return poly1d(kd.polyint(self._coeffs, m, k))


__all__ = ["poly1d"]
