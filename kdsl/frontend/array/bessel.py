"""``i0``: the modified Bessel function of the first kind, order 0 (NumPy's ``np.i0``), from lazy ops.

kdsl evaluates NumPy's own algorithm (Cephes' Chebyshev expansions, 30 coefficients for ``|x| <= 8`` and 25
above) in the input's precision, step by step as NumPy's ``_chbevl`` does: kdsl's elementwise code rounds each
operation as NumPy's (no fused multiply-adds), so the results are NumPy's, including where NumPy's are not the
correctly rounded ones (float32 ``i0(0)`` is 0.99999994, float16 computes in float16), its inf where
``exp(|x|)`` overflows and its NaN at the infinities. Only ``exp`` may differ from NumPy's by an ulp (kdsl's
float32 ``exp`` is the device's), which reaches the result.

Example:
    >>> import kdsl as kd
    >>> [round(v, 6) for v in kd.i0(kd.asarray([0.0, 1.0, -2.0])).tolist()]
    [1.0, 1.266066, 2.279585]
"""

from __future__ import annotations

from typing import Any

from kdsl import dtype as dt
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.ops import apply, where

# Cephes' Chebyshev coefficients of exp(-x) I0(x) on [0, 8] (in x/2 - 2) and of exp(-x) sqrt(x) I0(x) on
# (8, inf) (in 32/x - 2), as NumPy's _i0A and _i0B.
_I0A = [
    -4.41534164647933937950e-18, 3.33079451882223809783e-17, -2.43127984654795469359e-16,
    1.71539128555513303061e-15, -1.16853328779934516808e-14, 7.67618549860493561688e-14,
    -4.85644678311192946090e-13, 2.95505266312963983461e-12, -1.72682629144155570723e-11,
    9.67580903537323691224e-11, -5.18979560163526290666e-10, 2.65982372468238665035e-9,
    -1.30002500998624804212e-8, 6.04699502254191894932e-8, -2.67079385394061173391e-7,
    1.11738753912010371815e-6, -4.41673835845875056359e-6, 1.64484480707288970893e-5,
    -5.75419501008210370398e-5, 1.88502885095841655729e-4, -5.76375574538582365885e-4,
    1.63947561694133579842e-3, -4.32430999505057594430e-3, 1.05464603945949983183e-2,
    -2.37374148058994688156e-2, 4.93052842396707084878e-2, -9.49010970480476444210e-2,
    1.71620901522208775349e-1, -3.04682672343198398683e-1, 6.76795274409476084995e-1,
]
_I0B = [
    -7.23318048787475395456e-18, -4.83050448594418207126e-18, 4.46562142029675999901e-17,
    3.46122286769746109310e-17, -2.82762398051658348494e-16, -3.42548561967721913462e-16,
    1.77256013305652638360e-15, 3.81168066935262242075e-15, -9.55484669882830764870e-15,
    -4.15056934728722208663e-14, 1.54008621752140982691e-14, 3.85277838274214270114e-13,
    7.18012445138366623367e-13, -1.79417853150680611778e-12, -1.32158118404477131188e-11,
    -3.14991652796324136454e-11, 1.18891471078464383424e-11, 4.94060238822496958910e-10,
    3.39623202570838634515e-9, 2.26666899049817806459e-8, 2.04891858946906374183e-7,
    2.89137052083475648297e-6, 6.88975834691682398426e-5, 3.36911647825569408990e-3,
    8.04490411014108831608e-1,
]


def _chebyshev(z: Array, coefs: list[float]) -> Array:
    """NumPy's ``_chbevl``: Clenshaw's recurrence with its order of operations (each rounded in z's dtype)."""
    b0, b1, b2 = z * 0.0 + coefs[0], z * 0.0, z * 0.0
    for c in coefs[1:]:
        b2, b1 = b1, b0
        b0 = z * b1 - b2 + c
    return 0.5 * (b0 - b2)


def i0(x: Any) -> Array:
    """The modified Bessel function of order 0 of each element; float arrays keep their dtype, integers and
    bools give float64 (as NumPy's ``i0``); complex raises TypeError. Like NumPy's, the result is inf
    from ``|x| > log(dtype max)`` on (where NumPy's ``exp(|x|)`` overflows) and NaN at the infinities.

    >>> import kdsl as kd
    >>> r = kd.i0(kd.asarray([0, 3]))
    >>> r.dtype.name, [round(v, 5) for v in r.tolist()]
    ('float64', [1.0, 4.88079])
    """
    a = x if isinstance(x, Array) else asarray(x)
    if a.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    d = a.dtype if a.dtype.is_float else a.device.check(dt.float64)
    t = apply("abs", a.astype(d))
    small = apply("exp", t) * _chebyshev(t / 2.0 - 2, _I0A)
    large = apply("exp", t) * _chebyshev(32.0 / t - 2.0, _I0B) / apply("sqrt", t)
    return where(t <= 8.0, small, large)
