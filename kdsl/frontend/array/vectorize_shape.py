"""Whether ``kd.vectorize``'s call with whole arrays computed what NumPy's per-element loop computes.

NumPy calls the function once per element; kdsl calls it once with whole arrays (``vectorize.py``). That is the
same only for a function that is elementwise in its array arguments. A function that builds arrays from an
element (``lambda b: np.trapezoid(f(np.linspace(0, b, 50)), ...)``) or reduces one (``lambda x: np.sum(c * x)``)
is not: its result for whole arrays has another shape than the arguments' broadcast shape, or is smaller than
an argument it depends on, or the call fails on shapes (``np.array([x, 0.5])``, ``c * x``) that one element
fits. So is one whose result has the arguments' shape but reads them through a reduction, a sort or a reordering
(``lambda v: v / np.max(v)``, ``np.roll(v, 1)``: ``elementwise_graph.py``), where one element is its own maximum.
kdsl then runs NumPy's loop on the host instead (``vectorize_host.py``) rather than broadcasting a wrong
answer; a constant result (``lambda x: 1.0``) depends on no argument and broadcasts, as NumPy's loop fills it.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 3.0])
    >>> not_elementwise([x * 2], (3,), [x]) is None, not_elementwise([kd.sum(x)], (3,), [x]) is not None
    (True, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.elementwise_graph import reads_elementwise
from kdsl.frontend.array.ops import broadcast_shapes


def _depends_on(out: Array, inputs: list[Array]) -> list[Array]:
    """The ``inputs`` whose nodes ``out``'s graph reads (a walk over the sources)."""
    wanted = {id(a._n): a for a in inputs}
    found: dict[int, Array] = {}
    seen: set[int] = set()
    stack = [out._n]
    while stack and len(found) < len(wanted):
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if id(node) in wanted:
            found[id(node)] = wanted[id(node)]
        stack.extend(getattr(node, "srcs", ()) or ())
    return list(found.values())


def _covers(shape: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether an array of ``other``'s shape broadcasts into ``shape`` (``shape`` is at least as large)."""
    try:
        return broadcast_shapes(shape, other) == shape
    except ValueError:
        return False


# kdsl's errors where arrays built from whole arguments do not fit together (each element alone would)
_SHAPE_ERRORS = ("could not be broadcast", "inhomogeneous shape", "cannot broadcast")


def shape_error(err: BaseException) -> bool:
    """Whether ``err``, raised by a call with whole arrays, is a shape mismatch that one element would not meet."""
    return isinstance(err, ValueError) and any(s in str(err) for s in _SHAPE_ERRORS)


def not_elementwise(outputs: list[Any], shape: tuple[int, ...], inputs: list[Array]) -> str | None:
    """Why the ``outputs`` of a call with the whole ``inputs`` (broadcast ``shape``) are not NumPy's
    per-element results, or None where they are."""
    wide = [a for a in inputs if a.size > 1]  # a reduction of one element is that element
    for out in outputs:
        if isinstance(out, Array) and out.shape == shape and wide and not reads_elementwise(out, wide):
            return ("its result for whole arrays reads them through a reduction, a sort or a reordering "
                    "(v / np.max(v), np.roll(v, 1)), which is not elementwise")
        if not isinstance(out, Array) or out.shape == shape:
            continue
        if not _covers(shape, out.shape):
            return f"its result for whole arrays has shape {out.shape}, not the arguments' shape {shape}"
        for arg in _depends_on(out, [a for a in inputs if a.shape != ()]):
            if not _covers(out.shape, arg.shape):
                return (f"its result for whole arrays (shape {out.shape}) is smaller than an argument it reads "
                        f"(shape {arg.shape}): it reduces or builds arrays, it is not elementwise")
    return None


def _same_value(a: Any, b: Any) -> bool:
    """Whether two host results (Python or NumPy values, tuples of them) are equal, NaN equal to NaN."""
    try:
        return bool(np.array_equal(np.asarray(a), np.asarray(b), equal_nan=np.asarray(a).dtype.kind in "fc"))
    except (TypeError, ValueError):
        return False


def host_value_differs(func: Callable[..., Any], outputs: list[Any], pos: list[Any], kw: dict[str, Any],
                       free: set[int | str]) -> str | None:
    """Why a host value (not a kdsl array) that the call with whole arrays returned is not NumPy's result, or
    None where it is one constant. A function may turn its argument into Python data without failing
    (``len(str(x))``, ``repr(x)``, ``x.tolist()``, ``hash``): its value for the whole array then differs from
    one element's, and broadcasting it would be silently wrong. So the function is called once more with the
    first element of each ``free`` array argument (NumPy calls the first element twice anyway, to find the
    output type); a constant (``lambda x: 1.0``) gives the same value and still broadcasts.

    >>> import kdsl as kd
    >>> x = kd.asarray([1, 22, 333])
    >>> host_value_differs(lambda s: 7, [7], [x], {}, {0}) is None
    True
    >>> host_value_differs(lambda s: len(str(s)), [13], [x], {}, {0}) is not None
    True
    """
    if all(isinstance(o, Array) for o in outputs):
        return None

    def first(key: int | str, a: Any) -> Any:
        return a[(0,) * a.ndim] if key in free and isinstance(a, Array) and a.size else a

    try:
        again = func(*[first(i, a) for i, a in enumerate(pos)], **{k: first(k, v) for k, v in kw.items()})
    except Exception as err:  # noqa: BLE001 - NumPy's loop on the host raises the function's own error
        return f"its call with one element fails ({type(err).__name__}: {err})"
    again_list = list(again) if isinstance(again, tuple) else [again]
    for out, one in zip(outputs, again_list, strict=False):
        if not isinstance(out, Array) and (isinstance(one, Array) or not _same_value(out, one)):
            return (f"it returns a Python value for whole arrays ({out!r}) and another for one element "
                    f"({one!r}): it reads its argument as Python data (str, len, tolist...)")
    return None


__all__ = ["host_value_differs", "not_elementwise", "shape_error"]
