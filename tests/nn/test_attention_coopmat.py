"""The cooperative-matrix attention kernel (kdsl.codegen.attention_coopmat, issue 13): when the scheduler picks it
(float16 q, k, v on a device with 16 x 16 x 16 float16 fragments), that its GLSL compiles for such a device on
this machine (lavapipe has no cooperative matrices), the fallback to the scalar kernel when a driver cannot
build it, and, on a GPU that has them, its results against NumPy: shapes around the fragments, the key block
and a workgroup's rows, head dims up to 128, masks of every kind, causal, all-masked rows, inf and NaN, views
of a packed projection (16-byte loads) and the heads-merged output layout."""

import shutil
import subprocess
import warnings

import nn_reference as ref
import numpy as np
import pytest

import kdsl as kd
from kdsl import dtype as dt
from kdsl.codegen import attention_coopmat
from kdsl.engine import lower_attention
from kdsl.engine.schedule import schedule
from kdsl.ir.kernels import Attention
from kdsl.runtime.compiler import compile_source

RNG = np.random.default_rng(29)
sdpa = kd.nn.scaled_dot_product_attention
ON_DEVICE = bool(kd.device().coopmat_shapes) and "subgroup_shuffle" in kd.device().features


def rand(*shape, dtype=np.float16):
    return RNG.standard_normal(shape).astype(dtype)


def want(q, k, v, mask=None, causal=False):
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return ref.sdpa(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), mask, causal)


def attention_kernels(x):
    return [s.kernel for s in schedule([x._node]) if isinstance(s.kernel, Attention)]


def check(got, expected, tol=4e-3):
    """float16 inputs, weights rounded to float16 for the second product, a float16 output."""
    got = got.numpy().astype(np.float64)
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)


def masks(kind, b, h, l, s):
    if kind == "none":
        return None
    if kind == "key_padding":  # MiniLM's (b, 1, 1, s) boolean mask, staged in shared memory
        m = RNG.random((b, 1, 1, s)) > 0.3
        m[0, ..., :] = False  # no key at all: NaN rows
        return m
    if kind == "full_bool":
        m = RNG.random((l, s)) > 0.5
        m[min(2, l - 1)] = False
        return m
    m = rand(b, 1, l, s, dtype=np.float32)  # additive, per row
    m[-1, 0, 0, : s // 2] = -np.inf
    return m


CASES = [  # batch, l, s, e, ev
    ((2, 3), 5, 7, 8, 8),  # one fragment, one block, most of a tile empty
    ((2,), 70, 33, 3, 5),  # L past a tile, S past a block, head dims not multiples of 8 (scalar fills)
    ((3,), 1, 1, 1, 1),
    ((1,), 40, 100, 64, 128),  # Ev = 128
    ((2,), 9, 65, 128, 16),  # E = 128
    ((4, 12), 128, 128, 32, 32),  # MiniLM's heads
]


def test_plan_picks_the_coopmat_kernel_for_float16_only(fake_coopmat):
    q = kd.asarray(rand(2, 4, 64, 32))
    (k,) = attention_kernels(sdpa(q, q, q))
    assert k.coop == (16, 16, 16, 32) and attention_coopmat.render(k).count("coopMatMulAdd") > 0
    (k,) = attention_kernels(sdpa(q.astype(kd.float32), q.astype(kd.float32), q.astype(kd.float32)))
    assert k.coop == ()
    (k,) = attention_kernels(sdpa(q.astype(kd.float32), q, q))  # mixed operands: the scalar kernel
    assert k.coop == ()


@pytest.mark.parametrize("why, change", [
    ("no shuffles", {"features": {"cooperative_matrix", "float16"}}),
    ("subgroups of 8", {"subgroup_size": 8}),
    ("too little shared memory", {"max_shared_memory": 8192}),
    ("no 16 x 16 x 16 fragments", {"coopmat_shapes": ()}),
])
def test_plan_refuses(fake_coopmat, monkeypatch, why, change):
    for name, value in change.items():
        monkeypatch.setattr(fake_coopmat, name, value)
    assert lower_attention.coop_shape((dt.float16,) * 3, 64, 32, 128, 128, fake_coopmat) == (), why


def test_geometry_fits_every_head_dim_in_an_nvidia_gpus_shared_memory():
    for e in (1, 16, 32, 64, 100, 128):
        assert attention_coopmat.Geometry(64, 32, e, e, 32).shared_bytes() <= 49152


@pytest.mark.parametrize("batch, l, s, e, ev", CASES)
@pytest.mark.parametrize("kind", ["none", "key_padding", "full_bool", "additive"])
def test_shaders_compile(fake_coopmat, batch, l, s, e, ev, kind):
    b = batch[0] if batch else 1
    q, k, v = rand(*batch, l, e), rand(*batch, s, e), rand(*batch, s, ev)
    m = masks(kind, b, batch[-1] if len(batch) > 1 else 1, l, s) if len(batch) == 2 or kind == "full_bool" \
        else None
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), None if m is None else kd.asarray(m),
               is_causal=m is None and l == s)
    (kernel,) = attention_kernels(out)
    assert kernel.coop
    spirv = compile_source(attention_coopmat.render(kernel))
    val = shutil.which("spirv-val")
    if val is not None:
        proc = subprocess.run([val, "--target-env", "vulkan1.1", "-"], input=spirv, capture_output=True)
        assert proc.returncode == 0, proc.stderr.decode()


