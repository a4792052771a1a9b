"""cumprod of complex arrays with infinite parts starts from the first element, as NumPy's: the textbook
``(1 + 0j) * x`` of an infinite ``x`` has a NaN part, which a device that does not fold ``0 * inf`` (the H200)
showed in every scan path."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("n", [1, 4, 300, 5000])
def test_first_element_is_kept(dtype, n):
    x = np.full((3, n), 1.0 - 0.5j, dtype)
    x[0, 0], x[1, 0], x[2, 0] = complex(np.inf, np.inf), complex(np.inf, -1.0), complex(0.0, np.nan)
    got = kd.cumprod(kd.asarray(x), axis=1).numpy()
    want = np.cumprod(x, axis=1)
    np.testing.assert_array_equal(got[:, 0], x[:, 0])
    np.testing.assert_allclose(got, want, rtol=1e-5, equal_nan=True)
