"""Integer ``power``/``**`` with negative exponents raises NumPy's ValueError when the op is built, whether the
exponent is a Python int, a NumPy scalar, a 0-d host array, a kdsl scalar or a signed-integer device array
(checked by one boolean read back); float, unsigned and non-negative exponents compute as NumPy does."""

import numpy as np
import pytest

import kdsl as kd

BASES = [np.array([1, 2, 3], np.int32), np.array([[1, -2], [3, 4]], np.int64), np.array([5, 7], np.int8),
         np.array([True, False]), np.array([1, 2, 200], np.uint8)]


def _exponents(m):
    """Each way an exponent can be written, from the NumPy-like module ``m``."""
    return {
        "python int": -1,
        "numpy int64": np.int64(-2),
        "numpy int8": np.int8(-1),
        "0-d host array": np.array(-3),
        "0-d module array": m.asarray(-1),
        "array": m.asarray([-1, 2])[:1],
        "strided array": m.asarray([3, 0, -1, 0])[2::4],
        "lazy array": m.arange(1) - 1,
    }


def _outcome(f):
    try:
        r = f()
    except (ValueError, OverflowError, TypeError) as e:  # TypeError: an in-place result that cannot cast back
        return next(k for k in (OverflowError, ValueError, TypeError) if isinstance(e, k)), str(e)
    return np.asarray(r).dtype, np.asarray(r).tolist()


@pytest.mark.parametrize("base", BASES, ids=lambda b: f"{b.dtype}{b.shape}")
@pytest.mark.parametrize("kind", list(_exponents(np)))
@pytest.mark.parametrize("form", ["operator", "power", "reflected", "inplace"])
def test_matches_numpy(base, kind, form):
    def run(m):
        a, e = m.asarray(base.copy()), _exponents(m)[kind]
        if form == "operator":
            return a ** e
        if form == "power":
            return m.power(a, e)
        if form == "reflected":  # the array as exponent: the base is positive
            return 2 ** m.asarray(e)
        a **= e
        return a

    want, got = _outcome(lambda: run(np)), _outcome(lambda: run(kd))
    if want[0] is ValueError:
        assert got == want
    elif got[0] in (ValueError, OverflowError, TypeError) or want[0] in (ValueError, OverflowError, TypeError):
        assert got[0] is want[0]
    else:
        assert got[1] == want[1] and got[0] in (want[0], np.dtype(np.int32))  # kd's default int may be int32


@pytest.mark.parametrize("exponent", [np.array([0, 1, 2], np.int64), np.array([0, 1, 2], np.uint8),
                                      np.array([-1.0, 0.5, 2.0]), np.array([], np.int32)])
def test_allowed_exponents_compute(exponent):
    base = np.array([3, 2, 5], np.int32)[: exponent.size]
    want = base ** exponent
    got = (kd.asarray(base) ** kd.asarray(exponent)).numpy()
    assert got.dtype == want.dtype and np.allclose(got, want)


def test_float_base_takes_negative_integer_exponents():
    x = np.array([2.0, 4.0], np.float32)
    want = x ** np.array([-1, -2], np.int32)
    got = (kd.asarray(x) ** kd.asarray(np.array([-1, -2], np.int32))).numpy()
    assert got.dtype == want.dtype and np.allclose(got, want)


def test_negative_exponent_in_a_lazy_expression_is_checked():
    e = kd.asarray([4, 5, 6]) - kd.asarray([1, 1, 7])  # the last one is negative only once computed
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed"):
        kd.asarray([2, 2, 2]) ** e


@pytest.mark.parametrize("method", ["reduce", "accumulate"])
def test_ufunc_methods_raise(method):
    with pytest.raises(ValueError, match="negative integer powers"):
        getattr(np.power, method)(np.array([2, 3, -1]))
    with pytest.raises(ValueError, match="negative integer powers"):
        getattr(kd.power, method)(kd.asarray([2, 3, -1]))
