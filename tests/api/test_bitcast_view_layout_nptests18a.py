"""``a.view(dtype)`` of a kdsl view reports NumPy's strides and contiguity flags: a same-itemsize bit-cast keeps
the layout of the view it reinterprets (``a.T.view(np.float32)`` of int32 data is Fortran-ordered, and so are
views of it), another itemsize keeps the other axes' steps (``a[:, :1].view(np.int16)`` is not C-contiguous).
kdsl reported such views as C-contiguous owners."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = {
    "T same size": lambda a, m: a.T.view(np.float32),
    "reversed rows": lambda a, m: a[::-1].view(np.float32),
    "reversed rows narrower": lambda a, m: a[::-1].view(np.int16),
    "step columns": lambda a, m: a[:, ::2].view(np.uint32),
    "first column narrower": lambda a, m: a[:, :1].view(np.uint8),
    "two columns wider": lambda a, m: a[:, :2].view(np.float64),
    "size-1 rows T": lambda a, m: a[:1].T.view(np.int16),
    "empty T": lambda a, m: a[:0].T.view(np.int16),
    "T view T": lambda a, m: a.T.view(np.float32).T,
    "T view slice": lambda a, m: a.T.view(np.uint32)[::2],
    "T view view": lambda a, m: a.T.view(np.float32).view(np.uint32),
    "owner view T": lambda a, m: (a * 2).view(np.float32).T,
    "broadcast": lambda a, m: m.broadcast_to(a[0], (3, 3)).view(np.float32),
    "zeros T": lambda a, m: m.zeros((2, 3), np.int32).T.view(np.float32),
    "0-d": lambda a, m: a[1, 2].view(np.float32),
}


def _layout(x):
    return x.shape, x.strides, x.flags["C_CONTIGUOUS"], x.flags["F_CONTIGUOUS"]


@pytest.mark.parametrize("name", VIEWS)
@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_bitcast_views_have_numpys_layout(name, dtype):
    host = np.array([[1, -2, 3], [np.inf, 5, np.nan]]).astype(dtype) if dtype == np.float32 else \
        np.arange(-3, 3, dtype=dtype).reshape(2, 3)
    want = VIEWS[name](host, np)
    got = VIEWS[name](kd.asarray(host), kd)
    assert _layout(got) == _layout(want)
    # the same values in C order (a float view's NaNs compare equal: the NaN that `a * 2` makes has the
    # device's payload and sign, an H200's not NumPy's; integer views compare every bit)
    np.testing.assert_array_equal(got.numpy(), want)


def test_a_transposed_bitcast_view_refuses_another_itemsize_as_numpy():
    host = np.arange(6, dtype=np.int32).reshape(2, 3)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        host.T.view(np.float32).view(np.int16)
    with pytest.raises(ValueError, match="last axis must be contiguous"):
        kd.asarray(host).T.view(np.float32).view(np.int16)


def test_writes_through_a_view_of_a_bitcast_view_reach_the_base():
    host = np.arange(6, dtype=np.float32).reshape(2, 3)
    a, b = kd.asarray(host), host.copy()
    a.T.view(np.int32).T[0, 1] = 7
    b.T.view(np.int32).T[0, 1] = 7
    np.testing.assert_array_equal(a.numpy().view(np.int32), b.view(np.int32))
