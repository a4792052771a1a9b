"""Whether ``kd.vectorize``'s call with whole arrays computed what NumPy's per-element loop computes.

NumPy calls the function once per element; kdsl calls it once with whole arrays (``vectorize.py``). That is the
same only for a function that is elementwise in its array arguments. A function that builds arrays from an
element (``lambda b: np.trapezoid(f(np.linspace(0, b, 50)), ...)``) or reduces one (``lambda x: np.sum(c * x)``)
is not: its result for whole arrays has another shape than the arguments' broadcast shape, or is smaller than
an argument it depends on, or the call fails on shapes (``np.array([x, 0.5])``, ``c * x``) that one element
fits. kdsl then runs NumPy's loop on the host instead (``vectorize_host.py``) rather than broadcasting a wrong
answer; a constant result (``lambda x: 1.0``) depends on no argument and broadcasts, as NumPy's loop fills it.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0, 2.0, 3.0])
    >>> not_elementwise([x * 2], (3,), [x]) is None, not_elementwise([kd.sum(x)], (3,), [x]) is not None
    (True, True)
"""

from __future__ import annotations

from typing import Any

from kdsl.frontend.array.array import Array
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
    for out in outputs:
        if not isinstance(out, Array) or out.shape == shape:
            continue
        if not _covers(shape, out.shape):
            return f"its result for whole arrays has shape {out.shape}, not the arguments' shape {shape}"
        for arg in _depends_on(out, [a for a in inputs if a.shape != ()]):
            if not _covers(out.shape, arg.shape):
                return (f"its result for whole arrays (shape {out.shape}) is smaller than an argument it reads "
                        f"(shape {arg.shape}): it reduces or builds arrays, it is not elementwise")
    return None


__all__ = ["not_elementwise", "shape_error"]
