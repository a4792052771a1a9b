"""kd.pad of bool arrays as NumPy's: ``linear_ramp`` is True wherever the float64 ramp is nonzero (NumPy floors
only integer dtypes), and ``reflect_type='odd'`` writes each ``2 * edge - mirror`` chunk back as bool (it was
left as int32, and later chunks computed on the ints)."""

import numpy as np
import pytest

import kdsl as kd


def _bools(shape, seed):
    return np.random.default_rng(seed).integers(0, 2, shape).astype(bool)


@pytest.mark.parametrize(("shape", "width"), [((3,), 3), ((5,), (1, 6)), ((3, 4), ((1, 2), (3, 0))),
                                              ((2, 3), 4)])
@pytest.mark.parametrize("end_values", [0, 1, (1, 0)])
def test_pad_linear_ramp_of_bools(shape, width, end_values):
    for seed in range(3):
        h = _bools(shape, seed)
        got = kd.pad(kd.asarray(h), width, "linear_ramp", end_values=end_values).numpy()
        want = np.pad(h, width, "linear_ramp", end_values=end_values)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize(("shape", "width"), [((3,), 3), ((4,), (7, 2)), ((3, 4), ((1, 2), (3, 0))),
                                              ((2, 3), 5)])
@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
def test_pad_odd_reflection_of_bools(shape, width, mode):
    for seed in range(3):
        h = _bools(shape, seed)
        got = kd.pad(kd.asarray(h), width, mode, reflect_type="odd").numpy()
        want = np.pad(h, width, mode, reflect_type="odd")
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
