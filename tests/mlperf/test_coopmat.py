"""The cooperative-matrix matmul: shape selection from (fake) device properties, the generated GLSL compiled
(and validated, where spirv-val is installed) for devices this machine does not have, the scheduler's choice,
and the fallback to the scalar kernel when the pipeline cannot be built. lavapipe has no cooperative
matrices, so the kernel itself runs only on a GPU (the H200 commands are in docs/matmul.md)."""

import math
import shutil
import subprocess
import warnings

import numpy as np
import pytest

import kdsl as kd
import kdsl.kp as kp
from kdsl import dtype as dt
from kdsl import nn
from kdsl.codegen import coopmat, matmul
from kdsl.engine import lower_matmul
from kdsl.engine.schedule import schedule
from kdsl.ir.expr import Expr, load
from kdsl.ir.kernels import Matmul
from kdsl.ir.view import View
from kdsl.runtime.compiler import compile_source

FEATURES = {"cooperative_matrix", "float16", "storage_buffer_16bit"}


def shape(m, n, k, a="float16", c="float32", scope="subgroup"):
    return {"m": m, "n": n, "k": k, "a": a, "b": a, "c": c, "result": c, "saturating": False, "scope": scope}


# what an NVIDIA H200 reports (a subset), subgroup size 32
NVIDIA = [shape(16, 16, 16, c="float16"), shape(16, 16, 16), shape(16, 8, 16), shape(16, 8, 8),
          shape(16, 16, 32, a="int8", c="int32")]


def test_choose_prefers_square_fp16_fp32_subgroup_shapes():
    assert coopmat.choose(NVIDIA, dt.float16, dt.float16, 32, FEATURES, 49152) == (16, 16, 16, 32)
    assert coopmat.choose(NVIDIA[2:], dt.float16, dt.float16, 32, FEATURES, 49152) == (16, 8, 16, 32)
    assert coopmat.choose(NVIDIA, dt.float16, dt.float16, 64, FEATURES, 49152) == (16, 16, 16, 64)


@pytest.mark.parametrize("why, args", [
    ("no feature", (NVIDIA, dt.float16, dt.float16, 32, {"float16"}, 49152)),
    ("float32 operands", (NVIDIA, dt.float32, dt.float32, 32, FEATURES, 49152)),
    ("mixed operands", (NVIDIA, dt.float16, dt.float32, 32, FEATURES, 49152)),
    ("float16 accumulator only", ([shape(16, 16, 16, c="float16")], dt.float16, dt.float16, 32, FEATURES, 49152)),
    ("workgroup scope only", ([shape(16, 16, 16, scope="workgroup")], dt.float16, dt.float16, 32, FEATURES,
                              49152)),
    ("subgroup of 8: 32 warps", (NVIDIA, dt.float16, dt.float16, 8, FEATURES, 49152)),
    ("too little shared memory", (NVIDIA, dt.float16, dt.float16, 32, FEATURES, 8192)),
    ("no shapes", ([], dt.float16, dt.float16, 32, FEATURES, 49152)),
])
def test_choose_refuses(why, args):
    assert coopmat.choose(*args) is None, why


def test_layout_geometry():
    g = coopmat.Layout((16, 16, 16, 32))
    assert (g.warps, g.wm * g.wn, g.bm, g.bn, g.bk) == (8, 8, 128, 128, 64)
    assert g.shared_bytes() <= 49152  # what NVIDIA offers a workgroup
    g = coopmat.Layout((16, 8, 16, 64))
    assert (g.warps, g.bm, g.bn) == (4, 128, 128)


def _kernel(coop, m=200, n=100, k=72, batch=1, out=dt.float16, fused=False, splits=1):
    a = load(1, dt.float16, View.contiguous((batch, m, k)))
    b = load(2, dt.float16, View.contiguous((batch, n, k)).permute((0, 2, 1)))  # a transposed operand
    if fused:
        a = Expr("exp", dt.float16, (a,))
    return Matmul(batch, m, n, k, out, a, b, 0, True, splits, coop=coop)


