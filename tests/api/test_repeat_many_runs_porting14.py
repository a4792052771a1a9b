"""``np.repeat(values, lengths)`` with thousands of different lengths (run-length decoding) is one gather, not a
joined piece per run of equal counts (10 000 runs took seconds, a kernel per run), and matches NumPy."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array import joining


def _kernels(*arrays) -> int:
    return kd.explain(*arrays).count("kernel ")


@pytest.mark.parametrize("dtype", [np.int64, np.float32, np.uint8, np.bool_])
def test_run_length_decoding_matches_numpy(dtype):
    rng = np.random.default_rng(1461)
    values = rng.integers(0, 7, 5000).astype(dtype)
    lengths = rng.integers(0, 12, 5000)
    got = kd.repeat(kd.asarray(values), lengths)
    assert _kernels(got) <= 2  # (the source index's upload aside: no kernel per run)
    np.testing.assert_array_equal(got.numpy(), np.repeat(values, lengths))
    assert got.dtype == kd.asarray(values).dtype


def test_counts_as_a_kdsl_array_and_the_method():
    rng = np.random.default_rng(1462)
    values, lengths = rng.normal(size=300), rng.integers(1, 5, 300)
    np.testing.assert_array_equal(kd.asarray(values).repeat(kd.asarray(lengths)).numpy(), np.repeat(values, lengths))


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_many_runs_along_an_axis(axis):
    rng = np.random.default_rng(1463)
    a = rng.normal(size=(40, 50))
    counts = rng.integers(0, 4, a.shape[axis])
    np.testing.assert_array_equal(kd.repeat(kd.asarray(a), counts, axis=axis).numpy(), np.repeat(a, counts, axis=axis))


def test_few_runs_still_join_broadcast_pieces():
    counts = np.repeat([2, 0, 3], 20)  # three runs: below joining.MANY_RUNS
    assert np.count_nonzero(np.diff(counts)) < joining.MANY_RUNS
    a = np.arange(60.0)
    np.testing.assert_array_equal(kd.repeat(kd.asarray(a), counts).numpy(), np.repeat(a, counts))


def test_bad_counts_keep_numpys_errors():
    a = kd.arange(40)
    with pytest.raises(ValueError):
        kd.repeat(a, np.arange(39))
    with pytest.raises(ValueError):
        kd.repeat(a, np.arange(40) - 1)
