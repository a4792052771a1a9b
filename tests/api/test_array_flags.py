"""ndarray.base, flags, setflags, strides, byteswap, getfield/setfield and resize on kdsl arrays, against NumPy
(kdsl/frontend/array/{array_flags,byte_swap,fields,in_place_resize}.py)."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = {
    "owner": lambda x: x, "T": lambda x: x.T, "rows": lambda x: x[::2], "cols": lambda x: x[:, ::2],
    "first_row": lambda x: x[:1], "newaxis": lambda x: x[None], "inner_newaxis": lambda x: x[:, None],
    "first_col": lambda x: x[:, :1], "middle_rows": lambda x: x[1:3], "middle_cols": lambda x: x[:, 1:3],
    "reversed": lambda x: x[::-1], "row": lambda x: x[0], "T_row": lambda x: x.T[0], "empty": lambda x: x[:0],
    "computed": lambda x: x + 1, "computed_T": lambda x: (x + 1).T, "ravel": lambda x: x.ravel(),
    "TT": lambda x: x.T.T, "permuted": lambda x: x.reshape(2, 3, 4).transpose(2, 0, 1),
    "reshaped_T": lambda x: x.T.reshape(-1),
}
FLAGS = ["C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED", "WRITEBACKIFCOPY", "FNC", "FORC",
         "BEHAVED", "CARRAY", "FARRAY", "C", "F"]


def _pair(dtype="float32"):
    host = np.arange(24).astype(dtype).reshape(4, 6).copy()  # an owner, as kd.asarray gives
    return host, kd.asarray(host)


@pytest.mark.parametrize("view", VIEWS)
def test_flags_match_numpy(view):
    host, a = _pair()
    h, k = VIEWS[view](host), VIEWS[view](a)
    for key in FLAGS:
        assert k.flags[key] == h.flags[key], key
    f, g = k.flags, h.flags
    assert (f.c_contiguous, f.f_contiguous, f.contiguous, f.fortran, f.aligned, f.writeable, f.num) == \
        (g.c_contiguous, g.f_contiguous, g.contiguous, g.fortran, g.aligned, g.writeable, g.num)
    assert repr(f) == repr(g)


@pytest.mark.parametrize("view", ["owner", "T", "rows", "cols", "reversed", "row", "T_row", "empty", "middle_cols",
                                  "permuted", "ravel", "first_row"])
@pytest.mark.parametrize("dtype", ["float32", "int8", "float64", "complex64"])
def test_strides_match_numpy(view, dtype):
    host, a = _pair(dtype)
    assert VIEWS[view](a).strides == VIEWS[view](host).strides


def test_base_follows_views_to_the_owner():
    host = np.arange(24.0)
    owner = kd.asarray(host)
    assert owner.base is None
    m = owner.reshape(4, 6)
    assert m.base is owner and host.reshape(4, 6).base is host
    assert m[::2][:, 1:].base is owner and m.T[0].base is owner
    for copy in (m + 1, m.copy(), m.flatten(), m[[0, 2]], m[m > 3], m.astype(kd.int32)):
        assert copy.base is None and copy.flags.owndata


def test_base_and_flags_of_dtype_views():
    # `b = a.view()`: `b.base is a` and `b.flags` raised AttributeError ('NoneType' object has no attribute
    # '_parent': such a view holds its base weakly)
    host = np.arange(6.0, dtype=np.float32)
    a = kd.asarray(host)
    for view, host_view in ((a.view(), host.view()), (a.view(kd.int32), host.view(np.int32))):
        assert view.base is a and host_view.base is host
        assert view.flags.owndata is False and view.flags.c_contiguous
        assert view[1:].base is a


def test_setflags_read_only():
    _, a = _pair()
    view = a[1:]
    a.setflags(write=False)
    assert not a.flags.writeable and not view.flags.writeable and not a.T.flags.writeable
    for write in (lambda: a.__setitem__(0, 1.0), lambda: view.__setitem__((0, 0), 1.0), lambda: a.fill(2.0),
                  lambda: a.T.__setitem__(0, 5.0)):
        with pytest.raises(ValueError, match="assignment destination is read-only"):
            write()
    with pytest.raises(ValueError, match="output array is read-only"):
        a += 1
    with pytest.raises(ValueError, match="cannot set WRITEABLE"):
        view.setflags(write=True)
    a.flags.writeable = True
    a[0, 0] = 7.0
    assert a[0, 0].item() == 7.0
    a.flags["W"] = False
    assert not a.flags["WRITEABLE"]
    with pytest.raises(KeyError):
        a.flags["NOPE"]
    with pytest.raises(AttributeError):
        a.flags.c_contiguous = False
    with pytest.raises(ValueError):
        a.setflags(uic=True)


def test_read_only_matches_numpy_message():
    host = np.zeros(3)
    host.setflags(write=False)
    with pytest.raises(ValueError) as want:
        host[0] = 1
    a = kd.zeros(3)
    a.setflags(write=False)
    with pytest.raises(ValueError) as got:
        a[0] = 1
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("dtype", ["int8", "int16", "uint16", "int32", "float32", "float64", "int64", "complex64",
                                   "complex128", "bool"])
@pytest.mark.parametrize("view", ["owner", "T", "cols", "empty"])
def test_byteswap(dtype, view):
    host, a = _pair(dtype)
    h, k = VIEWS[view](host), VIEWS[view](a)
    got = k.byteswap()
    assert got.dtype == k.dtype and got.shape == h.shape
    assert got.numpy().tobytes() == h.byteswap().tobytes()
    k.byteswap(inplace=True)
    h.byteswap(inplace=True)
    assert a.numpy().tobytes() == host.tobytes()


@pytest.mark.parametrize(("dtype", "field", "offset"), [("int32", "int16", 0), ("int32", "int16", 2),
                                                       ("int32", "uint8", 3), ("float64", "float32", 4),
                                                       ("complex64", "float32", 4), ("int64", "int64", 0)])
@pytest.mark.parametrize("view", ["owner", "T", "rows"])
def test_getfield_setfield(dtype, field, offset, view):
    host = (np.arange(24) * 100003 - 7).astype(dtype).reshape(4, 6)
    a = kd.asarray(host)
    h, k = VIEWS[view](host), VIEWS[view](a)
    np.testing.assert_array_equal(k.getfield(field, offset).numpy(), h.getfield(field, offset))
    k.setfield(5, field, offset)
    h.setfield(5, field, offset)
    assert a.numpy().tobytes() == host.tobytes()


def test_getfield_errors():
    with pytest.raises(ValueError, match="offset"):
        kd.zeros(3, dtype=kd.int32).getfield(np.int16, 3)
    with pytest.raises(ValueError):
        np.zeros(3, np.int32).getfield(np.int16, 3)


@pytest.mark.parametrize("shape", [(2, 3), (7,), (2, 2), 5, (0,), (3, 0, 2), ()])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bool"])
def test_resize_in_place(shape, dtype):
    host = np.arange(1, 5).astype(dtype)
    a = kd.asarray(host)
    host.resize(shape, refcheck=False)  # (a tracer such as coverage holds extra references: NumPy would refuse)
    a.resize(shape)
    assert a.shape == host.shape and a.dtype.np == host.dtype
    np.testing.assert_array_equal(a.numpy(), host)


def test_resize_forms_and_refusals():
    a, host = kd.arange(6), np.arange(6)
    a.resize(2, 3)
    host.resize(2, 3, refcheck=False)
    np.testing.assert_array_equal(a.numpy(), host)
    a.resize()
    a.resize(None)
    assert a.shape == (2, 3)
    with pytest.raises(ValueError, match="does not own its data"):
        a[0].resize(2)
    with pytest.raises(ValueError):
        np.arange(6).reshape(2, 3).resize(4, refcheck=False)
    with pytest.raises(ValueError, match="does not own its data"):
        kd.arange(6).reshape(2, 3).resize(4)
    with pytest.raises(ValueError, match="negative"):
        kd.arange(3).resize(-1)


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("view", ["owner", "T", "cols", "permuted"])
def test_copy_and_ravel_order(order, view):
    host, a = _pair()
    h, k = VIEWS[view](host), VIEWS[view](a)
    np.testing.assert_array_equal(k.copy(order=order).numpy(), h.copy(order=order))
    np.testing.assert_array_equal(k.ravel(order).numpy(), h.ravel(order))
    np.testing.assert_array_equal(kd.ravel(k, order).numpy(), np.ravel(h, order))
    if order != "K":
        np.testing.assert_array_equal(k.reshape((-1, 2), order=order).numpy(), h.reshape((-1, 2), order=order))
    with pytest.raises(ValueError, match="order"):
        k.copy(order="X")


@pytest.mark.parametrize("make", ["zeros", "ones", "empty", "full"])
@pytest.mark.parametrize("shape", [(3, 4), (3, 1, 4), (1,), (2, 3, 2)])
def test_strides_of_new_constant_arrays_match_numpy(make, shape):
    """kd.zeros/ones/empty/full are lazy broadcast constants inside, but report a new C-ordered array's strides
    and flags, as NumPy's do (they reported zero strides)."""
    args = (shape, 7) if make == "full" else (shape,)
    host, got = getattr(np, make)(*args, dtype=np.float32), getattr(kd, make)(*args, dtype=kd.float32)
    assert got.strides == host.strides
    assert (got.flags.c_contiguous, got.flags.f_contiguous) == (host.flags.c_contiguous, host.flags.f_contiguous)


