"""kd.ma arrays' ``partition`` / ``argpartition`` (methods, and ``kd.``/``np.`` functions) against numpy.ma's:
NumPy warns that the mask is ignored, partitions the data (masked entries' data included) and leaves the mask
where it was; ``argpartition`` gives a masked array of indices with the array's mask and fill value. kdsl had no
methods, ``kd.partition(x)`` dropped the mask silently, ``np.partition(x)`` raised TypeError."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import kdsl as kd

WARNING = "Warning: '{}' will ignore the 'mask' of the MaskedArray."

CASES = [  # data, mask, kth, axis
    (np.array([5, 1, 4, 2, 3]), [0, 1, 0, 0, 1], 2, -1),
    (np.array([5.0, np.nan, -0.0, 2.0, np.inf, 0.0]), [1, 0, 0, 1, 0, 0], [0, 4], -1),
    (np.array([[5, 1, 4], [2, 3, 0]], np.int16), [[0, 1, 0], [0, 0, 1]], 1, 0),
    (np.array([[5, 1, 4], [2, 3, 0]], np.float32), [[0, 1, 0], [0, 0, 1]], -1, 1),
    (np.array([[5, 1, 4], [2, 3, 0]], np.uint8), [[0, 1, 0], [0, 0, 1]], 4, None),
    (np.arange(24.0).reshape(2, 3, 4)[:, ::-1, ::2], np.arange(12).reshape(2, 3, 2) % 3 == 0, (0, 2), 1),
    (np.array([7]), [1], 0, -1),
    (np.array([3.0, 1.0, 2.0]), np.ma.nomask, 1, -1),
    (np.array([3.0, 1.0, 2.0]), [0, 0, 0], 1, 0),
]


def _arrays(i):
    data, mask, _, _ = CASES[i]
    return np.ma.array(data, mask=mask, fill_value=7), kd.ma.array(kd.asarray(data), mask=mask, fill_value=7)


def _is_partition(values: np.ndarray, expected: np.ndarray, kth, axis) -> None:
    """``values`` partitions as NumPy's ``expected`` does: the same kth values, each side on its side of them,
    the same values per line (NumPy leaves the order within each side unspecified)."""
    if axis is None:
        axis = -1
    v, e = np.moveaxis(values, axis, -1), np.moveaxis(expected, axis, -1)
    np.testing.assert_array_equal(np.sort(v, axis=-1), np.sort(e, axis=-1))
    for k in np.atleast_1d(kth) % v.shape[-1]:
        pivot = v[..., k:k + 1]
        np.testing.assert_array_equal(pivot, e[..., k:k + 1])
        with np.errstate(invalid="ignore"):
            assert np.all((v[..., :k] <= pivot) | np.isnan(pivot)), (v, k)
            assert np.all((v[..., k + 1:] >= pivot) | np.isnan(v[..., k + 1:])), (v, k)


def _mask_of(x) -> np.ndarray:
    return np.asarray(np.ma.getmaskarray(x) if isinstance(x, np.ma.MaskedArray) else kd.ma.getmaskarray(x).numpy())


def _caught(call, name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, WARNING.format(name))]
    return result


@pytest.mark.parametrize("i", range(len(CASES)))
def test_partition_functions(i):
    _, _, kth, axis = CASES[i]
    h, x = _arrays(i)
    expected = _caught(lambda: np.partition(h, kth, axis=axis), "partition")
    for fn in (np.partition, kd.partition):
        got = _caught(lambda fn=fn: fn(x, kth, axis=axis), "partition")
        assert isinstance(got, kd.ma.MaskedArray) and got.shape == expected.shape
        _is_partition(got.data.numpy(), expected.data, kth, axis)
        np.testing.assert_array_equal(_mask_of(got), _mask_of(expected))
        assert got.fill_value == expected.fill_value and got.dtype.np == expected.dtype
    np.testing.assert_array_equal(x.data.numpy(), h.data)  # the functions partition a copy


@pytest.mark.parametrize("i", range(len(CASES)))
def test_partition_method_in_place(i):
    _, _, kth, axis = CASES[i]
    if axis is None:  # ndarray.partition takes no axis=None (NumPy's ValueError/TypeError), nor does kdsl's
        return
    h, x = _arrays(i)
    assert _caught(lambda: h.partition(kth, axis=axis), "partition") is None
    assert _caught(lambda: x.partition(kth, axis=axis), "partition") is None
    _is_partition(x.data.numpy(), h.data, kth, axis)
    np.testing.assert_array_equal(_mask_of(x), _mask_of(h))
    assert (x.mask is kd.ma.nomask) == (h.mask is np.ma.nomask)


@pytest.mark.parametrize("i", range(len(CASES)))
def test_argpartition(i):
    _, _, kth, axis = CASES[i]
    h, x = _arrays(i)
    expected = _caught(lambda: h.argpartition(kth, axis=axis), "argpartition")
    for call in (lambda: x.argpartition(kth, axis=axis), lambda: np.argpartition(x, kth, axis=axis),
                 lambda: kd.argpartition(x, kth, axis=axis)):
        got = _caught(call, "argpartition")
        assert isinstance(got, kd.ma.MaskedArray) and got.shape == expected.shape
        assert got.dtype.np == expected.dtype and got.fill_value == expected.fill_value
        np.testing.assert_array_equal(_mask_of(got), _mask_of(expected))
        assert (got.mask is kd.ma.nomask) == (expected.mask is np.ma.nomask)
        idx = got.data.numpy()
        data = h.data.reshape(-1) if axis is None else h.data
        picked = np.take_along_axis(data, idx, axis=-1 if axis is None else axis)
        expected_values = np.take_along_axis(data, expected.data, axis=-1 if axis is None else axis)
        _is_partition(picked, expected_values, kth, axis)


def test_float_fill_value_carried_as_numpy_casts_it():
    h = np.ma.array([2.0, 1.0, 3.0], mask=[0, 1, 0], fill_value=1.5)
    x = kd.ma.array([2.0, 1.0, 3.0], mask=[0, 1, 0], fill_value=1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        assert x.argpartition(1).fill_value == h.argpartition(1).fill_value


def test_kth_out_of_bounds_is_numpys_error():
    h, x = _arrays(0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for call_np, call_kd in ((lambda: np.partition(h, 9), lambda: np.partition(x, 9)),
                                 (lambda: h.argpartition(-9), lambda: x.argpartition(-9))):
            with pytest.raises(ValueError) as expected:
                call_np()
            with pytest.raises(ValueError, match=expected.value.args[0].replace("(", r"\(").replace(")", r"\)")):
                call_kd()


def test_plain_arrays_unchanged():
    a = np.array([4, 1, 3, 2])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning for a plain array
        np.testing.assert_array_equal(np.sort(kd.partition(kd.asarray(a), 1).numpy()), np.sort(a))
        assert kd.argpartition(kd.asarray(a), 0).numpy()[0] == 1


@pytest.mark.parametrize("kth", [-9, -6, 5, 9, [0, -7]])
@pytest.mark.parametrize("name", ["partition", "argpartition"])
def test_plain_kth_out_of_bounds_names_numpys_kth(kth, name):
    a = np.arange(5.0)
    with pytest.raises(ValueError) as expected:
        getattr(np, name)(a, kth)
    with pytest.raises(ValueError) as got:
        getattr(kd, name)(kd.asarray(a), kth)
    assert str(got.value) == str(expected.value)
