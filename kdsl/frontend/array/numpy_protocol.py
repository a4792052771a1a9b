"""NumPy's dispatch protocols (NEP 13 ``__array_ufunc__``, NEP 18 ``__array_function__``), as CuPy does them:
``np.exp(a)``, ``np.sum(a)``, ``np.concatenate([a, b])`` on kdsl arrays run kdsl's functions, lazily, on the
device. A NumPy function kdsl lacks raises ``TypeError`` naming it: never a silent copy to the host. An
explicit ``np.asarray(a)`` (``__array__``) still converts.

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray([1.0, 4.0, 9.0])
    >>> type(np.sqrt(a)).__name__, np.sum(np.sqrt(a)).item(), np.concatenate([a, a]).shape
    ('Array', 6.0, (6,))
"""

from __future__ import annotations

import inspect
import sys
from types import ModuleType
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array

# Creation functions whose ``order=`` / ``subok=`` only choose a memory layout or subclass: a kdsl array has one
# layout and no subclasses, so they are dropped (Dask makes its meta arrays with ``np.ones(..., like=a)`` etc.,
# which pass ``order='C'``).
_LAYOUT_ONLY = {"empty", "empty_like", "zeros", "zeros_like", "ones", "ones_like", "full", "full_like", "array",
                "asarray"}


# NumPy's gufunc keywords (np.matmul(a, b, axes=...), np.vecdot(a, b, axis=0)): kdsl's functions take them
_CORE_KEYWORDS = ("axes", "axis", "keepdims")
# NumPy's ufunc keywords that kdsl's ufuncs (and kd.clip) take as they are: how inputs and out= cast, the loop
_RULE_KEYWORDS = ("casting", "order", "signature", "subok")


def _kdsl() -> ModuleType:
    # The kdsl namespace (the package is imported before any of its modules, so it is always there); this
    # module sits below it in the layers and must not import it.
    return sys.modules["kdsl"]


def _refuse(name: str) -> TypeError:
    return TypeError(f"kdsl has no {name}, so NumPy's {name} cannot run on kdsl arrays (kdsl never copies to "
                     f"the host silently); convert explicitly with np.asarray(a) to use NumPy's")


def _out_error(outs: tuple) -> TypeError:
    """The TypeError for an ``out=`` that is not one kdsl array. Its usual source is an in-place operator on
    host data with a kdsl operand (``d -= kd_x`` with ``d`` a NumPy array: NumPy calls ``np.subtract(d, kd_x,
    out=(d,))``), so it names both ways to write that: the target on the device, or the operand on the host."""
    kinds = ", ".join(type(o).__module__.split(".")[0] + "." + type(o).__name__ for o in outs)
    return TypeError(f"out= ({kinds}) must be one kdsl Array when NumPy dispatches to kdsl: kdsl never copies "
                     "to the host silently, so `d -= x` or np.add(d, x, out=d) with d a NumPy array and x a "
                     "kdsl array cannot write into d; make d a kdsl array first (d = kd.asarray(d)), or bring x "
                     "to the host (d -= np.asarray(x))")


def _with_out(result: Any, out: Any) -> Any:
    """NumPy's ``out=``: write ``result`` into the given kdsl array(s) and return them."""
    if out is None:
        return result
    outs = out if isinstance(out, tuple) else (out,)
    if len(outs) != 1 or not isinstance(outs[0], Array):
        raise _out_error(outs)
    outs[0][...] = result
    return outs[0]


