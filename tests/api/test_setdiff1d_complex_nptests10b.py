"""kd.setdiff1d of complex arrays (it raised: its lookup used searchsorted, which complex data has not), with
and without assume_unique, NaNs and -0.0 included, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd


def _complex(n, seed, dtype):
    rng = np.random.default_rng(seed)
    return (rng.integers(-2, 3, n) + 1j * rng.integers(-1, 2, n)).astype(dtype)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(("n", "m"), [(12, 5), (5, 12), (1, 1), (7, 0), (0, 4)])
@pytest.mark.parametrize("assume_unique", [False, True])
def test_setdiff1d_complex(dtype, n, m, assume_unique):
    a, b = _complex(n, 1, dtype), _complex(m, 2, dtype)
    if n > 3:
        a[[0, 3]] = [-0.0, complex(np.nan, 0)]
    if assume_unique:
        a = np.unique(a)
    want = np.setdiff1d(a, b, assume_unique=assume_unique)
    got = kd.setdiff1d(kd.asarray(a), kd.asarray(b), assume_unique=assume_unique).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
