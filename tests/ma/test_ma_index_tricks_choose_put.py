"""kd.ma's remaining numpy.ma names against numpy.ma: ``mr_``, ``ndenumerate``, ``indices``, ``fromfunction``,
``frombuffer``, ``apply_over_axes``, ``choose``, ``put``, ``flatten_mask``, ``ids`` and the constants."""

import numpy as np
import pytest
from ma_testing import DTYPES, LAYOUTS, MASKS, assert_same, pair

import kdsl as kd


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_mr_joins_data_and_masks(kind, dtype):
    n, k = pair((5,), dtype, kind)
    extra = np.arange(3).astype(dtype)
    assert_same(kd.ma.mr_[k, 0, kd.asarray(extra)], np.ma.mr_[n, 0, extra])
    assert_same(kd.ma.mr_[k[::-2], k], np.ma.mr_[n[::-2], n])
    assert_same(kd.ma.mr_[k[:0], k[:1]], np.ma.mr_[n[:0], n[:1]])


def test_mr_ranges_scalars_and_axis_strings():
    assert_same(kd.ma.mr_[1:4, -1], np.ma.mr_[1:4, -1])
    assert_same(kd.ma.mr_[0:1:5j, 2.0], np.ma.mr_[0:1:5j, 2.0])
    n, k = pair((2, 3), np.float32, "some")
    assert_same(kd.ma.mr_["0", k, k], np.ma.mr_["0", n, n])
    assert_same(kd.ma.mr_["1", k, k], np.ma.mr_["1", n, n])
    with pytest.raises(ValueError, match="no matrix type"):
        kd.ma.mr_["r", [1, 2], [3]]


@pytest.mark.parametrize("layout", LAYOUTS)
@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("shape", [(0,), (1,), (3, 4), (2, 1, 3)])
def test_ndenumerate(shape, kind, layout):
    n, k = pair(shape, np.int32, kind, layout)
    for compressed in (True, False):
        want = list(np.ma.ndenumerate(n, compressed=compressed))
        got = list(kd.ma.ndenumerate(k, compressed=compressed))
        assert [i for i, _ in got] == [i for i, _ in want]
        for (_, g), (_, w) in zip(got, want, strict=True):
            assert (g is kd.ma.masked) == (w is np.ma.masked)
            if w is not np.ma.masked:
                assert int(g) == int(w)
    assert [i for i, _ in kd.ma.ndenumerate(kd.asarray(np.ones((2, 2))))] == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_indices_fromfunction_frombuffer():
    assert_same(kd.ma.indices((2, 3)), np.ma.indices((2, 3)), check_dtype=False)  # (kdsl's default int)
    # (NumPy 2.4's np.ma.indices(sparse=True) raises AttributeError on its own tuple; kdsl gives np.indices')
    for got, want in zip(kd.ma.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True), strict=True):
        np.testing.assert_array_equal(got.numpy(), want)
    assert_same(kd.ma.fromfunction(lambda i, j: i * 10 + j, (3, 2)), np.ma.fromfunction(lambda i, j: i * 10 + j,
                                                                                       (3, 2)), check_dtype=False)
    raw = np.arange(6, dtype=np.int32).tobytes()
    assert_same(kd.ma.frombuffer(raw, dtype=np.int32, count=4, offset=4),
                np.ma.frombuffer(raw, dtype=np.int32, count=4, offset=4))


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("axes", [0, [0], [1], [0, 1], [-1, 0], (2,)])
def test_apply_over_axes(kind, axes):
    n, k = pair((3, 4, 2), np.float32, kind)
    assert_same(kd.ma.apply_over_axes(kd.ma.sum, k, axes), np.ma.apply_over_axes(np.ma.sum, n, axes), rtol=1e-5)
    assert_same(kd.ma.apply_over_axes(lambda a, ax: a.max(axis=ax, keepdims=True), k, axes),
                np.ma.apply_over_axes(lambda a, ax: a.max(axis=ax, keepdims=True), n, axes))
    with pytest.raises(ValueError, match="correct shape"):
        kd.ma.apply_over_axes(lambda a, ax: a.sum(), k, [0])


