"""matmul / dot / @ against NumPy: tile edges, batches with broadcasting, 1-d rules, dtypes, fused operands."""

import numpy as np
import pytest
from kd_testing import numpy_kdsl_allclose, sample

import kdsl as kd


@pytest.mark.parametrize("mnk", [(1, 1, 1), (3, 5, 7), (64, 64, 16), (65, 70, 33), (130, 17, 100)])
@numpy_kdsl_allclose(rtol=1e-4, atol=1e-4)
def test_matmul_shapes(xp, mnk):
    m, n, k = mnk
    a = xp.asarray(sample((m, k), "float32", seed=1, special=False))
    b = xp.asarray(sample((k, n), "float32", seed=2, special=False))
    return a @ b


@pytest.mark.parametrize("shapes", [((2, 3, 4), (2, 4, 5)), ((3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)),
                                    ((4,), (4, 3)), ((3, 4), (4,)), ((4,), (4,)), ((2, 3, 4), (4,))])
@numpy_kdsl_allclose(rtol=1e-4, atol=1e-4)
def test_matmul_batched_and_1d(xp, shapes):
    a = xp.asarray(sample(shapes[0], "float32", seed=3, special=False))
    b = xp.asarray(sample(shapes[1], "float32", seed=4, special=False))
    return xp.matmul(a, b)


@pytest.mark.parametrize("dtype", ["float16", "float64", "int32", "int8", "uint16", "int64", "bool"])
@numpy_kdsl_allclose(rtol=3e-3, atol=1e-2)
def test_matmul_dtypes(xp, dtype):
    a = xp.asarray(sample((5, 6), dtype, seed=5, special=False, **({} if dtype == "bool" else
                                                                      {"low": 0, "high": 4})))
    b = xp.asarray(sample((6, 3), dtype, seed=6, special=False, **({} if dtype == "bool" else
                                                                      {"low": 0, "high": 4})))
    return a @ b


@numpy_kdsl_allclose(rtol=1e-4, atol=1e-4)
def test_matmul_of_views_and_expressions(xp):
    a = xp.asarray(sample((9, 12), "float32", seed=7, special=False))
    b = xp.asarray(sample((12, 9), "float32", seed=8, special=False))
    return [a.T @ b.T, (a * 2 + 1) @ xp.exp(b), a[::2, 1:] @ b[1:, ::-1]]


@numpy_kdsl_allclose(rtol=1e-4, atol=1e-4)
def test_dot(xp):
    a = xp.asarray(sample((3, 4), "float32", seed=9, special=False))
    b = xp.asarray(sample((2, 4, 5), "float32", seed=10, special=False))
    v = xp.asarray(sample((4,), "float32", seed=11, special=False))
    return [xp.dot(a, b), xp.dot(v, v), xp.dot(a, v), xp.dot(a, xp.asarray(np.float32(2))), a.dot(a.T)]


def test_matmul_errors():
    with pytest.raises(ValueError):
        kd.zeros((2, 3)) @ kd.zeros((4, 2))
    with pytest.raises(ValueError):
        kd.matmul(kd.zeros(()), kd.zeros(3))