@pytest.mark.parametrize("coop, opts", [
    ((16, 16, 16, 32), {}),
    ((16, 16, 16, 32), {"out": dt.float32, "fused": True}),
    ((16, 8, 16, 32), {"batch": 3, "splits": 2, "k": 300}),
    ((16, 16, 16, 64), {"m": 1, "n": 1, "k": 1}),
    ((8, 8, 8, 16), {"out": dt.float32}),
    ((16, 16, 16, 32, 128, 32), {"batch": 4, "m": 128, "n": 32, "k": 128}),  # attention's weights @ v
    ((16, 16, 16, 32, 64, 128), {"m": 300, "n": 200, "k": 96}),
    ((16, 16, 16, 32, 32, 64), {"m": 20, "n": 50, "out": dt.float32, "fused": True}),
    ((16, 16, 16, 32, 64, 128, 4), {"m": 300, "n": 200, "k": 96}),  # fewer warps (coopmat.WARPS)
    ((16, 16, 16, 32, 128, 128, 4), {"m": 20, "n": 50, "out": dt.float32, "fused": True}),
    ((16, 16, 16, 32, 64, 64, 2), {"batch": 2, "m": 64, "n": 64, "k": 64}),
])
def test_generated_shader_compiles_and_validates(coop, opts):
    k = _kernel(coop, **opts)
    src = matmul.render(k)
    assert "coopMatMulAdd" in src and "shared uvec4 As" in src
    spirv = compile_source(src)
    assert len(spirv) > 1000
    val = shutil.which("spirv-val")
    if val is not None:  # the compile above is the test; spirv-val adds the SPIR-V rules where installed
        proc = subprocess.run([val, "--target-env", "vulkan1.1", "-"], input=spirv, capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode()
    gx, gy, gz = matmul.launch(k)
    g = coopmat.Layout(coop)
    assert (gx * g.bn >= k.n, gy * g.bm >= k.m, gz) == (True, True, k.batch * k.splits)
    assert matmul.chunk(k) % g.bk == 0


def _matmuls(x):
    return [s.kernel for s in schedule([x._node]) if isinstance(s.kernel, Matmul)]


def test_scheduler_picks_coopmat_for_float16_only(fake_coopmat):
    a = kd.asarray(np.ones((64, 32), np.float16))
    b = kd.asarray(np.ones((32, 48), np.float16))
    (k,) = _matmuls(a @ b)
    assert k.coop == (16, 16, 16, 32, 64, 64)  # the fragment shape, and a tile narrowed to the 64 x 48 output
    (k,) = _matmuls(a.astype(kd.float32) @ b.astype(kd.float32))
    assert k.coop == ()


@pytest.mark.parametrize("batch, m, n, k, tile", [
    (768, 128, 32, 128, (128, 32)), (1, 8192, 384, 1536, (64, 128)), (1, 8192, 1536, 1024, (128, 256)),
    (1, 8192, 1536, 384, (64, 128)), (1, 4096, 4096, 4096, (128, 256)), (1, 65536, 128, 1024, (128, 128)),
    (1, 65536, 128, 512, (64, 128)), (1, 1, 4096, 4096, (32, 128)), (3, 40, 40, 40, (64, 64)),
])
def test_tile_fits_the_output_and_fills_the_gpu(batch, m, n, k, tile):
    coop = coopmat.tile((16, 16, 16, 32), batch, m, n, k)
    assert coop[4:] == tile
    g = coopmat.Layout(coop)
    assert (g.bm, g.bn) == tile and g.wm * g.wn == g.warps and g.bm * g.bk >= 2048 and g.bk * g.bn >= 2048


def test_lavapipe_keeps_the_scalar_kernel():
    assert kd.device().coopmat_shapes == () or kd.device().info["device_type"] != "cpu"
    a = kd.asarray(np.ones((8, 8), np.float16))
    assert all(k.coop == () for k in _matmuls(a @ a)) or kd.device().coopmat_shapes


def test_list_devices_reports_shapes():
    info = kp.list_devices()[0]
    assert isinstance(info["cooperative_matrix_shapes"], list)
    assert ("cooperative_matrix" in info["features"]) == bool(info["cooperative_matrix_shapes"])


def test_pipeline_failure_falls_back_to_the_scalar_kernel(coopmat_refused):
    """A driver that lists shapes but fails to build the pipeline: a warning, the scalar kernel, right answers,
    and later matmuls on this device planned without cooperative matrices."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((37, 45)).astype(np.float16)
    y = rng.standard_normal((45, 29)).astype(np.float16)
    with pytest.warns(RuntimeWarning, match="scalar matmul kernel"):
        got = (kd.asarray(x) @ kd.asarray(y)).numpy()
    ref = x.astype(np.float32) @ y.astype(np.float32)
    np.testing.assert_allclose(got.astype(np.float32), ref, rtol=1e-2, atol=1e-2)
    assert coopmat_refused.coopmat_shapes == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        (kd.asarray(x) @ kd.asarray(y) + 1).numpy()


@pytest.mark.skipif(not kd.device().coopmat_shapes, reason="runs on a GPU with VK_KHR_cooperative_matrix (and, "
                    "under KDSL_VALIDATION=1, a validation layer of Vulkan 1.3.255 or later)")
@pytest.mark.parametrize("shape", [(1, 1, 1), (200, 72, 100), (129, 1000, 257), (3, 40, 50, 60), (200, 72, 104),
                                   (3, 40, 50, 64)])
def test_on_the_device(shape):
    """The real thing, where the device has it: float16 and float32 outputs, batches, fused operands."""
    rng = np.random.default_rng(0)
    *batch, m, k, n = shape
    a = rng.uniform(-1, 1, (*batch, m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    x = kd.asarray(a) @ kd.asarray(b)
    if min(m, n) > 8:
        assert all(kern.coop for kern in _matmuls(x))
    ref = a.astype(np.float32) @ b.astype(np.float32)
    np.testing.assert_allclose(x.numpy().astype(np.float32), ref, rtol=1e-2, atol=2e-2 * max(1, k ** 0.5 / 4))
    y = (kd.exp(kd.asarray(a) * 0.5) @ kd.asarray(b)).astype(kd.float32) + 1
    ref = (np.exp(a * np.float16(0.5)).astype(np.float32) @ b.astype(np.float32)) + 1
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-2, atol=5e-2 * max(1, k ** 0.5 / 4))


@pytest.mark.parametrize("a_t, b_t, k", [(False, False, 64), (False, True, 64), (True, False, 64), (True, True, 72),
                                         (False, False, 60)])
def test_vector_tile_loads_compile(a_t, b_t, k):
    """Plain float16 operands aligned to 16 bytes along their contiguous axis are read 8 halves per load
    (``uvec4``), down the tile's columns for a transposed operand; an operand whose contiguous axis is k is
    not when k is not a multiple of 8."""
    m, n = 136, 96
    a = load(1, dt.float16, View.contiguous((1, k, m)).permute((0, 2, 1)) if a_t else View.contiguous((1, m, k)))
    b = load(2, dt.float16, View.contiguous((1, n, k)).permute((0, 2, 1)) if b_t else View.contiguous((1, k, n)))
    src = matmul.render(Matmul(1, m, n, k, dt.float32, a, b, 0, True, 1, coop=(16, 16, 16, 32)))
    assert ("b1q.d[" in src, "b2q.d[" in src) == (a_t or k % 8 == 0, not b_t or k % 8 == 0)
    assert len(compile_source(src)) > 1000


@pytest.mark.skipif(not kd.device().coopmat_shapes, reason="runs on a GPU with VK_KHR_cooperative_matrix")
@pytest.mark.parametrize("case", ["plain", "w.T", "x.T", "both.T", "aligned slice", "odd slice", "batched"])
def test_on_the_device_vector_loads(case):
    """Every operand layout the 16-byte tile loads take (or refuse) gives NumPy's product, NaNs included."""
    rng = np.random.default_rng(1)
    a = rng.uniform(-1, 1, (2, 264, 136)).astype(np.float16)
    b = rng.uniform(-1, 1, (136, 104)).astype(np.float16)
    a[0, 5, 7] = np.nan
    ka, kb = kd.asarray(a), kd.asarray(b)
    pick = {
        "plain": (ka[0], kb, a[0], b),
        "w.T": (ka[0], kd.asarray(np.ascontiguousarray(b.T)).T, a[0], b),
        "x.T": (kd.asarray(np.ascontiguousarray(a[0].T)).T, kb, a[0], b),
        "both.T": (kd.asarray(np.ascontiguousarray(a[0].T)).T, kd.asarray(np.ascontiguousarray(b.T)).T, a[0], b),
        "aligned slice": (ka[1, 8:], kb[:, 8:], a[1, 8:], b[:, 8:]),
        "odd slice": (ka[1, :, 3:], kb[3:], a[1, :, 3:], b[3:]),
        "batched": (ka, kb, a, b),
    }
    x, y, hx, hy = pick[case]
    got = (x @ y).astype(kd.float32).numpy()
    ref = hx.astype(np.float32) @ hy.astype(np.float32)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(ref))
    np.testing.assert_allclose(got, ref, rtol=1e-2, atol=5e-2, equal_nan=True)



