"""kd.ma.polyfit / kd.ma.vander against numpy.ma's (numpy/ma/tests/test_extras.py's test_polyfit): points masked in
x, y (a row of a 2-d y) or w are left out of the fit; vander's masked rows are zeros (kd.ma had neither)."""

import numpy as np
import pytest

import kdsl as kd


def fit_pair(n, kind, seed=0):
    rng = np.random.default_rng(seed)
    x = np.linspace(-1.0, 1.0, n)
    y = 1.0 + 2.0 * x - 0.5 * x ** 2 + 0.01 * rng.standard_normal(n)
    mx = rng.random(n) < 0.2 if kind in ("x", "both") else np.zeros(n, bool)
    my = rng.random(n) < 0.2 if kind in ("y", "both") else np.zeros(n, bool)
    return np.ma.array(x, mask=mx), np.ma.array(y, mask=my)


def close(got, want, tol=1e-6):
    if isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, e in zip(got, want, strict=True):
            close(g, e, tol)
        return
    value = got.numpy() if isinstance(got, kd.Array) else np.asarray(got)
    np.testing.assert_allclose(value, np.asarray(want), rtol=tol, atol=tol)


@pytest.mark.parametrize("kind", ["none", "x", "y", "both"])
@pytest.mark.parametrize("deg", [0, 1, 2, 3])
def test_masked_points_are_left_out(kind, deg):
    x, y = fit_pair(12, kind)
    close(kd.ma.polyfit(kd.ma.array(x), kd.ma.array(y), deg), np.ma.polyfit(x, y, deg))


def test_weights_full_and_cov():
    x, y = fit_pair(15, "both", seed=3)
    w = np.ma.array(np.linspace(1.0, 2.0, 15), mask=np.arange(15) == 4)
    kx, ky, kw = kd.ma.array(x), kd.ma.array(y), kd.ma.array(w)
    close(kd.ma.polyfit(kx, ky, 2, w=kw), np.ma.polyfit(x, y, 2, w=w))
    got, want = kd.ma.polyfit(kx, ky, 2, full=True), np.ma.polyfit(x, y, 2, full=True)
    close(got[0], want[0])
    close(got[1], want[1], 1e-5)
    assert int(got[2]) == want[2]
    close(kd.ma.polyfit(kx, ky, 2, cov=True), np.ma.polyfit(x, y, 2, cov=True), 1e-5)


def test_two_dimensional_y_drops_rows_with_any_masked():
    x, y = fit_pair(10, "x", seed=1)
    y2 = np.ma.array(np.stack([y.data, y.data[::-1]], axis=1), mask=np.zeros((10, 2), bool))
    y2[3, 1] = np.ma.masked
    y2[7, 0] = np.ma.masked
    close(kd.ma.polyfit(kd.ma.array(x), kd.ma.array(y2), 2), np.ma.polyfit(x, y2, 2))
    close(kd.ma.polyfit(kd.ma.array(x)[::-1], kd.ma.array(y2)[::-1], 1), np.ma.polyfit(x[::-1], y2[::-1], 1))


def test_plain_and_nonfinite_inputs():
    x, y = fit_pair(9, "none")
    y[2] = np.nan
    y[5] = np.inf
    y[2] = y[5] = np.ma.masked  # masked NaN/inf do not reach the fit
    close(kd.ma.polyfit(kd.asarray(x.data), kd.ma.array(y), 2), np.ma.polyfit(x.data, y, 2))


def test_errors():
    x, y = fit_pair(6, "none")
    kx, ky = kd.ma.array(x), kd.ma.array(y)
    with pytest.raises(TypeError, match="Expected a 1D or 2D array for y!"):
        kd.ma.polyfit(kx, kd.ma.array(np.zeros((6, 1, 1))), 1)
    with pytest.raises(TypeError, match="expected a 1-d array for weights"):
        kd.ma.polyfit(kx, ky, 1, w=kd.ones((6, 1)))
    with pytest.raises(TypeError, match="expected w and y to have the same length"):
        kd.ma.polyfit(kx, ky, 1, w=kd.ones(5))
    with pytest.raises(TypeError, match="kd.ma.polyfit"):
        np.polyfit(kx, ky, 1)  # NumPy's drops a np.ma mask: not silently kd.ma's


@pytest.mark.parametrize("n", [None, 1, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
def test_vander(n, dtype):
    x = np.ma.array(np.array([2, -1, 3, 0, 1], dtype), mask=[0, 1, 0, 0, 1])
    plain = kd.vander(kd.asarray(x.data), n).dtype  # kd.vander's (int32 for int32, NumPy's int64: kdsl's default int)
    for got, want in ((kd.ma.vander(kd.ma.array(x), n), np.ma.vander(x, n)),
                      (kd.ma.vander(kd.ma.array(x)[::2], n), np.ma.vander(x[::2], n)),
                      (kd.ma.vander(kd.ma.array(x[:0]), n), np.ma.vander(x[:0], n))):
        assert isinstance(got, kd.Array) and got.dtype == plain
        np.testing.assert_array_equal(got.numpy(), want)
