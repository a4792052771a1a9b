"""kd.pad's ``maximum``/``minimum`` refuse a zero ``stat_length`` on every axis, as NumPy's, also where that axis
(or every axis) gets no padding: the check does not depend on the widths."""

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("mode", ["maximum", "minimum"])
@pytest.mark.parametrize(("shape", "width", "stat_length"), [((2,), 0, 0), ((2,), 0, (1, 0)), ((2,), 3, (0, 1)),
                                                             ((2, 3), ((0, 0), (1, 1)), ((0, 0), (1, 1))),
                                                             ((2, 3), ((2, 0), (0, 0)), ((1, 1), (2, 0)))])
def test_pad_zero_stat_length_is_refused(mode, shape, width, stat_length):
    h = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    with pytest.raises(ValueError, match="stat_length of 0"):
        np.pad(h, width, mode, stat_length=stat_length)
    with pytest.raises(ValueError, match="stat_length of 0"):
        kd.pad(kd.asarray(h), width, mode, stat_length=stat_length)


@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@pytest.mark.parametrize(("width", "stat_length"), [(0, 1), (((0, 0), (1, 2))), ((1, 2), (2, 1)), (2, None)])
def test_pad_nonzero_stat_length_matches_numpy(mode, width, stat_length):
    h = np.arange(12, dtype=np.float32).reshape(3, 4) % 5
    want = np.pad(h, width, mode, stat_length=stat_length)
    np.testing.assert_array_equal(kd.pad(kd.asarray(h), width, mode, stat_length=stat_length).numpy(), want)
