"""0-d integer arrays (kdsl and NumPy) as indices anywhere in a basic key: the same result as the int they
hold, as in NumPy (``a[kd.asarray(2)]``, ``a[:, i]``, ``a[i, j]``, ``a[i, ..., None, j] = v``)."""

import numpy as np
import pytest
from kd_testing import sample

import kdsl as kd


def _zero_d(value, kind, dtype):
    host = np.array(value, dtype)
    return kd.asarray(host) if kind == "kd" else host


# keys as templates: "I" and "J" are replaced by 0-d arrays holding 1 and -1
KEYS = [("I",), ("J",), ("I", "J"), (slice(None), "J"), ("J", slice(None)), (Ellipsis, "I"), (None, "I"),
        ("I", None, "J"), (slice(None, None, -1), "I"), ("I", 1, slice(1, None)), (0, "J", Ellipsis),
        ("J", Ellipsis, None, "I"), (slice(None, None, 2), "I", "J"), ("I", Ellipsis)]
SHAPES = [(3, 4), (2, 3, 5)]
VIEWS = {"plain": lambda x: x, "transposed": lambda x: x.T, "strided": lambda x: x[::-1, ::2]}


def _keys(template, kind, dtype):
    return tuple(_zero_d(1, kind, dtype) if k == "I" else _zero_d(-1, kind, dtype) if k == "J" else k
                 for k in template)


def _fits(template, ndim):
    return sum(1 for k in template if k is not None and k is not Ellipsis) <= ndim


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("template", KEYS)
@pytest.mark.parametrize("kind", ["kd", "np"])
def test_getitem_like_ints(template, shape, view, kind):
    host = VIEWS[view](sample(shape, "float32", seed=1))
    a = VIEWS[view](kd.asarray(sample(shape, "float32", seed=1)))
    if not _fits(template, len(shape)):  # more indices than axes: NumPy's IndexError, ours too
        with pytest.raises(IndexError, match="too many indices"):
            host[_keys(template, "np", "int32")]
        with pytest.raises(IndexError, match="too many indices"):
            a[_keys(template, kind, "int32")]
        return
    want = host[tuple(1 if k == "I" else -1 if k == "J" else k for k in template)]
    got = a[_keys(template, kind, "int32")]
    assert isinstance(got, kd.Array) and got.shape == np.shape(want) and got.dtype == kd.float32
    np.testing.assert_array_equal(got.numpy(), want)
    assert got.shape == host[_keys(template, "np", "int32")].shape  # NumPy's own answer for 0-d arrays


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16", "uint32", "int64", "uint64"])
def test_index_dtypes(dtype):
    host = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    a = kd.asarray(host)
    i, j = kd.asarray(np.array(1, dtype)), kd.asarray(np.array(2, dtype))
    np.testing.assert_array_equal(a[:, i, j].numpy(), host[:, 1, 2])
    np.testing.assert_array_equal(a[i, j].numpy(), host[1, 2])


def test_scalar_result_and_lazy_operands():
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    i = kd.argmax(kd.asarray(host[:, 0]))  # a lazy 0-d result as the index
    got = a[i, kd.asarray(-2)]
    assert got.shape == () and float(got) == host[2, -2]
    assert (a * 2)[kd.asarray(0)].tolist() == (host * 2)[0].tolist()


@pytest.mark.parametrize("kind", ["kd", "np"])
@pytest.mark.parametrize("template", [("I",), (slice(None), "J"), ("I", "J"), (Ellipsis, "I"), ("J", None, 1)])
def test_out_of_bounds_raises_index_error(template, kind):
    a = kd.zeros((3, 4))
    key = tuple(_zero_d(5, kind, "int32") if k == "I" else _zero_d(-5, kind, "int64") if k == "J" else k
                for k in template)
    with pytest.raises(IndexError):
        np.zeros((3, 4))[tuple(np.asarray(k.numpy()) if isinstance(k, kd.Array) else k for k in key)]
    with pytest.raises(IndexError, match="out of bounds"):
        a[key].numpy()


def test_bad_0d_indices():
    a = kd.zeros((3, 4))
    with pytest.raises(IndexError, match="integer"):
        a[:, kd.asarray(1.0)]
    with pytest.raises(IndexError, match="too many indices"):
        a[kd.asarray(0), 1, kd.asarray(0)]
    with pytest.raises(IndexError, match="single ellipsis"):
        a[..., kd.asarray(0), ...]


SET_KEYS = [("I",), (slice(None), "J"), ("I", "J"), ("J", slice(1, None, 2)), (Ellipsis, "I"), ("I", None),
            (None, "J", Ellipsis), (slice(None, None, -1), "I")]


@pytest.mark.parametrize("view", ["plain", "transposed"])
@pytest.mark.parametrize("template", SET_KEYS)
@pytest.mark.parametrize("kind", ["kd", "np"])
@pytest.mark.parametrize("value", ["scalar", "row"])
def test_setitem_like_ints(template, kind, view, value):
    host = VIEWS[view](np.arange(12, dtype=np.float32).reshape(3, 4) if view == "plain"
                       else np.arange(12, dtype=np.float32).reshape(4, 3))
    a = kd.asarray(host)
    int_key = tuple(1 if k == "I" else -1 if k == "J" else k for k in template)
    region = np.shape(host[int_key])
    v = 7.5 if value == "scalar" else np.arange(region[-1] if region else 1, dtype=np.float32).reshape(
        region[-1:]) - 3  # a row broadcast over the region (a 0-d array for a 0-d region)
    host[int_key] = v
    a[_keys(template, kind, "int64")] = kd.asarray(v) if value == "row" else v
    np.testing.assert_array_equal(a.numpy(), host)


def test_setitem_through_a_view_and_casts():
    host = np.zeros((3, 4), np.int32)
    a = kd.asarray(host)
    row = a[1]
    row[kd.asarray(2)] = 9  # a view's write reaches its base, as in NumPy
    host[1][2] = 9
    a.T[kd.asarray(0), kd.asarray(2)] = 3.7  # floats into ints truncate, as astype does
    host.T[0, 2] = 3.7
    np.testing.assert_array_equal(a.numpy(), host)
    with pytest.raises(OverflowError):
        a[kd.asarray(0), kd.asarray(0)] = 2**40
    with pytest.raises(ValueError):
        a[:, kd.asarray(0)] = kd.ones(4)  # shape (4,) into (3,)


def test_0d_with_other_index_arrays_still_gathers():
    host = np.arange(12.0).reshape(3, 4)
    a = kd.asarray(host)
    np.testing.assert_array_equal(a[kd.asarray([2, 0]), kd.asarray(1)].numpy(), host[[2, 0], 1])
    np.testing.assert_array_equal(a[kd.asarray(1), [3, 0]].numpy(), host[1, [3, 0]])
