"""ndarray methods and attributes ported NumPy code uses on kdsl arrays: ``fill itemsize flat tobytes repeat
diagonal trace compress``, ``order=`` of ``reshape ravel flatten`` and ``kd.reshape/ravel`` (memory_order.py,
flat_iter.py), against NumPy."""

import numpy as np
import pytest

import kdsl as kd

VIEWS = {"contiguous": lambda a: a, "strided": lambda a: a[:, ::2], "transposed": lambda a: a.T,
         "reversed": lambda a: a[::-1]}


def _host(dtype="float32"):
    return np.arange(24).reshape(4, 6).astype(dtype)


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("value", [7, -1.5, True])
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8"])
def test_fill_in_place_reaches_the_base(view, value, dtype):
    host = _host(dtype)
    a = kd.asarray(host)
    if dtype == "uint8" and value == -1.5:  # NumPy 2 converts the Python float to the int -1 and refuses it
        with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
            VIEWS[view](host).fill(value)
        with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
            VIEWS[view](a).fill(value)
        np.testing.assert_array_equal(a.numpy(), host)  # nothing written
        return
    VIEWS[view](a).fill(value)
    VIEWS[view](host).fill(value)
    np.testing.assert_array_equal(a.numpy(), host)


def test_fill_errors_like_assignment():
    with pytest.raises(ValueError, match="NaN"):
        kd.zeros(3, dtype=kd.int32).fill(float("nan"))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int32", "float32", "float64", "complex64"])
def test_itemsize_and_tobytes(dtype):
    host = _host().astype(dtype)
    a = kd.asarray(host)
    assert a.itemsize == host.itemsize
    assert a[::2].tobytes() == host[::2].tobytes()


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("target", [(-1,), (3, -1), (2, -1, 2), (-1, 2, 2)])
def test_reshape_order(order, view, target):
    host = VIEWS[view](_host())
    a = VIEWS[view](kd.asarray(_host()))
    np.testing.assert_array_equal(a.reshape(target, order=order).numpy(), host.reshape(target, order=order))
    np.testing.assert_array_equal(kd.reshape(a, target, order).numpy(), np.reshape(host, target, order))


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
@pytest.mark.parametrize("view", VIEWS)
def test_ravel_flatten_order(order, view):
    host = VIEWS[view](_host())
    a = VIEWS[view](kd.asarray(_host()))
    np.testing.assert_array_equal(a.ravel(order).numpy(), host.ravel(order))  # 'K': memory order, as NumPy's
    np.testing.assert_array_equal(kd.ravel(a, order).numpy(), np.ravel(host, order))
    np.testing.assert_array_equal(a.flatten(order).numpy(), host.flatten(order))


def test_fortran_reshape_views_and_copies_as_numpy():
    h1, a1 = np.zeros(6, np.float32), kd.zeros(6)
    h1.reshape((2, 3), order="F")[0] = 1  # 1-D: a view in NumPy
    a1.reshape((2, 3), order="F")[0] = 1
    np.testing.assert_array_equal(a1.numpy(), h1)
    h2, a2 = np.zeros((2, 3), np.float32), kd.zeros((2, 3))
    h2.reshape((3, 2), order="F")[0] = 1  # several axes: a copy in NumPy
    a2.reshape((3, 2), order="F")[0] = 1
    np.testing.assert_array_equal(a2.numpy(), h2)


def test_bad_order():
    with pytest.raises(ValueError, match="order must be one of"):
        kd.zeros(4).reshape(2, 2, order="X")
    with pytest.raises(ValueError, match="order must be one of"):
        kd.zeros(4).copy(order="X")


@pytest.mark.parametrize("order", ["C", "F", "A", "K", "f"])
@pytest.mark.parametrize("view", [False, True])
def test_copy_order_keeps_values_and_is_independent(order, view):
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = kd.asarray(host)
    src, want = (a.T[::2], host.T[::2]) if view else (a, host)
    b = src.copy(order=order)
    expected = want.copy(order=order)
    assert b.shape == expected.shape
    b[0] = -1
    np.testing.assert_array_equal(a.numpy(), host)
    np.testing.assert_array_equal(b.numpy()[1:], expected[1:])


