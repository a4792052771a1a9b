"""``kd.ma``'s elementwise functions and the operators of :class:`MaskedArray`, as ``numpy.ma``'s: the result's
mask is the union of the operands' masks, masked entries keep the first operand's data, and the functions with a
domain mask what falls outside it (``divide`` by zero, ``log`` of x <= 0, ``sqrt`` of x < 0...) and every
non-finite result, as NumPy does. Everything is lazy kdsl arithmetic (``kd.where`` fuses with the op).

``np.sqrt(x)``/``kd.sqrt(x)`` of a masked array run these too (``__array_ufunc__``, ``__kdsl_ufunc__``).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([4.0, -1.0, 0.0, 2.0], mask=[False, False, False, True])
    >>> print(kd.ma.sqrt(x))
    [2.0 -- 0.0 --]
    >>> print(1.0 / x)
    [0.25 -1.0 -- --]
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import MaskError, masked, nomask
from kdsl.ma.domains import UNARY_DOMAINS, safe_divide_domain
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import (
    Casting,
    fill_of,
    keep_data,
    masked_constant_result,
    masked_result,
    parts,
    shrunk,
    strong,
    union,
)
from kdsl.ma.ufunc_calls import UNARY_UFUNCS, unary_call
from kdsl.ma.ufunc_methods import method_call

# ----- unary
_UNARY = ("exp", "sin", "cos", "tanh", "sinh", "cosh", "arctan", "arcsinh", "absolute", "abs", "fabs", "negative",
          "positive", "floor", "ceil", "trunc", "rint", "sign", "logical_not", "conjugate", "invert", "square",
          "exp2", "expm1", "log1p", "cbrt", "reciprocal", "isnan", "isinf", "isfinite", "around", "round", "angle")


def unary(name: str, x: Any, *args: Any, **kwargs: Any) -> Any:
    """``kd.<name>(x)`` on a masked operand, with NumPy's domain masking where ``name`` has a domain."""
    d, m = parts(x)
    if not isinstance(d, kd.Array):
        d = kd.asarray(d)
    result = getattr(kd, name)(d, *args, **kwargs)
    domain = UNARY_DOMAINS.get(name)
    if domain is not None:
        bad = domain(d) | ~kd.isfinite(result)
        m = bad if m is nomask else bad | m
    return masked_result(keep_data(m, d, result), m, fill_of(x))


def _unary_operator(name: str) -> Callable[[Any], Any]:
    """``-x``, ``+x``, ``abs(x)``, ``~x``: NumPy's operators are its ufuncs on the ndarray (not ``np.ma.negative``):
    the data under the mask computed too, an all-False mask array where ``x`` has ``nomask`` (``ufunc_calls.py``)."""
    return lambda self: unary_call(name, self)


def _unary_function(name: str) -> Callable[..., Any]:
    def fn(x: Any, *args: Any, **kwargs: Any) -> Any:
        return unary(name, x, *args, **kwargs)
    fn.__name__ = fn.__qualname__ = name
    domain = " (masked outside its domain, as numpy.ma)" if name in UNARY_DOMAINS else ""
    fn.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of the data, the mask kept{domain}."
    return fn


# ----- binary
_SAFE_DIVIDE = {"divide", "true_divide", "floor_divide", "remainder", "mod", "fmod"}
_BINARY = ("add", "subtract", "multiply", "arctan2", "hypot", "equal", "not_equal", "less", "less_equal",
           "greater", "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
           "bitwise_xor", "left_shift", "right_shift", "maximum", "minimum", "fmax", "fmin", "copysign",
           "nextafter", "logaddexp", "logaddexp2")


def _truth_of_text(x: Any) -> Any:
    """A string (or host text data) as its truth value, as NumPy 2's logical ufuncs take it; others as they are."""
    if isinstance(x, (str, bytes)):
        return bool(x)
    if isinstance(x, (list, tuple, np.ndarray)) and not isinstance(x, np.ma.MaskedArray):
        host = np.asarray(x)
        return host.astype(bool) if host.dtype.kind in "US" else x
    return x


