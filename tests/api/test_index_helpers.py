"""kd.mgrid, kd.ogrid, kd.r_, kd.c_, kd.s_, kd.index_exp against NumPy's."""

import numpy as np
import pytest

import kdsl as kd


def _same(got, want):
    assert isinstance(got, kd.Array)
    host = got.numpy()
    assert host.dtype == want.dtype and host.shape == want.shape
    np.testing.assert_allclose(host, want, rtol=1e-12, atol=1e-12)


GRIDS = [np.s_[0:5], np.s_[2:-3:-1], np.s_[0:1:0.25], np.s_[-1:1:5j], np.s_[0:1:1j], np.s_[3:3], np.s_[:4],
         np.s_[0:3, 0:2], np.s_[0:2, 0:1:3j], np.s_[1:2:0.3, 0:0, 5:0:-2], np.s_[0:3,], np.s_[0.5:3, 1:4]]


@pytest.mark.parametrize("key", GRIDS, ids=str)
def test_mgrid(key):
    _same(kd.mgrid[key], np.mgrid[key])


@pytest.mark.parametrize("key", GRIDS, ids=str)
def test_ogrid(key):
    got, want = kd.ogrid[key], np.ogrid[key]
    if isinstance(want, np.ndarray):
        _same(got, want)
    else:
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            _same(g, w)
        assert np.broadcast_shapes(*[g.shape for g in got]) == np.mgrid[key].shape[1:]


def test_grid_bad_input():
    with pytest.raises(TypeError, match="slices"):
        kd.mgrid[0:3, 5]
    with pytest.raises(ValueError, match="step 0"):
        kd.mgrid[0:3:0]


A = np.arange(6).reshape(2, 3)
F = np.array([1.5, -0.0, np.nan], np.float32)


@pytest.mark.parametrize("build", [
    lambda m, a: m.r_[1:4, 0, 7],
    lambda m, a: m.r_[a(F), 2.5],
    lambda m, a: m.r_[a(F), a(F)[::2]],
    lambda m, a: m.r_[-1:1:5j, a(np.array([9.0]))],
    lambda m, a: m.r_[a(A), a(A)[::-1]],
    lambda m, a: m.r_["1", a(A), a(A.T).T],
    lambda m, a: m.r_["-1", a(A), a(np.zeros((2, 1), np.int64))],
    lambda m, a: m.r_["0,2", [1, 2, 3], [4, 5, 6]],
    lambda m, a: m.r_["0,2,0", [1, 2], [3, 4]],
    lambda m, a: m.r_["1,2,0", [1, 2, 3], [4, 5, 6]],
    lambda m, a: m.r_["0,3,1", a(A)],
    lambda m, a: m.r_["0,2", 0:3, a(np.ones(3))],
    lambda m, a: m.r_[a(np.zeros(0, np.float32)), 1],
    lambda m, a: m.r_[a(np.int8([1, 2])), 100],
    lambda m, a: m.c_[a(np.array([1, 2, 3])), a(np.array([4, 5, 6]))],
    lambda m, a: m.c_[a(np.array([[1, 2, 3]])), 0, 0, a(np.array([[4, 5, 6]]))],
    lambda m, a: m.c_[0:3, a(F)],
    lambda m, a: m.c_[a(A), a(A)],
    lambda m, a: m.r_[True, False],
])
def test_concatenators(build):
    want = build(np, np.asarray)
    got = build(kd, kd.asarray)
    assert got.shape == want.shape and got.numpy().dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)


def test_concatenator_errors():
    with pytest.raises(ValueError):
        np.r_[1, "0,2", 2]
    with pytest.raises(ValueError, match="first entry"):
        kd.r_[1, "0,2", 2]
    with pytest.raises(ValueError, match="directive"):
        kd.r_["x,y", [1]]
    with pytest.raises(NotImplementedError, match="matrix"):
        kd.r_["r", [1, 2]]
    with pytest.raises(ValueError):
        kd.r_[()]
    for m in (np, kd):
        with pytest.raises(OverflowError):
            m.r_[m.asarray(np.int8([1, 2])), 300]


@pytest.mark.parametrize("key", [np.s_[::2], np.s_[1:3, ...], np.s_[None, 0], np.s_[3], np.s_[:, np.newaxis]],
                         ids=str)
def test_index_expressions(key):
    assert kd.s_[key] == np.s_[key] and kd.index_exp[key] == np.index_exp[key]
    a = kd.arange(24).reshape(4, 6)
    np.testing.assert_array_equal(a[kd.s_[key]].numpy(), np.arange(24).reshape(4, 6)[np.s_[key]])


def test_lazy_no_downloads():
    from kdsl.engine.programs import stats

    a = kd.asarray(np.arange(4.0))
    before = stats["downloads"]
    out = [kd.mgrid[0:3, 0:1:4j], kd.ogrid[0:2, 0:3][1], kd.r_[a, 1, 2:5], kd.c_[a, a], kd.r_["1,2", a, 7.5]]
    assert stats["downloads"] == before and all(isinstance(x, kd.Array) for x in out)
