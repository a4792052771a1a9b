"""NumPy 2.2's matrix-vector generalised ufuncs ``matvec`` (``(m,n),(n)->(m)``) and ``vecmat``
(``(n),(n,m)->(m)``, conjugating the vector), broadcast over the leading axes, on kdsl's matmul (``axes=``:
``gufunc_core_axes.py``).

Example:
    >>> import kdsl as kd
    >>> m = kd.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> kd.matvec(m, kd.asarray([1.0, 1.0])).tolist(), kd.vecmat(kd.asarray([1.0, 1.0]), m).tolist()
    ([3.0, 7.0], [4.0, 6.0])
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array import gufunc_core_axes, ops
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.complex_math import conj
from kdsl.frontend.array.creation import as_arrays
from kdsl.frontend.array.linalg import matmul


def _operands(x1: Any, x2: Any, dtype: Any) -> tuple[Array, Array]:
    dev = ops.device_of((x1, x2))
    a, b = as_arrays(x1, x2, device=dev)  # together: cross(a64, [0.1, 0, 0]) keeps 0.1 in float64
    if dtype is not None:
        a, b = a.astype(dtype), b.astype(dtype)
    return a, b


def _check(name: str, sig: str, operands: tuple[Array, Array], core: tuple[int, int],
           pairs: tuple[tuple[int, int, int, int], ...]) -> None:
    """NumPy's gufunc checks: enough dimensions, matching core sizes (``pairs``: operand, axis of each)."""
    for i, (x, need) in enumerate(zip(operands, core, strict=True)):
        if x.ndim < need:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has {x.ndim}, gufunc "
                             f"core with signature {sig} requires {need})")
    for i, ai, j, aj in pairs:
        if operands[i].shape[ai] != operands[j].shape[aj]:
            raise ValueError(f"{name}: Input operand {j} has a mismatch in its core dimension 0, with gufunc "
                             f"signature {sig} (size {operands[j].shape[aj]} is different from "
                             f"{operands[i].shape[ai]})")


def matvec(x1: Any, x2: Any, /, *, dtype: Any = None, axes: Any = None, axis: Any = None,
           keepdims: Any = None) -> Array:
    """Matrix-vector products ``x1 @ x2`` of the matrices in the last two axes of ``x1`` and the vectors in the
    last axis of ``x2``, broadcasting the rest (NumPy's ``matvec``; no conjugation).

    >>> import kdsl as kd
    >>> kd.matvec(kd.ones((4, 2, 3)), kd.asarray([1.0, 2.0, 3.0])).shape
    (4, 2)
    """
    a, b = _operands(x1, x2, dtype)
    if axes is not None or axis is not None or keepdims is not None:  # NumPy's gufunc keywords: gufunc_core_axes.py
        return gufunc_core_axes.call("matvec", "(m,n),(n)->(m)", matvec, (a, b), (2, 1), 2, axes, axis, keepdims)
    _check("matvec", "(m,n),(n)->(m)", (a, b), (2, 1), ((0, -1, 1, -1),))
    return _boolean(matmul(a, b[..., None])[..., 0], a, b)


def vecmat(x1: Any, x2: Any, /, *, dtype: Any = None, axes: Any = None, axis: Any = None,
           keepdims: Any = None) -> Array:
    """Vector-matrix products ``conj(x1) @ x2`` of the vectors in the last axis of ``x1`` and the matrices in
    the last two axes of ``x2``, broadcasting the rest (NumPy's ``vecmat``: the vector is conjugated).

    >>> import kdsl as kd
    >>> kd.vecmat(kd.asarray([1j, 1]), kd.asarray([[1j], [2]])).tolist()
    [(3+0j)]
    """
    a, b = _operands(x1, x2, dtype)
    if axes is not None or axis is not None or keepdims is not None:  # NumPy's gufunc keywords: gufunc_core_axes.py
        return gufunc_core_axes.call("vecmat", "(n),(n,m)->(m)", vecmat, (a, b), (1, 2), 2, axes, axis, keepdims)
    _check("vecmat", "(n),(n,m)->(m)", (a, b), (1, 2), ((0, -1, 1, -2),))
    if a.dtype.kind == "c":
        a = conj(a)
    return _boolean(matmul(a[..., None, :], b)[..., 0, :], a, b)


def _boolean(product: Array, a: Array, b: Array) -> Array:
    """Bool operands give bool products in NumPy (an or of ands)."""
    if a.dtype is dt.bool_ and b.dtype is dt.bool_ and product.dtype is not dt.bool_:
        return product != 0
    return product


__all__ = ["matvec", "vecmat"]
