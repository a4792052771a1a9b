"""kd.partition / kd.argpartition (checked by the partition property, not NumPy's exact order) and kd.topk
(torch.topk's contract: k largest, descending, NaN largest, ties in index order)."""

import numpy as np
import pytest
from sort_testing import sample

import kdsl as kd


def _check_partition(p: np.ndarray, a: np.ndarray, kth, axis: int) -> None:
    """``p`` is a partition of ``a`` along ``axis`` around every ``kth`` (NaN-last order)."""
    s = np.sort(a, axis=axis)
    p, s = np.moveaxis(p, axis, -1), np.moveaxis(s, axis, -1)
    assert np.array_equal(np.sort(p, axis=-1), s, equal_nan=True)  # same elements
    order = lambda v: np.where(np.isnan(v), np.inf, v) if v.dtype.kind == "f" else v  # noqa: E731
    for k in np.atleast_1d(kth):
        k = int(k) % p.shape[-1]
        pivot = p[..., k]
        assert np.array_equal(pivot, s[..., k], equal_nan=True)
        assert np.all(order(p[..., :k]) <= order(pivot)[..., None])
        assert np.all(order(p[..., k + 1:]) >= order(pivot)[..., None])


@pytest.mark.parametrize(("dtype", "shape", "kth", "axis"), [
    ("float32", (50,), 7, -1), ("int32", (4, 33), [0, 5, -1], 1), ("float64", (20, 3), 19, 0),
    ("uint8", (1,), 0, 0), ("int16", (3, 5), -2, None)])
def test_partition_property(dtype, shape, kth, axis):
    a = sample(shape, dtype)
    x = kd.asarray(a)
    ref_axis = 0 if axis is None else axis
    ref = a.reshape(-1) if axis is None else a
    _check_partition(kd.partition(x, kth, axis=axis).numpy(), ref, kth, ref_axis)
    idx = kd.argpartition(x, kth, axis=axis).numpy()
    assert idx.dtype == np.int64 and idx.shape == ref.shape
    _check_partition(np.take_along_axis(ref, idx, axis=ref_axis), ref, kth, ref_axis)


def test_partition_method_in_place_and_kth_errors():
    a = sample((6, 8), "float32", dups=False)
    x = kd.asarray(a)
    x.partition(3, axis=0)
    _check_partition(x.numpy(), a, 3, 0)
    assert x.argpartition(2).shape == (6, 8)
    with pytest.raises(ValueError, match=r"kth\(=8\) out of bounds \(8\)"):
        kd.partition(x, 8)
    with pytest.raises(ValueError, match="out of bounds"):
        kd.argpartition(x, [-9])
    with pytest.raises(TypeError, match="kth"):
        kd.partition(x, 1.5)


def _topk_reference(a: np.ndarray, k: int, axis: int, largest: bool):
    a = np.moveaxis(a, axis, -1)
    n = a.shape[-1]
    pos = np.broadcast_to(np.arange(n), a.shape)
    nan = np.isnan(a) if a.dtype.kind == "f" else np.zeros(a.shape, bool)
    clean = np.where(nan, 0, a).astype(np.float64)
    # torch.topk: NaN is the largest value; ties keep index order
    keys = (pos, -clean, ~nan) if largest else (pos, clean, nan)
    idx = np.empty(a.shape, np.int64)
    for line in np.ndindex(a.shape[:-1]):
        idx[line] = np.lexsort(tuple(kk[line] for kk in keys))
    idx = idx[..., :k]
    return np.moveaxis(np.take_along_axis(a, idx, -1), -1, axis), np.moveaxis(idx, -1, axis)


@pytest.mark.parametrize(("dtype", "shape", "k", "axis", "largest"), [
    ("float32", (30,), 5, -1, True), ("float32", (4, 30), 30, 1, False), ("int64", (9, 3), 4, 0, True),
    ("float64", (2, 1200), 3, 1, True), ("uint16", (5,), 0, 0, True)])
def test_topk_matches_torch_contract(dtype, shape, k, axis, largest):
    a = sample(shape, dtype)
    values, indices = kd.topk(kd.asarray(a), k, axis=axis, largest=largest)
    ref_v, ref_i = _topk_reference(a, k, axis, largest)
    assert values.dtype.name == dtype and indices.dtype.name == "int64"
    assert np.array_equal(indices.numpy(), ref_i)
    assert np.array_equal(values.numpy(), ref_v, equal_nan=True)


def test_topk_bad_k():
    with pytest.raises(ValueError, match="k=4 is out of range"):
        kd.topk(kd.asarray([1, 2, 3]), 4)
    with pytest.raises(ValueError, match="at least one dimension"):
        kd.topk(kd.asarray(np.float32(1)), 1)


@pytest.mark.parametrize("kth", [True, [True], np.bool_(True), np.array([True, False]), [0, True], 1.0, [1.5], [],
                                 np.array([1], np.uint8), [-3, 2]])
@pytest.mark.parametrize("fn", ["partition", "argpartition"])
def test_kth_read_as_numpy_reads_it(kth, fn):
    # NumPy reads kth as an array: all-bool kths are a ValueError ("Booleans unacceptable"; kdsl raised TypeError),
    # [0, True] is [0, 1] (kdsl refused it), floats and an empty list a TypeError
    a = np.array([3.0, 1.0, 2.0, -1.0], np.float32)

    def outcome(m):
        try:
            r = getattr(m, fn)(m.asarray(a), kth)
        except (TypeError, ValueError) as e:
            return type(e), str(e).split(" (kth=")[0]
        return np.sort(np.asarray(r)[np.atleast_1d(np.asarray(kth, dtype=np.int64))])  # the kth entries placed

    got, want = outcome(kd), outcome(np)
    if isinstance(want, tuple):
        assert got == want
    else:
        np.testing.assert_array_equal(got, want)
