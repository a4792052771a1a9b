"""kd.nonzero / flatnonzero / argwhere / where(cond) / compress / extract and a[mask] reads, against NumPy:
several shapes and dtypes, empty arrays, all-True / all-False masks, non-contiguous views, NaN comparisons."""

import numpy as np
import pytest

import kdsl as kd

DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64"]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    out = rng.integers(-2, 3, shape).astype(dtype) if dtype != "bool" else rng.integers(0, 2, shape).astype(bool)
    if np.dtype(dtype).kind == "f" and out.size >= 3:
        out.flat[[0, 2]] = [np.nan, -0.0]  # NaN is non-zero, -0.0 is zero
    return out


def _same(got, want):
    assert got.shape == want.shape, (got.shape, want.shape)
    assert got.dtype == want.dtype, (got.dtype, want.dtype)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (1, 6, 1)])
def test_nonzero_family_matches_numpy(shape, dtype):
    h = _data(shape, dtype)
    a = kd.asarray(h)
    got = kd.nonzero(a)
    assert len(got) == len(shape)
    for g, w in zip(got, np.nonzero(h), strict=True):
        _same(g.numpy(), w)
    _same(kd.flatnonzero(a).numpy(), np.flatnonzero(h))
    _same(kd.argwhere(a).numpy(), np.argwhere(h))
    for g, w in zip(kd.where(a), np.where(h), strict=True):
        _same(g.numpy(), w)


@pytest.mark.parametrize("h", [np.zeros((4, 3)), np.ones((4, 3)), np.zeros((0, 3)), np.zeros((3, 0), bool),
                               np.zeros(0, np.int32), np.ones(1, bool), np.zeros(1)])
def test_nonzero_empty_all_false_all_true(h):
    a = kd.asarray(h)
    for g, w in zip(kd.nonzero(a), np.nonzero(h), strict=True):
        _same(g.numpy(), w)
    _same(kd.argwhere(a).numpy(), np.argwhere(h))
    _same(a[a != 0].numpy(), h[h != 0])


def test_nonzero_of_0d_raises_as_numpy_2_and_argwhere_of_0d():
    with pytest.raises(ValueError, match="nonzero on 0d arrays"):
        kd.nonzero(kd.asarray(3.0))
    with pytest.raises(ValueError, match="nonzero on 0d arrays"):
        kd.where(kd.asarray(True))
    for v in (0, 5):
        _same(kd.argwhere(kd.asarray(v)).numpy(), np.argwhere(np.array(v)))
        _same(kd.flatnonzero(kd.asarray(v)).numpy(), np.flatnonzero(np.array(v)))


def test_nonzero_of_non_contiguous_views():
    h = _data((6, 8), "float32", seed=3)
    a = kd.asarray(h)
    for view in (lambda x: x[::2, 1::3], lambda x: x.T, lambda x: x[::-1, ::-2]):
        for g, w in zip(kd.nonzero(view(a)), np.nonzero(view(h)), strict=True):
            _same(g.numpy(), w)
        _same(view(a)[view(a) > 0].numpy(), view(h)[view(h) > 0])


def test_masks_from_nan_comparisons():
    h = np.array([np.nan, 1.0, -np.inf, np.nan, 0.0, np.inf], np.float32)
    a = kd.asarray(h)
    for mask in (lambda x: x > 0, lambda x: x != x, lambda x: x == x, lambda x: ~(x <= 0)):
        _same(a[mask(a)].numpy(), h[mask(h)])
        _same(kd.flatnonzero(mask(a)).numpy(), np.flatnonzero(mask(h)))


def test_row_mask_selects_rows_like_numpy():  # X[labels == k] in k-means
    rng = np.random.default_rng(1)
    X, labels = rng.standard_normal((50, 3)).astype(np.float32), rng.integers(0, 4, 50)
    kx, kl = kd.asarray(X), kd.asarray(labels)
    for k in range(5):  # k = 4 selects nothing
        _same(kx[kl == k].numpy(), X[labels == k])
        _same(kx[kl == k, 1:].numpy(), X[labels == k, 1:])
    _same((kx * 2)[kl == 1].sum(axis=0).numpy(), (X * 2)[labels == 1].sum(axis=0))
    m3 = rng.random((2, 3)) > 0.5
    h3 = rng.standard_normal((2, 3, 4))
    _same(kd.asarray(h3)[kd.asarray(m3)].numpy(), h3[m3])
    _same(kd.asarray(h3)[m3, ::-1].numpy(), h3[m3, ::-1])  # a host mask is compacted on the host
    _same(kd.asarray(h3)[[True, False]].numpy(), h3[[True, False]])