@pytest.mark.parametrize("mode", ["raise", "clip", "wrap"])
@pytest.mark.parametrize("kind", MASKS)
def test_choose(kind, mode):
    n0, k0 = pair((6,), np.int32, kind, seed=3)
    n1, k1 = pair((6,), np.int32, "some", seed=5)
    index = np.array([0, 1, 1, 0, 2 if mode != "raise" else 1, 0])
    assert_same(kd.ma.choose(index, [k0, k1], mode=mode), np.ma.choose(index, [n0, n1], mode=mode))
    masked_index = np.ma.array(index, mask=[0, 0, 1, 0, 0, 1])
    assert_same(kd.ma.choose(kd.ma.array(index, mask=[0, 0, 1, 0, 0, 1]), [k0, k1], mode=mode),
                np.ma.choose(masked_index, [n0, n1], mode=mode))
    plain = [np.arange(6), np.arange(6) * 10]
    assert_same(kd.ma.choose(index, [kd.asarray(p) for p in plain], mode=mode),
                np.ma.choose(index, plain, mode=mode), check_dtype=False)
    with pytest.raises(ValueError):
        kd.ma.choose(np.array([0, 5]), [k0[:2], k1[:2]])


@pytest.mark.parametrize("kind", MASKS)
@pytest.mark.parametrize("values", ["plain", "masked", "scalar"])
def test_put(kind, values):
    n, k = pair((3, 4), np.float32, kind)
    n, k = n.copy(), k.copy()
    index = [0, 5, -1, 7]
    v = {"plain": np.array([9.0, 8.0, 7.0, 6.0], np.float32), "scalar": np.float32(4.5),
         "masked": np.ma.array([9.0, 8.0, 7.0, 6.0], mask=[1, 0, 1, 0], dtype=np.float32)}[values]
    kv = kd.ma.array(v.data, mask=v.mask) if values == "masked" else v
    np.ma.put(n, index, v)
    assert kd.ma.put(k, index, kv) is None
    assert_same(k, n)
    with pytest.raises(TypeError, match="kd.put"):
        kd.ma.put(kd.asarray(np.zeros(3)), [0], 1.0)


@pytest.mark.parametrize("values", [[9.0, 8.0], [5.0], []])
def test_put_repeats_short_values_and_skips_empty_ones(values):
    n = np.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    k = kd.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
    given = np.ma.array(values, mask=[i % 2 == 0 for i in range(len(values))])
    np.ma.put(n, [0, 1, 2, 3], given)
    kd.ma.put(k, [0, 1, 2, 3], kd.ma.array(given.data, mask=given.mask) if values else values)
    assert_same(k, n, check_dtype=False)
    np.ma.put(n, [], [7.0])
    kd.ma.put(k, [], [7.0])
    assert_same(k, n, check_dtype=False)


def test_put_keeps_a_hard_masks_entries():
    n = np.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0], hard_mask=True)
    k = kd.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0], hard_mask=True)
    np.ma.put(n, [0, 1, 2], [9.0, 8.0, 7.0])
    kd.ma.put(k, [0, 1, 2], [9.0, 8.0, 7.0])
    assert_same(k, n, check_dtype=False, masked_data=True)


def test_flatten_mask_ids_and_constants():
    np.testing.assert_array_equal(kd.ma.flatten_mask([[1, 0], [0, 1]]).numpy(), np.ma.flatten_mask([[1, 0], [0, 1]]))
    np.testing.assert_array_equal(kd.ma.flatten_mask(kd.asarray([True, False])).numpy(), [True, False])
    x = kd.ma.array([1.0, 2.0], mask=[0, 1])
    assert kd.ma.ids(x) == (id(x._data), id(x._mask))
    assert kd.ma.masked_singleton is kd.ma.masked is np.ma.masked
    assert str(kd.ma.masked_print_option) == "--"
    assert kd.ma.bool_ is kd.bool_
    assert kd.ma.array([True, False]).dtype == kd.ma.bool_