def _gelu(h, tanh=False):
    if tanh:
        return 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h ** 3)))
    return 0.5 * h * (1 + np.vectorize(math.erf, otypes=[np.float64])(h / np.sqrt(2)))


# case: (kdsl graph, NumPy oracle) of x (2, 70, 48), w (100, 48), bias (100,), col (2, 70, 1), all float16;
# the oracle gets float64 copies and the product rounded to float16, as the kernel rounds it before the epilogue
EPILOGUES = {
    "gelu(linear)": (lambda x, w, b, c: nn.gelu(nn.linear(x, w, b)), lambda p, b, c: _gelu(p + b)),
    "gelu(linear), 96 outputs": (lambda x, w, b, c: nn.gelu(nn.linear(x, w[:96], b[:96])),
                                 lambda p, b, c: _gelu(p[..., :96] + b[:96])),
    "tanh gelu": (lambda x, w, b, c: nn.gelu(nn.linear(x, w, b), approximate="tanh"),
                  lambda p, b, c: _gelu(p + b, tanh=True)),
    "silu to float32": (lambda x, w, b, c: nn.silu(nn.linear(x, w)).astype(kd.float32),
                        lambda p, b, c: p / (1 + np.exp(-p))),
    "column bias, batched": (lambda x, w, b, c: kd.maximum(x @ w.T[None] + c, 0),
                             lambda p, b, c: np.maximum(p + c, 0)),
    "flat reshape": (lambda x, w, b, c: kd.exp((x @ w.T).reshape(2, 7, 1000) * 0.5),
                     lambda p, b, c: np.exp(p.reshape(2, 7, 1000) * 0.5)),
}


