"""The host fallback of ``kd.vectorize`` and ``kd.frompyfunc``: NumPy's own per-element loop.

kdsl first calls the function once with whole arrays (one fused kernel). A function that does Python control flow
on an element (``if x > 0:``, ``math.sin(x)``, ``int(x)``, ``d[x]``) cannot take a whole array: kdsl's Array
then raises one of the errors :func:`needs_elements` recognises. As NumPy's ``np.vectorize`` is itself a Python
loop over the elements, kdsl then does what NumPy does: it reads the inputs back (a round trip), runs
``np.vectorize`` / ``np.frompyfunc`` with the same arguments, and uploads the results, warning once per vectorized
function with :class:`~kdsl.frontend.array.performance_warning.PerformanceWarning`. Errors the function raises for
a concrete element (ZeroDivisionError, ValueError...) propagate as NumPy's loop lets them.

Example:
    >>> import math, warnings, kdsl as kd
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore", kd.PerformanceWarning)
    ...     kd.vectorize(lambda x: math.sqrt(x) if x > 0 else 0.0)(kd.asarray([4.0, -1.0])).tolist()
    [2.0, 0.0]
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.performance_warning import PerformanceWarning
from kdsl.frontend.array.ufunc_errors import text_data_error

# The errors kdsl's Array raises when Python asks for one value of a whole array (bool(), float(), int(), index,
# a dict key: `np.vectorize(mapping.get)`).
_VALUE_ERRORS = ("truth value of an", "converted to Python scalars", "converted to a scalar index",
                 "unhashable type", "doesn't define __round__")  # (round(x, 1): NumPy's ndarray has none)


def needs_elements(err: BaseException) -> bool:
    """Whether ``err`` (raised by a call with whole arrays) means Python needed one concrete element."""
    return isinstance(err, (TypeError, ValueError)) and any(s in str(err) for s in _VALUE_ERRORS)


def warn(api: str, func: Callable[..., Any], err: BaseException | str, control_flow: bool = True) -> None:
    """The :class:`PerformanceWarning` of a host fallback, pointing at the array-math rewrite; ``stacklevel``
    names the user's call (this <- ``vectorize._apply`` <- ``__call__`` <- user). ``control_flow=False``: the
    function is not elementwise (``err`` says why: ``vectorize_shape.py``)."""
    name = getattr(func, "__name__", "the function")
    why = f"does Python control flow on an element ({err})" if control_flow else f"works on one element: {err}"
    warnings.warn(
        f"kd.{api}: {name} {why}, so it runs element by element on the "
        f"host through NumPy's np.{api} (a round trip and a Python loop). To run it on the GPU as one kernel, "
        f"write it as array math: kd.where(cond, a, b) instead of `a if cond else b`, kd.select for an if/elif "
        f"chain, kd.sin instead of math.sin, and `values[kd.searchsorted(keys, x)]` with sorted key and value "
        f"arrays instead of a dict lookup", PerformanceWarning, stacklevel=4)


def _host_args(args: tuple[Any, ...], kwargs: dict[str, Any], excluded: set[Any]
               ) -> tuple[list[Any], dict[str, Any]]:
    """The arguments with kdsl arrays read back to NumPy, excluded ones passed unchanged (as NumPy's loop)."""
    pos = [a.numpy() if isinstance(a, Array) and i not in excluded else a for i, a in enumerate(args)]
    kw = {k: v.numpy() if isinstance(v, Array) and k not in excluded else v for k, v in kwargs.items()}
    return pos, kw


def call_vectorize(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], *,
                   otypes: list[Any] | None, excluded: set[Any], cache: bool, doc: str | None) -> Any:
    """NumPy's ``np.vectorize(func, ...)(*args, **kwargs)`` on the host, the result(s) as kdsl arrays."""
    types = [np.dtype(t.np if hasattr(t, "np") else t) for t in otypes] if otypes else None
    pos, kw = _host_args(args, kwargs, excluded)
    out = np.vectorize(func, otypes=types, doc=doc, excluded=excluded, cache=cache)(*pos, **kw)
    return tuple(_uploaded(func, o) for o in out) if isinstance(out, tuple) else _uploaded(func, out)


def _uploaded(func: Callable[..., Any], out: np.ndarray) -> Array:
    """One output of NumPy's loop as a kdsl array; text (``lambda v: "hi" if v > 0 else "lo"``) is refused
    with the kdsl way, as kdsl arrays hold numbers (docs/numpy-api.md, "Not there yet")."""
    if out.dtype.kind in "US":
        name = getattr(func, "__name__", "the function")
        raise text_data_error(f"vectorize: {name} returns text (dtype {out.dtype}), and kdsl arrays hold "
                              "numbers; return integer codes instead and pick the labels on the host "
                              "([labels[i] for i in codes.tolist()]), or run NumPy's np.vectorize on host data")
    return asarray(out)


def _numeric(obj: Any) -> Array:
    """One output of an object ufunc (an object array, or one Python value for 0-d inputs) as a numeric kdsl
    array: the dtype NumPy infers from the values (an empty result: float64)."""
    if isinstance(obj, np.ndarray) and obj.dtype == object:
        obj = np.array(obj.tolist()) if obj.size else obj.astype(np.float64)
    return asarray(np.asarray(obj))


def call_frompyfunc(func: Callable[..., Any], nin: int, nout: int, args: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> Any:
    """NumPy's ``np.frompyfunc(func, nin, nout)(*args)`` on the host, the results as numeric kdsl arrays."""
    pos, kw = _host_args(args, kwargs, set())
    out = np.frompyfunc(func, nin, nout)(*pos, **kw)
    return tuple(_numeric(o) for o in out) if nout > 1 else _numeric(out)
