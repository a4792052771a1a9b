"""Every library kernel keeps each invocation's loop iterations (all loops together) within
``Device.loop_budget``: lavapipe stops an invocation after ~65 535 of them and silently leaves the rest undone.

Most tests lower the budget on the device so that small arrays take every multi-pass path (split reductions,
argmax candidates re-read, multi-level scans, k-split matmuls); the last ones run past lavapipe's real cap."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine.schedule import schedule

RNG = np.random.default_rng(8)


@pytest.fixture(params=["cpu", "gpu"])
def small_budget_policy(request, small_budget, monkeypatch):
    """The small budget under both launch policies: a CPU driver's (strided partials, thread mode) and a GPU's
    (workgroup trees over contiguous chunks)."""
    if request.param == "gpu":
        for name, value in (("max_groups", 65535), ("thread_outputs", 65536), ("partials", 0)):
            monkeypatch.setattr(small_budget, name, value)
    return small_budget


REDUCTIONS = ["sum", "prod", "max", "min", "argmax", "argmin", "any", "all"]  # mean: sum + epilogue, below


def _data(shape, name):
    if name == "prod":  # values near 1 keep long products finite
        return RNG.uniform(0.999, 1.001, shape).astype(np.float32)
    if name in ("any", "all"):
        return RNG.random(shape) < (0.9995 if name == "all" else 0.0005)
    return RNG.standard_normal(shape).astype(np.float32)


@pytest.mark.parametrize("name", REDUCTIONS)
@pytest.mark.parametrize("shape,axis", [((1, 5000), 1), ((4000, 3), 0), ((5000,), None),
                                        ((2000, 700), 1), ((700, 2000), 0), ((70, 80, 60), (0, 2))])
def test_reductions_split_to_the_budget(small_budget_policy, name, shape, axis):
    a = _data(shape, name)
    if name.startswith("arg") and isinstance(axis, tuple):
        axis = 2
    got = getattr(kd, name)(kd.asarray(a), axis=axis)
    want = getattr(np, name)(a, axis=axis)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-3)  # float sums in another order


@pytest.mark.parametrize("name", ["argmax", "argmin", "max"])
def test_arg_reductions_keep_first_index_and_nan(small_budget_policy, name):
    a = np.zeros((3, 9000), np.float32)
    a[0, [10, 4000, 8999]] = 5.0  # ties: the first wins
    a[1, [7000, 20]] = -5.0
    a[2, [8000, 30]] = np.nan  # NaN wins, the first one
    got = getattr(kd, name)(kd.asarray(a), axis=1)
    np.testing.assert_array_equal(np.asarray(got), getattr(np, name)(a, axis=1))


def test_non_contiguous_views_and_epilogues(small_budget):
    a = RNG.standard_normal((3000, 40)).astype(np.float32)
    x = kd.asarray(a)
    np.testing.assert_allclose(np.asarray(x[::2, 1::3].T.sum(axis=1) * 2 + 1),
                               a[::2, 1::3].T.sum(axis=1) * 2 + 1, rtol=1e-4)
    np.testing.assert_array_equal(np.asarray(x[::-3].argmax(axis=0)), a[::-3].argmax(axis=0))
    np.testing.assert_allclose(float(x.mean()), a.mean(dtype=np.float64), rtol=1e-4)


@pytest.mark.parametrize("shape,axis", [((30000,), 0), ((3, 5000), 1), ((5000, 3), 0), ((20, 30, 400), 2),
                                        ((400, 2, 30), 0), ((0, 900), 1), ((900, 0), 0)])
@pytest.mark.parametrize("dtype", ["int32", "float32", "int8"])
def test_cumsum_multi_level(small_budget, shape, axis, dtype):
    a = RNG.integers(-100, 100, shape).astype(dtype)
    got = np.asarray(kd.cumsum(kd.asarray(a), axis=axis))
    want = np.cumsum(a, axis=axis)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_cumsum_of_expression_and_view(small_budget):
    a = RNG.standard_normal((700, 40)).astype(np.float32)
    got = kd.cumsum(kd.asarray(a)[::-1, ::2] * 2.0, axis=0)
    np.testing.assert_allclose(np.asarray(got), np.cumsum(a[::-1, ::2] * 2.0, axis=0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("m,k,n", [(3, 5000, 5), (40, 2000, 33)])
def test_matmul_splits_k(small_budget, m, k, n):
    a = RNG.standard_normal((m, k)).astype(np.float32)
    b = RNG.standard_normal((k, n)).astype(np.float32)
    got = np.asarray(kd.asarray(a) @ kd.asarray(b))
    np.testing.assert_allclose(got, a.astype(np.float64) @ b, rtol=1e-3, atol=1e-3)


def test_matmul_tiled_splits_k(small_budget, monkeypatch):
    monkeypatch.setattr(small_budget, "matmul_tiles", True)
    a = RNG.standard_normal((2, 70, 1000)).astype(np.float32)
    b = RNG.standard_normal((2, 1000, 20)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(kd.asarray(a) @ kd.asarray(b)), a.astype(np.float64) @ b,
                               rtol=1e-3, atol=1e-3)


def test_elementwise_grid_loops_fit(small_budget):
    a = RNG.standard_normal(300_001).astype(np.float32)
    np.testing.assert_allclose(np.asarray(kd.sin(kd.asarray(a)) + 1), np.sin(a) + 1, rtol=1e-5, atol=1e-5)
    k = schedule([(kd.asarray(a) * 2)._node])[0].kernel
    assert -(-300_001 // (k.groups * 256)) <= 300


def test_budget_is_part_of_the_plan_key(monkeypatch):
    dev = kd.device()
    before = dev.policy()
    monkeypatch.setattr(dev, "loop_budget", 1000)
    assert dev.policy() != before


# Past lavapipe's real cap of ~65 535 iterations per invocation (each was wrong before).

def test_long_rows_of_ones():
    assert np.asarray(kd.ones((1024, 65536)).sum(axis=1)).tolist() == [65536.0] * 1024


def test_long_rows_lazy():
    """1024 rows of 65 600 (one invocation per row on a CPU driver): each value past 65 505 matters."""
    rows, length = 1024, 65600
    j = kd.arange(length)[None, :] + kd.zeros((rows, 1), dtype=kd.int32)
    i = kd.arange(rows)[:, None]
    last = j == length - 1 - i % 2  # one True per row, at the very end
    assert np.asarray(kd.any(last, axis=1)).all()
    assert np.asarray(kd.argmax(kd.where(last, 1.0, 0.0), axis=1)).tolist() == \
        [length - 1 - r % 2 for r in range(rows)]
    assert np.asarray(kd.max(kd.where(last, 2.0, 1.0), axis=1)).min() == 2.0
    assert np.asarray(kd.min(kd.where(last, -1, j), axis=1)).max() == -1
    assert np.asarray(kd.prod(kd.where(last, 2.0, 1.0), axis=1)).min() == 2.0
    assert np.asarray(kd.argmin(kd.where(last, -1, j), axis=1)).tolist() == [length - 1 - r % 2
                                                                                for r in range(rows)]


def test_long_columns():
    """65 600 rows x 1024 columns reduced over axis 0 (one invocation per column on a CPU driver)."""
    rows, cols = 65600, 1024
    i = kd.arange(rows)[:, None] + kd.zeros((1, cols), dtype=kd.int32)
    last = i == rows - 1 - kd.arange(cols)[None, :] % 2  # one True per column, at the very end
    want = [rows - 1 - c % 2 for c in range(cols)]
    assert np.asarray(kd.sum(last, axis=0)).tolist() == [1] * cols
    assert np.asarray(kd.argmax(last, axis=0)).tolist() == want
    assert np.asarray(kd.min(kd.where(last, -1, i), axis=0)).tolist() == [-1] * cols


def test_cumsum_one_million():
    a = RNG.integers(-50, 50, 1_000_000).astype(np.int32)
    np.testing.assert_array_equal(np.asarray(kd.cumsum(kd.asarray(a))), np.cumsum(a))
    f = RNG.standard_normal(1_000_000).astype(np.float32)
    np.testing.assert_allclose(np.asarray(kd.cumsum(kd.asarray(f))), np.cumsum(f.astype(np.float64)),
                               rtol=1e-3, atol=2e-2)


def test_cumsum_long_axis_0():
    a = RNG.integers(-50, 50, (70000, 8)).astype(np.int32)
    np.testing.assert_array_equal(np.asarray(kd.cumsum(kd.asarray(a), axis=0)), np.cumsum(a, axis=0))


def test_matmul_long_k():
    a = RNG.standard_normal((3, 70000)).astype(np.float32)
    b = RNG.standard_normal((70000, 5)).astype(np.float32)
    np.testing.assert_allclose(np.asarray(kd.asarray(a) @ kd.asarray(b)), a.astype(np.float64) @ b,
                               rtol=1e-3, atol=1e-2)


def test_argmax_argmin_past_2_pow_24():
    a = RNG.standard_normal(17_000_000).astype(np.float32)
    a[16_900_000] = 10.0
    a[16_800_000] = -10.0
    x = kd.asarray(a)
    assert int(x.argmax()) == 16_900_000 and int(x.argmin()) == 16_800_000
    assert float(x.max()) == 10.0


def test_loops_inside_helpers_count():
    """An integer power loops once per exponent bit inside each element: rows of 30 000 of those used to stop
    part way (after about 16 000 elements)."""
    x = (kd.ones((1024, 30000), dtype=kd.int32) * 3) ** kd.asarray(np.int32(7))
    assert np.asarray((x % 2).sum(axis=1)).tolist() == [30000] * 1024
    got = kd.cumsum((kd.arange(70000) % 1000) ** kd.asarray(np.int32(2)) % 7)
    np.testing.assert_array_equal(np.asarray(got), np.cumsum((np.arange(70000) % 1000) ** 2 % 7))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int16"])
def test_cumsum_wraps_like_numpy(small_budget, dtype):
    """Block totals wrap in the result dtype, and so does the scan built from them (NumPy's modular result)."""
    a = RNG.integers(0, 100, (3, 4000)).astype(dtype)
    got = np.asarray(kd.cumsum(kd.asarray(a), axis=1, dtype=dtype))
    np.testing.assert_array_equal(got, np.cumsum(a, axis=1, dtype=dtype))
