"""Masked arrays passed to kd's and NumPy's own functions: ``kd.sum(x)``, ``np.mean(x, axis=0)``,
``kd.where(c, x, y)``, ``np.concatenate([x, y])`` of masked arrays run ``kd.ma``'s function of the same name
(the mask respected, as NumPy's functions do for ``np.ma`` arrays), and ``kd.asarray(x)`` is the data, as
``np.asarray(x)`` is for NumPy's. A NumPy function ``kd.ma`` lacks raises ``TypeError`` instead of dropping the
mask (kdsl never copies to the host silently).

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.ma.array([1.0, 2.0, 4.0], mask=[False, True, False])
    >>> float(kd.sum(x)), float(np.mean(x)), kd.asarray(x).tolist()
    (5.0, 2.5, [1.0, 2.0, 4.0])
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, MutableMapping
from typing import Any

from kdsl.ma import closeness, partition, text_files
from kdsl.ma.constants import nomask
from kdsl.ma.masked_array import MaskedArray

# kd's functions with a kd.ma namesake that take the array first
FIRST_ARGUMENT = ("sum", "prod", "mean", "var", "std", "min", "max", "amin", "amax", "argmin", "argmax", "any",
                  "all", "ptp", "average", "median", "ravel", "reshape", "transpose", "swapaxes", "squeeze",
                  "expand_dims", "atleast_1d", "atleast_2d", "sort", "argsort", "cumsum", "cumprod", "take", "repeat",
                  "diagonal", "trace", "diff", "nonzero", "copy", "trapezoid", "unique", "ediff1d")
ANY_ARGUMENT = ("where", "dot", "compress", "kron", "clip")  # a masked array anywhere among the arguments
SEQUENCE = ("concatenate", "stack", "hstack", "vstack")  # a masked array in the sequence of arrays
# NumPy's functions pass their own defaults to the masked array's method: np.argsort(x) sorts along the last axis
# (np.ma.argsort(x) alone keeps numpy.ma's old default, the flattened array with a FutureWarning)
_FUNCTION_DEFAULTS = {"argsort": (1, "axis", -1)}
# rearrangements NumPy's functions apply to a np.ma array's data and mask alike (its subclass survives them)
MOVEMENT = ("flip", "fliplr", "flipud", "roll", "rot90", "moveaxis", "rollaxis", "tile", "atleast_3d")
# kd's functions elementwise in one argument (polyval's x, at this position): a masked one keeps its mask on the
# result, as NumPy's arithmetic does for a np.ma x; the other arguments' masks drop (their data counts), as NumPy's
VALUE_ARGUMENT = {"polyval": (1, "x")}
_ROUNDING = {"round": "round", "around": "round"}  # kd.round(x) / np.around(x): kd.ma's masked round
_SAME_AS = {"unique_values": "unique"}  # NumPy's unique_values of a np.ma array: its masked unique values
# kd's functions whose NumPy versions respect a np.ma array's mask (through its methods) where kd.ma has no
# namesake: a masked array is refused (TypeError saying what to call), never read as its data alone
MASK_AWARE = ("unique_counts", "unique_inverse", "unique_all", "argwhere", "flatnonzero", "nansum", "nanprod",
              "nanmean", "nanvar", "nanstd", "nanmin", "nanmax", "nanargmin", "nanargmax", "nanmedian",
              "nanpercentile", "nanquantile", "nancumsum", "nancumprod")
_METADATA = {"shape": lambda a: a.shape, "ndim": lambda a: a.ndim, "size": lambda a: a.size}
# kd's / NumPy's functions whose NumPy version gives np.ma results kd.ma has no public namesake for (np.ma.allclose
# is another function: masked entries equal): closeness.py
_CLOSENESS = {"isclose": closeness.isclose, "allclose": closeness.allclose}
# kd.ma's functions that are not what NumPy's namesake does to a np.ma array (np.cov and np.isin drop the mask,
# np.intersect1d compares masked entries as their data...): NumPy's function on a kd.ma array stays a TypeError
_OTHER_FUNCTIONS = frozenset(("convolve", "correlate", "cov", "corrcoef", "polyfit", "vander", "intersect1d",
                              "union1d", "setdiff1d", "setxor1d", "in1d", "isin"))


def _ma() -> Any:
    return sys.modules["kdsl.ma"]


def _dispatching(name: str, kd_fn: Callable[..., Any], test: Callable[[tuple], bool]) -> Callable[..., Any]:
    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        if test(args) or (test is _any and _any(tuple(kwargs.values()))):  # kd.clip(x, max=masked_bound)
            return getattr(_ma(), name)(*args, **_with_defaults(name, args, kwargs))
        return kd_fn(*args, **kwargs)
    return fn


def _moved(kd_fn: Callable[..., Any]) -> Callable[..., Any]:
    """``kd_fn(x, ...)`` of a masked ``x``: the same rearrangement of its data and of its mask."""
    def fn(x: MaskedArray, *args: Any, **kwargs: Any) -> MaskedArray:
        mask = x._mask if x._mask is nomask else kd_fn(x._mask, *args, **kwargs)
        return MaskedArray.wrap(kd_fn(x._data, *args, **kwargs), mask, x._fill_value)
    return fn


def _with_defaults(name: str, args: tuple, kwargs: dict) -> dict:
    """``kwargs`` with the NumPy function's default for an argument the call left out (``_FUNCTION_DEFAULTS``)."""
    if name in _FUNCTION_DEFAULTS:
        position, key, value = _FUNCTION_DEFAULTS[name]
        if len(args) <= position and key not in kwargs:
            return {**kwargs, key: value}
    return kwargs


