"""An 8/16-bit integer sum or product (``sum(x, dtype=int8)``, ``mean(x, dtype=uint8)``) read by a fused consumer
is the wrapped value NumPy's gives, as its stored result always was: the fold runs in 32 bits, and the consumer
read the unwrapped accumulator (``sum(int8 [100, 100], dtype=int8) / 2`` was 100.0, NumPy -28.0)
(kdsl/codegen/reduce_parts.ReduceParts.store)."""

import numpy as np
import pytest

import kdsl as kd

NARROW = ["int8", "uint8", "int16", "uint16"]
CASES = [((2,), None), ((100000,), None), ((300, 500), 0), ((300, 500), 1), ((7, 3, 5), (0, 2)), ((0,), None),
         ((1, 5), 0), ((2000, 3), 0), ((4, 1), 1)]


@pytest.mark.parametrize("dtype", NARROW)
@pytest.mark.parametrize("op", ["sum", "prod"])
def test_a_consumer_reads_the_wrapped_result(op, dtype):
    rng = np.random.default_rng(7)
    for shape, axis in CASES:
        a = rng.integers(0, 120, shape).astype(dtype)
        with np.errstate(all="ignore"):
            expected = getattr(np, op)(a, axis=axis, dtype=dtype).astype(np.float64) / 2
        got = getattr(kd, op)(kd.asarray(a), axis=axis, dtype=dtype).astype(kd.float64) / 2
        np.testing.assert_array_equal(got.numpy(), expected, err_msg=f"{shape} axis={axis}")


@pytest.mark.parametrize("dtype", NARROW)
def test_views_and_other_consumers(dtype):
    a = np.random.default_rng(8).integers(0, 120, (40, 30)).astype(dtype)
    x = kd.asarray(a)[::-1, ::2]  # a non-contiguous view
    ref = a[::-1, ::2]
    s, e = kd.sum(x, axis=0, dtype=dtype), np.sum(ref, axis=0, dtype=dtype)
    np.testing.assert_array_equal((s > 40).numpy(), e > 40)
    np.testing.assert_array_equal(s.astype(kd.int64).numpy(), e.astype(np.int64))
    np.testing.assert_array_equal((s + 1).numpy(), e + np.array(1, dtype))
    np.testing.assert_array_equal(kd.add.reduce(x, axis=1, dtype=dtype).astype(kd.float32).numpy(),
                                  np.add.reduce(ref, axis=1, dtype=dtype).astype(np.float32))


@pytest.mark.parametrize("dtype", NARROW)
def test_mean_in_a_narrow_dtype(dtype):
    for values in ([100, 100], [100, 100, 100], [200, 100], [7, 8], [0], [255, 255, 1]):
        a = np.array(values).astype(dtype)
        with np.errstate(all="ignore"):
            expected = np.mean(a, dtype=dtype)
        got = kd.mean(kd.asarray(a), dtype=dtype)
        assert got.dtype == expected.dtype
        assert got.item() == expected.item(), values
    grid = np.array([[100, 100], [120, 100]]).astype(dtype)
    with np.errstate(all="ignore"):
        expected = np.mean(grid, axis=0, dtype=dtype)
    np.testing.assert_array_equal(kd.mean(kd.asarray(grid), axis=0, dtype=dtype).numpy(), expected)


@pytest.mark.parametrize("op", ["sum", "prod", "nansum", "max", "mean"])
def test_float16_results_are_rounded_for_a_consumer_as_stored(op):
    rng = np.random.default_rng(9)
    for values in (np.array([60000, 30000, 2.5, 0.1]), rng.uniform(-3, 3, 50), np.array([np.nan, 1.0, 2.0]),
                   np.array([np.inf, 1.0]), np.array([65504.0, 16.0]), rng.uniform(1, 2, (4, 6))):
        h = values.astype(np.float16)
        stored = getattr(kd, op)(kd.asarray(h))
        fused = (getattr(kd, op)(kd.asarray(h)) * kd.float32(1)).item()  # one kernel: the consumer reads the fold
        np.testing.assert_array_equal(fused, np.float32(stored.item()))
        if op in ("max", "mean") or values.size <= 4:  # short folds: NumPy's float16 steps give the same value
            with np.errstate(over="ignore"):
                expected = np.float32(getattr(np, op)(h))
            np.testing.assert_array_equal(fused, expected)
