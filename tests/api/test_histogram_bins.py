"""kd.histogram with bin-edge arrays, NumPy's estimators and density=True, against NumPy (values on the edges,
outside them, NaN, weights, empty input)."""

import numpy as np
import pytest

import kdsl as kd

DATA = np.array([0.0, 0.5, 1.0, 1.0, 2.5, 3.0, 4.0, -1.0, 7.5, np.nan, 3.0, 0.25], np.float32)


def _same(got, want, rtol=1e-6):
    for g, w in zip(got, want, strict=True):
        assert g.shape == w.shape
        np.testing.assert_allclose(g.numpy(), w, rtol=rtol)


@pytest.mark.parametrize("edges", [[0.0, 1.0, 4.0], [-2.0, 0.0, 0.5, 3.0, 3.0, 10.0], [1.0, 2.0], [0.5, 0.75]])
@pytest.mark.parametrize("weighted", [False, True])
def test_edge_arrays(edges, weighted):
    w = np.arange(DATA.size, dtype=np.float32) if weighted else None
    want = np.histogram(DATA, bins=np.asarray(edges), weights=w)
    kw = w if w is None else kd.asarray(w)
    got = kd.histogram(kd.asarray(DATA), bins=kd.asarray(np.asarray(edges)), weights=kw)
    _same(got, want)
    assert got[0].dtype.name == ("float32" if weighted else "int64")  # the weights' dtype, as NumPy's


@pytest.mark.parametrize("bins", ["auto", "fd", "sturges", "sqrt", "rice", "scott", "doane"])
def test_estimators(bins):
    x = np.random.default_rng(0).standard_normal(500).astype(np.float32)
    want = np.histogram(x, bins=bins)
    got = kd.histogram(kd.asarray(x), bins=bins)
    assert got[0].shape == want[0].shape
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-6, atol=1e-6 * np.abs(want[1]).max())


STONE_DATA = {
    "normal64": np.random.default_rng(1).standard_normal(300),
    "normal32_view": np.random.default_rng(2).standard_normal(400).astype(np.float32)[::2],
    "ints": np.random.default_rng(3).integers(-20, 30, 150),
    "on_edges": np.repeat(np.linspace(0.0, 1.0, 11), 3),  # many values exactly on candidate edges
    "clusters": np.concatenate([np.full(20, 1.0), np.full(30, 5.0), np.linspace(0, 9, 7)]),
    "two": np.array([1.0, 2.0]),
}


@pytest.mark.parametrize("name", list(STONE_DATA))
@pytest.mark.parametrize("rng", [None, (-1.0, 4.0)])
def test_stone_estimator(name, rng):
    x = STONE_DATA[name]
    want = np.histogram(x, bins="stone", range=rng)
    got = kd.histogram(kd.asarray(x), bins="stone", range=rng)
    assert got[0].shape == want[0].shape
    np.testing.assert_array_equal(got[0].numpy(), want[0])
    np.testing.assert_allclose(got[1].numpy(), want[1], rtol=1e-6, atol=1e-6 * np.abs(want[1]).max())


@pytest.mark.parametrize("x", [np.ones(5), np.array([3.0]), np.zeros(0)])
def test_stone_of_constant_single_and_empty_data_is_one_bin(x):
    np.testing.assert_array_equal(kd.histogram_bin_edges(kd.asarray(x), bins="stone").numpy(),
                                  np.histogram_bin_edges(x, bins="stone"))


def test_stone_at_its_upper_bound_warns_as_numpy():
    x = STONE_DATA["clusters"]  # two spikes inside the range: the most bins win
    with pytest.warns(RuntimeWarning, match="suboptimal"):
        want = np.histogram_bin_edges(x, bins="stone", range=(-1.0, 4.0))
    with pytest.warns(RuntimeWarning, match="suboptimal"):
        got = kd.histogram_bin_edges(kd.asarray(x), bins="stone", range=(-1.0, 4.0))
    np.testing.assert_allclose(got.numpy(), want)


@pytest.mark.parametrize("bins", [4, [0.0, 1.0, 4.0, 8.0]])
def test_density(bins):
    x = DATA[~np.isnan(DATA)]
    want = np.histogram(x, bins=np.asarray(bins) if isinstance(bins, list) else bins, density=True)
    got = kd.histogram(kd.asarray(x), bins=bins, density=True)
    _same(got, want, rtol=1e-5)


def test_list_edges_strided_view_and_empty():
    base = np.repeat(DATA, 2)
    want = np.histogram(base[::2], bins=[0.0, 2.0, 8.0])
    _same(kd.histogram(kd.asarray(base)[::2], bins=[0.0, 2.0, 8.0]), want)
    want = np.histogram(np.zeros(0, np.float32), bins=[0.0, 1.0])
    _same(kd.histogram(kd.zeros(0), bins=[0.0, 1.0]), want)


def test_bad_edges_raise():
    with pytest.raises(ValueError):
        kd.histogram(kd.asarray(DATA), bins=[1.0, 0.0])
