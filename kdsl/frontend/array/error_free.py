"""Error-free products: ``x * y`` as a rounded product and its exact rounding error, for elementwise code that
must round about once (``hypot``'s residual, ``cbrt``'s Newton step).

Elementwise kernels round every operation as written (no contraction, no reassociation: docs/float-semantics.md),
so Dekker's product with Veltkamp's split is exact where the product and its error are normal numbers.

Example:
    >>> import kdsl as kd
    >>> x = kd.asarray([1.0 + 2.0**-30], dtype=kd.float64)
    >>> p, e = two_product(x, x)
    >>> p.tolist(), e.tolist()
    ([1.0000000018626451], [8.673617379884035e-19])
"""

from __future__ import annotations

from kdsl.frontend.array.array import Array

_SPLIT = 134217729.0  # Veltkamp's split constant for float64: 2**27 + 1


def two_product(x: Array, y: Array) -> tuple[Array, Array]:
    """``x * y`` as ``p + e`` exactly (float64 operands whose product and its error are normal numbers)."""
    p = x * y
    cx, cy = x * _SPLIT, y * _SPLIT
    xh, yh = cx - (cx - x), cy - (cy - y)
    xl, yl = x - xh, y - yh
    return p, ((xh * yh - p) + xh * yl + xl * yh) + xl * yl


__all__ = ["two_product"]
