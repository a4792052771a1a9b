"""DLPack interchange with NumPy: kd.from_dlpack, Array.__dlpack__ / __dlpack_device__ (host copies)."""

import numpy as np
import pytest
from api_testing import ALL_DTYPES, sample

import kdsl as kd


@pytest.mark.parametrize("name", ALL_DTYPES + ["complex64", "complex128"])
@pytest.mark.parametrize("shape", [(), (0,), (1,), (3, 4), (2, 1, 3)])  # (): was exported 1-d (leftovers29)
def test_from_dlpack_of_numpy_and_back(name, shape):
    host = sample(shape, name)
    a = kd.from_dlpack(host)
    assert a.dtype is getattr(kd, name) and a.shape == shape
    back = np.from_dlpack(a)
    assert back.dtype == host.dtype and back.shape == shape
    np.testing.assert_array_equal(back, host)


def test_special_values_and_strided_views_survive():
    host = np.array([[0.0, -0.0, np.nan], [np.inf, -np.inf, 1e-30]], np.float32)
    a = kd.from_dlpack(host[:, ::-2])  # NumPy exports a negative stride; kdsl uploads its values
    np.testing.assert_array_equal(a.numpy(), host[:, ::-2])
    out = np.from_dlpack(kd.asarray(host).T[1:])  # a kdsl view exports its values, C-contiguous
    np.testing.assert_array_equal(out, host.T[1:])
    assert np.signbit(out[0, 0]) and out.flags.c_contiguous


def test_export_is_a_snapshot_of_lazy_values():
    a = kd.asarray(np.arange(4, dtype=np.int32))
    out = np.from_dlpack(a * 3 + 1)  # computes the lazy expression first
    a[0] = 100
    assert out.tolist() == [1, 4, 7, 10]


def test_dunder_dlpack_arguments():
    a = kd.arange(3, dtype=kd.int16)
    assert a.__dlpack_device__() == (1, 0)
    for kwargs in ({}, {"max_version": (1, 0)}, {"dl_device": (1, 0)}, {"copy": True}, {"copy": None}):
        assert np.from_dlpack(_Capsule(a.__dlpack__(**kwargs))).tolist() == [0, 1, 2]
    with pytest.raises(BufferError, match="copies once"):
        a.__dlpack__(copy=False)
    with pytest.raises(BufferError, match="host memory only"):
        a.__dlpack__(dl_device=(2, 0))
    with pytest.raises(BufferError, match="streams"):
        a.__dlpack__(stream=1)


class _Capsule:
    """A DLPack producer around an already made capsule (to read what __dlpack__ returned)."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (1, 0)


def test_from_dlpack_of_a_kdsl_array_and_copy_rules():
    a = kd.ones(3)
    assert kd.from_dlpack(a) is a
    b = kd.from_dlpack(a, copy=True)
    assert b is not a and b.tolist() == [1.0, 1.0, 1.0]
    with pytest.raises(BufferError, match="copies once"):
        kd.from_dlpack(np.ones(3), copy=False)
    with pytest.raises(TypeError, match="__dlpack__"):
        kd.from_dlpack([1, 2, 3])
    assert kd.from_dlpack(np.ones(2, np.float32), device=kd.device()).device is kd.device()
