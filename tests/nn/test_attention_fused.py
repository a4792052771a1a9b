"""The fused attention kernel (kd.nn.scaled_dot_product_attention as one "Attention" kernel, issue 13) against
NumPy: shapes around the key block and the query rows of a workgroup, head dims 1 to 128, broadcast batch axes,
boolean / additive / causal masks, all-masked rows, float16, views of a packed projection, inf and NaN; that
the fused kernel is what runs (and what does not fit keeps the composite path, bit for bit); gradients."""

import math

import nn_reference as ref
import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen.attention import render
from kdsl.engine.describe import describe
from kdsl.engine.lower_attention import fused_plan, shared_bytes
from kdsl.engine.schedule import schedule
from kdsl.frontend.array import attention as fused_module
from kdsl.frontend.array.array import Array
from kdsl.nn import attention

RNG = np.random.default_rng(13)
sdpa = kd.nn.scaled_dot_product_attention


def rand(*shape, dtype=np.float32):
    return RNG.standard_normal(shape).astype(dtype)


def want(q, k, v, mask=None, causal=False, scale=None):
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        return ref.sdpa(q.astype(np.float64), k.astype(np.float64), v.astype(np.float64), mask, causal, scale)


def kernels(x):
    """The kinds of kernels realising ``x`` (inputs already on the device)."""
    return [type(s.kernel).__name__ for s in schedule([x._node])]


def check(got, expected, tol=2e-5):
    got = got.numpy()
    assert np.array_equal(np.isnan(got), np.isnan(expected))
    np.testing.assert_allclose(got, expected, rtol=tol, atol=tol, equal_nan=True)


@pytest.mark.parametrize("batch, l, s, e, ev", [
    ((2, 3), 5, 7, 8, 8),  # within one block and one workgroup
    ((2,), 70, 33, 3, 5),  # L past a workgroup's rows, S past a block, E and Ev not multiples of 4
    ((3,), 1, 1, 1, 1),  # S = 1, E = 1
    ((1,), 40, 100, 64, 128),  # Ev = 128, L != S
    ((2,), 9, 65, 128, 16),  # E = 128
    ((), 6, 4, 4, 2),  # no batch axes
])
@pytest.mark.parametrize("causal", [False, True])
def test_matches_numpy(batch, l, s, e, ev, causal):
    q, k, v = rand(*batch, l, e), rand(*batch, s, e), rand(*batch, s, ev)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), is_causal=causal)
    assert kernels(out) == ["Attention"]
    assert out.shape == (*batch, l, ev) and out.dtype == kd.float32
    check(out, want(q, k, v, causal=causal))


def test_broadcast_batch_axes():
    q, k, v = rand(2, 3, 5, 8), rand(1, 3, 6, 8), rand(3, 6, 4)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    assert kernels(out) == ["Attention"] and out.shape == (2, 3, 5, 4)
    check(out, want(q, k, v))


@pytest.mark.parametrize("kind", ["key_padding", "full_bool", "additive", "additive_f16", "additive_keys"])
def test_masks(kind):
    b, h, l, s = 3, 2, 6, 37
    q, k, v = rand(b, h, l, 8), rand(b, h, s, 8), rand(b, h, s, 8)
    if kind == "key_padding":  # MiniLM's (b, 1, 1, s) mask; batch 0 keeps no key at all: NaN rows
        mask = RNG.random((b, 1, 1, s)) > 0.3
        mask[0] = False
    elif kind == "full_bool":
        mask = RNG.random((l, s)) > 0.5
        mask[2] = False
    elif kind == "additive_keys":
        mask = rand(b, 1, 1, s)
        mask[2, 0, 0, 3:] = -np.inf
    else:
        mask = rand(b, 1, l, s, dtype=np.float16 if kind == "additive_f16" else np.float32)
        mask[1, 0, 3, :5] = -np.inf
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask))
    assert kernels(out) == ["Attention"]
    # a mask the same for every query row goes through shared memory with its keys, one load per workgroup
    staged = "shared float ms[" in render(schedule([out._node])[0].kernel)
    assert staged == (kind in ("key_padding", "additive_keys"))
    expected = want(q, k, v, mask)
    if kind in ("key_padding", "full_bool"):
        assert np.isnan(expected).any()
    check(out, expected)


