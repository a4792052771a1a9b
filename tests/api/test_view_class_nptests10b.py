"""``a.view(np.ndarray)`` ported as ``a.view(kd.ndarray)`` (or ``view(type=kd.ndarray)``, ``view(dtype, kd.ndarray)``):
NumPy's idiom for "the plain array class", which for kdsl is its only class - a view of the same data, not
a request for dtype ``object``. NumPy subclasses stay refused."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("shape", [(2, 3), (4,), ()])
@pytest.mark.parametrize("cls", [kd.ndarray, kd.Array])
def test_view_as_the_array_class(shape, cls):
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    a = kd.asarray(h)
    for v in (a.view(cls), a.view(type=cls), a.view(None, cls)):
        assert type(v) is kd.ndarray and v.shape == h.shape and v.dtype == kd.float32
        np.testing.assert_array_equal(v.numpy(), h.view(np.ndarray))


def test_view_dtype_and_the_array_class():
    h = np.array([[1.0, -2.0]], np.float32)
    v = kd.asarray(h).view(np.int32, kd.ndarray)
    np.testing.assert_array_equal(v.numpy(), h.view(np.int32, np.ndarray))


def test_view_as_the_array_class_writes_through():
    a = kd.zeros((2, 2))
    v = a.view(kd.ndarray)
    v[0, 1] = 5.0
    assert a.numpy()[0, 1] == 5.0


def test_view_as_a_numpy_subclass_is_refused():
    with pytest.raises(TypeError, match="subclasses"):
        kd.ones(3).view(np.matrix)
