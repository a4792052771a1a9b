"""``kd.remainder``, ``kd.fmod``, ``kd.divmod`` and ``kd.floor_divide`` are exact for huge quotients, as NumPy's
(C's fmod): ``divmod(4, tiny)`` is ``(inf, 0.0)`` (kdsl gave a remainder of -inf), and quotients past 2**24
(float32) / 2**53 (float64) no longer round the remainder."""

import numpy as np
import pytest

import kdsl as kd

FUNCS = ["remainder", "fmod", "floor_divide"]


def _same(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[want == 0]).tolist() == np.signbit(want[want == 0]).tolist()


def _pairs(dtype):
    fi = np.finfo(dtype)
    rng = np.random.default_rng(12)
    scale = 10.0 ** rng.integers(-int(fi.maxexp * 0.28), int(fi.maxexp * 0.28), (2, 40))
    a = np.concatenate([rng.standard_normal(40) * scale[0], [4, -4, fi.max, -fi.max, 1e30, 0.0, -0.0, 7.0]])
    b = np.concatenate([rng.standard_normal(40) * scale[1], [fi.tiny, fi.tiny, 0.3, -fi.tiny * 3, 1e-30,
                                                             fi.tiny, fi.tiny, fi.eps]])
    with np.errstate(all="ignore"):
        return a.astype(dtype), b.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", FUNCS)
def test_huge_quotients(dtype, name):
    a, b = _pairs(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, b)
    _same(getattr(kd, name)(kd.asarray(a), kd.asarray(b)).numpy(), want)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_divmod_overflow(dtype):
    tiny = np.finfo(dtype).tiny
    with np.errstate(all="ignore"):
        want = np.divmod(dtype(4), dtype(tiny))
    got = kd.divmod(kd.asarray(dtype(4)), kd.asarray(dtype(tiny)))
    assert np.isinf(got[0].item()) and got[1].item() == want[1] == 0


@pytest.mark.parametrize("name", FUNCS)
def test_specials_shapes_and_views(name):
    a = np.array([[np.nan, np.inf, -np.inf, 5.0], [1e300, -1e300, 0.0, 3.0]])
    b = np.array([[2.0, 3.0, np.inf, -np.inf], [1e-300, 7e-310, np.nan, 0.0]])
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a[:, ::-1].T, b[::-1].T)
        want_empty = getattr(np, name)(np.zeros((0, 1)), np.ones((1, 3)))
    _same(getattr(kd, name)(kd.asarray(a)[:, ::-1].T, kd.asarray(b)[::-1].T).numpy(), want)
    _same(getattr(kd, name)(kd.zeros((0, 1), dtype=np.float64), kd.ones((1, 3), dtype=np.float64)).numpy(), want_empty)
