"""``round(x)`` of a 0-d array (kdsl's stand-in for the NumPy scalars reductions and indexing return) is a Python
int, as ``round(np.float64(2.5))`` is 2: ``round(crossings / seconds)`` compared as a float; ``round(x, n)`` and
0-d results stay arrays;
n-d arrays raise TypeError, as NumPy's ndarray (tests/porting, porting7a)."""

import math

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("value", [2.5, 3.5, -2.5, 3.7, -0.4, 1e6 + 0.5, 0.0, 7, -3, 2**20])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16])
def test_round_of_zero_d_is_python_int(value, dtype):
    with np.errstate(over="ignore"):  # float16 rounds 2**20 and 1e6 up to inf; an int dtype truncates 2.5 to 2
        host = np.array(value, dtype)
    if np.isinf(host):  # NumPy's OverflowError for round(inf), ours too
        with pytest.raises(OverflowError, match="infinity"):
            round(host[()])
        with pytest.raises(OverflowError, match="infinity"):
            round(kd.asarray(host))
        return
    want = round(host[()])  # NumPy's scalar
    got = round(kd.asarray(host))
    assert type(got) is int and type(want) is int and got == want


def test_round_of_reductions_and_elements():
    x = np.array([0.5, 1.5, 2.5, 3.75])
    k = kd.asarray(x)
    for f in (lambda a: a.sum(), lambda a: a.mean(), lambda a: a[2], lambda a: a.max() / 2, lambda a: a.argmax()):
        got, want = round(f(k)), round(f(x))
        assert type(got) is int and got == want


@pytest.mark.parametrize("ndigits", [0, 1, 2, -1])
def test_round_with_ndigits_stays_an_array(ndigits):
    x = np.array(123.456, np.float32)
    got = round(kd.asarray(x), ndigits)
    assert isinstance(got, kd.Array) and got.dtype == kd.float32
    np.testing.assert_allclose(got.numpy(), round(x[()], ndigits), rtol=1e-6)


def test_round_of_arrays_and_bad_values():
    with pytest.raises(TypeError):  # NumPy's arrays have no __round__: nor have kdsl's n-d arrays
        round(kd.asarray([1.25, 2.5]))
    with pytest.raises(ValueError):
        round(kd.asarray(math.nan))
    with pytest.raises(OverflowError):
        round(kd.asarray(math.inf))
    with pytest.raises(TypeError):
        round(kd.asarray(1 + 2j))


def test_math_trunc_of_zero_d_results():
    # math.trunc(x.mean()): TypeError "type Array doesn't define __trunc__" (NumPy's float64 scalar is a float)
    x = np.array([-1.5, -2.25, 0.5])
    assert math.trunc(kd.asarray(x).mean()) == math.trunc(x.mean()) == -1
    assert math.trunc(kd.asarray([7, 8]).mean()) == math.trunc(np.array([7, 8]).mean()) == 7  # float64 means
    for other in (np.array([7, 8]).sum(), np.float32(1.5)):  # NumPy's int64 and float32 scalars have none
        with pytest.raises(TypeError):
            math.trunc(other)
        with pytest.raises(TypeError, match="kd.trunc"):
            math.trunc(kd.asarray(other))
    with pytest.raises(TypeError, match="kd.trunc"):
        math.trunc(kd.asarray(x))
