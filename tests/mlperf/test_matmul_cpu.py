"""The CPU-driver matmul (subgroup shuffles, 64-bit loads, no shared memory) against NumPy. It is chosen for large
products only (its compile takes seconds on lavapipe), so these tests lower the threshold and cap the tile
at 16 rows x 2 columns per lane (the shipped 32 x 8 is the same code with larger loops unrolled)."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import matmul_cpu
from kdsl.engine.schedule import schedule
from kdsl.ir.kernels import Matmul


@pytest.fixture
def always(monkeypatch):
    dev = kd.device()
    if not dev.matmul_lanes:
        pytest.skip("the CPU matmul runs on CPU drivers with subgroup shuffles (lavapipe)")
    monkeypatch.setattr(matmul_cpu, "MIN_WORK", 0)
    monkeypatch.setattr(matmul_cpu, "ROWS", 16)
    monkeypatch.setattr(matmul_cpu, "COLS", 2)
    return dev


def _kernels(x):
    return [s.kernel for s in schedule([x._node]) if isinstance(s.kernel, Matmul)]


@pytest.mark.parametrize("m, k, n", [(1, 1, 1), (3, 5, 7), (16, 40, 9), (13, 1, 17)])
def test_matches_numpy(always, m, k, n):
    rng = np.random.default_rng(m * 100 + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    x = kd.asarray(a) @ kd.asarray(b)
    assert all(kern.lanes for kern in _kernels(x))
    np.testing.assert_allclose(x.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_fused_operands_views_and_batches(always):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((3, 9, 12)).astype(np.float32)
    b = rng.standard_normal((10, 12)).astype(np.float32)
    got = (kd.exp(kd.asarray(a) * 0.5) @ kd.asarray(b).T[::-1]).numpy()  # a fused prologue, a reversed transpose
    np.testing.assert_allclose(got, np.exp(a * 0.5) @ b.T[::-1], rtol=1e-5, atol=1e-5)


def test_integers_float16_and_special_values(always):
    a = np.arange(24, dtype=np.int32).reshape(4, 6) - 10
    np.testing.assert_array_equal((kd.asarray(a) @ kd.asarray(a.T)).numpy(), a @ a.T)
    h = np.linspace(-2, 2, 12).astype(np.float16).reshape(3, 4)
    np.testing.assert_allclose((kd.asarray(h) @ kd.asarray(h.T)).numpy(), h @ h.T, rtol=2e-3, atol=2e-3)
    f = np.array([[1.0, np.inf], [np.nan, 2.0], [-0.0, 1.0]], np.float32)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal((kd.asarray(f) @ kd.asarray(f.T)).numpy(), f @ f.T)


def test_long_k_splits_within_the_loop_budget(always, monkeypatch):
    """k past the loop budget: chunks whose partial products a sum adds (each invocation stays in budget)."""
    monkeypatch.setattr(always, "loop_budget", 1500)
    rng = np.random.default_rng(2)
    a = rng.standard_normal((140, 3000)).astype(np.float32)  # 140 x 120 outputs: a matmul, not a reduction
    b = rng.standard_normal((3000, 120)).astype(np.float32)
    x = kd.asarray(a) @ kd.asarray(b)
    (kern,) = _kernels(x)
    assert kern.lanes and kern.splits > 1
    np.testing.assert_allclose(x.numpy(), a @ b, rtol=1e-4, atol=1e-3)


def test_small_products_keep_the_block_kernel():
    a = kd.asarray(np.ones((8, 8), np.float32))
    assert all(not kern.lanes for kern in _kernels(a @ a))


def test_geometry_and_groups():
    k = Matmul(1, 1000, 1000, 1000, kd.float32, None, None, 0, False, lanes=8)
    assert matmul_cpu.geometry(k) == (32, 8, 8)
    assert matmul_cpu.tiles(k) == 32 * 16
    assert matmul_cpu.groups(k, 60000, 1001) == 64  # one subgroup per tile, 8 per workgroup
    assert matmul_cpu.groups(k._replace(m=40_000), 60000, 1001) == 512  # capped: each subgroup loops 5 tiles
    big = k._replace(m=1_000_000)  # 500 000 tiles: more workgroups, so that no subgroup loops past 59 tiles
    assert matmul_cpu.groups(big, 60000, 1001) == -(-matmul_cpu.tiles(big) // (8 * 59))
    with pytest.raises(ValueError, match="workgroups"):
        matmul_cpu.groups(k._replace(m=10**9), 60000, 50000)


@pytest.fixture
def wide(always, monkeypatch):
    """The 64-bit load paths: 16 x 4 tiles (A rows two a load along m, B columns four a load along n)."""
    if "int64" not in always.features:
        pytest.skip("64-bit loads need shaderInt64")
    monkeypatch.setattr(matmul_cpu, "COLS", 4)
    return always


def _source(x) -> str:
    (kern,) = _kernels(x)
    assert kern.lanes and kern.vec64
    return matmul_cpu.render(kern, kern.k)


@pytest.mark.parametrize("m, k, n", [(37, 20, 40), (16, 8, 33), (12, 12, 64)])
def test_plain_operands_load_two_words_a_component(wide, m, k, n):
    rng = np.random.default_rng(m + k + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    x = kd.asarray(a) @ kd.asarray(b)
    src = _source(x)
    assert "u64vec2 wa0 = " in src  # A along k, 4 steps a load
    assert ("u64vec2 wn0 = " in src) == (n % 4 == 0)  # B along n, the lane's 4 columns a load
    np.testing.assert_allclose(x.numpy(), a @ b, rtol=1e-5, atol=1e-5)


def test_transposed_operands_load_along_their_contiguous_axis(wide):
    rng = np.random.default_rng(3)
    at = rng.standard_normal((12, 30)).astype(np.float32)  # A = at.T: contiguous along m
    bt = rng.standard_normal((19, 12)).astype(np.float32)  # B = bt.T: contiguous along k
    x = kd.asarray(at).T @ kd.asarray(bt).T
    src = _source(x)
    assert "uint64_t wm0 = " in src and "u64vec2 wk0 = " in src  # A: the lane's 2 rows; B: 4 steps a load
    np.testing.assert_allclose(x.numpy(), at.T @ bt.T, rtol=1e-5, atol=1e-5)


def test_batches_slices_and_integer_words(wide):
    rng = np.random.default_rng(4)
    a = rng.standard_normal((3, 9, 16)).astype(np.float32)
    b = rng.standard_normal((17, 32)).astype(np.float32)
    x = kd.asarray(a) @ kd.asarray(b[1:])  # B: broadcast across the batch
    assert "u64vec2 wa0 = " in _source(x) and "u64vec2 wn0 = " in _source(x)
    np.testing.assert_allclose(x.numpy(), a @ b[1:], rtol=1e-5, atol=1e-5)
    # slices: their offsets are pushed at run time (one kernel for every offset), so element by element
    y = kd.asarray(a)[:, :, 1:13] @ kd.asarray(b)[1:13]
    assert "wa0" not in _source(y) and "wn0" not in _source(y)
    np.testing.assert_allclose(y.numpy(), a[:, :, 1:13] @ b[1:13], rtol=1e-5, atol=1e-5)
    for t in (np.int32, np.uint32):
        i = rng.integers(0, 50, (10, 16)).astype(t)
        j = rng.integers(0, 50, (16, 12)).astype(t)
        z = kd.asarray(i) @ kd.asarray(j)
        assert "u64vec2 wa0 = " in _source(z)
        np.testing.assert_array_equal(z.numpy(), i @ j)


def test_k_past_a_multiple_of_four_zeroes_both_operands(wide):
    """k = 6: the last iteration's steps 6 and 7 re-read step 5 (clamped) and must add nothing, even where that
    element is an infinity (a zeroed A times an infinite B would be NaN)."""
    a = np.ones((12, 6), np.float32)
    b = np.ones((6, 32), np.float32)
    b[5, 3] = np.inf
    a[2, 5] = -np.inf
    x = kd.asarray(a) @ kd.asarray(b)
    assert "u64vec2 wn0 = " in _source(x)  # B along n even so; A element by element
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(x.numpy(), a @ b)


def test_shipped_tile_on_aligned_operands(always, monkeypatch):
    """The shipped 32 x 8 tile with the 1024-square benchmark's loads (u64vec2 of A, u64vec4 of B), on edges."""
    monkeypatch.setattr(matmul_cpu, "ROWS", 32)
    monkeypatch.setattr(matmul_cpu, "COLS", 8)
    rng = np.random.default_rng(5)
    a = rng.standard_normal((70, 36)).astype(np.float32)
    b = rng.standard_normal((36, 72)).astype(np.float32)
    x = kd.asarray(a) @ kd.asarray(b)
    (kern,) = _kernels(x)
    assert matmul_cpu.geometry(kern) == (32, 8, always.matmul_lanes)
    src = matmul_cpu.render(kern, kern.k)
    if kern.vec64:
        assert "u64vec2 wa0 = " in src and "u64vec4 wn0 = " in src
    np.testing.assert_allclose(x.numpy(), a @ b, rtol=1e-5, atol=1e-5)
