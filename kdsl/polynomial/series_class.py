"""The class behind ``kd.polynomial.Polynomial`` (and ``Chebyshev``, ``Legendre``), NumPy's ``ABCPolyBase``: a
series' coefficients (a kdsl array, lowest degree first) with a ``domain`` mapped onto a ``window`` before the
series is evaluated, arithmetic between series and with numbers, calculus, roots and least-squares ``fit``.

A subclass names its basis' functions (``_val``, ``_add``, ... as static methods, or all at once with
``basis=``) and its default domain and window. ``domain``/``window`` are host arrays (metadata); ``coef``
stays on the device. Arithmetic reads back the length of each result (trailing zeros are dropped, as NumPy's),
``fit`` the rank and, without a ``domain``, the data's extremes; ``str``/``repr`` download the coefficients.

Example:
    >>> import kdsl as kd
    >>> p = kd.polynomial.Polynomial([1.0, 2.0, 3.0])
    >>> p(kd.asarray([0.0, 1.0])).tolist(), (p * p).coef.tolist()[:3], p.deriv().coef.tolist()
    ([1.0, 6.0], [1.0, 4.0, 10.0], [2.0, 6.0])
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

import kdsl as kd
from kdsl.polynomial import polyutils as pu


class SeriesBase:
    """A series in one basis (subclasses fix the basis), with NumPy's ``np.polynomial`` class interface."""

    basis_name: ClassVar[str | None] = None  # NumPy's letter of the basis (None: powers of x)
    domain_default: ClassVar[np.ndarray] = np.array([-1.0, 1.0])
    window_default: ClassVar[np.ndarray] = np.array([-1.0, 1.0])
    maxpower = 100
    __hash__ = None  # type: ignore[assignment]  # mutable coefficients, as NumPy's
    __array_ufunc__ = None  # NumPy defers to our reflected operators (np.float64(2) * p)

    _val: Callable[..., kd.Array]
    _add: Callable[..., kd.Array]
    _sub: Callable[..., kd.Array]
    _mul: Callable[..., kd.Array]
    _div: Callable[..., tuple[kd.Array, kd.Array]]
    _pow: Callable[..., kd.Array]
    _der: Callable[..., kd.Array]
    _int: Callable[..., kd.Array]
    _fit: Callable[..., Any]
    _roots: Callable[..., kd.Array]
    _fromroots: Callable[..., kd.Array]
    _line: Callable[..., kd.Array]
    _recurrence: Callable[[int], tuple[float, float, float]] | None = None  # orthogonal bases (orthogonal.py)

    _BASIS_FUNCTIONS = ("val", "add", "sub", "mul", "div", "pow", "der", "int", "fit", "roots", "fromroots", "line",
                        "recurrence")

    def __init_subclass__(cls, basis: Any = None, **kwargs: Any) -> None:
        """``class Chebyshev(SeriesBase, basis=...)``: the basis' functions (:class:`kdsl.polynomial.orthogonal.
        Basis`) become the class's ``_val``, ``_add``, ..., ``_recurrence``."""
        super().__init_subclass__(**kwargs)
        # NumPy's class attributes (``Polynomial.domain``, ``Laguerre.window``); instances set their own
        setattr(cls, "domain", np.array(cls.domain_default))  # noqa: B010 - instances shadow it (mypy)
        setattr(cls, "window", np.array(cls.window_default))  # noqa: B010
        if basis is not None:
            for name in SeriesBase._BASIS_FUNCTIONS:
                setattr(cls, f"_{name}", staticmethod(getattr(basis, name)))

    def __init__(self, coef: Any, domain: Any = None, window: Any = None, symbol: str = "x") -> None:
        [self.coef] = pu.as_series([coef], trim=False)
        self.domain = self._interval(domain, type(self).domain_default, "Domain")
        self.window = self._interval(window, type(self).window_default, "Window")
        if not isinstance(symbol, str):
            raise TypeError("Symbol must be a non-empty string")
        if not symbol.isidentifier():
            raise ValueError("Symbol string must be a valid Python identifier")
        self._symbol = symbol

    @property
    def symbol(self) -> str:
        """The name of the variable in ``str``/``repr``/LaTeX; read-only, as NumPy's (make a new series with
        ``symbol=`` to change it)."""
        return self._symbol

    @staticmethod
    def _interval(v: Any, default: np.ndarray, name: str) -> np.ndarray:
        """A domain or window as a host array of two numbers (NumPy's ValueError for any other length)."""
        if v is None:
            return default.copy()
        h = np.asarray(v.numpy() if isinstance(v, kd.Array) else v)
        if h.shape != (2,):
            raise ValueError(f"{name} has wrong number of elements.")
        return h.astype(np.result_type(h.dtype, np.float64))

    # ----- metadata
    def has_samecoef(self, other: SeriesBase) -> bool:
        return len(self) == len(other) and bool(kd.all(self.coef == other.coef))

    def has_samedomain(self, other: SeriesBase) -> bool:
        return bool(np.all(self.domain == other.domain))

    def has_samewindow(self, other: SeriesBase) -> bool:
        return bool(np.all(self.window == other.window))

    def has_sametype(self, other: Any) -> bool:
        return isinstance(other, type(self))

    def mapparms(self) -> tuple[Any, Any]:
        """``(off, scl)``: ``off + scl*x`` takes the domain onto the window."""
        return pu.mapparms(self.domain, self.window)

    def degree(self) -> int:
        return len(self) - 1

    def __len__(self) -> int:
        return self.coef.shape[0]

    def __iter__(self) -> Any:
        return iter(self.coef)

    def _new(self, coef: Any) -> SeriesBase:
        return type(self)(coef, self.domain, self.window, self.symbol)

    def copy(self) -> SeriesBase:
        return self._new(self.coef.copy())

    # ----- evaluation
    def __call__(self, arg: Any) -> Any:
        off, scl = self.mapparms()
        if isinstance(arg, SeriesBase):  # composition p(q): a series of q's kind, domain, window and symbol
            one = type(arg)([1.0], arg.domain, arg.window, arg.symbol)
            return self._at_series(one, arg * scl + off)
        x = arg if isinstance(arg, kd.Array) else kd.asarray(np.asarray(arg), device=self.coef.device)
        return type(self)._val(off + scl * x, self.coef)

    def linspace(self, n: int = 100, domain: Any = None) -> tuple[kd.Array, kd.Array]:
        """``n`` evenly spaced points over ``domain`` (default: the series' own) and the series' values there."""
        lo, hi = self.domain if domain is None else np.asarray(domain)
        wide = kd.float64 if self.coef.device.supports(kd.float64) else kd.float32  # NumPy's linspace: float64
        x = kd.linspace(lo, hi, n, dtype=wide, device=self.coef.device)
        return x, self(x)

    # ----- arithmetic
    def _coefficients(self, other: Any) -> Any:
        """``other``'s coefficients when it is a series of the same kind, domain and window; else ``other``."""
        if isinstance(other, SeriesBase):
            if not isinstance(other, type(self)):
                raise TypeError("Polynomial types differ")
            if not self.has_samedomain(other):
                raise TypeError("Domains differ")
            if not self.has_samewindow(other):
                raise TypeError("Windows differ")
            if self.symbol != other.symbol:
                raise ValueError("Polynomial symbols differ")
            return other.coef
        return other

    def _binary(self, op: Callable[..., Any], other: Any, reflected: bool = False) -> Any:
        try:
            c = self._coefficients(other)
            return self._new(op(c, self.coef) if reflected else op(self.coef, c))
        except TypeError as e:
            if isinstance(other, SeriesBase):
                raise
            raise TypeError(f"unsupported operand for {type(self).__name__}: {type(other).__name__}") from e

    def __add__(self, other: Any) -> Any:
        return self._binary(type(self)._add, other)

    def __radd__(self, other: Any) -> Any:
        return self._binary(type(self)._add, other, reflected=True)

    def __sub__(self, other: Any) -> Any:
        return self._binary(type(self)._sub, other)

    def __rsub__(self, other: Any) -> Any:
        return self._binary(type(self)._sub, other, reflected=True)

    def __mul__(self, other: Any) -> Any:
        return self._binary(type(self)._mul, other)

    def __rmul__(self, other: Any) -> Any:
        return self._binary(type(self)._mul, other, reflected=True)

    def __truediv__(self, other: Any) -> Any:
        # NumPy divides by numbers only (a series quotient is // and %)
        if not isinstance(other, numbers.Number) or isinstance(other, bool):
            raise TypeError(f"unsupported types for true division: '{type(self)}', '{type(other)}'")
        return self._new(self.coef / other)

    def __divmod__(self, other: Any) -> tuple[Any, Any]:
        c = self._coefficients(other)
        q, r = type(self)._div(self.coef, c)
        return self._new(q), self._new(r)

    def __rdivmod__(self, other: Any) -> tuple[Any, Any]:
        q, r = type(self)._div(other, self.coef)
        return self._new(q), self._new(r)

    def __floordiv__(self, other: Any) -> Any:
        return divmod(self, other)[0]

    def __rfloordiv__(self, other: Any) -> Any:
        return self.__rdivmod__(other)[0]

    def __mod__(self, other: Any) -> Any:
        return divmod(self, other)[1]

    def __rmod__(self, other: Any) -> Any:
        return self.__rdivmod__(other)[1]

    def __pow__(self, other: Any) -> Any:
        power = int(other)  # NumPy's rule: 2.0 and np.int64(2) are powers; 1.5, -1 and '2' are not
        if power != other or power < 0:
            raise ValueError("Power must be a non-negative integer.")
        return self._new(type(self)._pow(self.coef, power, maxpower=self.maxpower))

    def __neg__(self) -> Any:
        return self._new(-self.coef)

    def __pos__(self) -> Any:
        return self

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, type(self)) and self.has_samedomain(other) and self.has_samewindow(other)
                and self.symbol == other.symbol and self.has_samecoef(other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    # ----- calculus, roots
    def deriv(self, m: int = 1) -> Any:
        """The ``m``-th derivative (same domain and window)."""
        _, scl = self.mapparms()
        return self._new(type(self)._der(self.coef, m, scl))

    def integ(self, m: int = 1, k: Any = (), lbnd: Any = None) -> Any:
        """The ``m``-th antiderivative whose ``i``-th integration is ``k[i]`` at ``lbnd`` (a point of the
        domain; default: the point the window's 0 maps from, as NumPy's)."""
        off, scl = self.mapparms()
        start = 0 if lbnd is None else off + scl * lbnd
        return self._new(type(self)._int(self.coef, m, k, start, 1.0 / scl))

    def roots(self) -> kd.Array:
        """The roots, in the domain's coordinates (sorted in the window's)."""
        r = type(self)._roots(self.coef)
        return pu.mapdomain(r, self.window, self.domain)

    def trim(self, tol: float = 0) -> Any:
        return self._new(pu.trimcoef(self.coef, tol))

    def truncate(self, size: int) -> Any:
        isize = int(size)
        if isize != size or isize < 1:
            raise ValueError("size must be a positive integer")
        return self._new(self.coef[:isize])

    def cutdeg(self, deg: int) -> Any:
        return self.truncate(deg + 1)

    def convert(self, domain: Any = None, kind: Any = None, window: Any = None) -> Any:
        """The same function as a series of ``kind`` (default: this class) on ``domain``/``window`` (defaults:
        ``kind``'s): this series' basis functions built by series arithmetic in ``kind`` (reads back each
        intermediate's length)."""
        kind = type(self) if kind is None else kind
        dom = kind.domain_default if domain is None else domain
        win = kind.window_default if window is None else window
        off, scl = self.mapparms()
        t = kind.identity(dom, win, self.symbol) * scl + off  # this series' window coordinate, as a series
        return self._at_series(kind([1.0], dom, win, self.symbol), t)

    def _at_series(self, one: Any, t: Any) -> Any:
        """This series' sum at the series ``t`` (its window coordinate; ``one`` is 1 in ``t``'s kind): its basis
        functions built by series arithmetic, each scaled by its coefficient."""
        basis = type(self)._basis_values(one, t, len(self))
        result = basis[0] * self.coef[0]
        for i in range(1, len(self)):
            result = result + basis[i] * self.coef[i]
        return result

    @classmethod
    def _basis_values(cls, one: Any, x: Any, n: int) -> list[Any]:
        """The first ``n`` basis functions at ``x`` (any values with arithmetic): powers of ``x``, or the
        basis' three-term recurrence ``B_{k+1} = (alpha_k x + gamma_k) B_k - beta_k B_{k-1}``."""
        values = [one]
        while len(values) < n:
            k = len(values) - 1
            if cls._recurrence is None:
                values.append(values[k] * x)
                continue
            alpha, beta, gamma = cls._recurrence(k)
            step = values[k] * x * alpha + values[k] * gamma
            values.append(step - values[k - 1] * beta if k > 0 else step)
        return values

    # ----- constructors
    @classmethod
    def identity(cls, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The series of ``x`` itself on ``domain`` mapped onto ``window``."""
        dom = cls.domain_default if domain is None else domain
        win = cls.window_default if window is None else window
        off, scl = pu.mapparms(win, dom)
        return cls(cls._line(off, scl), dom, win, symbol)

    @classmethod
    def basis(cls, deg: int, domain: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The ``deg``-th basis function."""
        ideg = int(deg)
        if ideg != deg or ideg < 0:
            raise ValueError("deg must be non-negative integer")
        return cls([0.0] * ideg + [1.0], domain, window, symbol)

    @classmethod
    def fromroots(cls, roots: Any, domain: Any = [], window: Any = None, symbol: str = "x") -> Any:  # noqa: B006
        """The series with these roots (``domain=[]``: the class default; None: the roots' extremes)."""
        [r] = pu.as_series([pu.as_array(roots)], trim=False)
        if domain is None:
            domain = pu.getdomain(r)
        elif isinstance(domain, list) and len(domain) == 0:
            domain = cls.domain_default
        win = cls.window_default if window is None else window
        off, scl = pu.mapparms(domain, win)
        coef = cls._fromroots(off + scl * r) / scl ** r.shape[0]
        return cls(coef, domain, win, symbol)

    @classmethod
    def cast(cls, series: SeriesBase, domain: Any = None, window: Any = None) -> Any:
        return series.convert(domain, cls, window)

    @classmethod
    def fit(cls, x: Any, y: Any, deg: Any, domain: Any = None, rcond: float | None = None, full: bool = False,
            w: Any = None, window: Any = None, symbol: str = "x") -> Any:
        """The least-squares series of degree ``deg`` through ``(x, y)``: ``x`` is mapped from ``domain``
        (default: its extremes, read back; ``[]``: the class default) onto ``window`` first."""
        xs = pu.floating(pu.as_array(x))
        if domain is None:
            domain = pu.getdomain(xs)
            if domain[0] == domain[1]:  # one distinct x: a unit interval around it, as NumPy widens it
                domain = np.array([domain[0] - 1, domain[1] + 1])
        elif isinstance(domain, (list, tuple)) and len(domain) == 0:
            domain = cls.domain_default
        win = cls.window_default if window is None else window
        res = cls._fit(pu.mapdomain(xs, domain, win), y, deg, w=w, rcond=rcond, full=full)
        if full:
            coef, status = res
            return cls(coef, domain, win, symbol), status
        return cls(res, domain, win, symbol)

    # ----- printing
    # NumPy's formatting hooks: one set on a series or defined by a subclass is handed to NumPy's printing
    _PRINT_HOOKS = ("_repr_latex_scalar", "_repr_latex_term", "_str_term_unicode", "_str_term_ascii")

    def _numpy(self) -> Any:
        """NumPy's series of this kind with these (downloaded) coefficients: printing is NumPy's, exactly."""
        kind = getattr(np.polynomial, type(self).__name__, None)
        if kind is None:  # a subclass of kdsl's: NumPy's class of the basis it derives from
            kind = next(getattr(np.polynomial, c.__name__) for c in type(self).__mro__
                        if hasattr(np.polynomial, c.__name__))
        series = kind(self.coef.numpy(), self.domain, self.window, self.symbol)
        for hook in self._PRINT_HOOKS:
            if hook in vars(self) or any(hook in vars(c) for c in type(self).__mro__ if c is not SeriesBase):
                setattr(series, hook, getattr(self, hook))
        return series

    def __repr__(self) -> str:
        return repr(self._numpy())

    def __str__(self) -> str:
        return str(self._numpy())

    def __format__(self, spec: str) -> str:
        return format(self._numpy(), spec)

    def _repr_latex_(self) -> str:
        return self._numpy()._repr_latex_()


__all__ = ["SeriesBase"]
