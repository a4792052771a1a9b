"""Matmul epilogues: elementwise consumers of a product (bias adds, activations, casts, scales) computed by the
matmul kernel before its store, against NumPy, on every matmul kernel that runs here (the CPU driver's, the
4x4 blocks, the shared-memory tiles), with split-K, and the cases that must not fuse."""

import math

import numpy as np
import pytest

import kdsl as kd
from kdsl import nn
from kdsl.codegen import matmul_cpu
from kdsl.engine import plan as plan_cache
from kdsl.engine.plan import plan
from kdsl.ir.kernels import Matmul, Reduce

RNG = np.random.default_rng(40)


@pytest.fixture(params=["default", "cpu", "blocked", "tiled"])
def kernel(request, monkeypatch):
    """The device's own matmul kernel, the CPU driver's (subgroup shuffles; chosen for large products only:
    the threshold lowered, small tiles), the 4x4 blocks, or the GPU's shared-memory tiles."""
    dev = kd.device()
    monkeypatch.setattr(plan_cache, "_plans", type(plan_cache._plans)())  # plans made for another kernel choice
    if request.param == "cpu":
        if not dev.matmul_lanes:
            pytest.skip("the CPU matmul runs on CPU drivers with subgroup shuffles (lavapipe)")
        monkeypatch.setattr(matmul_cpu, "MIN_WORK", 0)
        monkeypatch.setattr(matmul_cpu, "ROWS", 16)
        monkeypatch.setattr(matmul_cpu, "COLS", 2)
    elif request.param == "blocked":
        monkeypatch.setattr(dev, "matmul_lanes", 0)
        monkeypatch.setattr(dev, "matmul_tiles", False)
    elif request.param == "tiled":
        monkeypatch.setattr(dev, "matmul_tiles", True)
    return request.param


def _steps(y):
    return plan([y._node])


def _fused(y, splits=False):
    """Assert ``y`` is planned as its matmul with the epilogue: one kernel (or the chunks and their sum)."""
    steps = _steps(y)
    kinds = [type(s.kernel) for s in steps]
    if splits:
        assert kinds[0] is Matmul and steps[0].kernel.splits > 1 and all(k is Reduce for k in kinds[1:]), kinds
        assert steps[-1].kernel.epilogue is not None and steps[-1].out is y._node
    else:
        assert kinds == [Matmul], kinds
        assert steps[0].kernel.epilogue is not None and steps[0].kernel.out_dtype == y.dtype
        assert steps[0].kernel.tiled is kd.device().matmul_tiles
        if matmul_cpu.MIN_WORK == 0 and y.dtype in (kd.float32, kd.float16):  # the "cpu" kernel fixture
            assert steps[0].kernel.lanes
    return y


def _data(shape, dtype="float32", lo=-2, hi=2):
    return RNG.uniform(lo, hi, shape).astype(dtype)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


ACTIVATIONS = {
    "relu": (nn.relu, lambda y: np.maximum(y, 0)),
    "gelu": (nn.gelu, lambda y: 0.5 * y * (1 + _erf(y / np.sqrt(2)))),
    "gelu_tanh": (lambda y: nn.gelu(y, approximate="tanh"),
                  lambda y: 0.5 * y * (1 + np.tanh(np.sqrt(2 / np.pi) * (y + 0.044715 * y ** 3)))),
    "silu": (nn.silu, lambda y: y / (1 + np.exp(-y))),
}