def test_all_masked_rows_are_nan_like_the_composite_path():
    q, k, v = rand(1, 4, 4), rand(1, 5, 4), rand(1, 5, 4)
    mask = np.zeros((4, 5), bool)
    mask[1, 2] = True
    got = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask)).numpy()
    assert np.isnan(got[0, [0, 2, 3]]).all() and np.allclose(got[0, 1], v[0, 2])


def test_float16():
    q, k, v = rand(2, 3, 20, 32, dtype=np.float16), rand(2, 3, 40, 32, dtype=np.float16), rand(2, 3, 40, 32,
                                                                                           dtype=np.float16)
    mask = RNG.random((2, 1, 1, 40)) > 0.2
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), kd.asarray(mask))
    assert kernels(out) == ["Attention"] and out.dtype == kd.float16
    check(out, want(q, k, v, mask), tol=3e-3)


def test_mixed_dtypes_give_the_composite_paths_dtype():
    q, k, v = rand(2, 5, 8), rand(2, 6, 8, dtype=np.float16), rand(2, 6, 8, dtype=np.float16)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    composite = attention._composite(kd.asarray(q), kd.asarray(k), kd.asarray(v), None, 0.0, False,
                                     1 / math.sqrt(8), None)
    assert out.dtype == composite.dtype == kd.float16
    check(out, want(q, k, v), tol=3e-3)


def test_views_of_a_packed_projection_are_read_in_place():
    b, s, h, d = 2, 11, 3, 8  # q, k, v as MiniLM slices them out of one (b, s, 3, heads, d) projection
    qkv_host = rand(b, s, 3, h, d)
    qkv = kd.asarray(qkv_host)
    q, k, v = (kd.transpose(qkv[:, :, i], (0, 2, 1, 3)) for i in range(3))
    out = sdpa(q, k, v, is_causal=True)
    assert kernels(out) == ["Attention"]  # no copy of a head
    host = [np.transpose(qkv_host[:, :, i], (0, 2, 1, 3)) for i in range(3)]
    check(out, want(*host, causal=True))
    # the heads merged back for the output projection: the kernel writes the (b, s, heads, d) layout itself
    # (when nothing else holds the attention's own array: a view Array keeps its base alive, as in NumPy)
    swapped = (lambda: kd.transpose(sdpa(q, k, v, is_causal=True), (0, 2, 1, 3))._node)()
    steps = schedule([swapped])
    assert [type(st.kernel).__name__ for st in steps] == ["Attention"] and steps[0].kernel.heads_inner
    merged = kd.reshape(Array(swapped), (b, s, h * d))
    check(merged, np.transpose(want(*host, causal=True), (0, 2, 1, 3)).reshape(b, s, h * d))
    assert swapped.realized  # the reshape shared its buffer


def test_strided_and_offset_views():
    big_q, big_k, big_v = rand(4, 9, 12), rand(4, 14, 10), rand(3, 4, 14, 6)
    q, k, v = big_q[1:, ::2, 2:10], big_k[1:, :, 1:9], big_v[2, 1:, :, ::2]
    out = sdpa(kd.asarray(big_q)[1:, ::2, 2:10], kd.asarray(big_k)[1:, :, 1:9], kd.asarray(big_v)[2, 1:, :, ::2])
    assert kernels(out) == ["Attention"]
    check(out, want(q, k, v))


def test_inf_and_nan_inputs():
    q, k, v = rand(2, 4, 4), rand(2, 6, 4), rand(2, 6, 4)
    q[0, 1, 2] = np.nan  # one NaN score row
    q[1, 2, :] = np.inf  # +inf scores: inf - inf in the softmax, NaN as in NumPy
    k[1, 3, 0] = -np.inf  # -inf scores (or NaN ones, for the inf row)
    v[0, 5, 1] = np.inf  # 0 * inf where a weight underflows: NaN, as the matmul
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    assert kernels(out) == ["Attention"]
    expected = want(q, k, v)
    assert np.isnan(expected).any()
    check(out, expected)


