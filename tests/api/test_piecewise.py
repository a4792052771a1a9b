"""kd.piecewise against NumPy's (element-wise functions, constants, the 'otherwise' entry, later wins)."""

import numpy as np
import pytest

import kdsl as kd

XS = [np.linspace(-3, 3, 13).astype(np.float32), np.arange(-4, 8, dtype=np.int32).reshape(3, 4),
      np.array([np.nan, -np.inf, -0.0, 0.0, np.inf], np.float64), np.float32(2.5) * np.ones((1, 1), np.float32)]


def _cases(m):
    return [
        lambda x: m.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v * 2]),
        lambda x: m.piecewise(x, [x < 0, x > 0], [-1, 1]),
        lambda x: m.piecewise(x, [x < -1], [lambda v: v * 0 + 5, lambda v: v + 1]),
        lambda x: m.piecewise(x, x > 1 if x.ndim == 1 else [x > 1], [lambda v: v ** 2]),  # a bare condition
        lambda x: m.piecewise(x, [x < 2, x < 0], [1, 2]),  # later conditions win
        lambda x: m.piecewise(x, [x > 0], [lambda v, k: v * k], 3),
        lambda x: m.piecewise(x, [x > 0], [lambda v, k=1: v + k], k=2),
    ]


@pytest.mark.parametrize("case", range(len(_cases(np))))
@pytest.mark.parametrize("i", range(len(XS)))
def test_matches_numpy(case, i):
    host = XS[i]
    with np.errstate(all="ignore"):
        want = _cases(np)[case](host)
    got = _cases(kd)[case](kd.asarray(host))
    assert got.numpy().dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got.numpy(), want)


def test_views_and_broadcast_conditions():
    host = np.arange(12, dtype=np.float32).reshape(3, 4)
    a = kd.asarray(host)
    want = np.piecewise(host.T, [host.T > 5], [lambda v: v - 5, 0])
    np.testing.assert_array_equal(kd.piecewise(a.T, [a.T > 5], [lambda v: v - 5, 0]).numpy(), want)
    np.testing.assert_array_equal(kd.piecewise(a[::2], [a[::2] > 4], [1.5]).numpy(),
                                  np.piecewise(host[::2], [host[::2] > 4], [1.5]))


def test_bad_input():
    x = kd.arange(4)
    with pytest.raises(ValueError):
        np.piecewise(np.arange(4), [np.arange(4) > 1], [1, 2, 3])
    with pytest.raises(ValueError, match="functions are expected"):
        kd.piecewise(x, [x > 1], [1, 2, 3])


def test_empty_input():
    x = kd.zeros((0, 3))
    out = kd.piecewise(x, [x < 0], [lambda v: v - 1, 2.0])
    assert out.shape == (0, 3) and out.dtype is kd.float32


def test_constant_past_the_dtype_raises_as_numpys_assignment():
    # porting19: kd.piecewise(u8, [u8 > 100], [300, 0]) gave 44 (300 wrapped); NumPy's y[cond] = 300 raises
    u8 = np.array([1, 200, 255], np.uint8)
    with pytest.raises(OverflowError):
        np.piecewise(u8, [u8 > 100], [300, 0])
    with pytest.raises(OverflowError):
        kd.piecewise(kd.asarray(u8), [kd.asarray(u8) > 100], [300, 0])
    x = np.arange(4)
    got = kd.piecewise(kd.asarray(x), [kd.asarray(x) > 1], [2.7, -1.5])  # floats truncate, as NumPy's
    np.testing.assert_array_equal(got.numpy(), np.piecewise(x, [x > 1], [2.7, -1.5]))
