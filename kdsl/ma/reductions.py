"""``kd.ma``'s reductions, as ``numpy.ma``'s: masked entries are left out (``sum``/``prod`` fill them with the
identity, ``min``/``max``/``argmin``/``argmax`` with the dtype's extreme, ``mean``/``var``/``std`` divide by the
count of unmasked entries). A result entry with nothing unmasked is masked; a fully masked scalar result is
``kd.ma.masked`` (deciding that reads one count back to the host; without a mask nothing is read).

Also bound as :class:`MaskedArray` methods (``x.sum(axis=0)``).

Example:
    >>> import kdsl as kd
    >>> x = kd.ma.array([[1.0, 2.0], [3.0, 4.0]], mask=[[False, True], [True, True]])
    >>> print(x.mean(axis=0))
    [1.0 --]
    >>> float(x.sum()), x.max(axis=1).tolist(), x[1].sum() is kd.ma.masked
    (1.0, [1.0, None], True)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.ma.constants import MaskError, extreme_fill, nomask
from kdsl.ma.masked_array import MaskedArray
from kdsl.ma.operands import masked_result


def as_masked(x: Any) -> MaskedArray:
    """``x`` as a :class:`MaskedArray` (itself if it is one; else with nothing masked)."""
    return x if isinstance(x, MaskedArray) else MaskedArray(x)


def _all_masked(x: MaskedArray, axis: Any, keepdims: bool) -> Any:
    return nomask if x._mask is nomask else kd.all(x._mask, axis=axis, keepdims=keepdims)


def store(out: Any, values: Any, empty: Any, nan_where_empty: bool = False) -> Any:
    """``out=`` of numpy.ma's reductions: ``values`` written into ``out`` (returned). A masked ``out`` takes
    ``empty`` (nomask: nothing) as its mask, hard or not, as NumPy's; a plain kdsl array keeps the values
    computed from the filled data, except where ``nan_where_empty`` (min, max, ptp): NaN there, and for an
    integer or bool ``out`` NumPy's MaskError once the values are written."""
    if isinstance(out, MaskedArray):
        out._data[...] = values
        out._ensure_mask()[...] = False if empty is nomask else empty
        return out
    if not isinstance(out, kd.Array):
        raise TypeError(f"out must be a kdsl array or a kd.ma masked array, not {type(out).__name__}")
    if nan_where_empty and out.dtype.kind not in "fc":
        out[...] = values
        raise MaskError("Masked data information would be lost in one or more location.")
    out[...] = values if not nan_where_empty or empty is nomask else kd.where(empty, kd.nan, values)
    return out