def binary(name: str, a: Any, b: Any, keep: bool = True) -> Any:
    """``kd.<name>(a, b)`` on masked operands (mask: the union; the division family masks its domain). Masked
    entries keep ``a``'s data unless ``keep`` is False (the operators numpy.ma leaves to ndarray's)."""
    if name in ("logical_and", "logical_or", "logical_xor"):  # np.ma.logical_or(x, ""): text's truth, as NumPy's
        a, b = _truth_of_text(a), _truth_of_text(b)
    da, ma = parts(a)
    db, mb = parts(b)
    if (a is masked or b is masked) and keep:  # (ndarray's operators: masked's data and mask, below)
        return masked_constant_result(name, a, da, db, "safe" if name in _SAFE_DIVIDE else "unsafe")
    if keep:  # numpy.ma's own operations read a Python scalar as a 0-d array; ndarray's operators keep it weak
        da, db = strong(da, db)
    result = getattr(kd, name)(da, db)
    m = union(ma, mb, result.shape)
    if name in _SAFE_DIVIDE and not keep:  # ndarray's %: numpy.ma's __array_wrap__ writes remainder's fill (1)
        # where the data are outside the domain and masks them too; non-finite results stay unmasked
        domain = kd.broadcast_to(safe_divide_domain(da, db), result.shape)
        result = kd.where(domain, 1, result).astype(result.dtype)
        return masked_result(result, shrunk(domain if m is nomask else m | domain), fill_of(a, b))
    if name in _SAFE_DIVIDE:
        bad = safe_divide_domain(da, db) | ~kd.isfinite(result)
        bad = bad if bad.shape == result.shape else kd.broadcast_to(bad, result.shape)
        m = bad if m is nomask else m | bad
    if not keep:  # ndarray's operators: NumPy's ufunc wraps the result with the masks' shrunk union
        return masked_result(result, shrunk(m), fill_of(a, b))
    casting: Casting = "safe" if name in _SAFE_DIVIDE else "unsafe"  # (see keep_data)
    return masked_result(keep_data(m, da, result, casting), m, fill_of(a, b))


def power(a: Any, b: Any, third: Any = None) -> Any:
    """NumPy's ``np.ma.power``: masked where either operand is, and where the power is not finite."""
    if third is not None:
        raise MaskError("3-argument power not supported.")
    da, ma = parts(a)
    db, mb = parts(b)
    da, db = strong(da, db)
    result = kd.power(da, db)
    m = union(ma, mb, result.shape)
    result = keep_data(m, da, result)
    invalid = ~kd.isfinite(result)
    m = invalid if m is nomask else m | invalid
    if result.ndim == 0:
        return masked if bool(m) else result
    fill = fill_of(a)  # NumPy's power keeps a's fill value (its _update_from(a); not b's)
    if not bool(kd.any(m)):  # NumPy's mask_or shrinks, and adds ``invalid`` only where some power is: nomask
        return MaskedArray.wrap(result, nomask, fill)  # (one bool read back, as NumPy's invalid.any())
    out = MaskedArray.wrap(result, m, fill)
    return MaskedArray.wrap(kd.where(invalid, out.fill_value.item(), result), m, fill)



def _binary_function(name: str) -> Callable[..., Any]:
    def fn(a: Any, b: Any) -> Any:
        return binary(name, a, b)
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of the data, the union of the masks."
    return fn


def compare(a: MaskedArray, other: Any, op: Callable[[Any, Any], Any]) -> Any:
    """``a == other`` and the other comparisons, as ``MaskedArray``'s: for ``==``/``!=``, entries masked in
    both operands compare equal in the data (NumPy's rule); the mask is the union (``nomask`` where nothing is
    masked, as NumPy's ``mask_or``); ``a``'s fill value carries over as a bool."""
    da, ma = parts(a)
    db, mb = (None, nomask) if other is None else parts(other)  # x == None: NumPy's elementwise False
    if other is masked:  # numpy.ma compares with masked's data (0.0) under its mask: all masked, NumPy's data
        db, mb = kd.zeros((), dtype=da.dtype), kd.ones((), dtype=kd.bool_)
    da, db = strong(da, db)
    check = op(da, db)
    if not isinstance(check, kd.Array):
        check = kd.asarray(check)
    m = shrunk(union(ma, mb, check.shape))
    if m is not nomask and op in (operator.eq, operator.ne):
        fa = ma if ma is not nomask else False
        fb = mb if mb is not nomask else False
        both = op(kd.asarray(fa) if not isinstance(fa, kd.Array) else fa, fb)
        check = kd.where(m, both, check)
    fill = a._fill_value if isinstance(a, MaskedArray) else None
    return masked_result(check, m, None if fill is None else bool(fill))


