"""argsort and argpartition of a 0-d array index it as one element (``[0]``), as NumPy's; sort and partition of
one raise NumPy's AxisError."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("call", [
    lambda m, a: m.argsort(a), lambda m, a: m.argsort(a, axis=None), lambda m, a: m.argsort(a, axis=0),
    lambda m, a: m.argpartition(a, 0), lambda m, a: m.argpartition(a, -1, axis=None), lambda m, a: a.argsort(),
    lambda m, a: a.argpartition(0),
])
@pytest.mark.parametrize("value", [3, 2.5, np.nan, True])
def test_argsorts_of_0d_index_one_element(call, value):
    want = call(np, np.array(value))
    got = call(kd, kd.asarray(np.array(value)))
    assert got.dtype == want.dtype and got.shape == want.shape == (1,)
    np.testing.assert_array_equal(got.numpy(), want)


@pytest.mark.parametrize("call", [lambda m, a: m.sort(a), lambda m, a: m.partition(a, 0),
                                  lambda m, a: m.argsort(a, axis=1), lambda m, a: m.argpartition(a, 1)])
def test_errors_as_numpy(call):
    with pytest.raises(Exception) as want:
        call(np, np.array(3))
    with pytest.raises(want.type):
        call(kd, kd.asarray(3))
