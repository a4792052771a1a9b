"""``linspace``: evenly spaced samples between two endpoints, from host values (NumPy's computation, uploaded)
or from kdsl arrays (computed lazily on the device).
"""

from __future__ import annotations

import operator
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange, asarray
from kdsl.frontend.array.host_dtypes import typed_range_dtype


def linspace(start, stop, num: int = 50, endpoint: bool = True, retstep: bool = False, dtype=None, axis: int = 0,
             *, device=None) -> Any:
    """``num`` evenly spaced values from ``start`` to ``stop`` (computed like NumPy, in float64 on the host);
    Python number endpoints give float32 (complex ones complex64: kdsl's defaults), typed host endpoints
    (``np.float64(x)``, NumPy arrays) NumPy's dtype. kdsl array endpoints (of any shape: the result
    is ``(num, *shape)``, or the samples along ``axis``) stay on the device: ``start + i * step`` in their dtype,
    computed lazily. ``retstep=True`` returns ``(samples, step)`` as NumPy's (the step a host float64 for host
    endpoints, a kdsl array for kdsl ones).

    >>> import kdsl as kd
    >>> kd.linspace(0, 1j, 3).tolist(), kd.linspace(kd.asarray([0.0, 1.0]), kd.asarray(2.0), 3).tolist()
    ([0j, 0.5j, 1j], [[0.0, 1.0], [1.0, 1.5], [2.0, 2.0]])
    >>> kd.linspace(0, 1, 5, retstep=True)[1]
    np.float64(0.25)
    """
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if isinstance(start, Array) or isinstance(stop, Array):  # np.linspace would dispatch back here
        y, step = _linspace_of_arrays(start, stop, operator.index(num), endpoint, dtype)
        if axis != 0:  # the samples' axis moves to ``axis`` of the result
            perm = list(range(1, y.ndim))
            perm.insert(mv.normalize_axes((axis,), y.ndim)[0], 0)
            y = y.transpose(tuple(perm))
        return (y, step) if retstep else y
    values, step = np.linspace(start, stop, num, endpoint=endpoint, retstep=True, axis=axis)
    default = typed_range_dtype(values, (start, stop), device) or \
        (dt.default_complex if values.dtype.kind == "c" else dt.default_float)
    d = default if dtype is None else dt.as_dtype(dtype)
    _check_floorable(values.dtype.kind, dtype)
    if d.is_int and values.dtype.kind == "f":  # NumPy floors into an integer dtype (a cast would truncate)
        values = np.floor(values)
    out = asarray(values.astype(d.np), device=device)
    return (out, step) if retstep else out


def _linspace_of_arrays(start, stop, num: int, endpoint: bool, dtype) -> tuple[Array, Array]:
    dev = ops.device_of((start, stop))
    a, b = (x if isinstance(x, Array) else asarray(x, device=dev) for x in (start, stop))
    # floats stay, ints: the default float
    work = promotion.result_dtype(np.add, promotion.promote(a.dtype, b.dtype), 1.0)
    _check_floorable(work.kind, dtype)
    a, b = a.astype(work), b.astype(work)
    shape = ops.broadcast_shapes(a.shape, b.shape)
    i = arange(num, dtype=work.real_dtype if work.kind == "c" else work, device=dev).reshape(
        (num,) + (1,) * len(shape))
    div = num - 1 if endpoint else num
    step = (b - a) / div if div > 0 else (b - a) * float("nan")  # NumPy's step is NaN without an interval
    y = i * step + a if div > 0 else i * (b - a) + a  # NumPy's formula
    if endpoint and num > 1:  # the last value is stop exactly, as NumPy makes it
        y = ops.where(i == num - 1, b, y)
    y = Array(mv.broadcast_node(y._n, (num,) + shape)) if y.shape != (num,) + shape else y
    if dtype is not None and dt.as_dtype(dtype).is_int and work.is_float:  # NumPy floors, a cast truncates
        y = ops.apply("floor", y)
    return (y if dtype is None else y.astype(dtype)), step


def _check_floorable(kind: str, dtype: Any) -> None:
    """NumPy's TypeError for complex samples into an integer ``dtype``: it floors them first, and complex
    numbers have no floor (a cast would drop the imaginary parts silently)."""
    if kind == "c" and dtype is not None and dt.as_dtype(dtype).is_int:
        raise TypeError("ufunc 'floor' not supported for the input types, and the inputs could not be safely "
                        "coerced to any supported types according to the casting rule ''safe'' (linspace of "
                        f"complex endpoints into {dt.as_dtype(dtype).name}: take the real parts first)")