FUNCTIONS: dict[str, Callable[..., Any]] = {name: _unary_function(name) for name in _UNARY + tuple(UNARY_DOMAINS)}
FUNCTIONS.update({name: _binary_function(name) for name in _BINARY + tuple(sorted(_SAFE_DIVIDE))})
FUNCTIONS["power"] = power


def divmod_(a: Any, b: Any) -> tuple[Any, Any]:
    """``divmod(x, y)`` / ``np.divmod`` of a masked array, as NumPy's: the ufunc on the data with NEP 50's weak
    scalars (int32 data stays int32, unlike ``x // 3``'s strong numpy.ma scalar), both parts masked by the union
    of the masks (no domain mask: ``divmod(x, 0.0)`` is inf and NaN, as NumPy's).

    >>> import kdsl as kd
    >>> q, r = divmod(kd.ma.array([7, 8], mask=[0, 1]), 3)
    >>> q.tolist(), r.tolist()
    ([2, None], [1, None])
    """
    da, ma = parts(a)
    db, mb = parts(b)
    q, r = kd.divmod(da, db)
    m = union(ma, mb, q.shape)
    return masked_result(q, m), masked_result(r, m)


FUNCTIONS["divmod"] = divmod_
FUNCTIONS["absolute"] = FUNCTIONS["abs"] = _unary_function("absolute")
FUNCTIONS["conjugate"] = FUNCTIONS["conj"] = _unary_function("conjugate")


_GUFUNCS = ("matmul", "vecdot", "matvec", "vecmat")


def _check_core_dims(name: str, args: tuple) -> None:
    """NumPy's ValueError for a gufunc operand with too few dimensions (``np.ma.masked @ x``: the masked constant
    is 0-d), raised by NumPy's own gufunc on stand-ins of the operands' shapes (zero strides: no data), before
    kd.ma's "no masked matmul" TypeError, as numpy.ma checks the operands first.

    >>> import kdsl as kd
    >>> kd.ma.masked @ kd.ma.array([1.0, 2.0])
    Traceback (most recent call last):
    ...
    ValueError: matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with signature \
(n?,k),(k,m?)->(n?,m?) requires 1)
    """
    if name not in _GUFUNCS or len(args) != 2 or not any(np.ndim(parts(a)[0]) == 0 for a in args):
        return
    stand_ins = [np.broadcast_to(np.zeros((), np.float64), np.shape(parts(a)[0])) for a in args]
    getattr(np, name)(*stand_ins)  # raises NumPy's ValueError (a 0-d operand never fits a core dimension)


def dispatch(name: str, args: tuple, kwargs: dict, ufunc_call: bool = True) -> Any:
    """A ufunc call ``name(*args, **kwargs)`` with a masked operand (``np.sqrt(x)``, ``kd.add(x, y)``): numpy.ma's
    function, with the mask NumPy's ufunc gives a masked array (its ``__array_wrap__``): a binary one's shrunk to
    ``nomask`` where nothing is masked, a unary one's a full mask array even for ``nomask``."""
    fn = FUNCTIONS.get(name)
    if fn is None:
        _check_core_dims(name, args)
        raise TypeError(f"kd.ma has no masked {name}; use it on x.filled(...) or x.compressed()")
    extra = {k: v for k, v in kwargs.items() if v is not None and not (k == "where" and v is True)
             and k not in ("casting", "order", "subok", "signature")}
    if extra:
        raise TypeError(f"{name} on kd.ma masked arrays takes no {sorted(extra)}")
    if ufunc_call and len(args) == 2 and (name in _BINARY or name in _SAFE_DIVIDE or name == "power"):
        # NumPy's ufunc (its __array_wrap__), not np.ma's function: Python scalars weak (NEP 50), the data under the
        # mask computed, non-finite results unmasked, the division family's domain masked and filled with 1;
        # np.remainder(x, y) is x % y (np.ma.masked % x calls it)
        return binary(name, args[0], args[1], keep=False)
    if ufunc_call and len(args) == 1 and name in UNARY_UFUNCS:  # np.sqrt(x): the ufunc, wrapped (ufunc_calls.py)
        return unary_call(name, args[0])
    out = fn(*args)
    if isinstance(out, MaskedArray) and len(args) == 2:  # NumPy's ufunc wraps the masks' shrunk union
        out._mask = shrunk(out._mask)
    elif isinstance(out, MaskedArray) and out._mask is nomask:  # and one operand's full mask (getmaskarray)
        out._mask = kd.zeros(out.shape, dtype=kd.bool_)
    return out


