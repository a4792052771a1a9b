"""``hypot`` rounded about once: ``sqrt(a*a + b*b)`` corrected by its exact residual (Dekker's squares).

``big * sqrt((small / big)**2 + 1)`` (kdsl's form before, free of overflow) rounds the quotient, its square, the
sum, the root and the product: 2 ulp from NumPy's (libm's) ``hypot`` and 31% of float64 arguments off the
correctly rounded result. Where ``big`` is far enough from overflow and underflow that the squares and their
rounding errors are normal numbers, the root ``h`` of the rounded sum is corrected by
``(a*a + b*b - h*h) / (2h)``, the residual taken exactly from the three squares' parts; elementwise kernels round
every operation as written (no contraction, no reassociation: docs/float-semantics.md), so the split is exact.
Outside that range both are scaled by a power of two first. float32 is computed in float64 where the device has
it; float16 (computed in float32) and float32 without float64 keep the quotient form.

Example:
    >>> import kdsl as kd
    >>> a, b = kd.asarray([144.41393800829906, 3.0]), kd.asarray([784.7233791032193, 4.0])
    >>> corrected(a, b, kd.float64).tolist()[1]
    5.0
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.error_free import two_product
from kdsl.frontend.array.ops import apply, const_node, where

# float64's big is scaled by a power of two into [2**-480, 2**480], where the squares and their errors are normal
_BIG, _SMALL, _SCALE = 2.0**480, 2.0**-480, 2.0**600


def corrected(big: Array, small: Array, d: dt.DType) -> Array:
    """``hypot`` of ``big >= small >= 0`` of float dtype ``d``: float64 scaled and corrected; float32 in float64
    where the device has it (exact squares, one rounding of the sum, the root rounded to float32); the quotient
    form otherwise."""
    if d == dt.float32 and big.device.supports(dt.float64):
        wb, ws = big.astype(dt.float64), small.astype(dt.float64)
        return apply("sqrt", wb * wb + ws * ws).astype(dt.float32)
    if d != dt.float64:
        ratio = small / where(big == 0, 1.0, big)  # 0/0 never happens: hypot(0, 0) is 0
        return big * apply("sqrt", ratio * ratio + 1.0)
    down, up, one = (Array(const_node(v, dt.float64, big.device)) for v in (1.0 / _SCALE, _SCALE, 1.0))
    scale = where(big > _BIG, down, where(big < _SMALL, up, one))  # float64 constants (a Python float pair: float32)
    a, b = big * scale, small * scale
    pa, ea = two_product(a, a)
    pb, eb = two_product(b, b)
    h = apply("sqrt", pa + pb)
    ph, eh = two_product(h, h)
    residual = ((pa - ph) + pb) + ((ea + eb) - eh)  # pa - ph and the sum with pb are exact (Sterbenz)
    return (h + residual / (2.0 * where(h == 0, 1.0, h))) / scale


__all__ = ["corrected"]
