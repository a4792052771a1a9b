"""``put`` into an empty array with indices raises NumPy's IndexError before it converts the values (found by
differential fuzzing: a negative Python int into an empty unsigned array raised OverflowError); with no
indices the values are still converted, as NumPy's."""

import numpy as np
import pytest

import kdsl as kd

CASES = [("uint8", (0,), [1], -3), ("uint32", (5, 0, 1), [-1, 1], [-3, -2]), ("uint64", (1, 0), [0], [-2, 2]),
         ("uint8", (3,), [], -3), ("uint8", (0,), [], -3), ("uint16", (3,), [1], -4), ("int8", (0, 2), [0], 300),
         ("float32", (0,), [2], 1.5), ("uint8", (0,), [1], []), ("int32", (2, 2), [3], [])]


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize(("dtype", "shape", "ind", "values"), CASES)
def test_put_checks_in_numpys_order(dtype, shape, ind, values, mode):
    want, got = np.zeros(shape, dtype), kd.zeros(shape, dtype)
    try:
        np.put(want, ind, values, mode=mode)
    except (IndexError, OverflowError) as e:
        with pytest.raises(type(e)):
            kd.put(got, ind, values, mode=mode)
        return
    kd.put(got, ind, values, mode=mode)
    np.testing.assert_array_equal(got.numpy(), want)
