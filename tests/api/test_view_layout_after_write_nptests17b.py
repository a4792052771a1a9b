"""A view's layout (``strides``, ``flags``, ``ravel('K')``, the copies ``order=`` makes) right after a write into
it, against NumPy: the write must not make a transposed or sliced view look C-ordered."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = {
    "transposed": lambda x: x.T,
    "shifted": lambda x: x[:, 1:],
    "strided": lambda x: x[:, ::2],
    "reversed": lambda x: x[::-1, ::-1],
    "size1_transposed": lambda x: x[:1].T,
    "swapped_3d": lambda x: x.reshape(2, 3, 2).transpose(2, 0, 1),
    "empty": lambda x: x[:, :0].T,
}

WRITES = {
    "element": lambda v: v.__setitem__((0,) * v.ndim if v.size else Ellipsis, 7),
    "slice": lambda v: v.__setitem__((slice(0, 1),), 5),
    "inplace_multiply": lambda v: v.__imul__(v),
}


def _long_axes(strides, shape):
    """The strides of the axes longer than 1."""
    return [s for s, n in zip(strides, shape, strict=True) if n != 1]


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex64, np.bool_])
@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_layout_after_a_write_into_the_view(view, write, dtype):
    host = np.arange(12).reshape(2, 6).astype(dtype)
    a = kd.asarray(host.copy())
    hv, kv = VIEWS[view](host), VIEWS[view](a)
    WRITES[write](hv)
    WRITES[write](kv)
    # size-1 axes: kdsl gives a C-ordered array's step there (docs/numpy-api.md), NumPy the sliced axis's
    assert _long_axes(kv.strides, kv.shape) == _long_axes(hv.strides, hv.shape)
    assert (kv.flags.c_contiguous, kv.flags.f_contiguous) == (hv.flags.c_contiguous, hv.flags.f_contiguous)
    np.testing.assert_array_equal(kv.ravel("K").numpy(), hv.ravel("K"))
    np.testing.assert_array_equal(kv.ravel("A").numpy(), hv.ravel("A"))
    # order='F' gives the view itself where NumPy does, so a later write still reaches the base
    assert (kd.asarray(kv, order="F") is kv) == (np.asarray(hv, order="F") is hv)
    np.testing.assert_array_equal(a.numpy(), host)


def test_layout_of_the_base_after_a_write_through_a_view():
    host = np.arange(6.0).reshape(2, 3)
    a = kd.asarray(host.copy())
    t, ht = a.T, host.T
    t[1, 0] = -1.0
    ht[1, 0] = -1.0
    assert a.flags.c_contiguous and not a.flags.f_contiguous
    assert a.strides == host.strides
    np.testing.assert_array_equal(a.ravel("K").numpy(), host.ravel("K"))
    np.testing.assert_array_equal(t.reshape(-1, order="A").numpy(), ht.reshape(-1, order="A"))


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("write", sorted(WRITES))
@pytest.mark.parametrize("realise", [False, True])
def test_reshape_after_a_write_shares_as_numpys(view, write, realise):
    """A reshape of a written view is a view of it exactly where NumPy's is: writes into the reshape reach the
    base for a row or a C-ordered slice, and stay in a copy for a written transpose."""
    host = np.arange(12).reshape(2, 6).astype(np.float32)
    a = kd.asarray(host.copy())
    hv, kv = VIEWS[view](host), VIEWS[view](a)
    WRITES[write](hv)
    WRITES[write](kv)
    if realise:
        kv.realize()
    for m, v in ((np, hv), (kd, kv)):
        flat = v.reshape(-1)
        if flat.size:
            flat[-1] = -5
        ravelled = m.ravel(v)
        if ravelled.size:
            ravelled[0] = -9
    np.testing.assert_array_equal(a.numpy(), host)
    np.testing.assert_array_equal(kv.numpy(), hv)


@pytest.mark.parametrize("view", sorted(VIEWS))
@pytest.mark.parametrize("written", [False, True])
def test_view_dtype_of_other_itemsize_checks_numpys_last_axis(view, written):
    """``v.view(int16)`` of an int32 view needs a contiguous last axis in NumPy's layout, also after a write
    into the view and for views of a lazy constant."""
    host = np.arange(12, dtype=np.int32).reshape(2, 6)
    for make in (lambda: kd.asarray(host.copy()), lambda: kd.zeros((2, 6), dtype=kd.int32)):
        h = host.copy() if make().numpy().any() else np.zeros((2, 6), np.int32)
        k = make()
        hv, kv = VIEWS[view](h), VIEWS[view](k)
        if written:
            hv[...] = 3
            kv[...] = 3
        try:
            want = hv.view(np.int16)
        except ValueError:
            with pytest.raises(ValueError, match="last axis must be contiguous"):
                kv.view(np.int16)
            continue
        np.testing.assert_array_equal(kv.view(np.int16).numpy(), want)


@pytest.mark.parametrize(("source", "dtype"), [(np.float32, np.int32), (np.float32, np.uint32),
                                               (np.float32, np.float32), (np.float64, np.int64),
                                               (np.int16, np.float16), (np.uint8, np.int8)])
def test_flags_and_strides_of_bit_cast_views(source, dtype):
    host = np.arange(6).astype(source).reshape(2, 3)
    a = kd.asarray(host.copy())
    for hv, kv in ((host.view(dtype), a.view(dtype)), (host.T.view(dtype), a.T.view(dtype))):
        # a bit-cast view's base is held weakly: its layout must not be replayed through it (it raised)
        assert kv.flags.c_contiguous in (True, False) and len(kv.strides) == 2
        if hv.flags.c_contiguous:
            assert (kv.flags.c_contiguous, kv.strides) == (True, hv.strides)
        kv[0, 0] = 1
        hv[0, 0] = 1
        np.testing.assert_array_equal(kv.numpy(), hv)
    np.testing.assert_array_equal(a.numpy(), host)
