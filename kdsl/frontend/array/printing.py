"""How kdsl arrays print: NumPy's ``set_printoptions get_printoptions printoptions array2string array_repr
array_str``, with NumPy's option names, defaults and checks.

kdsl keeps its own options (setting them does not change how NumPy arrays print, and ``np.set_printoptions``
does not change kdsl's); ``repr(a)``, ``str(a)`` and ``print(a)`` of a kdsl Array follow them. Formatting reads
the array back to the host (printing is a download, as ``a.numpy()``); NumPy's formatter then lays it out.
A kdsl repr names its dtype always: ``kd.array([1., 2.], dtype=float32)``; otherwise it is laid out as NumPy's
(the values wrap as in ``np.array_repr``, ``shape=`` where the values do not show it, the extras on a new line
when the last one is full).

Example:
    >>> import kdsl as kd
    >>> a = kd.asarray([1.0, 2.0 / 3.0])
    >>> with kd.printoptions(precision=3):
    ...     print(a)
    [1.    0.667]
    >>> kd.array2string(a, precision=2, separator=", ")
    '[1.  , 0.67]'
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.printing_edges import edge_host

# kdsl's options start as NumPy's defaults (a fresh NumPy's, not whatever the program set before import).
with np.printoptions():
    np.set_printoptions(legacy=False, override_repr=None, precision=8, threshold=1000, edgeitems=3, linewidth=75,
                        suppress=False, nanstr="nan", infstr="inf", formatter=None, sign="-", floatmode="maxprec")
    _options: dict[str, Any] = dict(np.get_printoptions())


def _host(a: Any, threshold: int | None = None, edgeitems: int | None = None) -> tuple[np.ndarray, int]:
    """The host values to format and the threshold to format them with (``None``: kdsl's option): a kdsl
    array that prints summarised downloads only its edges (printing_edges.py)."""
    threshold = _options["threshold"] if threshold is None else threshold
    edgeitems = _options["edgeitems"] if edgeitems is None else edgeitems
    if not isinstance(a, Array):
        return np.asarray(a), threshold
    if not (_is_count(threshold) and _is_count(edgeitems)):  # NumPy's formatter raises its own error for these
        return a.numpy(), threshold
    if a.size <= threshold:  # threshold=float("inf") (numpy-100 #49: print everything): int() would overflow
        return a.numpy(), threshold
    return edge_host(a, int(threshold), int(edgeitems))


def _is_count(value: Any) -> bool:
    """Whether a threshold/edgeitems value is a number NumPy's formatter accepts (not NaN, not a string)."""
    return isinstance(value, (int, float, np.integer, np.floating)) and bool(value >= 0)  # False for NaN


@contextlib.contextmanager
def _numpy_options(**changes: Any) -> Iterator[None]:
    """NumPy's formatter with kdsl's options and ``changes`` (restored afterwards; NumPy's are context-local)."""
    opts = {k: v for k, v in _options.items() if k != "override_repr"}
    with np.printoptions(**{**opts, **changes}):
        yield


def set_printoptions(precision: int | None = None, threshold: int | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, suppress: bool | None = None, nanstr: str | None = None,
                     infstr: str | None = None, formatter: dict[str, Callable[..., str]] | None = None,
                     sign: str | None = None, floatmode: str | None = None, *, legacy: Any = None,
                     override_repr: Callable[[Any], str] | None = None) -> None:
    """Set how kdsl arrays print (NumPy's ``np.set_printoptions``: same names, defaults and errors; ``None``
    leaves an option as it is, except ``formatter``, which is reset as in NumPy).

    >>> import kdsl as kd
    >>> kd.set_printoptions(precision=2)
    >>> print(kd.asarray([3.14159]))
    [3.14]
    >>> kd.set_printoptions(precision=8)

    ``legacy`` also sets NumPy's option of that name, which the repr of kdsl's scalars (NumPy scalars, such as
    ``kd.float64(1.5)``) reads: ``legacy="1.25"`` prints them as ``1.5``, not ``np.float64(1.5)``.
    """
    global _options
    with np.printoptions(**{k: v for k, v in _options.items() if k != "override_repr"}):
        # NumPy checks the values and merges them with the current ones; the context restores NumPy's own.
        wanted: dict[str, Any] = {"precision": precision, "threshold": threshold, "edgeitems": edgeitems,
                                  "linewidth": linewidth, "suppress": suppress, "nanstr": nanstr, "infstr": infstr,
                                  "formatter": formatter, "sign": sign, "floatmode": floatmode, "legacy": legacy}
        np.set_printoptions(**wanted)
        merged: dict[str, Any] = dict(np.get_printoptions())
    if override_repr is not None and not callable(override_repr):
        raise TypeError("override_repr must be a callable taking an array and returning its repr string")
    merged["override_repr"] = override_repr
    _options = merged
    if legacy is not None:  # kdsl's scalars are NumPy's (kd.float64(1.5)): their repr reads NumPy's option
        np.set_printoptions(legacy=merged["legacy"])


def get_printoptions() -> dict[str, Any]:
    """kdsl's current print options (NumPy's ``np.get_printoptions``; a new dict).

    >>> import kdsl as kd
    >>> kd.get_printoptions()["precision"], kd.get_printoptions()["threshold"]
    (8, 1000)
    """
    return dict(_options)


@contextlib.contextmanager
def printoptions(*args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
    """``with kd.printoptions(precision=2):`` - print options for a block, restored on exit (NumPy's
    ``np.printoptions``); the block gets the options in force.

    >>> import kdsl as kd
    >>> with kd.printoptions(threshold=3, edgeitems=1):
    ...     print(kd.arange(10))
    [0 ... 9]
    """
    global _options
    saved, numpy_legacy = dict(_options), np.get_printoptions()["legacy"]
    try:
        set_printoptions(*args, **kwargs)
        yield get_printoptions()
    finally:
        _options = saved
        np.set_printoptions(legacy=numpy_legacy)  # (set_printoptions(legacy=) set NumPy's too)


def array2string(a: Any, max_line_width: int | None = None, precision: int | None = None,
                 suppress_small: bool | None = None, separator: str = " ", prefix: str = "", *,
                 formatter: dict[str, Callable[..., str]] | None = None, threshold: int | None = None,
                 edgeitems: int | None = None, sign: str | None = None, floatmode: str | None = None,
                 suffix: str = "", legacy: Any = None) -> str:
    """The array's values as a string (NumPy's ``np.array2string``, kdsl's print options as the defaults; reads
    the array back).

    >>> import kdsl as kd
    >>> kd.array2string(kd.asarray([1, 2, 3]), separator=",")
    '[1,2,3]'
    """
    host, threshold = _host(a, threshold, edgeitems)
    with _numpy_options():
        keywords: dict[str, Any] = {"formatter": formatter, "threshold": threshold, "edgeitems": edgeitems,
                                    "sign": sign, "floatmode": floatmode, "suffix": suffix, "legacy": legacy}
        return np.array2string(host, max_line_width, precision, suppress_small, separator, prefix, **keywords)


def array_repr(arr: Any, max_line_width: int | None = None, precision: int | None = None,
               suppress_small: bool | None = None) -> str:
    """``repr`` of a kdsl array with these formatting choices (NumPy's ``np.array_repr``; kdsl's form,
    ``kd.array([...], dtype=...)``; a NumPy array gets NumPy's).

    >>> import kdsl as kd
    >>> kd.array_repr(kd.asarray([0.5, 0.25]), precision=1)
    'kd.array([0.5, 0.2], dtype=float32)'
    """
    if not isinstance(arr, Array):
        with _numpy_options():
            return np.array_repr(np.asarray(arr), max_line_width, precision, suppress_small)
    host, threshold = _host(arr)
    prefix = "kd.array("
    width = _options["linewidth"] if max_line_width is None else max_line_width
    with _numpy_options(threshold=threshold):
        body = np.array2string(host, max_line_width, precision, suppress_small, ", ", prefix, suffix=")")
    return _with_extras(prefix + body + ",", _repr_extras(arr), width, len(prefix))


def _repr_extras(arr: Array) -> list[str]:
    """What a repr adds after the values, as NumPy's: the shape where the values do not show it (an empty array
    other than 1-d, or a summarised one), then the dtype (kdsl names it always)."""
    extras = []
    summarised = _options["legacy"] is False and arr.size > _options["threshold"]
    if (arr.size == 0 and arr.shape != (0,)) or summarised:
        extras.append(f"shape={arr.shape}")
    extras.append(f"dtype={arr.dtype.name}")
    return extras


def _with_extras(head: str, extras: list[str], width: int, indent: int) -> str:
    """``head`` (the values up to their comma) and the extras: on the last line if they fit in ``width``, else
    on a new line under the values (NumPy's layout, so the values wrap as in NumPy's repr); NumPy's
    ``legacy="1.13"`` keeps them on the last line whatever its length (kdsl's dtypes are numbers, not
    NumPy's flexible ones, which it moved)."""
    tail = ", ".join(extras) + ")"
    last_line = len(head) - (head.rfind("\n") + 1)
    wrap = _options["legacy"] != "1.13" and last_line + len(tail) + 1 > width
    spacer = "\n" + " " * indent if wrap else " "
    return head + spacer + tail


def array_str(a: Any, max_line_width: int | None = None, precision: int | None = None,
              suppress_small: bool | None = None) -> str:
    """``str`` of an array with these formatting choices (NumPy's ``np.array_str``; reads the array back).

    >>> import kdsl as kd
    >>> kd.array_str(kd.asarray([1.0, 1e-9]), suppress_small=True)
    '[1. 0.]'
    """
    host, threshold = _host(a)
    with _numpy_options(threshold=threshold):
        return np.array_str(host, max_line_width, precision, suppress_small)


def array_repr_of(a: Array) -> str:
    """``repr(a)`` for :class:`Array` (``override_repr`` if one is set)."""
    override = _options.get("override_repr")
    return override(a) if override is not None else array_repr(a)


def array_str_of(a: Array) -> str:
    """``str(a)`` for :class:`Array`: a 0-d array that stands for a NumPy scalar (an element read, a reduction's
    result: ``scalar_like.stands_for_scalar``) prints as that scalar, as NumPy's ``str(a[0])`` does; other arrays
    (0-d views such as ``a[0, ...]`` too) as ``array_str``. The two differ under ``legacy="1.13"``, where NumPy
    prints a 0-d *array* by Python's ``str`` of its item (``0.10000000149011612`` for a float32 0.1) and a scalar
    as before (``0.1``).

    >>> import kdsl as kd
    >>> a = kd.asarray([0.1], dtype=kd.float32)
    >>> with kd.printoptions(legacy="1.13"):
    ...     print(a[0], kd.array(0.1, dtype=kd.float32))
    0.1 0.10000000149011612
    """
    from kdsl.frontend.array.scalar_like import stands_for_scalar  # cycle: scalar_like builds arrays

    if stands_for_scalar(a):
        with _numpy_options():
            return str(a.numpy()[()])
    return array_str(a)
