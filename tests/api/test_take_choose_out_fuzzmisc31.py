"""``out=`` of ``kd.take`` and ``kd.choose``, and ``choose``'s index check, as NumPy's (found by differential
fuzzing): ``take`` wrote into an ``out`` of any dtype, where NumPy refuses one that does not cast safely back to
``a``'s dtype (TypeError); ``choose`` broadcast its result into a larger ``out`` (``out`` of shape (2, 3) for a
result of (3,): **both rows filled**), where NumPy raises TypeError, and checked ``mode='raise'`` indices even
when the broadcast result is empty, where NumPy's loop checks nothing."""

import warnings

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.bool_, np.int8, np.uint16, np.int64, np.float32, np.float64, np.complex64]


def _outcome(call):
    try:
        return call()
    except Exception as e:  # noqa: BLE001 - the class is compared
        return type(e)


@pytest.mark.parametrize("a_dtype", DTYPES)
@pytest.mark.parametrize("out_dtype", DTYPES)
def test_take_out_dtype(a_dtype, out_dtype):
    """NumPy 2.4's rule (kdsl follows 2.4): TypeError unless ``out``'s dtype casts safely to ``a``'s. (NumPy 2.5
    checks the other direction under same_kind and only warns, so the rule is written out, not asked of the
    NumPy at hand.)"""
    a = (np.arange(6) % 3).astype(a_dtype).reshape(2, 3)[:, ::-1]
    idx = np.array([2, 0])
    got_out, method_out = kd.zeros((2, 2), out_dtype), kd.zeros((2, 2), out_dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # complex into real: NumPy's ComplexWarning, not the point here
        got = _outcome(lambda: kd.take(kd.asarray(a), kd.asarray(idx), axis=1, out=got_out))
        method = _outcome(lambda: kd.asarray(a).take(kd.asarray(idx), axis=1, out=method_out))
        want_out = np.take(a, idx, axis=1).astype(out_dtype)
    if not np.can_cast(out_dtype, a_dtype, "safe"):
        assert got is TypeError and method is TypeError
        np.testing.assert_array_equal(got_out.numpy(), np.zeros((2, 2), out_dtype))  # nothing written
        return
    assert got is got_out
    np.testing.assert_array_equal(got_out.numpy(), want_out)
    assert method is method_out
    np.testing.assert_array_equal(method_out.numpy(), want_out)


@pytest.mark.parametrize("out_shape", [(2, 3), (1, 3), (4,), (3, 1)])
def test_choose_out_of_another_shape(out_shape):
    idx, choices = np.array([0, 1, 0]), [np.arange(3), np.arange(3) * 10]
    with pytest.raises(TypeError, match="invalid shape for output array"):
        np.choose(idx, choices, out=np.zeros(out_shape, np.int64))
    out = kd.zeros(out_shape, kd.int64)
    with pytest.raises(TypeError, match="invalid shape for output array"):
        kd.choose(kd.asarray(idx), [kd.asarray(c) for c in choices], out=out)
    assert not out.numpy().any()


def test_choose_out_of_the_result_shape_and_another_dtype():
    idx, choices = np.array([[0, 1, 0]]), [np.arange(3.0) + 0.5, np.arange(3.0) * -2]
    want, out = np.zeros((1, 3), np.int16), kd.zeros((1, 3), kd.int16)
    np.choose(idx, choices, out=want)
    assert kd.choose(kd.asarray(idx), [kd.asarray(c) for c in choices], out=out) is out
    np.testing.assert_array_equal(out.numpy(), want)


@pytest.mark.parametrize(("index", "shapes"), [([3], [(0, 1), (0, 1)]), ([[5], [-1]], [(2, 0), (1, 0), (0,)]),
                                               ([-2], [(2, 0), (1, 0)])])
def test_choose_raise_checks_nothing_for_an_empty_result(index, shapes):
    choices = [np.ones(s, np.float32) for s in shapes]
    want = np.choose(np.array(index), choices)
    got = kd.choose(kd.asarray(np.array(index)), [kd.asarray(c) for c in choices])
    assert (got.shape, got.dtype) == (want.shape, want.dtype)
    host = kd.choose(np.array(index), choices)
    assert host.shape == want.shape


def test_choose_raise_still_checks_a_nonempty_result():
    with pytest.raises(ValueError, match="invalid entry"):
        kd.choose(kd.asarray([3]), [kd.zeros((2, 1)), kd.ones((2, 1))])