@pytest.mark.parametrize("view", ["T", "rows", "cols", "reversed", "T_row", "empty", "middle_cols", "permuted",
                                  "first_row"])
@pytest.mark.parametrize("dtype", ["float32", "int8", "complex64"])
def test_layout_survives_computing_the_view(view, dtype):
    """A view read to the host (or used by a computed result) keeps the layout NumPy's view has: its flags,
    strides and memory order (``ravel('K')``) are those of the unread view (NumPy's ravel docstring example)."""
    host, a = _pair(dtype)
    h, k = VIEWS[view](host), VIEWS[view](a)
    k.realize()  # the view's node becomes a buffer (as when a larger graph stores it)
    assert (k.flags.c_contiguous, k.flags.f_contiguous) == (h.flags.c_contiguous, h.flags.f_contiguous)
    assert k.strides == h.strides
    np.testing.assert_array_equal(k.ravel("K").numpy(), h.ravel("K"))
    np.testing.assert_array_equal(k.ravel("A").numpy(), h.ravel("A"))
    assert kd.isfortran(k) == np.isfortran(h)


def test_swapaxes_ravel_k_after_ravel_c():
    host = np.arange(12).reshape(2, 3, 2).swapaxes(1, 2)
    a = kd.arange(12).reshape(2, 3, 2).swapaxes(1, 2)
    np.testing.assert_array_equal(a.ravel("C").numpy(), host.ravel("C"))
    np.testing.assert_array_equal(a.ravel("K").numpy(), host.ravel("K"))


