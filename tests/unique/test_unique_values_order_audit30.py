"""``kd.unique_values`` and ``kd.unique(sorted=False)`` return sorted values (docs/numpy-api.md, "Deliberate
differences"): NumPy 2.3+ hashes and promises no order, so the values are NumPy's as a set, in ``np.unique``'s
order (NaNs last, each kept), the order of ``unique_all``."""

import numpy as np
import pytest

import kdsl as kd

DATA = {
    "int": np.array([3, 1, 2, 3, -4, 5, 1], np.int32),
    "uint8": np.array([200, 3, 200, 0], np.uint8),
    "float": np.array([3.0, np.nan, -0.0, 1.0, np.nan, 0.0, -np.inf], np.float32),
    "complex": np.array([3 + 1j, 1, 2, 1, np.nan], np.complex64),
    "bool": np.array([True, False, True]),
    "empty": np.zeros(0, np.float32),
    "one": np.array([7], np.int32),
    "strided 2-d": np.arange(24, dtype=np.int32).reshape(4, 6)[::-1, ::2] % 5,
}


@pytest.mark.parametrize("name", list(DATA))
def test_values_are_numpys_set_in_sorted_order(name):
    host = DATA[name]
    got = kd.unique_values(kd.asarray(host)).numpy()
    want = np.unique_values(host)
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, np.sort(want))  # NumPy's order may vary; its sorted values are ours
    np.testing.assert_array_equal(got, np.unique(host, equal_nan=False))
    np.testing.assert_array_equal(kd.unique(kd.asarray(host), sorted=False).numpy(), np.unique(host))
    np.testing.assert_array_equal(got, kd.unique_all(kd.asarray(host)).values.numpy())