@pytest.mark.parametrize("act", sorted(ACTIVATIONS))
def test_linear_activation_is_one_kernel(kernel, act):
    f, ref = ACTIVATIONS[act]
    x, w, b = _data((3, 20, 24)), _data((40, 24)), _data(40)
    y = _fused(f(nn.linear(kd.asarray(x), kd.asarray(w), kd.asarray(b))))
    np.testing.assert_allclose(y.numpy(), ref(x.astype(np.float64) @ w.T + b), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("bias", ["row", "column", "scalar", "full"])
def test_bias_adds(kernel, bias):
    a, b = _data((37, 29)), _data((29, 45))
    c = {"row": _data(45), "column": _data((37, 1)), "scalar": np.float32(1.5), "full": _data((37, 45))}[bias]
    y = _fused(kd.asarray(a) @ kd.asarray(b) + (kd.asarray(c) if bias != "scalar" else 1.5))
    np.testing.assert_allclose(y.numpy(), a.astype(np.float64) @ b + c, rtol=1e-4, atol=1e-4)


def test_float16_gelu_linear(kernel):
    """MiniLM's feed-forward: float16 throughout; the product rounds to float16 before the bias, as stored."""
    x, w, b = _data((2, 33, 40), "float16"), _data((70, 40), "float16"), _data(70, "float16")
    y = _fused(nn.gelu(nn.linear(kd.asarray(x), kd.asarray(w), kd.asarray(b))))
    assert y.dtype == kd.float16
    text = kd.explain(y)
    assert text.count("kernel ") == 1 and text.startswith("kernel 0: Matmul") and "float16[2, 33, 70]" in text
    h = (x.astype(np.float32) @ w.T.astype(np.float32)).astype(np.float16).astype(np.float32) + b
    want = 0.5 * h * (1 + _erf(h / np.sqrt(2)))
    np.testing.assert_allclose(y.numpy().astype(np.float32), want, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("src, dst", [("float32", "float16"), ("float16", "float32"), ("int32", "float32"),
                                      ("float32", "int32")])
def test_casts_and_scales(kernel, src, dst):
    a, b = _data((20, 30), src, -3, 3), _data((30, 18), src, -3, 3)
    if src == "int32":
        a, b = RNG.integers(-5, 6, (20, 30)).astype(src), RNG.integers(-5, 6, (30, 18)).astype(src)
    y = _fused(((kd.asarray(a) @ kd.asarray(b)) * 3).astype(dst))
    want = ((a @ b) * np.asarray(3, src)).astype(dst)
    assert y.dtype.name == dst
    np.testing.assert_allclose(y.numpy().astype(np.float64), want, rtol=2e-3, atol=0.5 if dst == "int32" else 0.05)


@pytest.mark.parametrize("dtype", ["int32", "int8", "int64"])
def test_integer_epilogues(kernel, dtype):
    a, b = RNG.integers(-9, 10, (21, 16)).astype(dtype), RNG.integers(-9, 10, (16, 19)).astype(dtype)
    c = RNG.integers(-9, 10, 19).astype(dtype)
    y = _fused(kd.maximum(kd.asarray(a) @ kd.asarray(b) + kd.asarray(c), 0) // 3)
    np.testing.assert_array_equal(y.numpy(), np.maximum(a @ b + c, 0) // 3)


def test_batched_and_non_contiguous_operands(kernel):
    a, b, c = _data((3, 25, 4, 18)), _data((3, 22, 18)), _data((3, 1, 22))
    ka, kb = kd.asarray(a)[:, :, 1], kd.asarray(b).mT  # strided and transposed operands
    y = _fused(kd.tanh(ka @ kb - kd.asarray(c)))
    np.testing.assert_allclose(y.numpy(), np.tanh(a[:, :, 1].astype(np.float64) @ b.transpose(0, 2, 1) - c),
                               rtol=1e-4, atol=1e-4)


def test_linear_reshapes_are_stored_by_the_matmul(kernel):
    """``linear`` of a 3-d input reshapes its 2-d product: the matmul stores it in that shape (no copy), and
    a reshape of its bias add too (MiniLM's heads), while a transpose after it is a kernel of its own."""
    x, w, b = _data((3, 10, 24)), _data((36, 24)), _data(36)
    want = x.astype(np.float64) @ w.T
    y = _fused(nn.linear(kd.asarray(x), kd.asarray(w)))
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-4)
    y = _fused(nn.linear(kd.asarray(x), kd.asarray(w), kd.asarray(b)).reshape(3, 10, 3, 12))
    np.testing.assert_allclose(y.numpy(), (want + b).reshape(3, 10, 3, 12), rtol=1e-4, atol=1e-4)
    y = nn.linear(kd.asarray(x), kd.asarray(w), kd.asarray(b)).reshape(3, 10, 3, 12).swapaxes(1, 2)
    assert len(_steps(y)) == 2
    np.testing.assert_allclose(y.numpy(), (want + b).reshape(3, 10, 3, 12).swapaxes(1, 2), rtol=1e-4, atol=1e-4)


def test_reshape_of_the_product(kernel):
    """A contiguous reshape (the rows regrouped, or the last axis split) is the product's own layout."""
    a, b = _data((24, 16)), _data((16, 30))
    want = a.astype(np.float64) @ b
    y = _fused(kd.exp((kd.asarray(a) @ kd.asarray(b)).reshape(4, 6, 30) * 0.1))
    np.testing.assert_allclose(y.numpy(), np.exp(want.reshape(4, 6, 30) * 0.1), rtol=1e-4)
    y = _fused((kd.asarray(a) @ kd.asarray(b)).reshape(24, 3, 10) + kd.asarray(np.arange(10, dtype=np.float32)))
    np.testing.assert_allclose(y.numpy(), want.reshape(24, 3, 10) + np.arange(10), rtol=1e-4, atol=1e-4)


def test_not_fused_when_the_product_is_read_elsewhere(kernel):
    a, b = _data((20, 30)), _data((30, 25))
    want = a.astype(np.float64) @ b
    p = kd.asarray(a) @ kd.asarray(b)
    y, z = kd.exp(p * 0.1), p.T * 2  # the product read at other positions: stored once
    kd.realize(y, z)
    np.testing.assert_allclose(y.numpy(), np.exp(want * 0.1), rtol=1e-4)
    np.testing.assert_allclose(z.numpy(), want.T * 2, rtol=1e-4, atol=1e-4)
    p = kd.asarray(a) @ kd.asarray(b)
    q = p + 1
    y = q * 2  # q and the product held by live arrays: read later, they are computed again
    np.testing.assert_allclose(y.numpy(), (want + 1) * 2, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(q.numpy(), want + 1, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(p.numpy(), want, rtol=1e-4, atol=1e-4)
    p = kd.asarray(a) @ kd.asarray(b)
    y, z = kd.sqrt(kd.abs(p)), p * 3  # two kernels read the product: stored once, read twice
    assert [type(s.kernel).__name__ for s in plan([y._node, z._node])] == ["Matmul", "Elementwise", "Elementwise"]
    kd.realize(y, z)
    np.testing.assert_allclose(y.numpy(), np.sqrt(np.abs(want)), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(z.numpy(), want * 3, rtol=1e-4, atol=1e-4)
    p = kd.asarray(a) @ kd.asarray(b)
    y = p + 1
    assert len(plan([p._node, y._node])) == 2  # the product requested too: stored, and not an epilogue
    kd.realize(p, y)
    np.testing.assert_allclose(y.numpy(), want + 1, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(p.numpy(), want, rtol=1e-4, atol=1e-4)


def test_transposed_product_is_not_an_epilogue(kernel):
    a, b = _data((20, 30)), _data((30, 25))
    y = (kd.asarray(a) @ kd.asarray(b)).T + 1  # another position than the accumulator's
    assert len(_steps(y)) == 2
    np.testing.assert_allclose(y.numpy(), (a.astype(np.float64) @ b).T + 1, rtol=1e-4, atol=1e-4)


def test_split_k_epilogue_on_the_sum(monkeypatch):
    """A long k with few output tiles: the chunks' sum computes the epilogue (GPU tiles, and a small loop
    budget on the device's own kernel)."""
    dev = kd.device()
    monkeypatch.setattr(dev, "matmul_tiles", True)
    a, b, c = _data((200, 512)), _data((512, 100)), _data(100)
    y = _fused(nn.gelu(nn.linear(kd.asarray(a), kd.asarray(np.ascontiguousarray(b.T)), kd.asarray(c))),
               splits=True)
    h = a.astype(np.float64) @ b + c
    np.testing.assert_allclose(y.numpy(), 0.5 * h * (1 + _erf(h / np.sqrt(2))), rtol=1e-4, atol=1e-4)
    x3 = a.reshape(2, 100, 512)  # linear's reshape to 3-d: the sum stores that shape
    y = _fused(nn.silu(nn.linear(kd.asarray(x3), kd.asarray(np.ascontiguousarray(b.T)))), splits=True)
    h = a.astype(np.float64) @ b
    np.testing.assert_allclose(y.numpy(), (h / (1 + np.exp(-h))).reshape(2, 100, 100), rtol=1e-4, atol=1e-4)
    monkeypatch.setattr(dev, "matmul_tiles", False)
    monkeypatch.setattr(dev, "loop_budget", 300)
    a, b = _data((600, 2000)), _data((2000, 40))
    y = _fused(kd.relu(kd.asarray(a) @ kd.asarray(b)).astype(kd.float16), splits=True)
    np.testing.assert_allclose(y.numpy().astype(np.float32), np.maximum(a.astype(np.float64) @ b, 0).astype(np.float16),
                               rtol=2e-3, atol=2e-2)


def test_nan_and_inf(kernel):
    a, b = _data((16, 12)), _data((12, 20))
    a[3, 4], b[2, 7], b[5, 9] = np.nan, np.inf, -np.inf
    bias = _data(20)
    bias[11] = np.nan
    with np.errstate(all="ignore"):
        want = np.maximum(a.astype(np.float64) @ b + bias, 0)  # np.maximum keeps NaN
        y = _fused(kd.maximum(kd.asarray(a) @ kd.asarray(b) + kd.asarray(bias), 0))
        np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("shape", [(0, 5, 4), (5, 0, 4), (5, 4, 0)])
def test_empty_shapes(kernel, shape):
    m, k, n = shape
    a, b, c = _data((m, k)), _data((k, n)), _data(n)
    y = kd.exp(kd.asarray(a) @ kd.asarray(b) + kd.asarray(c))
    np.testing.assert_allclose(y.numpy(), np.exp(a @ b + c), rtol=1e-5)


def test_random_epilogue_is_not_fused(kernel):
    """A dropout-like random mask loops in its helper: the matmul kernel's budget is sized for its k loop."""
    a, b = _data((20, 30)), _data((30, 25))
    p = kd.asarray(a) @ kd.asarray(b)
    y = p * (kd.random.uniform(size=(20, 25)) < 2)
    assert len(_steps(y)) == 2
    np.testing.assert_allclose(y.numpy(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4)


def test_requested_reshape_and_its_consumer(kernel):
    """A requested reshape of the product is stored by the matmul; a consumer of it reads that buffer (it must
    not absorb the product through the stored reshape, which nothing would then compute)."""
    a, b = _data((30, 4)), _data((4, 40))
    want = (a.astype(np.float64) @ b).reshape(10, 3, 40)
    p = (kd.asarray(a) @ kd.asarray(b)).reshape(10, 3, 40)
    q = p * 2
    assert [type(s.kernel) for s in plan([p._node, q._node])][0] is Matmul
    kd.realize(p, q)
    np.testing.assert_allclose(p.numpy(), want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(q.numpy(), want * 2, rtol=1e-5, atol=1e-5)


def test_requested_reshape_of_a_reduction_and_its_consumer():
    """The same for a reduction (an epilogue through a stored reshape left the sum uncomputed: a compile error)."""
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    s = kd.asarray(x).sum(0).reshape(2, 2)
    z = s * 2
    kd.realize(s, z)
    np.testing.assert_array_equal(s.numpy(), x.sum(0).reshape(2, 2))
    np.testing.assert_array_equal(z.numpy(), x.sum(0).reshape(2, 2) * 2)


def test_binding_limit(monkeypatch):
    """The epilogue's buffers count with the operands' against the device's binding limit: past it, the
    elementwise pass is a kernel of its own (same result)."""
    a, b, c, d = _data((20, 30)), _data((30, 25)), _data(25), _data((20, 1))
    want = a.astype(np.float64) @ b + c * d

    def graph():
        return kd.asarray(a) @ kd.asarray(b) + kd.asarray(c) * kd.asarray(d)

    _fused(graph())
    monkeypatch.setattr(kd.device(), "max_buffers", 5)  # 3 inputs at most, besides the output and partials
    monkeypatch.setattr(plan_cache, "_plans", type(plan_cache._plans)())
    y = graph()
    assert [type(s.kernel) for s in _steps(y)][0] is Matmul and len(_steps(y)) == 2
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-4, atol=1e-4)


def test_computed_bias(kernel):
    a, b, c = _data((20, 30)), _data((30, 25)), _data(50)
    y = _fused(kd.asarray(a) @ kd.asarray(b) + kd.exp(kd.asarray(c)[::2]) * 0.5)
    np.testing.assert_allclose(y.numpy(), a.astype(np.float64) @ b + np.exp(c[::2]) * 0.5, rtol=1e-4, atol=1e-4)
