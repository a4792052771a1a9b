"""kd.ma.vstack / hstack / row_stack / stack take NumPy's dtype= and casting= (numpy/ma/tests/test_extras.py's
test_inspect_signature: np.ma.vstack has np.vstack's signature; kd.ma's raised TypeError)."""

import numpy as np
import pytest
from ma_testing import assert_same

import kdsl as kd

A = np.ma.array([[1, 2, 3]], mask=[[0, 1, 0]], dtype=np.int32)
B = np.ma.array([[4.5, 5.5, 6.5], [7.0, 8.0, 9.0]], mask=[[0, 0, 1], [0, 0, 0]], dtype=np.float32)


@pytest.mark.parametrize("name", ["vstack", "hstack", "row_stack"])
@pytest.mark.parametrize("dtype, casting", [(None, "same_kind"), (np.float64, "same_kind"), (np.int32, "unsafe")])
def test_dtype_and_casting(name, dtype, casting):
    pieces = (A, B) if name != "hstack" else (A.T, B[:1].T)
    got = getattr(kd.ma, name)([kd.ma.array(p) for p in pieces], dtype=dtype, casting=casting)
    assert_same(got, getattr(np.ma, name)(pieces, dtype=dtype, casting=casting))


def test_stack_views_and_empty():
    a = np.ma.array(np.arange(6.0).reshape(2, 3), mask=[[1, 0, 0], [0, 0, 1]])
    pieces = (a[:, ::-1], a[::-1])
    got = kd.ma.stack([kd.ma.array(p) for p in pieces], axis=1, dtype=np.float32)
    assert_same(got, np.ma.stack(pieces, axis=1, dtype=np.float32))
    empty = np.ma.zeros((0, 3))
    assert_same(kd.ma.vstack([kd.ma.array(empty), kd.ma.array(a)], dtype=np.float32),
                np.ma.vstack([empty, a], dtype=np.float32))


def test_casting_is_checked():
    with pytest.raises(TypeError):
        np.ma.vstack([B], dtype=np.int32)  # NumPy: float32 to int32 is not same_kind
    with pytest.raises(TypeError):
        kd.ma.vstack([kd.ma.array(B)], dtype=np.int32)