def _masked_values(kd_fn: Callable[..., Any], position: int, key: str) -> Callable[..., Any]:
    """``kd_fn`` on the arguments' data, masked where its value argument (``args[position]`` or ``key=``) is."""
    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        values = args[position] if len(args) > position else kwargs.get(key)
        data_args = tuple(a._data if isinstance(a, MaskedArray) else a for a in args)
        data_kwargs = {k: v._data if isinstance(v, MaskedArray) else v for k, v in kwargs.items()}
        result = kd_fn(*data_args, **data_kwargs)
        if not isinstance(values, MaskedArray):
            return result
        mask = values._mask if values._mask is nomask else \
            sys.modules["kdsl"].broadcast_to(values._mask, result.shape)
        return MaskedArray.wrap(result, mask, values._fill_value)
    return fn


def _moving(kd_fn: Callable[..., Any]) -> Callable[..., Any]:
    moved = _moved(kd_fn)

    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        return moved(*args, **kwargs) if _first(args) else kd_fn(*args, **kwargs)
    return fn


def _first(args: tuple) -> bool:
    return bool(args) and isinstance(args[0], MaskedArray)


def _any(args: tuple) -> bool:
    return any(isinstance(a, MaskedArray) for a in args)


def _sequence(args: tuple) -> bool:
    return bool(args) and isinstance(args[0], (list, tuple)) and _any(tuple(args[0]))


def _masked_along_axis(kd_fn: Callable[..., Any]) -> Callable[..., Any]:
    """``kd.apply_along_axis`` that runs kd.ma's for a masked array, or from the first masked result on."""
    @functools.wraps(kd_fn)
    def fn(func1d: Any, axis: Any, arr: Any, *args: Any, **kwargs: Any) -> Any:
        along = sys.modules["kdsl.ma.along_axis"]
        if isinstance(arr, MaskedArray):
            return along.apply_along_axis(func1d, axis, arr, *args, **kwargs)
        try:
            return kd_fn(along.watched(func1d), axis, arr, *args, **kwargs)
        except along.MaskedResult as stop:
            return along.along_axis(func1d, axis, arr, args, kwargs, stop.done)
    return fn


