"""NumPy's ``ufunc.at`` of one-input ufuncs (``np.negative.at(a, idx)``, ``np.invert.at``, ``np.sqrt.at``):
unbuffered, so an element selected k times has the function applied k times, each result cast to ``a``'s
dtype; against NumPy on several dtypes, index forms, views and empty selections (kdsl/frontend/array/unary_at.py)."""

import numpy as np
import pytest

import kdsl as kd

INDICES = {
    "repeats": [0, 0, 1, 4, 4, 4],
    "negative": [-1, -1, 2],
    "empty": np.array([], dtype=np.int64),
    "mask": np.array([True, False, True, False, True, True]),
    "slice": slice(1, 5, 2),
    "scalar": 3,
}


@pytest.mark.parametrize("index", INDICES, ids=list(INDICES))
@pytest.mark.parametrize("name,dtype", [("negative", np.float32), ("negative", np.int16), ("negative", np.float64),
                                        ("invert", np.uint8), ("invert", np.int32), ("logical_not", np.bool_),
                                        ("absolute", np.float32), ("square", np.int64), ("sqrt", np.float32),
                                        ("sqrt", np.int64), ("reciprocal", np.float64), ("rint", np.float32)])
def test_unary_at_matches_numpy_1d(name, dtype, index):
    host = (np.arange(6) * 3 - 5).astype(dtype) if dtype != np.bool_ else np.arange(6) % 3 == 0
    if name in ("sqrt", "reciprocal"):
        host = (np.abs(host) + 1).astype(dtype)
    if name == "rint":
        host = host + np.float32(0.5)
    expected = host.copy()
    getattr(np, name).at(expected, INDICES[index])
    got = kd.asarray(host)
    getattr(kd, name).at(got, INDICES[index])
    assert got.dtype == expected.dtype
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6)


@pytest.mark.parametrize("index", [([0, 2, 2], [1, 3, 3]), (1,), ([1, 1],), (Ellipsis, [0, 0, 3]),
                                   (slice(None), [2, 2])])
def test_unary_at_2d_index_tuples(index):
    host = np.arange(12.0).reshape(3, 4) - 4
    expected = host.copy()
    np.negative.at(expected, index)
    got = kd.asarray(host)
    kd.negative.at(got, index)
    np.testing.assert_array_equal(got.numpy(), expected)


def test_unary_at_writes_through_a_view():
    host = np.arange(12.0).reshape(3, 4)
    expected = host.copy()
    np.negative.at(expected[:, ::2], (0, [1, 1, 0]))
    got = kd.asarray(host)
    view = got[:, ::2]
    kd.negative.at(view, (0, [1, 1, 0]))
    np.testing.assert_array_equal(got.numpy(), expected)
    np.testing.assert_array_equal(view.numpy(), expected[:, ::2])


def test_unary_at_on_empty_array():
    a = kd.zeros((0, 3))
    kd.negative.at(a, np.array([], dtype=np.int64))
    assert a.shape == (0, 3)


def test_unary_at_errors_as_numpy():
    with pytest.raises(ValueError, match="second operand provided when ufunc is unary"):
        kd.negative.at(kd.arange(3.0), [0], 1.0)
    with pytest.raises(ValueError, match="second operand provided when ufunc is unary"):
        np.negative.at(np.arange(3.0), [0], 1.0)
    with pytest.raises(TypeError):
        kd.negative.at(kd.asarray([True, False]), [0])
    with pytest.raises(IndexError):
        np.negative.at(np.arange(3.0), [5])
    with pytest.raises(IndexError):
        kd.negative.at(kd.arange(3.0), [5])
    with pytest.raises(TypeError, match="kd.asarray"):
        kd.negative.at(np.arange(3.0), [0])


@pytest.mark.parametrize("call", [lambda xp: xp.negative.reduce(xp.arange(3.0)),
                                  lambda xp: xp.sqrt.accumulate(xp.arange(3.0)),
                                  lambda xp: xp.invert.reduceat(xp.arange(3), [0]),
                                  lambda xp: xp.absolute.outer(xp.arange(3.0), xp.arange(2.0)),
                                  lambda xp: xp.divmod.reduce(xp.arange(1.0, 4.0)),
                                  lambda xp: xp.divmod.accumulate(xp.arange(1.0, 4.0)),
                                  lambda xp: xp.modf.at(xp.arange(3.0), [0])])
def test_methods_of_unary_or_two_output_ufuncs_raise_numpys_value_error(call):
    with pytest.raises(ValueError) as np_error:
        call(np)
    with pytest.raises(ValueError) as kd_error:
        call(kd)
    assert str(kd_error.value).startswith(str(np_error.value))
