"""kd.frompyfunc(...).outer / .reduce / .accumulate against NumPy's object ufunc methods: left folds along an
axis (tuples of axes, None, keepdims, initial, identity for empty reductions), non-contiguous inputs, Python
control flow on 1-D input, and NumPy's errors."""

import numpy as np
import pytest

import kdsl as kd

A = np.arange(1, 13, dtype=np.int64).reshape(3, 4)
F = np.linspace(-1.0, 2.0, 12).reshape(4, 3)


def horner(x, y):
    return x * 10 + y


def same(got, want):
    want = np.asarray(want).astype(float)
    g = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    assert g.shape == want.shape
    np.testing.assert_allclose(g, want, rtol=1e-6)


@pytest.mark.parametrize("data", [A, A.T, A[:, ::2], F, F[::-1], np.arange(5), np.ones((1, 3))])
@pytest.mark.parametrize("axis", [0, -1])
def test_accumulate_is_a_left_fold(data, axis):
    want = np.frompyfunc(horner, 2, 1).accumulate(data, axis=axis)
    same(kd.frompyfunc(horner, 2, 1).accumulate(kd.asarray(data), axis=axis), want)


@pytest.mark.parametrize("data", [A, A.T[::2], F])
@pytest.mark.parametrize("kwargs", [{}, {"axis": 1}, {"axis": None}, {"axis": (0, 1)}, {"axis": 1, "keepdims": True},
                                    {"axis": None, "keepdims": True}, {"initial": 5}, {"axis": -1, "initial": 2}])
def test_reduce_is_a_left_fold(data, kwargs):
    # several axes only with an identity (NumPy: a fold without one is not reorderable); NumPy then folds in
    # memory order, so a non-contiguous view is checked with a function whose result ignores the order
    several = kwargs.get("axis", 0) is None or isinstance(kwargs.get("axis"), tuple)
    f = (lambda x, y: x + y) if several and not data.flags.c_contiguous else horner
    want = np.frompyfunc(f, 2, 1, identity=0).reduce(data, **kwargs)
    same(kd.frompyfunc(f, 2, 1, identity=0).reduce(kd.asarray(data), **kwargs), want)
    if data.ndim == 2 and kwargs.get("axis", 0) in (0, 1, -1):
        same(kd.frompyfunc(horner, 2, 1).reduce(kd.asarray(data), **kwargs),
             np.frompyfunc(horner, 2, 1).reduce(data, **kwargs))


def test_outer_and_python_control_flow_on_single_elements():
    f = np.frompyfunc(lambda x, y: x - 2 * y, 2, 1)
    same(kd.frompyfunc(lambda x, y: x - 2 * y, 2, 1).outer(kd.asarray(A[0]), kd.asarray(F[:2])),
         f.outer(A[0], F[:2]))
    values = [3.0, 1.0, 4.0, 1.0, 5.0, 9.0, 2.0]
    same(kd.frompyfunc(max, 2, 1).accumulate(values), np.frompyfunc(max, 2, 1).accumulate(values))
    same(kd.frompyfunc(min, 2, 1).reduce(values), np.frompyfunc(min, 2, 1).reduce(values))


def test_empty_reductions_give_identity_or_initial():
    empty = np.zeros((0, 3))
    with_identity = kd.frompyfunc(horner, 2, 1, identity=7)
    same(with_identity.reduce(kd.asarray(empty)), np.frompyfunc(horner, 2, 1, identity=7).reduce(empty))
    same(kd.frompyfunc(horner, 2, 1).reduce(kd.asarray(empty), initial=1.5),
         np.frompyfunc(horner, 2, 1).reduce(empty, initial=1.5))
    # the identity starts only empty reductions (NumPy's object loops): a non-empty fold starts at a[0]
    same(with_identity.reduce(kd.asarray(A), axis=1), np.frompyfunc(horner, 2, 1, identity=7).reduce(A, axis=1))
    assert with_identity.identity == 7
    same(kd.frompyfunc(horner, 2, 1).accumulate(kd.asarray(empty)), np.zeros((0, 3)))


def test_dtype_and_out():
    got = kd.frompyfunc(horner, 2, 1).accumulate(kd.asarray(A), dtype=object)
    same(got, np.frompyfunc(horner, 2, 1).accumulate(A))
    as_float = kd.frompyfunc(horner, 2, 1).reduce(kd.asarray(A), axis=0, dtype=np.float64)
    assert as_float.dtype == kd.float64
    out = kd.zeros(4)
    assert kd.frompyfunc(horner, 2, 1).reduce(kd.asarray(A), out=out) is out
    same(out, np.frompyfunc(horner, 2, 1).reduce(A).astype(float))


@pytest.mark.parametrize("call,error", [
    (lambda m: m.frompyfunc(horner, 2, 1).reduce(np.zeros(0)), ValueError),
    (lambda m: m.frompyfunc(lambda x: (x, x), 1, 2).reduce([1, 2]), ValueError),
    (lambda m: m.frompyfunc(abs, 1, 1).accumulate([1, 2]), ValueError),
    (lambda m: m.frompyfunc(abs, 1, 1).outer([1, 2], [3]), ValueError),
    (lambda m: m.frompyfunc(horner, 2, 1).accumulate(np.float64(3)), TypeError),
    (lambda m: m.frompyfunc(horner, 2, 1).reduce(np.ones((2, 2)), axis=2), np.exceptions.AxisError),
    (lambda m: m.frompyfunc(horner, 2, 1).reduce(np.ones((2, 2)), axis=None), ValueError),
    (lambda m: m.frompyfunc(horner, 2, 1, identity=0).reduce(np.ones((2, 2)), axis=(1, 1)), ValueError),
])
def test_errors_as_numpy(call, error):
    with pytest.raises(error):
        call(np)
    with pytest.raises(error):
        call(kd)