def test_realised_view_of_a_constant_keeps_numpys_layout():
    z = kd.zeros((3, 4))
    a = z.T
    a.realize()  # still a view of z (writes reach it): NumPy's np.zeros((3, 4)).T, Fortran-ordered
    h = np.zeros((3, 4)).T
    assert (a.flags.c_contiguous, a.flags.f_contiguous) == (h.flags.c_contiguous, h.flags.f_contiguous)
    assert a.strides == tuple(s // 2 for s in h.strides)  # float32 here, float64 in NumPy


@pytest.mark.parametrize("view", VIEWS)
def test_ascontiguousarray_copies_exactly_where_numpy_does(view):
    """np.ascontiguousarray returns a C-contiguous input itself (NumPy's docstring: x is y) and copies others."""
    host, a = _pair()
    h, k = VIEWS[view](host), VIEWS[view](a)
    hy, ky = np.ascontiguousarray(h), kd.ascontiguousarray(k)
    assert (ky is k) == (hy is h)
    assert ky.flags.c_contiguous
    np.testing.assert_array_equal(ky.numpy(), hy)


@pytest.mark.parametrize("make", [lambda m: m.ones((2, 3)), lambda m: m.zeros((4, 1)), lambda m: m.full((3,), 2.0)])
def test_ascontiguousarray_of_a_new_constant_is_itself(make):
    x, h = make(kd), make(np)
    assert (kd.ascontiguousarray(x) is x) == (np.ascontiguousarray(h) is h)