def array_ufunc(ufunc: np.ufunc, method: str, inputs: tuple, kwargs: dict) -> Any:
    """``ufunc.method(*inputs, **kwargs)`` computed by kdsl (see the module docstring)."""
    # the indices of at/reduceat may be a list or tuple
    operands = inputs[:1] + inputs[2:] if method in ("at", "reduceat") else inputs
    # nested lists and tuples are array data to NumPy (np.matmul([[1, 2]], a)): kdsl's functions take them too
    if not all(isinstance(x, (Array, np.ndarray, np.generic, bool, int, float, complex, list, tuple))
               for x in operands):
        return NotImplemented
    kd = _kdsl()
    out_given = "out" in kwargs  # (NumPy drops out=None: then where= warns, as for an absent out)
    out = kwargs.pop("out", None)
    name = ufunc.__name__
    fn = getattr(kd, name, None)
    if method == "__call__":
        where = kwargs.pop("where", True)
        if fn is None or (where is not True and not hasattr(fn, "outer")):
            raise _refuse(f"{name} (with where=)" if fn is not None else name)
        dtype = kwargs.pop("dtype", None)
        core = {k: kwargs.pop(k) for k in _CORE_KEYWORDS if k in kwargs}  # gufuncs' axes=: kdsl's function's
        rules = {k: kwargs.pop(k) for k in _RULE_KEYWORDS if k in kwargs}
        if kwargs:
            raise TypeError(f"np.{name} on kdsl arrays does not take {sorted(kwargs)}")
        if where is not True or rules or out_given:
            # a kdsl ufunc: where= keeps out's values (kd.add(x, y, out=o, where=m)); casting= (same_kind by
            # default) rules out's cast (np.clip(a, 0, 1.5, out=int_out) raises, as NumPy's), so out goes to
            # kdsl's function itself
            keywords = {"where": where} if where is not True else {}
            return fn(*inputs, dtype=dtype, **keywords, **rules, **core,
                      **({"out": _kdsl_out(out)} if out_given else {}))
        if dtype is not None:
            inputs = tuple(kd.asarray(x).astype(dtype) if not isinstance(x, (bool, int, float, complex)) else x
                           for x in inputs)
        return _with_out(fn(*inputs, **core), out)
    if method in ("outer", "at") and fn is not None and hasattr(fn, method):  # kd.add.outer...
        if method == "at":
            return fn.at(*inputs, **kwargs)
        return _with_out(getattr(fn, method)(*inputs, **kwargs), out)
    if method in ("reduce", "accumulate", "reduceat") and fn is not None and hasattr(fn, method):
        # kdsl's ufunc method: axis 0 by default, NumPy's checks of out= (its shape is the result's)
        return getattr(fn, method)(*inputs, out=_kdsl_out(out), **kwargs)
    raise _refuse(f"{name}.{method}")


def _kdsl_out(out: Any) -> Any:
    """NumPy's ``out`` (None, an array or a 1-tuple) as the kdsl array it must be."""
    outs = out if isinstance(out, tuple) else (out,)
    if all(o is None for o in outs):  # not ``==``: that compares arrays elementwise
        return None
    if len(outs) != 1 or not isinstance(outs[0], Array):
        raise _out_error(outs)
    return outs[0]


def _function_of(module: str, name: str) -> Any:
    """kdsl's function for NumPy's ``module.name``, or None."""
    kd = _kdsl()
    if module == "numpy":
        return getattr(kd, name, None)
    if module == "numpy.linalg":  # kd.linalg has NumPy's names and semantics (np.linalg.solve -> kd.linalg.solve)
        return getattr(kd.linalg, name, None)
    if module == "numpy.fft":
        return getattr(kd.fft, name, None)
    if module.startswith("numpy.lib."):  # np.lib.stride_tricks / np.lib.scimath (np.emath): kd.lib's namesakes
        return getattr(getattr(kd.lib, module.split(".")[2], None), name, None)
    return None


def array_function(func: Any, types: tuple, args: tuple, kwargs: dict) -> Any:
    """NumPy function ``func`` on kdsl arrays, computed by kdsl's function of the same name."""
    if not all(issubclass(t, (Array, np.ndarray)) for t in types):
        return NotImplemented
    name = func.__name__
    module = getattr(func, "__module__", "") or ""
    fn = _function_of(module, name)
    if fn is None:
        raise _refuse(f"{module}.{name}" if module not in ("", "numpy") else name)
    kwargs = dict(kwargs)
    out = kwargs.pop("out", None)
    if name in _LAYOUT_ONLY:
        kwargs.pop("order", None)
        kwargs.pop("subok", None)
    if out is not None and _takes_out(fn):  # kdsl's function applies NumPy's casting rule and shape checks to out
        return fn(*args, out=_kdsl_out(out), **kwargs)
    return _with_out(fn(*args, **kwargs), out)


def _takes_out(fn: Any) -> bool:
    """Whether kdsl's function ``fn`` has an ``out`` parameter of its own."""
    try:
        return "out" in inspect.signature(fn).parameters
    except (TypeError, ValueError):  # no signature to read: out= is written in afterwards
        return False
