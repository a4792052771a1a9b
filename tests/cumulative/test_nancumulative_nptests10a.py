"""kd.nancumsum / kd.nancumprod of complex arrays against NumPy: an element with a NaN in either part counts as
NaN and is skipped (replaced by 0 or 1), as NumPy's ``isnan`` of a complex number says."""

import numpy as np
import pytest

import kdsl as kd

NAN = float("nan")


def _sample(shape, dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(dtype)
    flat = a.reshape(-1)
    flat[::3] = complex(NAN, 1.0)
    flat[1::4] = complex(2.0, NAN)
    flat[2::5] = complex(NAN, NAN)
    return a


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
@pytest.mark.parametrize(("shape", "axis"), [((7,), None), ((4, 5), 0), ((4, 5), 1), ((3, 2, 4), -1), ((1,), 0)])
def test_complex_nans_skipped(name, dtype, shape, axis):
    a = _sample(shape, dtype)
    want = getattr(np, name)(a, axis=axis)
    got = getattr(kd, name)(kd.asarray(a), axis=axis)
    assert got.dtype.np == want.dtype
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-5)


@pytest.mark.parametrize("name", ["nancumsum", "nancumprod"])
def test_all_nan_complex(name):
    a = np.full((2, 3), complex(NAN, 0.0), np.complex64)
    np.testing.assert_array_equal(getattr(kd, name)(kd.asarray(a), axis=1).numpy(), getattr(np, name)(a, axis=1))
