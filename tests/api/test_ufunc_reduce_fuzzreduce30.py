"""``ufunc.reduce`` as NumPy's (found by differential fuzzing against NumPy): ``where=`` of ``logaddexp``/
``logaddexp2`` of integers leaves the masked elements out (their identity, -inf, was stored as an integer 0 and
added ``exp(0)``), the loop's TypeError comes before the axis checks, 0-d input takes "axis 0" in the by-halves
folds, and the left folds convert ``initial`` and check ``where`` as NumPy."""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _both(call):
    """``call(module, to_array)`` with NumPy and with kdsl: the results, or the exception class each raised."""
    res = []
    for mod, conv in ((np, np.asarray), (kd, kd.asarray)):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                r = call(mod, conv)
            res.append(np.asarray(r.numpy() if isinstance(r, kd.Array) else r))
        except Exception as e:  # noqa: BLE001 - the class is compared with NumPy's
            res.append(type(e))
    return res


def _same(call, rtol=1e-6):
    want, got = _both(call)
    if isinstance(want, type):
        assert isinstance(got, type) and issubclass(got, want), (want, got)
        return
    assert not isinstance(got, type), got
    assert got.shape == want.shape and got.dtype == want.dtype, (want, got)
    np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


@pytest.mark.parametrize("name", ["logaddexp", "logaddexp2"])
@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, np.int16, np.uint32, np.int64])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_logaddexp_reduce_where_of_integers(name, dtype, axis):
    x = (np.arange(12) % 7).astype(dtype).reshape(3, 4)
    where = np.array([True, False, True, True])
    _same(lambda m, A: getattr(m, name).reduce(A(x), axis=axis, where=where), rtol=2e-3)


def test_logaddexp_reduce_where_value():
    x = np.array([[1, 2, 3], [4, 5, 6]], np.uint32)
    got = kd.logaddexp.reduce(kd.asarray(x), axis=None, where=np.array([True, False, True]))
    assert float(got) == pytest.approx(np.logaddexp.reduce(x, axis=None, where=np.array([True, False, True])))
    assert float(got) == pytest.approx(float(np.log(np.exp([1, 3, 4, 6]).sum())))  # 6.1755, not 6.1797


def test_logaddexp_reduce_nothing_included_is_minus_inf():
    _same(lambda m, A: m.logaddexp.reduce(A(np.array(3, np.uint8)), axis=None, where=np.False_))
    _same(lambda m, A: m.logaddexp2.reduce(A(np.array([[1, 2]], np.int16)), axis=1, where=[False, False]))


@pytest.mark.parametrize("name", ["lcm", "gcd", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("kw", [{"axis": (0, 1)}, {"axis": None}, {"axis": 0, "where": [True, False]},
                                {"axis": 0, "initial": 2}])
def test_loop_type_error_comes_first(name, kw):
    for data in (np.ones((1, 2)), np.ones((1, 2), np.complex64), np.zeros((0, 2))):
        _same(lambda m, A, data=data: getattr(m, name).reduce(A(data), **kw))


@pytest.mark.parametrize("name", ["remainder", "floor_divide", "fmod"])
def test_left_fold_loop_type_error_before_axes(name):
    _same(lambda m, A: getattr(m, name).reduce(A(np.ones((1, 4, 2), np.complex64)), axis=None))


@pytest.mark.parametrize("name", ["hypot", "bitwise_xor", "bitwise_and", "gcd", "lcm", "logical_xor"])
@pytest.mark.parametrize("axis", [0, -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_zero_d_axis_zero_in_halves_folds(name, axis, keepdims):
    _same(lambda m, A: getattr(m, name).reduce(A(np.array(-6, np.int16)), axis=axis, keepdims=keepdims))


@pytest.mark.parametrize("name", ["subtract", "floor_divide", "remainder", "power"])
@pytest.mark.parametrize("initial", [2.5, -1, 1e30, float("nan")])
@pytest.mark.parametrize("axis", [0, ()])
def test_left_fold_initial_converted(name, initial, axis):
    _same(lambda m, A: getattr(m, name).reduce(A(np.array([7, 9], np.int16)), axis=axis, initial=initial))


@pytest.mark.parametrize("initial", [None, 100])
def test_left_fold_no_axes_with_where(initial):
    # NumPy: no identity, so a where mask needs initial even with axis=(); with it, initial where masked out
    kw = {} if initial is None else {"initial": initial}
    _same(lambda m, A: m.floor_divide.reduce(A(np.array([7, 9], np.uint16)), axis=(),
                                             where=np.array([False, True]), **kw))
