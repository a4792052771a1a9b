"""NumPy's gufunc keywords ``axes``, ``axis`` and ``keepdims`` for ``matmul`` (``(n?,k),(k,m?)->(n?,m?)``),
``matvec`` (``(m,n),(n)->(m)``) and ``vecmat`` (``(n),(n,m)->(m)``), checked as NumPy checks them.

``axes=[entry of x1, entry of x2, entry of the output]`` names where each operand's core dimensions are (a tuple
of as many axes as it has core dimensions; an int for one): they are moved last (a transpose, no copy), the
function runs on its usual layout, and the output's core dimensions move to their entry. ``axis`` and
``keepdims`` (even False) are NumPy's TypeError for these signatures (several core dimensions; outputs with some).

Example:
    >>> import kdsl as kd
    >>> a = kd.arange(6.0).reshape(3, 2)
    >>> kd.matmul(a, a, axes=[(1, 0), (0, 1), (0, 1)]).shape, kd.matvec(a, kd.ones(3), axes=[(1, 0), 0, 0]).shape
    ((2, 2), (2,))
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array
from kdsl.frontend.array.movement import normalize_axis


def call(name: str, signature: str, fn: Callable[..., Array], operands: tuple[Array, Array],
         cores: tuple[int, int], distinct: int, axes: Any, axis: Any, keepdims: Any) -> Array:
    """``fn(*operands)`` with the core dimensions where ``axes`` says (``cores``: each input's count of core
    dimensions; ``distinct``: how many names the signature gives them, for NumPy's ``axis`` error; ``keepdims``:
    None when not given, NumPy's TypeError otherwise)."""
    if axis is not None:
        if axes is not None:
            raise TypeError("cannot specify both 'axis' and 'axes'")
        raise TypeError(f"{name}: axis can only be used with a single shared core dimension, not with the "
                        f"{distinct} distinct ones implied by signature {signature}.")
    out_core = sum(c == 2 for c in cores) if name == "matmul" else 1  # matmul: 1-d operands lose theirs
    if keepdims is not None:  # even keepdims=False, as NumPy's
        odd = next((i for i, c in enumerate(cores) if c != cores[0]), None)
        where = f"output 0 to have {out_core}" if odd is None else f"input {odd} to have {cores[odd]}"
        raise TypeError(f"{name} does not support keepdims: its signature {signature} requires {where} core "
                        "dimensions, but keepdims can only be used when all inputs have the same number of core "
                        "dimensions and all outputs have no core dimensions.")
    if axes is None:
        return fn(*operands)
    if not isinstance(axes, list):
        raise TypeError("axes should be a list.")
    if len(axes) != len(operands) + 1:
        raise ValueError("axes should be a list with an entry for all 3 inputs and outputs; entries for outputs "
                         "can only be omitted if none of them has core axes.")
    moved = tuple(_core_last(x, _entry(name, i, axes[i], c, x.ndim)) for i, (x, c) in
                  enumerate(zip(operands, cores, strict=True)))
    result = fn(*moved)
    return _core_to(result, _entry(name, len(operands), axes[-1], out_core, result.ndim))


def _entry(name: str, operand: int, entry: Any, core: int, ndim: int) -> tuple[int, ...]:
    """An ``axes`` entry as ``core`` axes in range for an array of ``ndim`` dimensions (NumPy's AxisErrors)."""
    if isinstance(entry, tuple):
        if len(entry) != core:
            raise np.exceptions.AxisError(f"{name}: operand {operand} has {core} core dimensions, but {len(entry)} "
                                          "dimensions are specified by axes tuple.")
        picked = tuple(operator.index(a) for a in entry)
    else:
        if core != 1:
            raise np.exceptions.AxisError(f"{name}: operand {operand} has {core} core dimensions, but the axes "
                                          "item is a single integer.")
        picked = (operator.index(entry),)
    return tuple(normalize_axis(a, ndim) for a in picked)


def _core_last(x: Array, core: tuple[int, ...]) -> Array:
    """``x`` with the axes ``core`` moved last, in that order."""
    rest = [a for a in range(x.ndim) if a not in core]
    return x.transpose(tuple(rest) + core) if core else x


def _core_to(result: Array, core: tuple[int, ...]) -> Array:
    """``result`` (core dimensions last) with them moved to the axes ``core``."""
    if not core:
        return result
    loop = iter(range(result.ndim - len(core)))
    last = {axis: result.ndim - len(core) + k for k, axis in enumerate(core)}
    return result.transpose(tuple(last[a] if a in last else next(loop) for a in range(result.ndim)))


__all__ = ["call"]
