"""``pad``: NumPy's padding of an array, every mode: constant, edge, wrap, reflect and symmetric here (slices and
one concatenation per axis), the statistic, ramp and callable modes in :mod:`kdsl.frontend.array.pad_modes`.

Example:
    >>> import kdsl as kd
    >>> pad(kd.asarray([1, 2, 3]), (2, 1), mode="reflect").tolist()
    [3, 2, 1, 2, 3, 2]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl.frontend.array import pad_modes
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import as_array, full
from kdsl.frontend.array.joining import take_slice, tile
from kdsl.frontend.array.shape_ops import broadcast_values_to, concatenate
from kdsl.frontend.array.stored_values import stored_scalar

__all__ = ["pad"]


def _pad_widths(pad_width: Any, ndim: int) -> list[tuple[int, int]]:
    w = np.asarray(pad_width)
    if w.dtype.kind not in "iu":
        raise TypeError(f"`pad_width` must be of integral type. (got {pad_width!r})")
    try:
        w = np.broadcast_to(w, (ndim, 2))
    except ValueError as e:  # NumPy's message first (its own broadcast's), then what fits
        raise ValueError(f"{e}; pad_width {pad_width!r} does not fit an array of {ndim} dimensions: use an int, "
                         "(before, after) or one (before, after) per axis") from None
    if (w < 0).any():
        raise ValueError("index can't contain negative values")
    return [(int(b), int(e)) for b, e in w]

_PAD_MODES = ("constant", "edge", "linear_ramp", "maximum", "mean", "median", "minimum", "reflect", "symmetric",
              "wrap", "empty")

_PAD_KEYWORDS = {"constant": {"constant_values"}, "reflect": {"reflect_type"}, "symmetric": {"reflect_type"},
                 "linear_ramp": {"end_values"}, "maximum": {"stat_length"}, "minimum": {"stat_length"},
                 "mean": {"stat_length"}, "median": {"stat_length"}}



def pad(array: Any, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Array:
    """NumPy's ``pad``: the modes ``constant`` (``constant_values``), ``edge``, ``reflect``, ``symmetric``,
    ``wrap`` and ``empty`` (zeros, like kdsl's ``empty``) here; the statistic modes, ``linear_ramp``,
    ``reflect_type='odd'``, a callable mode and a dict ``pad_width`` in ``pad_modes.py``. Even reflections are
    periodic views of the input: one period tiled and sliced, so any pad width works.

    >>> import kdsl as kd
    >>> kd.pad(kd.asarray([1, 2, 3]), (2, 3), mode="reflect").tolist()
    [3, 2, 1, 2, 3, 2, 1, 2]
    >>> kd.pad(kd.asarray([[1]]), 1, constant_values=7).tolist()
    [[7, 7, 7], [7, 1, 7], [7, 7, 7]]
    """
    x = as_array(array)
    out = _padded(x, pad_width, mode, kwargs)
    return out.copy() if out is x else out  # NumPy's pad is always a new array, even with nothing to add


def _padded(x: Array, pad_width: Any, mode: Any, kwargs: dict) -> Array:
    """``pad``'s work: ``x`` itself where nothing is added."""
    widths = pad_modes.dict_widths(pad_width, x.ndim) if isinstance(pad_width, dict) else \
        _pad_widths(pad_width, x.ndim)
    if callable(mode):
        return pad_modes.pad_callable(x, widths, mode, kwargs)
    if mode not in _PAD_MODES:
        raise ValueError(f"mode '{mode}' is not supported; use one of {', '.join(_PAD_MODES)} or a function")
    extra = set(kwargs) - _PAD_KEYWORDS.get(mode, set())
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode {mode!r}: {sorted(extra)}")
    reflect_type = kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"reflect_type must be 'even' or 'odd', got {reflect_type!r}")
    if mode not in ("constant", "empty"):
        for ax, (before, after) in enumerate(widths):
            if x.shape[ax] == 0 and (before or after):
                raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
    if mode in pad_modes.STAT_MODES:
        return pad_modes.pad_stat(x, widths, mode, kwargs.get("stat_length"))
    if mode == "linear_ramp":
        return pad_modes.pad_linear_ramp(x, widths, kwargs.get("end_values", 0))
    if reflect_type == "odd":
        return pad_modes.pad_reflect_odd(x, widths, mode)
    values = np.broadcast_to(np.asarray(kwargs.get("constant_values", 0)), (x.ndim, 2)) \
        if mode == "constant" else None
    for ax, (before, after) in enumerate(widths):
        if not before and not after:
            continue
        if mode in ("constant", "empty"):
            fill = (0, 0) if values is None else (values[ax][0], values[ax][1])  # NumPy scalars (or None)
            x = _pad_constant(x, ax, before, after, fill)
        elif x.shape[ax] == 0:
            raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        else:
            x = _pad_periodic(x, ax, before, after, mode)
    return x



def _block(x: Array, ax: int, n: int, value: Any) -> Array:
    shape = x.shape[:ax] + (n,) + x.shape[ax + 1:]
    return full(shape, value, x.dtype, device=x.device)



def _pad_constant(x: Array, ax: int, before: int, after: int, fill: tuple[Any, Any]) -> Array:
    parts = [_block(x, ax, before, _fit(fill[0], x))] if before else []
    parts.append(x)
    if after:
        parts.append(_block(x, ax, after, _fit(fill[1], x)))
    return concatenate(parts, axis=ax)



def _fit(value: Any, x: Array) -> Any:
    """A pad value as NumPy writes it into ``x``'s dtype: as ``padded[:k] = value`` stores the NumPy scalar its
    constant_values became (floats truncate into ints; NaN into ints and 200 into int8 are NumPy's errors)."""
    scalar = stored_scalar(np.asarray(value)[()], x, basic=True)
    with np.errstate(all="ignore"):  # (a complex one into reals: NumPy's ComplexWarning, from this cast too)
        return np.asarray(scalar).astype(x.dtype.np).item()



def _pad_periodic(x: Array, ax: int, before: int, after: int, mode: str) -> Array:
    """Edge/reflect/symmetric/wrap: the padded axis is a periodic sequence; tile one period and slice it."""
    n = x.shape[ax]
    if mode == "edge" or (mode == "reflect" and n == 1):
        first = broadcast_values_to(take_slice(x, ax, 0, 1), x.shape[:ax] + (before,) + x.shape[ax + 1:])
        last = broadcast_values_to(take_slice(x, ax, n - 1, n), x.shape[:ax] + (after,) + x.shape[ax + 1:])
        return concatenate([first, x, last], axis=ax)
    if mode == "reflect":  # x0 x1 .. x(n-1) x(n-2) .. x1 | x0 ...
        period = concatenate([x, take_slice(x, ax, n - 2, 0, -1)], axis=ax)
    elif mode == "symmetric":  # x0 .. x(n-1) x(n-1) .. x0 | x0 ...
        period = concatenate([x, take_slice(x, ax, n - 1, None, -1)], axis=ax)
    else:  # wrap
        period = x
    p = period.shape[ax]
    start = (-before) % p
    copies = math.ceil((start + before + n + after) / p)
    reps = [1] * x.ndim
    reps[ax] = copies
    return take_slice(tile(period, tuple(reps)), ax, start, start + before + n + after)