def test_mask_shape_mismatch_raises_index_error():
    a = kd.zeros((3, 4))
    with pytest.raises(IndexError, match="did not match indexed array along axis 0"):
        a[kd.asarray([True, False])]
    with pytest.raises(IndexError, match="along axis 1; size of axis is 4"):
        a[np.ones((3, 2), bool)]
    with pytest.raises(IndexError, match="too many indices"):
        a[np.ones((3, 4, 1), bool)]


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_compress_and_extract_match_numpy(axis):
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    a = kd.asarray(h)
    for cond in ([True, False, True], [False] * 4, [True] * 4, [0, 1, 0, 1, 1, 0]):
        try:
            want = np.compress(cond, h, axis=axis)
        except IndexError:  # a True beyond the axis
            with pytest.raises(IndexError, match="out of bounds"):
                kd.compress(cond, a, axis=axis)
            continue
        _same(kd.compress(cond, a, axis=axis).numpy(), want)
    _same(kd.compress(kd.asarray([True, False, True, True]), a[:, ::2], axis=0).numpy(),
          np.compress([True, False, True, True], h[:, ::2], axis=0))
    _same(kd.extract(a % 3 == 0, a).numpy(), np.extract(h % 3 == 0, h))
    _same(kd.extract([True, False, True], a).numpy(), np.extract([True, False, True], h))


def test_compress_errors_as_numpy():
    a = kd.asarray(np.arange(3))
    with pytest.raises(IndexError, match="out of bounds"):
        kd.compress([True, False, False, True], a)
    _same(kd.compress([True, False, False, False], a).numpy(), np.compress([True, False, False, False],
                                                                        np.arange(3)))
    with pytest.raises(ValueError, match="1-d"):
        kd.compress([[True]], a)


def test_long_mask_crosses_the_loop_budget():  # scan and search stay within one invocation's loop budget
    rng = np.random.default_rng(2)
    h = rng.random(150_000) < 0.3
    _same(kd.flatnonzero(kd.asarray(h)).numpy(), np.flatnonzero(h))


def test_a_device_mask_read_downloads_one_number():
    a = kd.asarray(np.array([0.0, 2.0, 0.0, 4.0], np.float32))
    kd.realize(a)
    before = kd.stats()["downloads"]
    out = (a * 3)[a > 1]  # the count is read back; the gather itself stays lazy
    assert out.shape == (2,) and kd.stats()["downloads"] == before + 1
    _same(out.numpy(), np.array([6.0, 12.0], np.float32))
    host = np.array([True, False, False, True])
    before = kd.stats()["downloads"]
    assert a[host].shape == (2,) and kd.stats()["downloads"] == before  # a host mask: nothing read back


def test_array_nonzero_method_and_empty_gather_of_empty_rows():
    h = np.array([[0, 1], [2, 0]], np.int64)
    for g, w in zip(kd.asarray(h).nonzero(), h.nonzero(), strict=True):
        _same(g.numpy(), w)
    e = np.zeros((0, 4), np.float32)
    _same(kd.asarray(e)[kd.asarray(np.zeros(0, bool))].numpy(), e[np.zeros(0, bool)])


def test_bool_scalar_keys_and_mixes():
    h = np.arange(6.0).reshape(2, 3)
    a = kd.asarray(h)
    _same(a[True].numpy(), h[True])
    _same(a[np.False_].numpy(), h[np.False_])
    _same(a[:, np.array([True, False, True])].numpy(), h[:, np.array([True, False, True])])  # more: test_inner_mask
    a[:, np.array([True, False, True])] = 1.0  # assignment through a mask after slices: test_inner_mask_assign
    _same(a.numpy(), np.where([True, False, True], 1.0, h))
    # a mask among index arrays is NumPy's nonzero indices (more: test_mask_with_index_arrays)
    _same(a[np.array([True, False]), [0]].numpy(), np.where([True, False, True], 1.0, h)[np.array([True, False]), [0]])
