"""kd.pad(mode='linear_ramp') matches NumPy bit for bit: NumPy's linspace reads the end value as a float64
array, so the ramp is computed in float64 and rounded once to the array's dtype (a float32 computation is an
ulp off at some positions, e.g. 6 * (8 / 7))."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("dtype", ["float32", "float16", "float64", "complex64", "int16"])
@pytest.mark.parametrize(("shape", "width"), [((4,), 7), ((3, 4), ((0, 5), (0, 5))), ((3, 4), (2, 9)),
                                              ((2, 3, 2), 3)])
@pytest.mark.parametrize("end_values", [0, 100, (5, -1)])
def test_pad_linear_ramp_is_numpys_to_the_bit(dtype, shape, width, end_values):
    h = (np.arange(int(np.prod(shape))).reshape(shape) * 3 % 11 + 0.5).astype(dtype)
    want = np.pad(h, width, "linear_ramp", end_values=end_values)
    got = kd.pad(kd.asarray(h), width, "linear_ramp", end_values=end_values).numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
