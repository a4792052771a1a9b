"""kd.block's errors for badly nested lists are NumPy's (numpy/_core/tests/test_shape_base.py's TestBlock
test_invalid_nesting, test_empty_lists): the first depth mismatch in order, naming its place, and the empty list
reported as empty only where the depths agree."""

import re

import numpy as np
import pytest

import kdsl as kd

BAD = [[1, []], [[1], []], [[], 1], [[], []], [[1, [2]]], [[1], [[2]]], [], [[[]]], [[1, 2], [[3]], []],
       [[[1], [2]], [[3], 4]], [[np.ones((2, 2))], [[np.zeros(2)]]]]


@pytest.mark.parametrize("i", range(len(BAD)))
def test_bad_nesting_raises_numpys_error(i):
    with pytest.raises(ValueError) as numpy_error:
        np.block(BAD[i])
    with pytest.raises(ValueError, match=re.escape(str(numpy_error.value))):
        kd.block(BAD[i])


@pytest.mark.parametrize("arrays", [[1, (2,)], ([1],), [[1], ([2],)]])
def test_tuples_are_type_errors_naming_the_place(arrays):
    with pytest.raises(TypeError) as numpy_error:
        np.block(arrays)
    where = str(numpy_error.value).split(" is a tuple")[0]
    with pytest.raises(TypeError, match=re.escape(where) + " is a tuple"):
        kd.block(arrays)


def _to_kd(nested):
    return [_to_kd(x) for x in nested] if isinstance(nested, list) else kd.asarray(nested)


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_good_nesting_still_assembles(dtype):
    a = np.ones((2, 2), dtype)
    b = np.full((2, 1), -3, dtype) if dtype == np.int32 else np.array([[np.nan], [np.inf]], dtype)
    c = np.arange(6, dtype=dtype).reshape(2, 3)[:1]  # a view with a size-1 axis
    for nested in ([[a, b], [c]], [a[0], b[:, 0]], [[[a]]], a, [[c[:, :0], c]]):
        got, expected = kd.block(_to_kd(nested)), np.block(nested)
        np.testing.assert_array_equal(got.numpy(), expected)
        assert got.dtype == expected.dtype