def _array_ufunc(self: MaskedArray, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
    if method != "__call__":  # np.add.reduce(x), np.multiply.outer(x, y): on the data, as numpy.ma's
        return method_call(ufunc.__name__, method, inputs, kwargs)
    # ndarray / x (a NumPy array or scalar first) reaches here as np.divide(ndarray, x); NumPy's own masked arrays
    # take that operator reflected, as numpy.ma's function (np.ma.divide), so kd.ma does too
    first = inputs[0] if inputs else None
    reflected = isinstance(first, (np.ndarray, np.generic)) and not isinstance(first, np.ma.MaskedArray)
    return dispatch(ufunc.__name__, inputs, kwargs, ufunc_call=not reflected)


def _kdsl_ufunc(name: str, args: tuple, kwargs: dict) -> Any:
    return dispatch(name, args, kwargs)


# np.ma.MaskedArray defines + - * / // ** itself; % & | ^ << >> are ndarray's operators, whose data is the plain
# result everywhere (masked entries do not keep the first operand's data): (a > 1) & (a < 3) under a mask is
# the data's own answer, which a masked condition's data (compress) then gives
_RAW_OPERATORS = ("remainder", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift")


def _operator(name: str, reflected: bool = False) -> Callable[..., Any]:
    fn = FUNCTIONS[name]
    if name in _RAW_OPERATORS:
        if reflected:
            return lambda self, other: binary(name, other, self, keep=False)
        return lambda self, other: binary(name, self, other, keep=False)
    if reflected:
        return lambda self, other: fn(other, self)
    return lambda self, other: fn(self, other)


def _mask_non_finite(x: MaskedArray) -> None:
    """After ``x **= y``: numpy.ma masks the non-finite results (``(-1.1) ** 0.5``, ``0.0 ** -1``) and writes the
    fill value under them, as its ``power`` function masks them."""
    invalid = ~kd.isfinite(x._data)
    kd.copyto(x._data, kd.asarray(x.fill_value, dtype=x._data.dtype), where=invalid)
    if x._mask is nomask:
        x._mask = invalid
    else:
        x._mask[...] = x._mask | invalid


def _inplace(op: str, fill: int | None, domained: bool = False) -> Callable[..., Any]:
    """``x op= y`` as numpy.ma's: the data written in place (its dtype kept), the masks joined; masked entries
    keep their data (``y`` counts as ``fill`` there; with ``fill`` None they are computed too, as NumPy's
    ndarray operator computes ``%=``, ``&=``, ``|=``, ``^=``, ``<<=``, ``>>=`` of a masked array); ``/=`` and ``//=``
    also mask division by zero, ``**=`` the non-finite results."""
    def method(self: MaskedArray, other: Any) -> MaskedArray:
        od, om = parts(other)
        mask = union(self._mask, om, self.shape)
        if domained:
            bad = safe_divide_domain(self._data, od)
            bad = bad if bad.shape == self.shape else kd.broadcast_to(bad, self.shape)
            mask = bad if mask is nomask else mask | bad
        if mask is not nomask:
            od = od if fill is None else kd.where(mask, fill, od)
            if self._mask is nomask:
                self._mask = mask if mask.shape == self.shape else kd.broadcast_to(mask, self.shape).copy()
            elif mask is not self._mask:  # in place, as NumPy's: the mask object (and views of it) stays
                self._mask[...] = mask
        self._data = getattr(self._data, f"__i{op}__")(od)
        if op == "pow" and kd.isdtype(self._data.dtype, ("real floating", "complex floating")):
            _mask_non_finite(self)
        return self
    method.__name__ = f"__i{op}__"
    return method


def round_(a: Any, decimals: int = 0, out: Any = None) -> Any:
    """NumPy's ``np.ma.round`` (``round_``): a masked ``a`` rounded as ``a.round(decimals, out)``; a plain one
    (not masked) is ``kd.round``'s plain array, as NumPy's gives an ndarray for an ndarray or a list.

    >>> import kdsl as kd
    >>> type(kd.ma.round(kd.asarray([1.25, 2.5]), 1)).__name__, kd.ma.round(kd.ma.array([1.5], mask=[1])).tolist()
    ('Array', [None])
    """
    if isinstance(a, MaskedArray):
        return _round_method(a, decimals, out)
    if a is masked and out is None:  # NumPy's masked.round(): masked
        return masked
    return kd.round(a if isinstance(a, kd.Array) else kd.asarray(a), decimals, out=out)


FUNCTIONS["round_"] = FUNCTIONS["round"] = round_  # NumPy's round is round_ too


def clip(a: Any, a_min: Any = None, a_max: Any = None) -> MaskedArray:
    """NumPy's clip of masked operands (``np.ma.clip``, ``x.clip``: its clip ufunc's masked result): the data
    clipped by the bounds' data, masked where ``a`` or a masked bound is (``nomask`` where nothing is), with the
    first masked operand's fill value.

    >>> import kdsl as kd
    >>> print(clip(kd.asarray([1.0, -2.0, 3.0]), -1.0, kd.ma.array([5.0, 5.0, 0.0], mask=[0, 0, 1])))
    [1.0 -1.0 --]
    """
    (da, ma), (lo, ml), (hi, mh) = parts(a), _bound(a_min), _bound(a_max)
    data = kd.clip(da if isinstance(da, kd.Array) else kd.asarray(da), lo, hi)
    mask = shrunk(union(union(ma, ml, data.shape), mh, data.shape))
    return MaskedArray.wrap(data, mask, fill_of(a, a_min, a_max))


def _bound(x: Any) -> tuple[Any, Any]:
    return (None, nomask) if x is None else parts(x)


def _round_method(self: MaskedArray, decimals: int = 0, out: Any = None) -> Any:
    """``x.round(decimals, out=)`` as numpy.ma's: a kd.ma ``out`` takes the rounded data and the mask, a kdsl
    array the rounded data (NumPy rounds the data under the mask too); ``out`` is returned."""
    if out is None:  # NumPy rounds the data under the mask too (its ndarray round, the mask carried over)
        return masked_result(kd.round(self._data, decimals), self._mask, self._fill_value)
    if not isinstance(out, (MaskedArray, kd.Array)):
        raise TypeError("round(out=...) must be a kdsl Array or a kd.ma masked array (a NumPy out would mean a "
                        "copy to the host)")
    data = kd.round(self._data, decimals)
    out[...] = MaskedArray.wrap(data, kd.ma.getmaskarray(self)) if isinstance(out, MaskedArray) else data
    return out


def _bind() -> None:
    """Bind the operators and ufunc protocols as :class:`MaskedArray`'s methods."""
    cls: Any = MaskedArray
    for op, fill, domained in (("add", 0, False), ("sub", 0, False), ("mul", 1, False), ("truediv", 1, True),
                               ("floordiv", 1, True), ("pow", 1, False)):
        setattr(cls, f"__i{op}__", _inplace(op, fill, domained))
    for op in ("mod", "and", "or", "xor", "lshift", "rshift"):  # in place (views see it), not Python's m = m % y
        setattr(cls, f"__i{op}__", _inplace(op, None))
    cls.__divmod__ = lambda self, other: divmod_(self, other)
    cls.__rdivmod__ = lambda self, other: divmod_(other, self)
    for op, name in (("add", "add"), ("sub", "subtract"), ("mul", "multiply"), ("truediv", "true_divide"),
                     ("floordiv", "floor_divide"), ("mod", "remainder"), ("and", "bitwise_and"),
                     ("or", "bitwise_or"), ("xor", "bitwise_xor"), ("lshift", "left_shift"),
                     ("rshift", "right_shift")):
        setattr(cls, f"__{op}__", _operator(name))
        setattr(cls, f"__r{op}__", _operator(name, True))
    cls.__pow__ = lambda self, other: power(self, other)
    cls.__rpow__ = lambda self, other: power(other, self)
    for op, name in (("neg", "negative"), ("pos", "positive"), ("abs", "absolute"), ("invert", "invert")):
        setattr(cls, f"__{op}__", _unary_operator(name))
    for op in ("eq", "ne", "lt", "le", "gt", "ge"):
        setattr(cls, f"__{op}__", (lambda f: lambda self, other: compare(self, other, f))(getattr(operator, op)))
    cls.round = _round_method
    cls.clip = lambda self, min=None, max=None: clip(self, min, max)
    cls.nonzero = lambda self: kd.nonzero(self.filled(0))  # numpy.ma: the unmasked nonzero entries
    cls.__hash__ = None
    cls.__array_ufunc__ = _array_ufunc
    cls.__kdsl_ufunc__ = staticmethod(_kdsl_ufunc)


_bind()
