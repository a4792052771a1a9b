"""``kd.frompyfunc(f, ...).at`` and ``.reduceat`` against NumPy's object-ufunc methods (kdsl had neither:
AttributeError). ``at`` applies ``f`` in index order, repeated indices again, results cast back to the target's
dtype; ``reduceat`` folds each segment left (a lone element where the next index is not larger)."""

import numpy as np
import pytest

import kdsl as kd


def shift_add(u, v):
    return u * 10 + v


def larger(u, v):
    return max(u, v)  # Python control flow: kdsl runs it per element on the host


def double(u):
    return u * 2


AT_CASES = [
    ("repeats", lambda: np.arange(6), [0, 0, 2, 2, 2], 3),
    ("values", lambda: np.arange(6), [5, 1, 5], [1, 2, 3]),
    ("floats_into_ints", lambda: np.arange(6), [1, 1], 2.5),
    ("float_target", lambda: np.linspace(-1.0, 1.0, 5), [4, 0, 4], [0.5, -0.25, 2.0]),
    ("negative", lambda: np.arange(6), [-1, -1, 0], 1),
    ("rows", lambda: np.arange(12.0).reshape(3, 4), [2, 0, 2], 1.5),
    ("tuple", lambda: np.arange(12.0).reshape(3, 4), ([0, 0, 2], [1, 1, 3]), [1.0, 2.0, 3.0]),
    ("slice", lambda: np.arange(12.0).reshape(3, 4), (slice(None), 1), 7.0),
    ("mask", lambda: np.arange(6), np.array([True, False, True, False, False, True]), [4, 5, 6]),
    ("empty", lambda: np.arange(6), [], 1),
    ("strided", lambda: np.arange(20).reshape(4, 5)[::-1, ::2], ([0, 0], [1, 1]), [3, 4]),
]


@pytest.mark.parametrize(("name", "make", "indices", "values"), AT_CASES, ids=[c[0] for c in AT_CASES])
@pytest.mark.parametrize("func", [shift_add, larger])
def test_binary_at_matches_numpy(name, make, indices, values, func):
    host = make().copy()
    a = kd.asarray(make())
    np.frompyfunc(func, 2, 1).at(host, indices, values)
    kd.frompyfunc(func, 2, 1).at(a, indices, values)
    assert a.dtype == host.dtype
    np.testing.assert_allclose(a.numpy(), host)


def test_unary_at_and_operand_errors_match_numpy():
    host, a = np.arange(5), kd.asarray(np.arange(5))
    np.frompyfunc(double, 1, 1).at(host, [0, 0, 3, 3, 3])
    kd.frompyfunc(double, 1, 1).at(a, [0, 0, 3, 3, 3])
    np.testing.assert_array_equal(a.numpy(), host)
    for m in (np, kd):
        x = m.asarray(np.arange(3.0))
        with pytest.raises(ValueError, match="second operand needed for ufunc"):
            m.frompyfunc(shift_add, 2, 1).at(x, [0])
        with pytest.raises(ValueError, match="second operand provided when ufunc is unary"):
            m.frompyfunc(double, 1, 1).at(x, [0], 1)
        with pytest.raises(IndexError, match="index 7 is out of bounds"):
            m.frompyfunc(shift_add, 2, 1).at(x, [7], 1)


def test_at_writes_through_a_view():
    host, a = np.arange(12).reshape(3, 4), kd.asarray(np.arange(12).reshape(3, 4))
    np.frompyfunc(shift_add, 2, 1).at(host[1], [0, 0], 1)
    kd.frompyfunc(shift_add, 2, 1).at(a[1], [0, 0], 1)
    np.testing.assert_array_equal(a.numpy(), host)


REDUCEAT_CASES = [
    ("segments", (6,), [0, 2, 5], 0),
    ("not_increasing", (6,), [5, 0, 3, 3], 0),
    ("rows", (4, 3), [0, 3, 1, 3], 0),
    ("columns", (3, 5), [1, 0, 4], 1),
    ("negative_axis", (2, 3, 4), [0, 2], -1),
    ("one", (5,), [2], 0),
    ("none", (5,), [], 0),
]


@pytest.mark.parametrize(("name", "shape", "indices", "axis"), REDUCEAT_CASES, ids=[c[0] for c in REDUCEAT_CASES])
@pytest.mark.parametrize("func", [shift_add, larger])
def test_reduceat_matches_numpy(name, shape, indices, axis, func):
    data = (np.arange(int(np.prod(shape))) % 7).reshape(shape)
    expected = np.frompyfunc(func, 2, 1).reduceat(data, indices, axis=axis)
    got = kd.frompyfunc(func, 2, 1).reduceat(kd.asarray(data), indices, axis=axis)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected.astype(np.int64))


@pytest.mark.parametrize("index", [6, -1])
def test_reduceat_out_of_range_raises_numpys_index_error(index):
    for m in (np, kd):
        with pytest.raises(IndexError, match=rf"index {index} out-of-bounds in shift_add \(vectorized\)\.reduceat"):
            m.frompyfunc(shift_add, 2, 1).reduceat(m.asarray(np.arange(6)), [index])