def _closeness(kd_fn: Callable[..., Any], masked_fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        return (masked_fn if closeness.involved(args, kwargs) else kd_fn)(*args, **kwargs)
    return fn


def _partitioning(kd_fn: Callable[..., Any], masked_fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        return (masked_fn if _first(args) else kd_fn)(*args, **kwargs)
    return fn


def _refusing(name: str, kd_fn: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(kd_fn)
    def fn(*args: Any, **kwargs: Any) -> Any:
        if _first(args):
            raise TypeError(f"kd.{name} of a kd.ma masked array: NumPy's respects the mask, kd.ma has no {name}; "
                            f"call it on x.compressed() or x.filled(value), or use kd.ma's reductions and "
                            f"nonzero (kd.ma.masked_invalid(x).mean() for nanmean)")
        return kd_fn(*args, **kwargs)
    return fn


def install(namespace: MutableMapping[str, Any]) -> None:
    """Make kd's functions in ``namespace`` (the kdsl package) run kd.ma's for masked arrays."""
    for names, test in ((FIRST_ARGUMENT, _first), (ANY_ARGUMENT, _any), (SEQUENCE, _sequence)):
        for name in names:
            if name in namespace:
                namespace[name] = _dispatching(name, namespace[name], test)
    for name in MOVEMENT:
        namespace[name] = _moving(namespace[name])
    for name, (position, key) in VALUE_ARGUMENT.items():
        namespace[name] = _masked_values(namespace[name], position, key)
    for name, ma_name in {**_ROUNDING, **_SAME_AS}.items():
        if name in namespace:
            namespace[name] = _dispatching(ma_name, namespace[name], _first)
    for name in MASK_AWARE:
        if name in namespace:
            namespace[name] = _refusing(name, namespace[name])
    namespace["apply_along_axis"] = _masked_along_axis(namespace["apply_along_axis"])
    namespace["genfromtxt"] = text_files.genfromtxt(namespace["genfromtxt"])  # usemask=True: a kd.ma array
    for name, masked_fn in _CLOSENESS.items():
        namespace[name] = _closeness(namespace[name], masked_fn)
    for name, partitioning in partition.FUNCTIONS.items():  # numpy.ma has no partition: the array's method's
        namespace[name] = _partitioning(namespace[name], partitioning)
    asarray = namespace["asarray"]

    @functools.wraps(asarray)
    def asarray_of_data(a: Any, *args: Any, **kwargs: Any) -> Any:
        return asarray(a._data if isinstance(a, MaskedArray) else a, *args, **kwargs)
    namespace["asarray"] = asarray_of_data


def _array_function(self: MaskedArray, func: Any, types: tuple, args: tuple, kwargs: dict) -> Any:
    """NumPy's ``np.<name>(masked_array, ...)``: ``kd.ma.<name>``, or TypeError where kd.ma has none."""
    name = func.__name__
    if name in _METADATA and args:
        return _METADATA[name](args[0])
    fn: Callable[..., Any] | None = _CLOSENESS.get(name) if func.__module__ == "numpy" else None
    if fn is None and func.__module__ == "numpy":
        fn = partition.FUNCTIONS.get(name)
    if fn is None and func.__module__ == "numpy" and name not in _OTHER_FUNCTIONS:
        fn = getattr(_ma(), name, None)
    if fn is None and func.__module__ == "numpy" and name in VALUE_ARGUMENT:  # np.polyval(p, x): kd's, masked
        fn = getattr(sys.modules["kdsl"], name)
    if fn is None and func.__module__ == "numpy" and (name in MOVEMENT or name in _ROUNDING):
        fn = _moved(getattr(sys.modules["kdsl"], name)) if name in MOVEMENT else getattr(_ma(), _ROUNDING[name])
    if fn is None and name in _OTHER_FUNCTIONS:
        raise TypeError(f"NumPy's {name} is not kd.ma.{name} on masked arrays; call kd.ma.{name}(x) (masks "
                        f"respected) or kd.{name}(x.data) (NumPy's result for a np.ma array)")
    if fn is None:
        raise TypeError(f"kd.ma has no {name}, so NumPy's {name} cannot run on kd.ma masked arrays (kdsl never "
                        f"drops a mask or copies to the host silently); use x.to_numpy() for NumPy's np.ma")
    kwargs = {k: v for k, v in kwargs.items() if not (k == "out" and v is None)}
    return fn(*args, **_with_defaults(name, args, kwargs))


MaskedArray.__array_function__ = _array_function  # type: ignore[attr-defined]
