"""float64 -> float16 conversions round once, to nearest even, as NumPy's (numpy/_core/tests/test_half.py's
test_half_conversion_rounding): a double just above or below a float16 midpoint must not become the midpoint
on its way through float32 and then round to even."""

import numpy as np
import pytest

import kdsl as kd


def _bits(x):
    return np.asarray(x).view(np.uint16)


def _halves_as_float64():
    """Every finite non-negative float16, as float64."""
    return np.arange(0, 0x7BFF + 1, dtype=np.uint16).view(np.float16).astype(np.float64)


def _near_midpoints():
    """The midpoints between neighbouring float16 values, exactly and one float64 ulp to either side, both signs."""
    f = _halves_as_float64()
    mid = 0.5 * (f[:-1] + f[1:])
    near = np.concatenate([mid, np.nextafter(mid, np.inf), np.nextafter(mid, -np.inf)])
    return np.concatenate([near, -near])


SPECIALS = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e300, -1e-300,
                     2.0**-25, 2.0**-25 + 2.0**-70, 2.0**-24 * 1.5, 2.0**-14 - 2.0**-40, 1.0 + 2.0**-11 + 2.0**-50])


@pytest.mark.parametrize("values", [_near_midpoints(), _halves_as_float64(), SPECIALS, np.zeros(0), np.array([0.1])])
def test_astype_float16_rounds_once(values):
    with np.errstate(over="ignore"):
        expected = values.astype(np.float16)
    assert np.array_equal(_bits(kd.asarray(values).astype(kd.float16)), _bits(expected))


def test_views_and_stores():
    """Non-contiguous views, 2-d shapes with size-1 axes, and a float64 result stored into a float16 out=."""
    v = _near_midpoints()[40000::7][: 3 * 4000].reshape(3, 1, 4000)  # midpoints and their neighbours
    a = kd.asarray(v)
    assert np.array_equal(_bits(a[::-2, :, ::3].astype(kd.float16)), _bits(v[::-2, :, ::3].astype(np.float16)))
    out = kd.zeros((3, 1, 4000), dtype=kd.float16)
    kd.multiply(a, 1.0, out=out)
    expected = np.zeros((3, 1, 4000), np.float16)
    np.multiply(v, 1.0, out=expected)
    assert np.array_equal(_bits(out), _bits(expected))


def test_float32_source_unchanged():
    """float32 -> float16 was one rounding already; it stays NumPy's."""
    v = _near_midpoints().astype(np.float32)
    assert np.array_equal(_bits(kd.asarray(v).astype(kd.float16)), _bits(v.astype(np.float16)))
