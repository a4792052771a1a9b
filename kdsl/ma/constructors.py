"""``kd.ma``'s constructors: ``array``/``masked_array``, ``zeros``/``ones``/``empty``/``arange`` and the
``masked_*`` family that masks by a condition on the data (all lazy: the condition is a kdsl expression).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.masked_greater(kd.arange(5), 2)
    >>> print(x)
    [0 1 2 -- --]
    >>> x.count()
    np.int64(3)
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray, as_mask_array
from kdsl.ma.operands import parts


def array(data: Any, dtype: Any = None, copy: bool = False, order: Any = None, mask: Any = nomask,
          fill_value: Any = None, keep_mask: bool = True, hard_mask: bool = False, shrink: bool = True,
          subok: bool = True, ndmin: int = 0) -> MaskedArray:
    """NumPy's ``np.ma.array``: a masked array of ``data`` (array-like, kdsl or NumPy, masked or not)."""
    out = MaskedArray(data, mask=mask, dtype=dtype, copy=copy, fill_value=fill_value, keep_mask=keep_mask,
                      hard_mask=hard_mask)
    while out.ndim < ndmin:
        out = out.reshape((1,) + tuple(out.shape))
    return out


masked_array = MaskedArray


def _filled_like(fn: Any, name: str) -> Any:
    def make(shape: Any, dtype: Any = float, **kwargs: Any) -> MaskedArray:
        if dtype is float:
            dtype = None
        data = fn(shape, dtype=dtype, **{k: v for k, v in kwargs.items() if k not in ("order", "like")})
        return MaskedArray.wrap(data)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = (f"NumPy's ``np.ma.{name}``: ``kd.{name}`` as a masked array with nothing masked (the default "
                    "dtype is kdsl's default float, as kd.{name}'s).")
    return make


zeros = _filled_like(kd.zeros, "zeros")
ones = _filled_like(kd.ones, "ones")
empty = _filled_like(kd.empty, "empty")


