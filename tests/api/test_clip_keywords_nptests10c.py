"""``clip`` takes NumPy's ufunc keywords (``casting`` for ``out``, ``where``, ``dtype``) and NumPy's rules for its
bounds: both positional bounds or neither (``clip(a, 2)`` is NumPy's TypeError), not both spellings at once."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = [np.int32, np.int64, np.float32, np.float64]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape", [(7,), (3, 4), (0,)])
def test_out_with_unsafe_casting(dtype, shape):
    host = (np.arange(int(np.prod(shape))).reshape(shape) * 0.7 - 1).astype(dtype)
    want = np.zeros(shape, np.int16)
    np.clip(host, 0.5, 2.5, out=want, casting="unsafe")
    out = kd.zeros(shape, dtype=kd.int16)
    got = kd.clip(kd.asarray(host), 0.5, 2.5, out=out, casting="unsafe")
    assert got is out
    np.testing.assert_array_equal(out.numpy(), want)
    meth = kd.zeros(shape, dtype=kd.int16)
    kd.asarray(host).clip(0.5, 2.5, out=meth, casting="unsafe")
    np.testing.assert_array_equal(meth.numpy(), want)


def test_same_kind_still_refuses_float_into_int():
    with pytest.raises(TypeError, match="casting='unsafe'"):
        kd.clip(kd.arange(4), 0.5, 2.5, out=kd.zeros(4, dtype=kd.int32))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_where_and_dtype(dtype):
    host = np.array([-3, 0, 2, 5, 9], dtype)
    mask = np.array([True, False, True, True, False])
    want = np.full(5, 7, dtype)
    np.clip(host, 1, 4, out=want, where=mask)
    out = kd.full(5, 7, dtype=dtype)
    kd.clip(kd.asarray(host), 1, 4, out=out, where=kd.asarray(mask))
    np.testing.assert_array_equal(out.numpy(), want)
    got = kd.clip(kd.asarray(host), 1, 4, dtype=np.float64, casting="unsafe")
    expect = np.clip(host, 1, 4, dtype=np.float64, casting="unsafe")
    assert got.dtype == expect.dtype
    np.testing.assert_array_equal(got.numpy(), expect)


def test_bounds_rules_as_numpy():
    a, host = kd.arange(5), np.arange(5)
    for call in (lambda m: m.clip(a if m is kd else host, 2),
                 lambda m: m.clip(a if m is kd else host, a_max=2)):
        with pytest.raises(TypeError, match="missing 1 required positional"):
            call(np)
        with pytest.raises(TypeError, match="missing 1 required positional"):
            call(kd)
    with pytest.raises(ValueError, match="forbidden"):
        kd.clip(a, 1, 3, min=2)
    np.testing.assert_array_equal(kd.clip(a, min=2, max=3).numpy(), np.clip(host, min=2, max=3))
    np.testing.assert_array_equal(kd.clip(a).numpy(), np.clip(host))
    np.testing.assert_array_equal(a.clip(2).numpy(), host.clip(2))  # the method takes one bound, as NumPy's


def test_unknown_keyword_and_casting_name():
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        kd.clip(kd.arange(3), 0, 1, bogus=1)
    with pytest.raises(ValueError, match="casting must be one of"):
        kd.clip(kd.arange(3), 0, 1, casting="sometimes")
