"""NumPy's exception types where kdsl raised other ones: kd.insert with an array of float positions raises
IndexError (float scalars and lists: TypeError), kd.vectorize of something not callable raises TypeError at
construction."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("obj", [np.array([1.0, 2.0]), np.array([], dtype=np.float32)])
@pytest.mark.parametrize("wrap", [np.asarray, kd.asarray])
def test_insert_float_position_array(obj, wrap):
    with pytest.raises(IndexError):
        np.insert([0, 1, 2], obj, [10, 20][:obj.size])
    with pytest.raises(IndexError, match="integer"):
        kd.insert(kd.asarray([0, 1, 2]), wrap(obj), kd.asarray([10, 20][:obj.size]))


@pytest.mark.parametrize("obj", [1.0, [1.0]])
def test_insert_float_positions_not_arrays(obj):
    with pytest.raises(TypeError):
        np.insert([0, 1, 2], obj, 10)
    with pytest.raises(TypeError, match="integer"):
        kd.insert(kd.asarray([0, 1, 2]), obj, 10)


@pytest.mark.parametrize("pyfunc", [3, "string", [len]])
def test_vectorize_needs_a_callable(pyfunc):
    with pytest.raises(TypeError):
        np.vectorize(pyfunc)
    with pytest.raises(TypeError, match="callable"):
        kd.vectorize(pyfunc)
