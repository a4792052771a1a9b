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


def test_functions_that_are_not_element_wise_see_the_selected_elements():
    # porting23b: kdsl called each function on the whole of x and kept the selected places, so `v - v.mean()`
    # averaged over all of x and `v[::-1]` reversed all of x (silently wrong); NumPy calls f(x[cond])
    host = np.array([-2.0, -1.0, 1.0, 3.0, 4.0])
    for m, x in ((np, host), (kd, kd.asarray(host))):
        got = [m.piecewise(x, [x < 0, x >= 0], [lambda v: v - v.mean(), lambda v: v / v.max()]),
               m.piecewise(x, [x > -1.5], [lambda v: v[::-1], 7.0]),
               m.piecewise(x, [x > 0], [lambda v, m=m: m.cumsum(v), lambda v: -v]),
               m.piecewise(x, [x > 0], [lambda v, m=m: v - m.sort(v)]),
               m.piecewise(x, [x > 0], [lambda v, m=m: m.asarray([9.0, 8, 7, 6, 5])[m.clip(v, 0, 4).astype(int)]])]
        if m is np:
            want = got
        else:
            for g, w in zip(got, want, strict=True):
                np.testing.assert_allclose(g.numpy(), w)


def test_element_wise_functions_stay_one_lazy_expression():
    # the fallback above costs a read of the count: element-wise functions keep the whole-array path (a lookup
    # `lut[f(v)]` reads its index back for the bounds check, so it takes the fallback, which is right anyway)
    from kdsl.frontend.array.elementwise_graph import reads_elementwise
    x = kd.asarray(np.array([-2.0, 1.0, 3.0]))
    for f in (lambda v: kd.where(v > 0, kd.sqrt(kd.abs(v)), 0) * 2, lambda v: v.astype(kd.int32) + 1,
              lambda v: kd.zeros_like(v) + 5, lambda v: kd.hypot(v, 3.0) ** 2):
        assert reads_elementwise(kd.asarray(f(x)), [x], strict=True)
    for f in (lambda v: v - v.mean(), lambda v: v[::-1], lambda v: kd.arange(3.0), lambda v: kd.cumsum(v)):
        assert not reads_elementwise(kd.asarray(f(x)), [x], strict=True)