def _epilogue_data():
    rng = np.random.default_rng(2)
    return [rng.uniform(-1, 1, s).astype(np.float16) for s in ((2, 70, 48), (100, 48), (100,), (2, 70, 1))]


@pytest.fixture
def coopmat_epilogues(monkeypatch):
    """Cooperative-matrix epilogues on, whatever KDSL_COOPMAT_EPILOGUE says (lower_matmul.COOPMAT_EPILOGUE)."""
    monkeypatch.setattr(lower_matmul, "COOPMAT_EPILOGUE", True)


def test_coopmat_matmuls_keep_their_epilogue_apart_when_switched_off(fake_coopmat, monkeypatch):
    monkeypatch.setattr(lower_matmul, "COOPMAT_EPILOGUE", False)
    y = EPILOGUES["gelu(linear)"][0](*map(kd.asarray, _epilogue_data()))
    kinds = [type(s.kernel).__name__ for s in schedule([y._node])]
    assert kinds == ["Matmul", "Elementwise"]


@pytest.mark.parametrize("case", sorted(EPILOGUES))
def test_epilogue_shaders_compile(fake_coopmat, coopmat_epilogues, case):
    """The epilogue at the coopmat kernel's store (elementwise at (gm, gn) after the shared staging tile) and
    its scalar fallback: the scheduler's kernel, one per graph, compiles."""
    y = EPILOGUES[case][0](*map(kd.asarray, _epilogue_data()))
    steps = schedule([y._node])
    assert [type(s.kernel) for s in steps] == [Matmul]
    k = steps[0].kernel
    assert k.coop and k.epilogue is not None and k.out_dtype == y.dtype and tuple(k.out_shape) == y.shape
    for kern in (k, k._replace(coop=())):
        src = matmul.render(kern)
        assert "kd_epilogue(" in src
        assert len(compile_source(src)) > 1000


@pytest.mark.skipif(not kd.device().coopmat_shapes, reason="runs on a GPU with VK_KHR_cooperative_matrix")
@pytest.mark.parametrize("case", sorted(EPILOGUES))
def test_on_the_device_epilogues(coopmat_epilogues, case):
    """The fused epilogues on the device, against NumPy (run with KDSL_VALIDATION=0: the layer turns
    cooperative matrices off); a pass here is what keeps lower_matmul.COOPMAT_EPILOGUE on by default."""
    data = _epilogue_data()
    y = EPILOGUES[case][0](*map(kd.asarray, data))
    assert [type(s.kernel) for s in schedule([y._node])] == [Matmul]
    x, w, b, c = (d.astype(np.float64) for d in data)
    p = (x.astype(np.float32) @ w.T.astype(np.float32)).astype(np.float16).astype(np.float64)
    want = EPILOGUES[case][1](p, b, c)
    np.testing.assert_allclose(y.numpy().astype(np.float64), want, rtol=1e-2, atol=2e-2)