def test_empty_batch_keeps_the_composite_path():
    q, k, v = rand(0, 2, 5, 4), rand(0, 2, 6, 4), rand(0, 2, 6, 3)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    assert out.shape == (0, 2, 5, 3) and "Attention" not in kernels(out)
    assert out.numpy().shape == (0, 2, 5, 3)


@pytest.mark.parametrize("case", ["e129", "float64", "dropout", "int_mask"])
def test_what_does_not_fit_keeps_the_composite_path_bit_for_bit(case):
    e = 129 if case == "e129" else 8
    dtype = np.float64 if case == "float64" else np.float32
    q, k, v = rand(2, 5, e, dtype=dtype), rand(2, 6, e, dtype=dtype), rand(2, 6, 3, dtype=dtype)
    a = [kd.asarray(x) for x in (q, k, v)]
    mask = kd.asarray(RNG.integers(0, 2, (5, 6)).astype(np.int32)) if case == "int_mask" else None
    p = 0.5 if case == "dropout" else 0.0
    out = sdpa(*a, mask, dropout_p=p, dropout_key=7)
    assert "Attention" not in kernels(out)
    # the composite path is the four ops it always was
    scores = kd.matmul(a[0] * (1.0 / math.sqrt(e)), kd.swapaxes(a[1], -1, -2))
    scores = scores + mask if mask is not None else scores
    weights = kd.nn.softmax(scores, axis=-1)
    if p:
        weights = kd.nn.dropout(weights, p, True, 7)
    assert np.array_equal(out.numpy(), kd.matmul(weights.astype(a[2].dtype), a[2]).numpy())


def test_plan_reads_the_device_and_refuses_what_does_not_fit():
    dev = kd.device()
    rows, block = fused_plan((768,), 128, 128, 32, 32, dev)
    assert rows <= 64 and shared_bytes(block, 32, 32) <= dev.max_shared_memory
    assert shared_bytes(32, 128, 128) == 32 * (64 * 16 + 4)
    assert fused_plan((2,), 4, 10**6, 32, 32, dev) is None  # past the loop budget of one invocation
    assert fused_plan((2,), 4, 8, 129, 32, dev) is None and fused_plan((2,), 4, 8, 32, 129, dev) is None
    assert fused_plan((0,), 4, 8, 32, 32, dev) is None


def test_one_kernel_under_jit_and_its_profile_name():
    q, k, v = (kd.asarray(rand(2, 3, 16, 8)) for _ in range(3))
    mask = kd.asarray(RNG.random((2, 1, 1, 16)) > 0.2)
    f = kd.jit(lambda q, k, v, m: sdpa(q, k, v, m))
    first = f(q, k, v, mask).numpy()
    with kd.profile() as prof:
        second = f(q, k, v, mask).numpy()
    assert np.array_equal(first, second, equal_nan=True)
    names = [name for name, _, _ in prof.rows()]
    assert len(names) == 1 and names[0].startswith("Attention (fused sdpa) batch=6 L=16 S=16 E=8 Ev=8 bool mask")
    assert "Attention (fused sdpa)" in describe(schedule([sdpa(q, k, v)._node])[0].kernel)


def _loss(q, k, v):
    out = sdpa(q, k, v, is_causal=True)
    return (out * kd.arange(out.size, dtype=kd.float32).reshape(out.shape) / 100).sum()


def test_gradients_take_the_composite_path():
    q, k, v = (kd.asarray(rand(2, 5, 4)) for _ in range(3))
    seen = []
    original = kd._fused_attention

    def spy(*args):
        seen.append(original(*args))
        return seen[-1]

    kd._fused_attention = spy
    try:
        kd.grad(_loss, argnums=(0, 1, 2))(q, k, v)
    finally:
        kd._fused_attention = original
    assert seen == [None]


