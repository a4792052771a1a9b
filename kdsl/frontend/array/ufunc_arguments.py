"""The arguments of a ufunc call and of its methods, as NumPy checks and applies them: ``casting`` and
``order``, the loop that ``dtype=``/``signature=`` name, the documented signature, and ``out=`` (with
``where=``) for calls (broadcast into a larger ``out``) and for ``reduce``/``accumulate``/``reduceat`` (never
broadcast). :mod:`kdsl.frontend.array.ufunc_methods` builds the ufunc objects on these.

Example:
    >>> import kdsl as kd
    >>> str(ufunc_signature(kd.add, 2)).startswith("(x1, x2, /, out=None, *, where=True")
    True
"""

from __future__ import annotations

import inspect
import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.movement import normalize_axis
from kdsl.frontend.array.ufunc_errors import input_casting_error, output_casting_error
from kdsl.frontend.array.where_masks import where_mask

CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")
ORDERS = ("K", "A", "C", "F")


def ufunc_signature(fn: Callable[..., Any], nin: int) -> inspect.Signature:
    """The signature NumPy documents for a ufunc: the inputs (positional only), ``out`` and the keywords,
    then the function's own keyword-only parameters (``vecdot``'s ``axis``)."""
    inputs = ["x"] if nin == 1 else [f"x{i + 1}" for i in range(nin)]
    params = [inspect.Parameter(n, inspect.Parameter.POSITIONAL_ONLY) for n in inputs]
    params.append(inspect.Parameter("out", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None))
    keywords = {"where": True, "casting": "same_kind", "order": "K", "dtype": None, "subok": True, "signature": None}
    try:
        own = [p for p in inspect.signature(fn).parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    except (TypeError, ValueError):
        own = []
    keywords.update({p.name: p.default for p in own if p.name not in keywords})
    params += [inspect.Parameter(n, inspect.Parameter.KEYWORD_ONLY, default=d) for n, d in keywords.items()]
    return inspect.Signature(params)


def cast_input(name: str, i: int, a: Array, dtype: Any, casting: str) -> Array:
    """Input ``i`` in the loop's ``dtype``, after NumPy's ``casting`` check (its UFuncTypeError)."""
    want = np.dtype(getattr(dtype, "np", dtype))
    if not np.can_cast(a.dtype.np, want, casting):  # type: ignore[arg-type]
        raise input_casting_error(name, i, a.dtype, want, casting,
                                  "pass casting='unsafe' or cast the input with astype")
    return a.astype(dtype)


def check_keywords(name: str, casting: str, order: str) -> None:
    """NumPy's ValueErrors for a ``casting`` or ``order`` it does not know."""
    if casting not in CASTINGS:
        raise ValueError(f"{name}: casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' "
                         f"(got {casting!r})")
    if order not in ORDERS and not (isinstance(order, str) and order.upper() in ORDERS):
        raise ValueError(f"{name}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")


def loop_dtype(name: str, dtype: Any, signature: Any) -> Any:
    """The dtype a ufunc call computes in: ``dtype=``, or a ``signature=`` naming one dtype for every operand
    (``"dd->d"``, ``(np.float64, None, np.float64)``, ``np.float32``); kdsl has one loop per dtype, so a
    signature that mixes dtypes raises ``TypeError`` naming ``dtype=`` as the way."""
    if signature is None:
        return dtype if dtype is None else _numpy_dtype(dtype)
    if dtype is not None:
        raise TypeError("cannot specify both 'signature' and 'dtype'")
    if isinstance(signature, str):
        entries: tuple[Any, ...] = tuple(c for c in signature if c not in "->, ")
    elif isinstance(signature, tuple):
        entries = signature
    else:
        entries = (signature,)
    found = {_numpy_dtype(e) for e in entries if e is not None}
    if not found:  # (None, None, None): no constraint, NumPy's usual loop
        return None
    if len(found) != 1:
        raise TypeError(f"{name}(signature={signature!r}): kdsl computes every operand in one dtype; pass that "
                        "one as dtype= (or cast the inputs with astype)")
    return found.pop()


def _numpy_dtype(x: Any) -> np.dtype:
    """A ``dtype=``/``signature=`` entry as NumPy's dtype: a kdsl dtype, a type code, a scalar type, or a DType
    class (``type(np.dtype(np.float64))``, which ``np.dtype()`` itself would take for object)."""
    x = getattr(x, "np", x)
    if isinstance(x, type) and issubclass(x, np.dtype):
        return np.dtype(getattr(x, "type"))  # noqa: B009 - the class attribute (typing sees the instance's)
    return np.dtype(x)


def ellipsis_out(out: Any) -> Any:
    """NumPy's ``out=...`` (return an array, never a scalar: what kdsl always returns) as ``out=None``; an
    ``...`` inside an ``out`` tuple is NumPy's TypeError."""
    if out is Ellipsis:
        return None
    if isinstance(out, tuple) and any(o is Ellipsis for o in out):
        raise TypeError("must use `...` as `out=...` and not per-operand/in a tuple")
    return out


NO_OUT: Any = type("NoOut", (), {"__repr__": lambda self: "<no out>"})()  # out= not passed (unlike out=None)


def warn_where_without_out(where: Any, out_keyword: Any, out: Any, stacklevel: int) -> None:
    """NumPy's UserWarning for ``where=`` (anything but ``True`` itself) with no ``out`` keyword and no array
    among the positional outputs: NumPy leaves the unselected elements uninitialised (kdsl: zeros). An explicit
    ``out=None`` says that is meant and stays silent, as NumPy's."""
    if where is True or out_keyword is not NO_OUT:
        return
    if out is None or isinstance(out, tuple) and all(o is None for o in out):
        warnings.warn("'where' used without 'out', expect uninitialized memory in output. If this is intentional, "
                      "use out=None.", UserWarning, stacklevel=stacklevel + 1)


def check_out_count(out: Any, nout: int) -> None:
    """NumPy's checks of an ``out=`` keyword against the ufunc's output count: a ufunc of several outputs
    takes a tuple only (``divmod(x, 1, out=None)`` is a TypeError), and a tuple has one entry per output."""
    if isinstance(out, tuple):
        if len(out) != nout:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    elif nout > 1 and out is not NO_OUT and out is not Ellipsis:
        raise TypeError("'out' must be a tuple of arrays")


def check_argument_count(name: str, given: int, nin: int, nout: int) -> None:
    """NumPy's TypeError for a ufunc called with fewer positional arguments than its inputs or more than its
    inputs and outputs together (``np.add(a)``, ``np.add(a, 1, 2, 3)``).

    >>> check_argument_count("add", 4, 2, 1)
    Traceback (most recent call last):
    ...
    TypeError: add() takes from 2 to 3 positional arguments but 4 were given
    """
    if not nin <= given <= nin + nout:
        raise TypeError(f"{name}() takes from {nin} to {nin + nout} positional arguments but {given} "
                        f"{'was' if given == 1 else 'were'} given")


def single_axis(ndim: int, axis: Any, method: str) -> int:
    """The one axis of ``accumulate``/``reduceat``, checked in NumPy's order: each axis in range (AxisError;
    ``0``/``-1`` of 0-d data stand for no axis), then 0-d data ("cannot accumulate on a scalar", TypeError),
    then one axis only (None is every axis: ValueError "... does not allow multiple axes" beyond 1-d)."""
    if axis is None:
        axes: tuple[int, ...] = tuple(range(ndim))
    elif isinstance(axis, tuple):
        axes = tuple(normalize_axis(operator.index(a), ndim) for a in axis)
    else:
        one = operator.index(axis)
        axes = () if ndim == 0 and one in (0, -1) else (normalize_axis(one, ndim),)
    if ndim == 0:
        raise TypeError(f"cannot {method} on a scalar")
    if len(axes) != 1:
        raise ValueError(f"{method} does not allow multiple axes")
    return axes[0]


def written_into(result: Array, out: Any, where: Any, casting: str, name: str) -> Array:
    """``result`` put into ``out`` where ``where`` holds (NumPy's ufunc ``out=``/``where=``)."""
    from kdsl.frontend.array.ops import where as select  # cycle: ops builds on this module's package

    if out is not None and not isinstance(out, Array):
        raise TypeError(f"{name}(out=...) must be a kdsl Array (a NumPy out would mean a copy to the host)")
    if out is not None:  # NumPy refuses a read-only out before it checks the cast
        from kdsl.frontend.array.array_flags import check_writeable  # cycle: that module reads Arrays

        check_writeable(out, "output array is read-only")
    if out is not None and not np.can_cast(result.dtype.np, out.dtype.np, casting):  # type: ignore[arg-type]
        raise output_casting_error(name, result.dtype, out.dtype, casting,
                                   "pass an out of the result's dtype, or casting='unsafe'")
    if where is not True:
        kept = out if out is not None else Array(ops.const_node(0, result.dtype, result.device))
        result = select(where if isinstance(where, bool) else where_mask(where, result.device), result, kept)
    if out is None:
        return result
    if _broadcast(out.shape, result.shape) != out.shape:  # out may be larger: the inputs broadcast to it
        raise ValueError(f"non-broadcastable output operand with shape {out.shape} doesn't match the broadcast "
                         f"shape {result.shape}")
    out[...] = result  # NumPy broadcasts the inputs to out's shape (np.add([1, 2], 1, out=zeros((3, 2))))
    return out


def _broadcast(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...] | None:
    """The broadcast shape of ``a`` and ``b``, None where they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(a, b))
    except ValueError:
        return None


def method_into(result: Array, out: Any, name: str, method: str) -> Array:
    """NumPy's ``out=`` of ``reduce``/``accumulate``/``reduceat``: the result written into a kdsl array of its
    shape (which is returned). NumPy never broadcasts a method's result into ``out``, so another shape is its
    ValueError (``np.add.reduce(a, axis=0, out=zeros(a.shape))`` would otherwise fill every row)."""
    out = ellipsis_out(out)
    if out is None:
        return result
    if isinstance(out, tuple) and len(out) != 1:  # the methods have one output
        raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
    target = out[0] if isinstance(out, tuple) else out
    if not isinstance(target, Array):
        raise TypeError("out= must be a kdsl Array")
    if target.shape != result.shape:
        raise out_shape_error(name, method, target.shape, result.shape)
    target[...] = result
    return target


def out_shape_error(name: str, method: str, got: tuple[int, ...], want: tuple[int, ...]) -> ValueError:
    """NumPy's ValueError for a method's ``out`` of the wrong shape (its wording for each method)."""
    if method == "reduce" and len(got) != len(want):
        return ValueError(f"output parameter for reduction operation {name} has the wrong number of dimensions: "
                          f"Found {len(got)} but expected {len(want)}")
    if method == "accumulate":
        return ValueError(f"provided out is the wrong size for the accumulation (out has shape {got}, the "
                          f"result {want})")
    return ValueError(f"{name}.{method}: out has shape {got} but the result has shape {want} (NumPy does not "
                      "broadcast the result into out)")