def test_matmul_long_k():
    a = np.random.default_rng(12).uniform(-1, 1, (2, 3000)).astype(np.float32)
    b = np.random.default_rng(13).uniform(-1, 1, (3000, 3)).astype(np.float32)
    np.testing.assert_allclose((kd.asarray(a) @ kd.asarray(b)).numpy(), a @ b, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("tiled", [True, False])
@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_both_matmul_kernels(monkeypatch, tiled, dtype):
    """GPUs take the shared-memory tiles, CPU drivers the 4x4 blocks: both run here, whatever the device."""
    monkeypatch.setattr(kd.device(), "matmul_tiles", tiled)
    rng = np.random.default_rng(14)
    ha = rng.integers(-3, 4, (2, 67, 29)).astype(dtype)
    hb = rng.integers(-3, 4, (29, 71)).astype(dtype)
    a, b = kd.asarray(ha), kd.asarray(hb)
    from kdsl.engine.plan import plan
    y = (a * 2) @ b.T.T
    assert plan([y._node])[0].kernel.tiled is tiled
    np.testing.assert_allclose(y.numpy(), (ha * 2) @ hb, rtol=1e-3)


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
@pytest.mark.parametrize("a_t,b_t", [(False, True), (True, False), (True, True)])
def test_tiled_matmul_of_transposed_operands(monkeypatch, dtype, a_t, b_t):
    """``x @ W.T`` and ``X.T @ G``: the tile loads walk the operand's contiguous axis (kdsl.codegen.operand_order);
    edges of odd sizes, a batch and a fused scale must land where the row-wise loads put them."""
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    rng = np.random.default_rng(15)
    ha = rng.integers(-3, 4, (3, 37, 70)).astype(dtype)
    hb = rng.integers(-3, 4, (70, 45)).astype(dtype)
    a = kd.asarray(np.ascontiguousarray(np.swapaxes(ha, 1, 2))).mT if a_t else kd.asarray(ha)
    b = kd.asarray(np.ascontiguousarray(hb.T)).T if b_t else kd.asarray(hb)
    from kdsl.codegen.operand_order import middle_is_contiguous
    from kdsl.engine.plan import plan
    kernel = plan([(a @ b)._node])[0].kernel
    assert middle_is_contiguous(kernel.a, (3, 37, 70)) is a_t
    assert middle_is_contiguous(kernel.b, (1, 70, 45)) is b_t or middle_is_contiguous(kernel.b, (3, 70, 45)) is b_t
    np.testing.assert_allclose((a @ (b * 2)).numpy(), ha @ (hb * 2), rtol=1e-3)


@pytest.mark.parametrize("dtype", ["float32", "int32"])
@pytest.mark.parametrize("shape", [(1, 130, 70, 45), (3, 37, 129, 200), (2, 128, 256, 16)])
def test_big_tiles(monkeypatch, dtype, shape):
    """The 128 x 128 tiles (8 x 8 outputs per invocation) large outputs get: edges, batches, transposed and
    fused operands, and a k cut into chunks."""
    from kdsl.codegen import matmul
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    for name in ("BIG_TILE_GROUPS", "BIG_TILE_GROUPS_F32"):
        monkeypatch.setattr(matmul, name, 1)
    batch, m, k, n = shape
    rng = np.random.default_rng(16)
    ha = rng.integers(-3, 4, (batch, m, k)).astype(dtype)
    hb = rng.integers(-3, 4, (n, k)).astype(dtype)
    a, b = kd.asarray(ha), kd.asarray(np.ascontiguousarray(hb)).T
    from kdsl.engine.plan import plan
    y = (a * 2) @ b
    assert matmul.tile(plan([y._node])[0].kernel) == 128
    np.testing.assert_allclose(y.numpy(), (ha * 2) @ hb.T, rtol=1e-3)


@pytest.mark.parametrize("shape,a_t,b_t", [((1, 131, 70, 45), False, True), ((2, 37, 66, 200), True, False),
                                           ((1, 256, 48, 64), False, False)])
def test_rectangular_tiles(monkeypatch, shape, a_t, b_t):
    """The 128 x 64 / 64 x 128 float32 tiles (``matmul.RECT_GROUPS`` of them fill the grid; 1 here, so these small
    products take them): edges, batches, transposed operands and a fused epilogue land where NumPy's product puts
    them."""
    from kdsl.codegen import matmul
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    monkeypatch.setattr(matmul, "RECT_GROUPS", 1)
    batch, m, k, n = shape
    rng = np.random.default_rng(17)
    ha, hb = rng.uniform(-1, 1, (batch, m, k)).astype(np.float32), rng.uniform(-1, 1, (k, n)).astype(np.float32)
    a = kd.asarray(np.ascontiguousarray(np.swapaxes(ha, 1, 2))).mT if a_t else kd.asarray(ha)
    b = kd.asarray(np.ascontiguousarray(hb.T)).T if b_t else kd.asarray(hb)
    from kdsl.engine.plan import plan
    y = kd.maximum((a * 2) @ b + 0.5, 0)
    assert matmul.tile_shape(plan([y._node])[0].kernel) == ((128, 64) if m >= n else (64, 128))
    np.testing.assert_allclose(y.numpy(), np.maximum((ha * 2) @ hb + 0.5, 0), rtol=1e-5, atol=1e-5)


def _float_operands(shape, a_t, b_t, seed):
    """float32 operands (batch, m, k) and (k, n) for ``shape = (batch, m, k, n)``, as NumPy arrays and as kdsl
    arrays, each contiguous along its rows (``a_t``/``b_t``: the transposes of contiguous arrays)."""
    batch, m, k, n = shape
    rng = np.random.default_rng(seed)
    ha = rng.standard_normal((batch, m, k)).astype(np.float32)
    hb = rng.standard_normal((k, n)).astype(np.float32)
    a = kd.asarray(np.ascontiguousarray(np.swapaxes(ha, 1, 2))).mT if a_t else kd.asarray(ha)
    b = kd.asarray(np.ascontiguousarray(hb.T)).T if b_t else kd.asarray(hb)
    return ha, hb, a, b


@pytest.mark.parametrize("big", [False, True])
@pytest.mark.parametrize("a_t,b_t", [(False, False), (False, True), (True, False), (True, True)])
@pytest.mark.parametrize("shape", [(1, 128, 32, 256), (2, 256, 48, 128), (1, 128, 33, 128), (1, 129, 32, 130)])
def test_tiles_without_bounds_checks(monkeypatch, big, a_t, b_t, shape):
    """Sides the tiles always fill (m or n a multiple of the tile, k of the 16-deep slice) are loaded without
    bounds tests: whole tiles, a k with a partial last slice, and edges, in every operand order."""
    from kdsl.codegen import matmul
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    for name in ("BIG_TILE_GROUPS", "BIG_TILE_GROUPS_F32"):
        monkeypatch.setattr(matmul, name, 1 if big else 1 << 30)
    ha, hb, a, b = _float_operands(shape, a_t, b_t, seed=17)
    from kdsl.engine.plan import plan
    y = a @ b
    assert matmul.tile(plan([y._node])[0].kernel) == (128 if big else 64)
    np.testing.assert_allclose(y.numpy(), ha @ hb, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("a_t,b_t", [(False, False), (True, True)])
@pytest.mark.parametrize("shape", [(1, 64, 64, 128), (2, 70, 45, 33)])
def test_deep_slices(monkeypatch, a_t, b_t, shape):
    """32-deep k slices (what 128-wide tiles take where shared memory holds them: forced here on 64-wide
    tiles, which fit any device), whole and ragged."""
    from kdsl.codegen import matmul
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    monkeypatch.setattr(matmul, "fit_shared", lambda k, shared: k._replace(depth=matmul.DEEP))
    ha, hb, a, b = _float_operands(shape, a_t, b_t, seed=18)
    from kdsl.engine.plan import plan
    y = a @ b
    assert plan([y._node])[0].kernel.depth == matmul.DEEP
    np.testing.assert_allclose(y.numpy(), ha @ hb, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shared", [16384, 32768, 49152])
@pytest.mark.parametrize("dtype", ["float32", "float64", "int64", "int32"])
def test_tiles_fit_shared_memory(monkeypatch, shared, dtype):
    """The tiled kernel's shared tiles fit the device's shared memory whatever it reports (Vulkan guarantees 16
    KiB): 128-wide tiles take 32-deep slices only where they fit, and narrow to 64 where even 16-deep ones do
    not (a float64 128 x 128 tile with 32-deep slices needs 66 KiB, more than an H200's 48). Planned only: a
    4096^3 product is too slow for a CPU driver to run."""
    import re

    from kdsl.codegen import matmul
    from kdsl.engine.plan import plan
    if dtype == "float64" and "float64" not in kd.device().features:
        pytest.skip("the device has no float64")
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    monkeypatch.setattr(kd.device(), "max_shared_memory", shared)
    a = kd.zeros((4096, 4096), dtype=dtype)
    kernel = plan([(a @ a)._node])[0].kernel
    source = matmul.render(kernel)
    size = {"vec4": 16, "double": 8, "int64_t": 8}
    used = sum(int(n) * size.get(t, 4) for t, n in re.findall(r"shared (\w+) \w+\[(\d+)\]", source))
    assert 0 < used <= shared
    assert matmul.tile(kernel) == (128 if matmul.tile_bytes(kernel, (128, 128), matmul.DEPTH) <= shared else 64)


@pytest.mark.parametrize("depth", [4, 8])
def test_shallow_slices(monkeypatch, depth):
    """The shallower k slices a small shared memory gets (float64 on a 16 KiB device), whole and ragged."""
    from kdsl.codegen import matmul
    monkeypatch.setattr(kd.device(), "matmul_tiles", True)
    monkeypatch.setattr(matmul, "fit_shared", lambda k, shared: k._replace(depth=depth))
    for shape in ((1, 64, 64, 128), (2, 70, 45, 33)):
        ha, hb, a, b = _float_operands(shape, False, True, seed=19)
        np.testing.assert_allclose((a @ b).numpy(), ha @ hb, rtol=1e-4, atol=1e-4)