@pytest.mark.parametrize("kind", ["causal", "bool", "additive"])
def test_gradients_through_the_fused_node_match_the_composite_path(monkeypatch, kind):
    q, k, v = kd.asarray(rand(2, 5, 4)), kd.asarray(rand(2, 7, 4)), kd.asarray(rand(2, 7, 3))
    mask = None if kind == "causal" else kd.asarray(RNG.random((2, 1, 7)) > 0.3) if kind == "bool" else \
        kd.asarray(rand(5, 7))
    weights = kd.asarray(rand(2, 5, 3))

    def loss(q, k, v, m=mask):
        return (sdpa(q, k, v, m, is_causal=kind == "causal") * weights).sum()

    args = (q, k, v) if kind != "additive" else (q, k, v, mask)
    argnums = tuple(range(len(args)))
    composite = kd.grad(loss, argnums=argnums)(*args)
    monkeypatch.setattr(fused_module, "FUSED_UNDER_GRAD", True)
    taken = []
    monkeypatch.setattr(kd, "_fused_attention", lambda *a: taken.append(fused_module.fused_attention(*a)) or taken[-1])
    fused = kd.grad(loss, argnums=argnums)(*args)
    assert taken and taken[0] is not None  # the fused node was on the tape
    for a, b in zip(fused, composite, strict=True):
        np.testing.assert_allclose(a.numpy(), b.numpy(), rtol=1e-5, atol=1e-6)
    # and against central differences of the fused forward
    eps, host = 1e-2, q.numpy().astype(np.float64)
    for idx in [(0, 1, 2), (1, 4, 0)]:
        up, down = host.copy(), host.copy()
        up[idx] += eps
        down[idx] -= eps
        f_up = float(loss(kd.asarray(up.astype(np.float32)), k, v).numpy())
        f_down = float(loss(kd.asarray(down.astype(np.float32)), k, v).numpy())
        assert abs((f_up - f_down) / (2 * eps) - float(fused[0].numpy()[idx])) < 2e-3


def test_small_shared_memory_gives_smaller_key_blocks(monkeypatch):
    dev = kd.device()
    monkeypatch.setattr(dev, "max_shared_memory", 16384)  # Vulkan's guaranteed minimum
    assert fused_plan((2,), 9, 65, 128, 128, dev) == (32, 8)
    monkeypatch.setattr(dev, "max_shared_memory", 1024)
    assert fused_plan((2,), 9, 65, 128, 128, dev) is None  # not even one key fits: the composite path
    monkeypatch.setattr(dev, "max_shared_memory", 16384)
    q, k, v = rand(2, 9, 128), rand(2, 65, 128), rand(2, 65, 128)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v), is_causal=True)
    steps = schedule([out._node])
    assert [type(s.kernel).__name__ for s in steps] == ["Attention"] and steps[0].kernel.block == 8
    check(out, want(q, k, v, causal=True))


def test_random_operands_are_stored_first_to_keep_the_loop_budget():
    # Philox loops 10 rounds per element: inlined into the key loads of 30 000 keys it would pass the budget
    q = kd.random.normal(size=(1, 2, 4), dtype=kd.float32)
    k = kd.random.normal(size=(1, 30000, 4), dtype=kd.float32)
    v = kd.asarray(np.full((1, 30000, 4), 2.0, np.float32))
    out = sdpa(q, k, v)
    assert kernels(out) == ["Elementwise", "Elementwise", "Attention"]
    np.testing.assert_allclose(out.numpy(), 2.0, rtol=1e-6)


def test_keys_past_the_loop_budget_take_the_composite_path():
    s = 70000  # past what one invocation may loop over (Device.loop_budget)
    assert fused_plan((1,), 2, s, 1, 1, kd.device()) is None
    q, k, v = rand(1, 2, 1), rand(1, s, 1), rand(1, s, 1)
    out = sdpa(kd.asarray(q), kd.asarray(k), kd.asarray(v))
    assert "Attention" not in kernels(out)
    check(out, want(q, k, v), tol=1e-4)
