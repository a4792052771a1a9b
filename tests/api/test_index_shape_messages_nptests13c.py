"""Indexing's shape-mismatch errors print shapes as NumPy does, without spaces: ``(3,4,5,2,7)``, ``(2,)``.

NumPy's own tests (test_indexing.py's test_broadcast_error_reports_correct_shape) check that the message ends
with the indexing result's shape written that way."""
import re

import numpy as np
import pytest

import kdsl as kd


def _message(m, fn):
    with pytest.raises((ValueError, IndexError)) as err:
        fn(m)
    return str(err.value)


def _assign(index, value_shape, shape=(3, 4, 5, 6, 7), dtype=np.float32):
    def run(m):
        arr = m.zeros(shape, dtype=dtype)
        arr[index] = m.zeros(value_shape, dtype=dtype)
    return run


@pytest.mark.parametrize("index, value_shape", [
    ((Ellipsis, [1, 2], slice(None)), (2, 2)),
    (([[0], [1]], Ellipsis, [0, 1, 2]), (2, 2)),
    ((Ellipsis, [0, 1]), (3,)),
])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_value_shape_message_ends_with_numpy_shape(index, value_shape, dtype):
    want = str(np.zeros((3, 4, 5, 6, 7))[index].shape).replace(" ", "")
    got = _message(kd, _assign(index, value_shape, dtype=dtype))
    assert got.endswith(want), got
    assert _message(np, _assign(index, value_shape, dtype=dtype)).endswith(want)


def test_empty_mask_message():
    def run(m):
        x = m.zeros((0, 4))
        x[m.asarray(np.zeros(0, bool))] = m.zeros(2)
    got, want = _message(kd, run), _message(np, run)
    assert got == want


def test_index_arrays_that_do_not_broadcast():
    def run(m):
        m.zeros((3, 4))[m.asarray(np.zeros(2, int)), m.asarray(np.zeros(3, int))]
    got, want = _message(kd, run), _message(np, run)
    assert re.sub(r"\s+$", "", got) == re.sub(r"\s+$", "", want)


def test_size_one_value_still_broadcasts():
    x = kd.zeros((2, 3))
    x[[0, 1], 1:] = kd.asarray([[np.nan], [np.inf]])[:, ::-1]
    want = np.zeros((2, 3))
    want[[0, 1], 1:] = [[np.nan], [np.inf]]
    np.testing.assert_array_equal(np.asarray(x), want)
