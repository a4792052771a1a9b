"""``ufunc.at`` of a one-input ufunc (``np.negative.at(a, idx)``, ``np.invert.at(bits, idx)``,
``np.sqrt.at(x, mask)``): NumPy's unbuffered in-place ``a[idx] = f(a[idx])``, where an element selected ``k``
times has ``f`` applied ``k`` times (``negative.at(a, [0, 0])`` leaves ``a[0]`` as it was), each result cast
to ``a``'s dtype as NumPy's ``.at`` casts (unsafe: ``sqrt.at`` of an int array truncates every step).

Each element's multiplicity comes from ``add.at`` into an int32 counter (kdsl's scatter, any index NumPy's
``.at`` takes); then round ``r`` applies ``f`` where the count exceeds ``r``, as one fused ``where`` over ``a``.
The number of rounds is the largest count, read to the host (it decides how many rounds run).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import ops, scatter
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import zeros


def apply(name: str, fn: Callable[[Array], Array], a: Any, indices: Any, b: Any) -> None:
    """``a[indices] = fn(a[indices])`` applied once per time each element is selected (NumPy's unary
    ``ufunc.at``).

    >>> import kdsl as kd
    >>> a = kd.asarray([1.0, 2.0, 3.0, 4.0])
    >>> kd.negative.at(a, [0, 0, 1, 3])
    >>> a.tolist()
    [1.0, -2.0, 3.0, -4.0]
    """
    if b is not None:
        raise ValueError(f"second operand provided when ufunc is unary: {name}.at(a, indices) takes no values")
    if not isinstance(a, Array):
        raise TypeError(f"{name}.at writes into a kdsl array; got {type(a).__name__} (use kd.asarray first)")
    counts = zeros(a.shape, dtype=dt.int32)
    scatter.add.at(counts, indices, 1)
    rounds = int(counts.max()) if counts.size else 0
    for r in range(rounds):
        a[...] = ops.where(counts > r, fn(a).astype(a.dtype), a)
