"""Element-wise selection among several arrays: NumPy's ``choose`` (by an index array) and ``select`` (by the
first true condition). Both are one chain of ``where``\\ s over the broadcast inputs, which fuses into a single
kernel; nothing is read back except the bounds of a device index array under ``choose``'s ``mode='raise'``.

Example:
    >>> import kdsl as kd
    >>> x = kd.arange(6)
    >>> kd.select([x < 2, x > 3], [x, x * 10], default=-1).tolist()
    [0, 1, -1, -1, 40, 50]
    >>> kd.choose(kd.asarray([1, 0, 1]), [kd.zeros(3), kd.ones(3)]).tolist()
    [1.0, 0.0, 1.0]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device as current_device
from kdsl.frontend.array import clip_modes, ops
from kdsl.frontend.array.api_info import result_type
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, at_array_precision
from kdsl.frontend.array.math import where
from kdsl.frontend.array.shape_ops import broadcast_values_to

_SCALARS = (bool, int, float, complex)


def _operand(x: Any, device) -> Any:
    """A choice or default as kdsl sees it: Python scalars stay weak, everything else becomes a kdsl Array."""
    if isinstance(x, _SCALARS) or isinstance(x, Array):
        return x
    return asarray(x, device=device)


def _device_of(xs: Sequence[Any]) -> Any:
    """The device of the first kdsl Array among ``xs``, else the current device."""
    return next((x.device for x in xs if isinstance(x, Array)), current_device())


def _shape(xs: Sequence[Any]) -> tuple[int, ...]:
    shapes = [x.shape for x in xs if isinstance(x, Array)]
    try:
        return ops.broadcast_shapes(*shapes) if shapes else ()
    except ValueError:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape (shapes "
                         f"{' '.join(map(str, shapes))})") from None


def _common(xs: Sequence[Any], d: dt.DType, device) -> list[Array]:
    """Each operand as an Array of dtype ``d`` (Python scalars converted as NumPy converts them)."""
    return [x.astype(d) if isinstance(x, Array) else Array(ops.const_node(ops.forced_int(x, d), d, device))
            for x in xs]


def _choices(choices: Any, device) -> list[Any]:
    if isinstance(choices, (Array, np.ndarray)):  # an array chooses among its rows
        if choices.ndim == 0:
            raise ValueError("choices must be a sequence of arrays, not a 0-d array")
        items: list[Any] = [choices[i] for i in range(choices.shape[0])]
    else:
        items = list(choices)
    if not items:
        raise ValueError("0-length sequence.")
    return at_array_precision(items, [_operand(c, device) for c in items], device)  # float lists beside float64


def choose(a: Any, choices: Any, out: Array | None = None, mode: str = "raise") -> Array:
    """``choices[a[i]][i]`` at each position ``i`` of the broadcast of ``a`` and all ``choices`` (NumPy's
    ``choose``). ``a`` holds integers; ``mode``: ``'raise'`` (ValueError for an entry outside ``[0, n)``;
    a kdsl ``a`` is checked with one synchronisation), ``'wrap'`` or ``'clip'``. The result has the choices'
    common dtype; ``out`` (a kdsl Array) receives it.

    >>> import kdsl as kd
    >>> kd.choose([0, 3, 5], [[1, 2, 3], [10, 20, 30]], mode="wrap").tolist()
    [1, 20, 30]
    """
    mode = clip_modes.check_mode(mode)
    listed = choices if isinstance(choices, (list, tuple)) else [choices]
    dev = _device_of([a, *listed])
    cs = _choices(choices, dev)
    n = len(cs)
    raw = clip_modes.index_array(a, dev, empty_ok=False)
    shape = _shape([raw, *cs])
    idx = clip_modes.in_range(_checked_index(a, raw, n, mode, shape), n, mode)
    d = result_type(*cs)
    cs = _common(cs, d, dev)
    picked = cs[-1]
    for k in range(n - 2, -1, -1):  # a chain of where: one fused kernel reading every choice
        picked = where(idx == k, cs[k], picked)
    result = broadcast_values_to(picked.astype(d), shape)
    if out is None:
        return result
    if not isinstance(out, Array):
        raise TypeError(f"out must be a kdsl Array, not {type(out).__name__}")
    if out.shape != shape:  # NumPy's: no broadcast of the result into a larger out
        raise TypeError("choose: invalid shape for output array.")
    out[...] = result
    return out


def _checked_index(a: Any, idx: Array, n: int, mode: str, shape: tuple[int, ...]) -> Array:
    """The index array ``idx`` (of ``a``); ``mode='raise'`` checks it lies in ``[0, n)`` where it chooses
    anything (NumPy's loop runs over the broadcast ``shape``: an empty result checks nothing)."""
    if mode == "raise" and idx.size and math.prod(shape):
        lo, hi = (int(np.min(a)), int(np.max(a))) if not isinstance(a, Array) else clip_modes.bounds(idx)
        if lo < 0 or hi >= n:
            raise ValueError(f"invalid entry in choice array: entries must lie in [0, {n}) with mode='raise' "
                             f"(found {lo if lo < 0 else hi}); mode='wrap' or 'clip' maps them into range")
    return idx


def _condition(c: Any, k: int, device) -> Array:
    """One condition of :func:`select`: NumPy accepts boolean arrays (and Python bools) only."""
    x = c if isinstance(c, Array) else asarray(np.asarray(c), device=device)
    if x.dtype is not dt.bool_:
        raise TypeError(f"invalid entry {k} in condlist: should be boolean ndarray (got {x.dtype.name}); "
                        "compare it, e.g. cond != 0")
    return x


def select(condlist: Sequence[Any], choicelist: Sequence[Any], default: Any = 0) -> Array:
    """At each position, the element of the first choice whose condition is true there, else ``default``
    (NumPy's ``select``). Conditions are boolean; everything broadcasts together; the result has the common
    dtype of the choices and the default (Python scalars are weak, as in kdsl's ``where``).

    >>> import kdsl as kd
    >>> x = kd.asarray([-2.0, 0.5, 3.0])
    >>> kd.select([x < 0, x > 1], [-x, x * x], default=float("nan")).tolist()
    [2.0, nan, 9.0]
    """
    conds, choices = list(condlist), list(choicelist)
    if len(conds) != len(choices):
        raise ValueError(f"list of cases must be same length as list of conditions ({len(choices)} cases, "
                         f"{len(conds)} conditions)")
    if not conds:
        raise ValueError("select with an empty condition list is not possible")
    dev = _device_of([*conds, *choices, default])
    cs = [_condition(c, k, dev) for k, c in enumerate(conds)]
    vs = at_array_precision([*choices, default], [_operand(v, dev) for v in [*choices, default]], dev)
    d = result_type(*vs)
    shape = _shape([*cs, *vs])
    vs = _common(vs, d, dev)
    picked = vs[-1]
    for c, v in zip(reversed(cs), reversed(vs[:-1]), strict=True):  # the first true condition applied last
        picked = where(c, v, picked)
    return broadcast_values_to(picked.astype(d), shape)
