"""``a[:, mask]``: a boolean mask after slices (NumPy's rule: its result axis stays where the mask was)."""

import numpy as np
import pytest

import kdsl as kd

A = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
KEYS = [
    (slice(None), np.array([True, False, True, True, False])),
    (slice(1, None), np.array([False, True, True, False, True]), 2),
    (slice(None), slice(None), np.array([1, 0, 1, 0, 1, 1], bool)),
    (slice(None), np.ones((5, 6), bool)),
    (slice(None, None, 2), np.array([True, False, False, True, True]), slice(1, 4)),
    (slice(None), np.zeros(5, bool)),  # all False
    (slice(None), np.ones(5, bool)),  # all True
    (slice(0, 0), np.array([True, False, True, True, False])),  # empty leading slice
]


@pytest.mark.parametrize("key", KEYS, ids=range(len(KEYS)))
@pytest.mark.parametrize("device_mask", [False, True])
def test_mask_after_slices_matches_numpy(key, device_mask):
    kkey = tuple(kd.asarray(k) if device_mask and isinstance(k, np.ndarray) else k for k in key)
    got = kd.asarray(A)[kkey]
    want = A[key]
    assert got.shape == want.shape and np.array_equal(got.numpy(), want)


def test_non_contiguous_array_and_nan():
    data = A.copy()
    data[1, 2, 3] = np.nan
    view = kd.asarray(data).transpose((2, 1, 0))[:, ::2]  # (6, 3, 4), strided
    mask = np.array([True, False, True, True])
    got = view[:, :, mask].numpy()
    want = data.transpose((2, 1, 0))[:, ::2][:, :, mask]
    np.testing.assert_array_equal(got, want)


def test_mismatched_mask_names_the_axis_like_numpy():
    with pytest.raises(IndexError, match="along axis 1; size of axis is 5 but size of corresponding boolean axis is 3"):
        kd.asarray(A)[:, np.array([True, False, True])]
    with pytest.raises(IndexError, match="too many indices"):
        kd.asarray(A)[:, :, np.ones((6, 2), bool)]
