"""Row normalisers with one subgroup per row (kdsl.codegen.rownorm's "subgroup" mode, taken on GPUs for rows of a
few hundred elements) against NumPy: softmax, log_softmax, layer_norm, rms_norm, the plain NumPy-style softmax,
MiniLM's float16 residual layer norm, strided rows, special values; with the row in registers (the subgroup has
the size the kernel was built for) and through the loops a driver running other subgroup sizes takes. lavapipe
keeps its thread mode by default, so the fixture plans these kernels as a GPU would."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import rownorm
from kdsl.engine.schedule import schedule
from kdsl.runtime.compiler import compile_source

LENGTHS = [65, 100, 200, 384]  # (lavapipe runs 8 lanes: 384 / 8 elements a lane stay in 64 registers)


@pytest.fixture(params=["registers", "loops"])
def gpu_rows(request, monkeypatch):
    """The device planning row kernels as a GPU does; "loops": for a subgroup four times the size the device
    runs, so the kernel's runtime test sends every row through its loops."""
    dev = kd.device()
    if not {"subgroup_arithmetic", "subgroup_shuffle"} <= dev.features:
        pytest.skip(f"{dev.name} has no subgroup arithmetic and shuffle in compute shaders")
    monkeypatch.setattr(dev, "partials", 0)
    monkeypatch.setattr(dev, "reduce_subgroup", dev.subgroup_size * (4 if request.param == "loops" else 1))
    return request.param


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_layer_norm(x, w=None, b=None, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    y = (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def row_kernel(y):
    (step,) = schedule([y._node])
    assert type(step.kernel).__name__ == "RowNorm" and step.kernel.mode == "subgroup"
    return step.kernel


@pytest.mark.parametrize("n", LENGTHS)
def test_matches_numpy(gpu_rows, n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((37, n)) * 4).astype(np.float32)
    w, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    a = kd.asarray(x)
    e = kd.exp(a - a.max(-1, keepdims=True))
    s = x - x.max(-1, keepdims=True)
    cases = [(kd.nn.softmax(a), np_softmax(x)), (e / e.sum(-1, keepdims=True), np_softmax(x)),
             (kd.nn.log_softmax(a), s - np.log(np.exp(s).sum(-1, keepdims=True))),
             (kd.nn.layer_norm(a, n, kd.asarray(w), kd.asarray(b)), np_layer_norm(x, w, b)),
             (kd.nn.rms_norm(a, n), x / np.sqrt((x * x).mean(-1, keepdims=True) + np.finfo(np.float32).eps))]
    for k, (got, want) in enumerate(cases):
        kernel = row_kernel(got)
        assert ("if (lanes == " in rownorm.render(kernel)) and kernel.cache == -(-n // kernel.subgroup), k
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-4, atol=2e-5, err_msg=str(k))


def test_minilm_residual_layer_norm_in_float16(gpu_rows):
    """MiniLM's pattern: (x + residual) in float16, normalised in float32, back to float16; 3-d rows."""
    rng = np.random.default_rng(1)
    x, r = (rng.standard_normal((4, 9, 72)).astype(np.float16) for _ in range(2))
    w = rng.standard_normal(72).astype(np.float32)
    y = kd.nn.layer_norm((kd.asarray(x) + kd.asarray(r)).astype(kd.float32), (72,), kd.asarray(w)).astype(kd.float16)
    row_kernel(y)
    want = np_layer_norm((x + r).astype(np.float32), w).astype(np.float16)
    np.testing.assert_allclose(y.numpy().astype(np.float32), want.astype(np.float32), rtol=2e-3, atol=2e-3)


def test_special_values_and_strided_rows(gpu_rows):
    x = np.random.default_rng(2).standard_normal((6, 70)).astype(np.float32)
    x[0] = -np.inf
    x[1, 3] = np.inf
    x[2, 69] = np.nan
    x[3] = 3e38
    x[4, ::5] = -np.inf
    a = kd.asarray(x)
    with np.errstate(all="ignore"):
        row_kernel(kd.nn.softmax(a))
        np.testing.assert_allclose(kd.nn.softmax(a).numpy(), np_softmax(x), rtol=1e-5, atol=1e-7)
        m = kd.max(a, axis=-1, keepdims=True)  # a max stage: the NaN-propagating shuffle butterfly
        np.testing.assert_array_equal(np.isnan((a - m).numpy()), np.isnan(x - x.max(-1, keepdims=True)))
    t = kd.asarray(np.ascontiguousarray(x[5:].T)).T  # a transposed (strided) row
    np.testing.assert_allclose(kd.nn.layer_norm(t, 70).numpy(), np_layer_norm(x[5:]), rtol=1e-4, atol=1e-5)


def test_a_gpu_plans_minilm_layer_norms_per_subgroup(monkeypatch):
    """An NVIDIA GPU (subgroups of 32): MiniLM's rows of 384 go to one subgroup each, 12 registers a lane for
    each of the three loads the reductions read; rows too long for the lanes' registers keep a workgroup."""
    dev = kd.device()
    monkeypatch.setattr(dev, "partials", 0)
    monkeypatch.setattr(dev, "reduce_subgroup", 32)
    monkeypatch.setattr(dev, "max_groups", 65535)
    x, w = kd.asarray(np.ones((64, 128, 384), np.float16)), kd.asarray(np.ones(384, np.float32))
    bias = kd.asarray(np.ones(384, np.float16))
    kernel = row_kernel(kd.nn.layer_norm((x + (x[::-1] + bias)).astype(kd.float32), (384,), w, w).astype(kd.float16))
    assert (kernel.cache, kernel.subgroup, kernel.groups) == (12, 32, 1024)  # 8192 rows, 8 a workgroup
    assert len(rownorm.row_loads(kernel)) == 3  # the product, its bias, the residual; not the weight and bias
    compile_source(rownorm.render(kernel))
    (step,) = schedule([kd.nn.softmax(kd.asarray(np.ones((4, 4096), np.float32)))._node])
    assert step.kernel.mode == "group"
