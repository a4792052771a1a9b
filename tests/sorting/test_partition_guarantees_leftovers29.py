"""kd.partition / kd.argpartition against NumPy's guarantees, checked exactly through NumPy's own sort: for
the sorted positions ``k1 < k2 < ...`` of ``kth`` (negative ones counted from the end, a list, ``axis=None``
of the flattened array), each ``k`` holds the value NumPy's sort puts there, and every stretch between them
holds the same values as that stretch of NumPy's sort (in any order). That is all NumPy promises (its own
order differs with the selection algorithm), and it holds on ties, NaNs (last), infinities, -0.0 and complex
(NumPy's lexicographic order). argpartition's indices are a permutation of each line."""

import re

import numpy as np
import pytest
from sort_testing import sample

import kdsl as kd


def _stretches(n: int, kth) -> list[tuple[int, int]]:
    """The stretches ``[lo, hi)`` between and at the kth positions of a line of length ``n``."""
    ks = sorted({int(k) % n for k in np.atleast_1d(kth)})
    bounds, lo = [], 0
    for k in ks:
        bounds += [(lo, k), (k, k + 1)]
        lo = k + 1
    return [b for b in bounds + [(lo, n)] if b[0] < b[1]]


def assert_partitioned(got: np.ndarray, host: np.ndarray, kth, axis) -> None:
    ref = host.reshape(-1) if axis is None else host
    ax = 0 if axis is None else axis
    assert got.shape == ref.shape and got.dtype == ref.dtype
    want = np.moveaxis(np.sort(ref, axis=ax), ax, -1)
    got = np.moveaxis(got, ax, -1)
    for lo, hi in _stretches(want.shape[-1], kth):
        np.testing.assert_array_equal(np.sort(got[..., lo:hi], axis=-1), want[..., lo:hi],
                                      err_msg=f"stretch [{lo}, {hi}) of kth={kth}")


def _data(shape, dtype, seed, layout):
    if dtype.startswith("complex"):
        parts = sample((2,) + shape, "float32" if dtype == "complex64" else "float64", seed=seed)
        host = np.empty(shape, dtype)  # (parts set apart: inf * 1j would make a NaN real part)
        host.real, host.imag = parts
    else:
        host = sample(shape, dtype, seed=seed)  # many ties; NaN, inf, -0.0 and 0.0 for floats
    if layout == "strided":
        wide = np.repeat(host, 2, axis=-1)
        return host, kd.asarray(wide)[..., ::2]
    if layout == "transposed":
        return host, kd.asarray(np.ascontiguousarray(host.T)).T
    return host, kd.asarray(host)


CASES = [((50,), 7, -1), ((50,), [0, 25, -1], -1), ((9, 33), -2, 1), ((9, 33), [3, 3, 20], -1),
         ((20, 3), 19, 0), ((20, 3), -20, 0), ((1,), 0, 0), ((4, 5), [2, -1], None), ((3, 4, 5), 2, 1)]


@pytest.mark.parametrize("shape,kth,axis", CASES, ids=str)
@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "int32", "uint8", "int64", "bool",
                                   "complex64", "complex128"])
@pytest.mark.parametrize("layout", ["contiguous", "strided", "transposed"])
def test_partition_and_argpartition_keep_numpys_guarantees(shape, kth, axis, dtype, layout):
    host, x = _data(shape, dtype, seed=len(shape) + shape[0], layout=layout)
    assert_partitioned(kd.partition(x, kth, axis=axis).numpy(), host, kth, axis)
    assert_partitioned(np.partition(host, kth, axis=axis), host, kth, axis)  # the check accepts NumPy's own
    idx = kd.argpartition(x, kth, axis=axis).numpy()
    ref = host.reshape(-1) if axis is None else host
    ax = 0 if axis is None else axis % ref.ndim
    assert idx.dtype == np.int64 and idx.shape == ref.shape
    line = np.arange(ref.shape[ax]).reshape([-1 if d == ax else 1 for d in range(ref.ndim)])
    np.testing.assert_array_equal(np.sort(idx, axis=ax), np.broadcast_to(line, ref.shape))  # a permutation
    assert_partitioned(np.take_along_axis(ref, idx, axis=ax), host, kth, axis)


@pytest.mark.parametrize("dtype", ["float32", "int16", "complex64"])
def test_empty_and_all_nan_lines(dtype):
    empty = np.zeros((3, 0), dtype)
    assert kd.partition(kd.asarray(empty), 0, axis=0).shape == np.partition(empty, 0, axis=0).shape
    assert kd.argpartition(kd.asarray(empty), 0, axis=0).shape == np.argpartition(empty, 0, axis=0).shape
    if dtype != "int16":
        nans = np.full((2, 5), np.nan, dtype)
        nans[1, 2] = 1.0
        for kth in (0, 2, -1):
            assert_partitioned(kd.partition(kd.asarray(nans), kth).numpy(), nans, kth, -1)


def test_errors_match_numpy():
    host = sample((6,), "float32")
    x = kd.asarray(host)
    for kth, error in ((6, ValueError), (-7, ValueError), (1.5, TypeError), (True, ValueError)):
        for fn in ("partition", "argpartition"):
            with pytest.raises(error) as want:
                getattr(np, fn)(host, kth)
            with pytest.raises(error) as got:
                getattr(kd, fn)(x, kth)
            assert str(got.value).startswith(str(want.value)), (fn, kth)
    for kind, error in (("quicksort", ValueError), ("stable", ValueError), (None, TypeError), (3, TypeError)):
        with pytest.raises(error) as want:
            np.partition(host, 1, kind=kind)
        with pytest.raises(error, match=re.escape(str(want.value))):
            kd.partition(x, 1, kind=kind)
    with pytest.raises(np.exceptions.AxisError):
        kd.argpartition(x, 1, axis=1)