def identity(n: int, dtype: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.identity``: ``kd.identity(n)`` with nothing masked (kdsl's default float)."""
    return MaskedArray.wrap(kd.identity(n, dtype=dtype))


def frombuffer(buffer: Any, dtype: Any = float, count: int = -1, offset: int = 0) -> MaskedArray:
    """NumPy's ``np.ma.frombuffer``: ``kd.frombuffer`` with nothing masked."""
    return MaskedArray.wrap(kd.frombuffer(buffer, dtype=dtype, count=count, offset=offset))


def arange(*args: Any, **kwargs: Any) -> MaskedArray:
    """NumPy's ``np.ma.arange``: ``kd.arange`` with nothing masked."""
    return MaskedArray.wrap(kd.arange(*args, **kwargs))


def _like(name: str) -> Any:
    def make(a: Any, dtype: Any = None, **kwargs: Any) -> MaskedArray:
        data, mask = parts(a)
        return MaskedArray.wrap(getattr(kd, name)(data, dtype=dtype), mask)
    make.__name__ = make.__qualname__ = name
    make.__doc__ = f"NumPy's ``np.ma.{name}``: ``kd.{name}`` of the data, the mask kept."
    return make


zeros_like, ones_like, empty_like = _like("zeros_like"), _like("ones_like"), _like("empty_like")


def masked_all(shape: Any, dtype: Any = float) -> MaskedArray:
    """NumPy's ``np.ma.masked_all``: every entry masked (the data zeros; kdsl's default float, as ``kd.zeros``).

    >>> import kdsl as kd
    >>> x = kd.ma.masked_all((2, 3))
    >>> x.count(), x.shape
    (np.int64(0), (2, 3))
    """
    data = kd.zeros(shape, dtype=None if dtype is float else dtype)
    return MaskedArray.wrap(data, kd.ones(data.shape, dtype=kd.bool_))


def masked_all_like(arr: Any) -> MaskedArray:
    """NumPy's ``np.ma.masked_all_like``: every entry masked, ``arr``'s shape and dtype."""
    data, _ = parts(arr)
    if not isinstance(data, kd.Array):
        data = kd.asarray(data)
    return MaskedArray.wrap(kd.zeros_like(data), kd.ones(data.shape, dtype=kd.bool_))


def masked_where(condition: Any, a: Any, copy: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_where``: ``a`` masked where ``condition`` (joined with ``a``'s own mask); nomask
    where nothing is (and ``a`` has no mask array), as NumPy's.

    >>> import kdsl as kd
    >>> kd.ma.masked_where(kd.asarray([False, False]), kd.asarray([1.0, 2.0])).mask is kd.ma.nomask
    True
    """
    return _masked_where(condition, a, copy, shrink=True)


def _masked_where(condition: Any, a: Any, copy: bool, shrink: bool) -> MaskedArray:
    """:func:`masked_where`; ``shrink=False`` keeps the condition as the mask (no read back)."""
    if isinstance(copy, str):  # NumPy 2's copy= takes True/False/None only
        raise ValueError("strings are not allowed for 'copy' keyword. Use True/False/None instead.")
    data, mask = parts(a)
    if not isinstance(data, kd.Array):
        data = kd.asarray(data)
    cond, cmask = parts(condition)
    cshape = tuple(kd.asarray(cond).shape)
    if cshape and cshape != tuple(data.shape):  # NumPy's rule: a scalar condition broadcasts, nothing else
        raise IndexError(f"Inconsistent shape between the condition and the input (got {cshape} and "
                         f"{tuple(data.shape)})")
    cond = as_mask_array(cond, tuple(data.shape))
    if cmask is not nomask:
        cond = cond | cmask
    if mask is not nomask:
        cond = cond | mask
    # NumPy assigns the shrunk condition: nomask where nothing is masked (one bool read back, as NumPy's
    # m.any()), unless ``a`` has a mask array, which that assignment fills with False and keeps
    shrink = shrink and mask is nomask and not bool(kd.any(cond))
    if not copy and isinstance(a, MaskedArray):  # NumPy's view of ``a``, whose own mask gains the condition
        result = a.view()
        if shrink:
            return result
        result.mask = cond  # in place where ``a`` has a mask
        if a._mask is nomask:
            a._mask = result._mask
        return result
    fill = a._fill_value if isinstance(a, MaskedArray) else None
    return MaskedArray.wrap(data.copy() if copy else data, nomask if shrink else cond, fill)


def _set_fill(out: MaskedArray, value: Any) -> None:
    """``out.fill_value = value`` for a scalar ``value``; an array ``value`` (which masks elementwise, broadcast
    as NumPy's) leaves the default fill value with NumPy's DeprecationWarning, kdsl's fill values being scalars."""
    if np.ndim(value) == 0:
        out.fill_value = value
        return
    warnings.warn("Non-scalar arrays for the fill value are deprecated (NumPy) and kdsl's fill values are "
                  "scalars: the result keeps the default fill value; fill from an array with "
                  "x.filled(value) instead.", DeprecationWarning, stacklevel=3)


def _condition(name: str, test: Any, sets_fill: bool = False) -> Any:
    def mask_by(x: Any, value: Any, copy: bool = True) -> MaskedArray:
        data, _ = parts(x)
        out = masked_where(test(data if isinstance(data, kd.Array) else kd.asarray(data), value), x, copy)
        if sets_fill:  # NumPy's masked_equal: the fill value is the masked value
            _set_fill(out, value)
        return out
    mask_by.__name__ = mask_by.__qualname__ = name
    relation = name[7:].replace("_", " ")
    mask_by.__doc__ = f"NumPy's ``np.ma.{name}``: ``x`` masked where the data is {relation} ``value``."
    return mask_by


# NumPy's ufuncs, not == and != (which find a string never equal): a string value is their UFuncTypeError
masked_equal = _condition("masked_equal", lambda d, v: kd.equal(d, v), sets_fill=True)
masked_not_equal = _condition("masked_not_equal", lambda d, v: kd.not_equal(d, v))
masked_greater = _condition("masked_greater", lambda d, v: d > v)
masked_greater_equal = _condition("masked_greater_equal", lambda d, v: d >= v)
masked_less = _condition("masked_less", lambda d, v: d < v)
masked_less_equal = _condition("masked_less_equal", lambda d, v: d <= v)


def masked_object(x: Any, value: Any, copy: bool = True, shrink: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_object``: ``x`` masked where its data equals ``value`` (NumPy's is for object
    arrays, which kdsl has not; on numbers it is :func:`masked_equal`), with ``fill_value=value``.

    >>> import kdsl as kd
    >>> kd.ma.masked_object(kd.asarray([1.0, 2.0]), 2.0).tolist()
    [1.0, None]
    """
    out = masked_equal(x, value, copy)
    return out.shrink_mask() if shrink else out  # NumPy's make_mask(shrink=True): nomask where nothing equals


def masked_inside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_inside``: masked where ``v1 <= x <= v2`` (the bounds in either order)."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    data, _ = parts(x)
    data = data if isinstance(data, kd.Array) else kd.asarray(data)
    return masked_where((data >= lo) & (data <= hi), x, copy)


def masked_outside(x: Any, v1: Any, v2: Any, copy: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_outside``: masked where ``x < v1`` or ``x > v2`` (the bounds in either order)."""
    lo, hi = (v2, v1) if v2 < v1 else (v1, v2)
    data, _ = parts(x)
    data = data if isinstance(data, kd.Array) else kd.asarray(data)
    return masked_where((data < lo) | (data > hi), x, copy)


def masked_invalid(a: Any, copy: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_invalid``: masked where the data is NaN or infinite."""
    data, _ = parts(a)
    data = data if isinstance(data, kd.Array) else kd.asarray(data)
    return _masked_where(~kd.isfinite(data), a, copy, shrink=False)  # NumPy 2: never nomask (gh-22842)


def masked_values(x: Any, value: Any, rtol: float = 1e-05, atol: float = 1e-08, copy: bool = True,
                  shrink: bool = True) -> MaskedArray:
    """NumPy's ``np.ma.masked_values``: masked where the data is close to ``value`` (floats; equal otherwise),
    with ``fill_value=value``; ``shrink``: ``nomask`` where nothing is masked (one bool read back)."""
    data, _ = parts(x)
    data = data if isinstance(data, kd.Array) else kd.asarray(data)
    if kd.isdtype(data.dtype, ("real floating", "complex floating")):
        cond = kd.isclose(data, value, rtol=rtol, atol=atol)
    else:
        cond = kd.equal(data, value)  # NumPy's ufunc, not ==: a string value is its UFuncTypeError
    out = _masked_where(cond, x, copy, shrink=False)  # NumPy's masked_array(mask=cond), then shrink below
    _set_fill(out, value)
    # NumPy's: nomask where nothing is close (one bool read back; the method is bound by mask_methods.py)
    return out.shrink_mask() if shrink else out  # type: ignore[attr-defined]


def fix_invalid(a: Any, mask: Any = nomask, copy: bool = True, fill_value: Any = None) -> MaskedArray:
    """NumPy's ``np.ma.fix_invalid``: NaN and inf masked, and their data replaced by ``fill_value`` (the
    array's own fill value when None); like NumPy's, the result keeps ``a``'s fill value (``fill_value`` only
    says what goes under the new mask), and an unmasked ``a`` with nothing invalid keeps ``nomask`` (one bool
    read back).

    >>> import kdsl as kd
    >>> x = kd.ma.array([1.0, float("nan"), 3.0], mask=[0, 0, 1], dtype=kd.float64)
    >>> x = kd.ma.fix_invalid(x, fill_value=0.0)
    >>> x.data.tolist(), x.mask.tolist(), x.filled().tolist()
    ([1.0, 0.0, 3.0], [False, True, True], [1.0, 1e+20, 1e+20])
    """
    out = array(a, mask=mask, copy=copy)
    invalid = ~kd.isfinite(out._data)
    if out._mask is nomask and not bool(kd.any(invalid)):  # NumPy's: a unchanged, nomask kept (one bool read)
        return out
    value = out.fill_value.item() if fill_value is None else fill_value
    m = invalid if out._mask is nomask else invalid | out._mask
    return MaskedArray.wrap(kd.where(invalid, value, out._data).astype(out.dtype), m, out._fill_value)