def test_packed_projection_views_load_16_bytes_at_a_time(fake_coopmat):
    qkv = kd.asarray(rand(2, 11, 3, 4, 32))  # (b, s, 3, heads, d), as MiniLM slices its projection
    q, k, v = (kd.transpose(qkv[:, :, i], (0, 2, 1, 3)) for i in range(3))
    (kernel,) = attention_kernels(sdpa(q, k, v))
    src = attention_coopmat.render(kernel)
    assert src.count("readonly buffer B1q") == 1 and src.count("b1q.d[") == 3 and "& 7u) == 0u" in src
    compile_source(src)


def test_pipeline_failure_falls_back_to_the_scalar_kernel(coopmat_refused):
    q, k, v = rand(2, 3, 20, 16), rand(2, 3, 40, 16), rand(2, 3, 40, 16)
    with pytest.warns(RuntimeWarning, match="scalar attention kernel"):
        got = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
        check(got, want(q, k, v))
    assert coopmat_refused.coopmat_shapes == ()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v)), want(q, k, v))


on_device = pytest.mark.skipif(not ON_DEVICE, reason="runs on a GPU with VK_KHR_cooperative_matrix and subgroup "
                                                      "shuffles (the H200 commands are in docs/matmul.md)")


@on_device
@pytest.mark.parametrize("batch, l, s, e, ev", CASES)
@pytest.mark.parametrize("causal", [False, True])
def test_on_the_device(batch, l, s, e, ev, causal):
    q, k, v = rand(*batch, l, e), rand(*batch, s, e), rand(*batch, s, ev)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), is_causal=causal)
    (kernel,) = attention_kernels(out)
    assert kernel.coop and out.dtype == kd.float16
    check(out, want(q, k, v, causal=causal))


@on_device
@pytest.mark.parametrize("kind", ["key_padding", "full_bool", "additive"])
def test_on_the_device_masks(kind):
    b, h, l, s = 3, 2, 37, 70
    q, k, v = rand(b, h, l, 32), rand(b, h, s, 32), rand(b, h, s, 32)
    m = masks(kind, b, h, l, s)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(m))
    assert attention_kernels(out)[0].coop
    expected = want(q, k, v, m)
    assert np.isnan(expected).any() == (kind != "additive")
    check(out, expected)


@on_device
def test_on_the_device_inf_and_nan():
    q, k, v = rand(1, 2, 20, 16), rand(1, 2, 40, 16), rand(1, 2, 40, 16)
    q[0, 0, 3, 0] = np.nan  # a NaN score: the row is NaN
    k[0, 1, 5] = np.inf  # +inf scores (an infinite maximum): NaN rows, as exp(x - max(x))
    v[0, 0, 7, 2] = np.inf  # an infinite value: inf (or NaN) where it weighs
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    check(out, want(q, k, v))


@on_device
def test_on_the_device_packed_projection_and_merged_heads():
    b, s, h, d = 4, 77, 12, 32
    host = rand(b, s, 3, h, d)
    qkv = kd.asarray(host)
    q, k, v = (kd.transpose(qkv[:, :, i], (0, 2, 1, 3)) for i in range(3))
    mask = RNG.random((b, 1, 1, s)) > 0.2
    merged = kd.reshape(kd.transpose(sdpa(q, k, v, kd.asarray(mask)), (0, 2, 1, 3)), (b, s, h * d))
    parts = [np.transpose(host[:, :, i], (0, 2, 1, 3)) for i in range(3)]
    expected = np.transpose(want(*parts, mask), (0, 2, 1, 3)).reshape(b, s, h * d)
    check(merged, expected)