def test_flat_reads_writes_iterates():
    host = _host("int32")
    a = kd.asarray(host)
    assert [int(v) for v in a.T.flat] == [int(v) for v in host.T.flat]
    assert len(a.flat) == len(host.flat)
    np.testing.assert_array_equal(a.flat[3:9:2].numpy(), host.flat[3:9:2])
    np.testing.assert_array_equal(a.flat[[0, -1]].numpy(), host.flat[[0, -1]])
    a.flat[[1, 7]] = -5
    host.flat[[1, 7]] = -5
    a[1:].flat[2] = 99
    host[1:].flat[2] = 99
    np.testing.assert_array_equal(a.numpy(), host)
    np.testing.assert_array_equal(np.asarray(a.flat), np.asarray(host.flat))


@pytest.mark.parametrize("view", VIEWS)
def test_methods_match_functions(view):
    host = VIEWS[view](_host())
    a = VIEWS[view](kd.asarray(_host()))
    np.testing.assert_array_equal(a.repeat(2, axis=0).numpy(), host.repeat(2, axis=0))
    np.testing.assert_array_equal(a.repeat([1, 2] * (host.shape[1] // 2) + [1] * (host.shape[1] % 2), axis=1).numpy(),
                                  host.repeat([1, 2] * (host.shape[1] // 2) + [1] * (host.shape[1] % 2), axis=1))
    np.testing.assert_array_equal(a.diagonal(1).numpy(), host.diagonal(1))
    np.testing.assert_allclose(a.trace(-1).numpy(), host.trace(-1))
    keep = [True, False, True]
    np.testing.assert_array_equal(a.compress(keep, axis=0).numpy(), host.compress(keep, axis=0))
    np.testing.assert_array_equal(a.compress(keep).numpy(), host.compress(keep))


def test_sort_methods_take_descending_as_kd_sort():
    host = np.array([[3.0, 1.0, np.nan, 2.0, 1.0], [0.0, -1.0, 5.0, 5.0, -np.inf]], np.float32)
    a = kd.asarray(host)
    for axis in (-1, 0):
        np.testing.assert_array_equal(a.argsort(axis, descending=True).numpy(),
                                      kd.argsort(a, axis=axis, descending=True).numpy())
        b = kd.asarray(host)
        b.sort(axis, descending=True)
        np.testing.assert_array_equal(b.numpy(), kd.sort(a, axis=axis, descending=True).numpy())
        np.testing.assert_array_equal(b.numpy(), np.flip(np.sort(host, axis=axis), axis))  # NaNs first


@pytest.mark.parametrize("value", [3, 3.0, 7, -1, 2.5, True, np.nan, [1, 3], np.array([[5], [8]])])
@pytest.mark.parametrize("view", ["contiguous", "strided", "transposed", "0-d", "size-1", "empty"])
@pytest.mark.parametrize("dtype", [np.int32, np.float32])
def test_in_operator_matches_numpy(value, view, dtype):
    # 3 in a: NumPy's (a == 3).any(); Python's fallback compared 3 with each row and failed on 2-d arrays
    host = (np.arange(24) % 9).astype(dtype).reshape(4, 6)
    make = {"contiguous": lambda a: a[:2, :2], "strided": lambda a: a[::2, ::3], "transposed": lambda a: a[:2, :2].T,
            "0-d": lambda a: a[1, 3], "size-1": lambda a: a[:1, 3:4], "empty": lambda a: a[:0, :2]}[view]
    want_base = make(host)
    got_base = make(kd.asarray(host))
    try:
        want = value in np.asarray(want_base)
    except ValueError:  # shapes that do not broadcast: the same error
        with pytest.raises(ValueError):
            value in got_base  # noqa: B015 (the comparison raises)
        return
    assert (value in got_base) == want


def test_in_operator_of_nan_and_bad_shapes():
    a = kd.asarray(np.array([1.0, np.nan]))
    assert (np.nan in a) is False and (1.0 in a) is True
    with pytest.raises(ValueError):
        [1, 2, 3] in np.zeros((2, 2))  # noqa: B015 (the comparison raises)
    with pytest.raises(ValueError):
        [1, 2, 3] in kd.zeros((2, 2))  # noqa: B015