def _filled_reduction(fn_name: str, fill: Any, extremes: bool = False):
    def reduced(a: Any, axis: Any, dtype: Any, out: Any, keepdims: bool, fill_value: Any = None) -> Any:
        x = as_masked(a)
        value = fill_value if fill_value is not None else fill(x.dtype) if callable(fill) else fill
        extra = {} if dtype is None else {"dtype": dtype}
        result = getattr(kd, fn_name)(x.filled(value), axis=axis, keepdims=keepdims, **extra)
        empty = _all_masked(x, axis, keepdims)
        if out is not None:
            return store(out, result, empty, nan_where_empty=extremes)
        return masked_result(result, empty)

    def extreme(a: Any, axis: Any = None, out: Any = None, fill_value: Any = None, keepdims: bool = False) -> Any:
        return reduced(a, axis, None, out, keepdims, fill_value)

    def logical(a: Any, axis: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        return reduced(a, axis, None, out, keepdims)

    def arithmetic(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> Any:
        return reduced(a, axis, dtype, out, keepdims)

    # NumPy's signatures: min/max (axis, out, fill_value, keepdims); any/all (axis, out, keepdims); sum/prod
    # (axis, dtype, out, keepdims)
    reduce: Any = extreme if extremes else logical if fn_name in ("any", "all") else arithmetic
    reduce.__name__ = reduce.__qualname__ = fn_name
    reduce.__doc__ = (f"NumPy's ``np.ma.{fn_name}``: the {fn_name} of the unmasked entries (masked where none); "
                      "``out`` (a kdsl or kd.ma array) receives it as NumPy's does (:func:`store`).")
    return reduce


sum = _filled_reduction("sum", 0)  # noqa: A001 - NumPy's name
prod = _filled_reduction("prod", 1)
product = prod
min = _filled_reduction("min", lambda d: extreme_fill(d, True), extremes=True)  # noqa: A001
max = _filled_reduction("max", lambda d: extreme_fill(d, False), extremes=True)  # noqa: A001
any = _filled_reduction("any", False)  # noqa: A001
all = _filled_reduction("all", True)  # noqa: A001
amin, amax = min, max


def alltrue(target: Any, axis: Any = 0, dtype: Any = None) -> Any:
    """NumPy's ``np.ma.alltrue`` (``logical_and.reduce``): ``all`` along ``axis`` (0 by default, not None);
    masked entries count as True, a line with nothing unmasked is masked."""
    return all(target, axis=axis)


def sometrue(target: Any, axis: Any = 0, dtype: Any = None) -> Any:
    """NumPy's ``np.ma.sometrue`` (``logical_or.reduce``): ``any`` along ``axis`` (0 by default, not None);
    masked entries count as False, a line with nothing unmasked is masked."""
    return any(target, axis=axis)


def mean(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, keepdims: bool = False) -> Any:
    """NumPy's ``np.ma.mean``: the sum of the unmasked entries over their count (masked where none and, along
    an axis of an array with a mask, where NaN or infinite, as numpy.ma's division masks them); ``out``
    receives it (:func:`store`; 0 where nothing is unmasked)."""
    x = as_masked(a)
    if x._mask is nomask:
        result, empty = kd.mean(x._data, axis=axis, dtype=dtype, keepdims=keepdims), nomask
    else:
        total = kd.sum(x.filled(0), axis=axis, keepdims=keepdims, dtype=_mean_sum_dtype(x.dtype, dtype) or dtype)
        count = kd.sum(~x._mask, axis=axis, keepdims=keepdims, dtype=kd.int64)
        if x.dtype == kd.float16 and dtype is None:  # numpy.ma: a float32 sum (unrounded), its mean in float16
            result = (total / count).astype(kd.float16)
        else:
            result = total * 1.0 / count
        result, empty = kd.where(count == 0, 0.0, result).astype(result.dtype), count == 0
        empty = empty | not_finite(result)
    return masked_result(result, empty) if out is None else store(out, result, empty)


def not_finite(result: Any) -> Any:
    """Where an array ``result`` of numpy.ma's division (``sum / count``) is NaN or infinite: numpy.ma's divide
    masks those, so its ``mean``/``average`` along an axis do (False for a 0-d result, a plain scalar there, and
    for integers)."""
    if result.ndim == 0 or not kd.isdtype(result.dtype, ("real floating", "complex floating")):
        return kd.zeros(result.shape, dtype=kd.bool_)
    return ~kd.isfinite(result)


def _variance(x: MaskedArray, axis: Any, dtype: Any, ddof: int, keepdims: bool) -> tuple[Any, Any]:
    """(the variance of the unmasked entries, 0 where count - ddof <= 0; where that is: nomask or bool)."""
    if x._mask is nomask:
        return kd.var(x._data, axis=axis, dtype=dtype, ddof=ddof, keepdims=keepdims), nomask
    keep = ~x._mask
    count = kd.sum(keep, axis=axis, keepdims=True, dtype=kd.int64)
    data = x._data if dtype is None else x._data.astype(dtype)
    total = kd.sum(kd.where(keep, data, 0), axis=axis, keepdims=True, dtype=_mean_sum_dtype(data.dtype, dtype))
    centre = total * 1.0 / kd.maximum(count, 1)
    if data.dtype == kd.float16 and dtype is None:  # numpy.ma's float16 mean: a float32 sum, rounded to float16,
        centre = centre.astype(kd.float16)  # so the deviations and their squares round in float16 too
    dev = kd.where(keep, data - centre, 0)
    sq = dev * kd.conj(dev) if kd.isdtype(dev.dtype, "complex floating") else dev * dev
    if kd.isdtype(sq.dtype, "complex floating"):
        sq = kd.real(sq)
    n = count - ddof
    result = kd.sum(sq, axis=axis, keepdims=True) / kd.maximum(n, 1)
    empty = n <= 0
    if not keepdims:
        axes = tuple(range(x.ndim)) if axis is None else axis
        result, empty = kd.squeeze(result, axis=axes), kd.squeeze(empty, axis=axes)
    return kd.where(empty, 0.0, result).astype(result.dtype), empty


def _mean_sum_dtype(data: Any, dtype: Any) -> Any:
    """The dtype numpy.ma's ``mean`` sums in: float32 for float16 data without a ``dtype`` (None: the data's)."""
    return kd.float32 if data == kd.float16 and dtype is None else None


def var(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: int = 0, keepdims: bool = False,
        mean: Any = None) -> Any:
    """NumPy's ``np.ma.var``: the variance of the unmasked entries (masked where count - ddof <= 0); ``out``
    receives it (:func:`store`)."""
    x = as_masked(a)
    result, empty = _variance(x, axis, dtype, ddof, keepdims)
    if out is None and result.ndim and empty is not nomask and not bool(kd.any(empty)):
        empty = nomask  # NumPy's mask_or shrinks a variance's mask with nothing masked (one bool read back)
    return masked_result(result, empty, x._fill_value) if out is None else store(out, result, empty)


def std(a: Any, axis: Any = None, dtype: Any = None, out: Any = None, ddof: int = 0, keepdims: bool = False,
        mean: Any = None) -> Any:
    """NumPy's ``np.ma.std``: the square root of :func:`var`."""
    x = as_masked(a)
    result, empty = _variance(x, axis, dtype, ddof, keepdims)
    result = kd.sqrt(result)
    if empty is nomask and result.ndim:  # NumPy's std is np.ma.sqrt of the variance: a mask array, even all False
        empty = kd.zeros(result.shape, dtype=kd.bool_)
    return masked_result(result, empty, x._fill_value) if out is None else store(out, result, empty)


def ptp(a: Any, axis: Any = None, out: Any = None, fill_value: Any = None, keepdims: bool = False) -> Any:
    """NumPy's ``np.ma.ptp``: max - min of the unmasked entries; ``out`` receives it as :func:`max`'s."""
    x = as_masked(a)
    hi = kd.max(x.filled(extreme_fill(x.dtype, False)), axis=axis, keepdims=keepdims)
    lo = kd.min(x.filled(extreme_fill(x.dtype, True)), axis=axis, keepdims=keepdims)
    empty = _all_masked(x, axis, keepdims)
    if out is not None:
        return store(out, hi - lo, empty, nan_where_empty=True)
    return masked_result(hi - lo, empty)


def _arg_reduction(fn_name: str, largest: bool):
    def reduce(a: Any, axis: Any = None, fill_value: Any = None, out: Any = None, *,
               keepdims: bool = False) -> Any:
        x = as_masked(a)
        value = extreme_fill(x.dtype, largest) if fill_value is None else fill_value
        result = getattr(kd, fn_name)(x.filled(value), axis=axis, keepdims=keepdims)
        if out is None:
            return result
        target = out._data if isinstance(out, MaskedArray) else out  # NumPy leaves a masked out's mask alone
        target[...] = result
        return out
    reduce.__name__ = reduce.__qualname__ = fn_name
    reduce.__doc__ = (f"NumPy's ``np.ma.{fn_name}``: the index of the {fn_name[3:]} of the data, masked entries "
                      "filled with the dtype's extreme (a kdsl int64 array; never masked, as NumPy); ``out`` "
                      "receives it.")
    return reduce


argmin = _arg_reduction("argmin", True)
argmax = _arg_reduction("argmax", False)


def count(a: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """NumPy's ``np.ma.count``: the number of unmasked entries (an int for ``axis=None``)."""
    return as_masked(a).count(axis=axis, keepdims=keepdims)


def _last_axis(x: MaskedArray, axis: Any) -> tuple[MaskedArray, tuple[int, ...]]:
    """``x`` with the axes of ``axis`` (None: all) moved last and merged into one, and the shape its
    ``keepdims`` result takes (a median over several axes is one over their merged axis)."""
    axes = tuple(range(x.ndim)) if axis is None else np.lib.array_utils.normalize_axis_tuple(axis, x.ndim)
    rest = [i for i in range(x.ndim) if i not in axes]
    kept = tuple(1 if i in axes else n for i, n in enumerate(x.shape))
    length = math.prod(x.shape[i] for i in axes)
    merged = x.transpose(*rest, *axes).reshape(tuple(x.shape[i] for i in rest) + (length,))
    return merged, kept


def _median_last(x: MaskedArray) -> tuple[Any, Any]:
    """The median of the unmasked entries along the last axis (one sort, masked entries filled with the
    dtype's largest value so that they sort last), NaN where an unmasked NaN is, and where nothing is unmasked."""
    mask = kd.ma.getmaskarray(x)
    data = x._data if kd.isdtype(x.dtype, "real floating") else x._data.astype(kd.float64)
    ordered = kd.sort(kd.where(mask, extreme_fill(data.dtype, True), data), axis=-1)
    n = kd.sum(~mask, axis=-1, keepdims=True, dtype=kd.int64)
    lo = kd.take_along_axis(ordered, kd.maximum((n - 1) // 2, 0), axis=-1)
    hi = kd.take_along_axis(ordered, kd.maximum(n // 2, 0), axis=-1)
    result, empty = ((lo + hi) / 2)[..., 0], (n == 0)[..., 0]
    # NaN sorts after the masked entries' inf fill: look for it, as NumPy's median propagates NaN
    result = kd.where(kd.any(kd.isnan(data) & ~mask, axis=-1), kd.nan, result).astype(result.dtype)
    return kd.where(empty, 0, result).astype(result.dtype), empty


def median(a: Any, axis: Any = None, out: Any = None, overwrite_input: bool = False, keepdims: bool = False) -> Any:
    """NumPy's ``np.ma.median``: the median of the unmasked entries along ``axis`` (an int, a tuple or None),
    masked where there are none, NaN where an unmasked entry is NaN; ``out`` (a kdsl or kd.ma array) receives
    it."""
    a = as_masked(a)
    whole = axis is None or (isinstance(axis, tuple) and len({int(ax) % (a.ndim or 1) for ax in axis}) == a.ndim)
    x, kept = _last_axis(a, axis)
    if x._mask is nomask:
        result, empty = kd.median(x._data, axis=-1), nomask
    else:
        result, empty = _median_last(x)
    if keepdims:
        result = result.reshape(kept)
        empty = empty if empty is nomask else empty.reshape(kept)
    if out is None and keepdims and whole:  # NumPy reshapes its median of everything: a plain array, or where
        if empty is nomask or not bool(empty.any()):  # all is masked, ``masked`` (float64) reshaped
            return result
        return MaskedArray.wrap(kd.zeros(kept, dtype=kd.float64), empty)
    if out is None:
        return masked_result(result, empty)
    out[...] = MaskedArray.wrap(result, empty) if isinstance(out, MaskedArray) else result
    return out


def _bind() -> None:
    cls: Any = MaskedArray
    for name in ("sum", "prod", "product", "min", "max", "any", "all", "mean", "var", "std", "ptp", "argmin",
                 "argmax"):
        setattr(cls, name, globals()[name])
    cls.cumsum, cls.cumprod = cumsum, cumprod


def _accumulation(fn_name: str, identity: int):
    def accumulate(a: Any, axis: Any = None, dtype: Any = None, out: Any = None) -> MaskedArray:
        x = as_masked(a)
        result = getattr(kd, fn_name)(x.filled(identity), axis=axis, dtype=dtype)
        mask = x._mask if axis is not None or x._mask is nomask else x._mask.ravel()
        if out is None:
            return MaskedArray.wrap(result, mask)
        return store(out, result, mask)  # as NumPy's: a masked out takes the input's mask
    accumulate.__name__ = accumulate.__qualname__ = fn_name
    accumulate.__doc__ = (f"NumPy's ``np.ma.{fn_name}``: the running {fn_name[3:]} of the unmasked entries (masked "
                          "entries count as the identity and stay masked; flattened for ``axis=None``); ``out`` "
                          "receives it.")
    return accumulate


cumsum = _accumulation("cumsum", 0)
cumprod = _accumulation("cumprod", 1)


_bind()
