"""NumPy 2's ``copy=`` of kd.array / kd.asarray and the copies an ``order=`` request makes (asarray, array,
asfortranarray, require, astype), checked against NumPy: the same errors, and a result that shares data with
its input (writes reach it) exactly when NumPy's does."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.float32, np.int32, np.uint8, np.bool_, np.complex64]

# views of a (2, 3) array, each with the NumPy layout it stands for
VIEWS = {
    "owner": lambda x: x,
    "transposed": lambda x: x.T,
    "strided": lambda x: x[:, ::2],
    "reversed": lambda x: x[::-1],
    "row": lambda x: x[1],
    "column": lambda x: x[:, 1],
    "size1_axis": lambda x: x[:1],
    "size1_transposed": lambda x: x[:1].T,
    "empty": lambda x: x[:0],
    "zero_d": lambda x: x[1, 2, ...],
}


def _pair(dtype):
    host = np.arange(1, 7).reshape(2, 3).astype(dtype)
    return host, kd.asarray(host.copy())


def _outcome(fn, base, view):
    """What ``fn(view)`` does, as comparable data: the error type, or (result is view, result's values, whether
    a write to the result reaches ``base``)."""
    try:
        out = fn(view)
    except (ValueError, TypeError) as exc:
        return type(exc).__name__
    before = np.array(base).copy()
    values = np.array(out).copy()
    same = out is view
    if out.size:
        out[(0,) * out.ndim] = not bool(np.array(out).flat[0]) if out.dtype == bool else 99
    return same, values.shape, values.tolist(), not np.array_equal(np.array(base), before)


CALLS = {
    "array_copy_false": lambda m, x: m.array(x, copy=False),
    "array_copy_none": lambda m, x: m.array(x, copy=None),
    "array_copy_true": lambda m, x: m.array(x, copy=True),
    "array_copy_zero": lambda m, x: m.array(x, copy=0),
    "array_ndmin_copy_false": lambda m, x: m.array(x, copy=False, ndmin=3),
    "array_dtype_copy_false": lambda m, x: m.array(x, dtype=np.int16, copy=False),
    "array_order_c_copy_none": lambda m, x: m.array(x, order="C", copy=None),
    "array_order_f_copy_none": lambda m, x: m.array(x, order="F", copy=None),
    "array_order_c_copy_false": lambda m, x: m.array(x, order="C", copy=False),
    "array_order_f_copy_false": lambda m, x: m.array(x, order="F", copy=False),
    "array_order_a_copy_false": lambda m, x: m.array(x, order="A", copy=False),
    "asarray": lambda m, x: m.asarray(x),
    "asarray_order_c": lambda m, x: m.asarray(x, order="C"),
    "asarray_order_f": lambda m, x: m.asarray(x, order="F"),
    "asarray_order_a": lambda m, x: m.asarray(x, order="A"),
    "asarray_order_k": lambda m, x: m.asarray(x, order="K"),
    "asarray_order_c_copy_false": lambda m, x: m.asarray(x, order="C", copy=False),
    "asarray_order_f_copy_false": lambda m, x: m.asarray(x, order="F", copy=False),
    "asarray_copymode_never": lambda m, x: m.asarray(x, copy=np._CopyMode.NEVER),
    "asarray_copymode_if_needed": lambda m, x: m.asarray(x, copy=np._CopyMode.IF_NEEDED),
    "asarray_copymode_always": lambda m, x: m.asarray(x, copy=np._CopyMode.ALWAYS),
    "asanyarray_order_c": lambda m, x: m.asanyarray(x, order="C"),
    "asanyarray_order_f_copy_false": lambda m, x: m.asanyarray(x, order="F", copy=False),
    "ascontiguousarray": lambda m, x: m.ascontiguousarray(x),
    "asfortranarray": lambda m, x: m.asfortranarray(x),
    "require_none": lambda m, x: m.require(x),
    "require_c": lambda m, x: m.require(x, requirements="C"),
    "require_f": lambda m, x: m.require(x, requirements="F"),
    "require_o": lambda m, x: m.require(x, requirements="O"),
    "require_cw": lambda m, x: m.require(x, requirements=["C", "W"]),
    "require_fa": lambda m, x: m.require(x, requirements="FA"),
    "astype_same_copy_false_k": lambda m, x: x.astype(x.dtype, copy=False),
    "astype_same_copy_false_c": lambda m, x: x.astype(x.dtype, order="C", copy=False),
    "astype_same_copy_false_f": lambda m, x: x.astype(x.dtype, order="F", copy=False),
    "astype_same_copy_false_a": lambda m, x: x.astype(x.dtype, order="A", copy=False),
    "astype_same_copy_true": lambda m, x: x.astype(x.dtype),
}


@pytest.mark.parametrize("call", sorted(CALLS))
@pytest.mark.parametrize("view", sorted(VIEWS))
def test_sharing_and_errors_follow_numpy(call, view):
    for dtype in (np.float32, np.int32):
        host, a = _pair(dtype)
        want = _outcome(lambda x: CALLS[call](np, x), host, VIEWS[view](host))
        got = _outcome(lambda x: CALLS[call](kd, x), a, VIEWS[view](a))
        assert got == want, (call, view, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("data", [[1, 0], 3, [[1], [0]], [], [[]], ((1, 0), (0, 1))])
def test_copy_false_of_host_data_raises(dtype, data):
    for make in (kd.array, kd.asarray):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            make(data, dtype=dtype, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):  # NumPy agrees for Python data
        np.array(data, dtype=dtype, copy=False)
    for copy in (None, True):
        np.testing.assert_array_equal(kd.array(data, dtype=dtype, copy=copy).numpy(), np.array(data, dtype=dtype))


@pytest.mark.parametrize("make", ["array", "asarray"])
@pytest.mark.parametrize("copy", ["", "no", "always"])
def test_string_copy_is_numpys_value_error(make, copy):
    with pytest.raises(ValueError, match="strings are not allowed") as theirs:
        getattr(np, make)([1.0], copy=copy)
    with pytest.raises(ValueError, match="strings are not allowed") as ours:
        getattr(kd, make)(kd.ones(2), copy=copy)
    assert str(ours.value) == str(theirs.value)


@pytest.mark.parametrize("value", [2.5, np.nan, -np.inf, 0])
def test_asfortranarray_of_zero_d_is_one_d(value):
    for x in (value, np.float64(value), kd.asarray(value), kd.asarray(np.float64(value))):
        got = kd.asfortranarray(x)
        want = np.asfortranarray(np.asarray(x) if isinstance(x, kd.Array) else x)
        assert got.shape == want.shape == (1,)
        np.testing.assert_array_equal(got.numpy(), want)


def test_require_copies_a_read_only_array_for_w():
    host, a = _pair(np.float32)
    host.flags.writeable = False
    a.setflags(write=False)
    for req in ("W", ["C", "W"], None):
        got, want = kd.require(a, requirements=req), np.require(host, requirements=req)
        assert (got is a) == (want is host), req
        assert got.flags.writeable == want.flags.writeable, req


@pytest.mark.parametrize("mode", list(np._CopyMode))
@pytest.mark.parametrize("dtype", [np.float32, np.int8])
def test_astype_refuses_copy_mode(mode, dtype):
    for x in (np.arange(3.0), kd.arange(3.0)):
        with pytest.raises(ValueError, match="_CopyMode enum is not allowed"):
            x.astype(dtype, copy=mode)


@pytest.mark.parametrize("dtype", [None, np.float64, np.int8])
def test_numpy_copy_false_of_a_kdsl_array_raises(dtype):
    a = kd.asarray(np.arange(4, dtype=np.float32))[::2]
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        np.asarray(kd.ma.array(a, mask=[True, False]), dtype=dtype, copy=False)
    np.testing.assert_array_equal(np.asarray(kd.ma.array(a, mask=[True, False]), dtype=dtype), [0, 2])
    for make in (np.asarray, np.array):
        with pytest.raises(ValueError, match="Unable to avoid copy"):
            make(a, dtype=dtype, copy=False)
        for copy in (None, True):  # a host copy the caller owns: writing to it leaves the kdsl array alone
            host = make(a, dtype=dtype, copy=copy)
            np.testing.assert_array_equal(host, np.arange(4, dtype=np.float32)[::2].astype(dtype))
            host[...] = 7
            assert a.tolist() == [0.0, 2.0]
