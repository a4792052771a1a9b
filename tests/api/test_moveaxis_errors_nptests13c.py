"""moveaxis's errors as NumPy's: each argument is checked whole (range, then repeats) before the counts agree."""
import numpy as np
import pytest

import kdsl as kd
from kdsl.exceptions import AxisError

CASES = [
    ((3, 0), AxisError, "source: axis 3 is out of bounds"),
    ((-4, 0), AxisError, "source: axis -4 is out of bounds"),
    ((0, 5), AxisError, "destination: axis 5 is out of bounds"),
    (([0, 0], [0, 1]), ValueError, "repeated axis in `source` argument"),
    (([0, 1], [1, 1]), ValueError, "repeated axis in `destination` argument"),
    (([0, -3], [0, 1]), ValueError, "repeated axis in `source` argument"),
    (([0, 0], [0]), ValueError, "repeated axis in `source` argument"),
    (([0], [2, -1]), ValueError, "repeated axis in `destination` argument"),
    ((0, [0, 1]), ValueError, "must have the same number of elements"),
]


@pytest.mark.parametrize("args, error, message", CASES)
@pytest.mark.parametrize("shape", [(1, 2, 3), (0, 1, 2)])
def test_moveaxis_errors_as_numpy(args, error, message, shape):
    data = np.zeros(shape, np.float32)
    with pytest.raises(error, match=message.replace("`", ".").replace("(", ".")):
        np.moveaxis(data, *args)
    with pytest.raises(error, match=message.replace("`", ".").replace("(", ".")):
        kd.moveaxis(kd.asarray(data)[:, :, ::-1], *args)


@pytest.mark.parametrize("source, destination", [([0, -1], [-1, 0]), (1, 0), ([], [])])
def test_moveaxis_valid_as_numpy(source, destination):
    data = np.arange(6, dtype=np.float64).reshape(1, 2, 3)
    data[0, 0, 0] = np.nan
    got = kd.moveaxis(kd.asarray(data), source, destination)
    np.testing.assert_array_equal(np.asarray(got), np.moveaxis(data, source, destination))
