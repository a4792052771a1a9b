"""Joining functions as numpy/_core/tests/test_shape_base.py and numpy/lib/tests/test_shape_base.py check them:
an array (kdsl's or NumPy's) is a sequence of its rows for stack/vstack/hstack/dstack/column_stack/concatenate,
a generator is NumPy's TypeError, ``out=`` must have the result's shape (not broadcast into), and the errors
of arrays that do not join carry NumPy's messages."""

import re

import numpy as np
import pytest

import kdsl as kd

FUNCS = ["stack", "vstack", "hstack", "dstack", "column_stack", "concatenate"]
SOURCES = [
    np.arange(6, dtype=np.int32).reshape(2, 3),
    np.arange(24, dtype=np.float32).reshape(2, 3, 4)[:, ::2, 1:],   # a strided view
    np.array([[np.nan, np.inf], [-np.inf, -0.0]], np.float64),
    np.zeros((3, 0), np.int16),                                        # empty rows
    np.ones((1, 5), np.uint8),                                         # a size-1 axis
    np.array([[1 + 2j, 3], [4, 5j]], np.complex64),
]


@pytest.mark.parametrize("name", FUNCS)
@pytest.mark.parametrize("i", range(len(SOURCES)))
def test_an_array_is_the_sequence_of_its_rows(name, i):
    host = SOURCES[i]
    expected = getattr(np, name)(host)
    for source in (kd.asarray(host), host):
        got = getattr(kd, name)(source)
        assert got.shape == expected.shape and got.dtype == expected.dtype
        np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("name", FUNCS)
def test_a_generator_is_a_type_error(name):
    rows = [np.ones(2), np.zeros(2)]
    with pytest.raises(TypeError) as numpy_error:
        getattr(np, name)(r for r in rows)
    with pytest.raises(TypeError, match=re.escape(str(numpy_error.value))):
        getattr(kd, name)(kd.asarray(r) for r in rows)
    with pytest.raises(TypeError):
        getattr(kd, name)({1, 2})  # a set is not indexable either


@pytest.mark.parametrize("out_shape", [(5,), (4, 1), (1, 4), (2, 2), ()])
@pytest.mark.parametrize("dtype", [kd.float32, kd.int32])
def test_concatenate_out_must_have_the_result_shape(out_shape, dtype):
    a, b = np.array([1, 2], dtype.np), np.array([3, 4], dtype.np)
    with pytest.raises(ValueError) as numpy_error:
        np.concatenate((a, b), out=np.empty(out_shape, dtype.np))
    out = kd.zeros(out_shape, dtype)
    with pytest.raises(ValueError, match=re.escape(str(numpy_error.value))):
        kd.concatenate((kd.asarray(a), kd.asarray(b)), out=out)
    np.testing.assert_array_equal(out.numpy(), np.zeros(out_shape, dtype.np))  # left as it was


@pytest.mark.parametrize("out_shape", [(1, 2, 3), (3, 2), (6,)])
def test_stack_out_must_have_the_result_shape(out_shape):
    x = [np.arange(3.0), np.arange(3.0, 6.0)]
    with pytest.raises(ValueError) as numpy_error:
        np.stack(x, out=np.empty(out_shape))
    with pytest.raises(ValueError, match=re.escape(str(numpy_error.value))):
        kd.stack([kd.asarray(v) for v in x], out=kd.zeros(out_shape, kd.float64))


def test_out_of_the_right_shape_is_written():
    out = kd.zeros(4, kd.float64)
    res = kd.concatenate((kd.asarray([1.0, np.nan]), kd.asarray([np.inf, -0.0])), out=out)
    assert res is out
    np.testing.assert_array_equal(out.numpy(), [1.0, np.nan, np.inf, -0.0])


@pytest.mark.parametrize("pair,axis", [(((1,), (1, 1)), 0), (((2, 3), (2, 3, 1)), 0), (((1, 2, 3), (2, 2, 3)), 1),
                                       (((1, 2, 3), (1, 4, 3)), 2), (((0, 2), (0, 3)), 0),
                                       (((2, 1), (2, 1), (3, 2)), 1), (((2, 1), (2, 1), (3, 1)), 1)])
def test_mismatch_messages_are_numpys(pair, axis):
    hosts = [np.zeros(s, np.float32) for s in pair]
    with pytest.raises(ValueError) as numpy_error:
        np.concatenate(hosts, axis=axis)
    with pytest.raises(ValueError, match=re.escape(str(numpy_error.value))):
        kd.concatenate([kd.asarray(h) for h in hosts], axis=axis)
