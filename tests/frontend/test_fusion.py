"""The scheduler's promises, counted: chains fuse into one kernel, producers fuse into reductions and
matmuls, shared intermediates are computed once, and a repeated graph compiles nothing new."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import fusion
from kdsl.runtime import compiler


def kernels_for(*arrays) -> int:
    before = kd.stats()["kernels"]
    kd.realize(*arrays)
    return kd.stats()["kernels"] - before


@pytest.fixture
def abc():
    rng = np.random.default_rng(0)
    return [kd.asarray(rng.uniform(0.5, 1.5, (16, 24)).astype(np.float32)) for _ in range(3)]


def test_ten_op_chain_is_one_kernel(abc):
    a, b, c = abc
    y = kd.sqrt(kd.abs(kd.sin(a) * b + c * 2 - a / b)) + kd.exp(-a) * kd.maximum(b, c) - 1.5
    assert kernels_for(y) == 1
    x = [v.numpy() for v in abc]
    expected = np.sqrt(np.abs(np.sin(x[0]) * x[1] + x[2] * 2 - x[0] / x[1])) + np.exp(-x[0]) * \
        np.maximum(x[1], x[2]) - 1.5
    np.testing.assert_allclose(y.numpy(), expected, rtol=1e-4, atol=1e-5)


def test_elementwise_fuses_into_reduction(abc):
    a, b, c = abc
    y = (a * b + c).sum(axis=1)
    assert kernels_for(y) == 1
    plan = kd.explain((a * b + c).sum(axis=1))  # (in an assert, pytest would hold a * b + c alive: stored)
    assert "kernel 0: Reduce" in plan


def test_mean_is_one_kernel(abc):
    a, _, _ = abc
    assert kernels_for(a.mean(axis=0)) == 1
    assert kernels_for((a * 3).mean()) == 1


def test_elementwise_fuses_into_matmul(abc):
    a, b, _ = abc
    y = (a * 2) @ kd.exp(b.T)
    assert kernels_for(y) == 1


def test_views_cost_nothing(abc):
    a, b, _ = abc
    y = a.T[::2, ::-1] * b.T[1::2].reshape(12, 16) + a[0, :16]
    assert kernels_for(y) == 1


def test_shared_intermediate_computed_once(abc):
    a, b, _ = abc
    t = kd.exp(a * b)
    s = t.sum(axis=1)
    u = t * 2
    # t is needed by two kernels (the reduction and u): materialised once, so 3 kernels, not 2 recomputations
    assert kernels_for(s, u) == 3
    np.testing.assert_allclose(u.numpy(), np.exp(a.numpy() * b.numpy()) * 2, rtol=1e-5)


def test_realized_result_is_reused(abc):
    a, b, _ = abc
    y = a * b
    assert kernels_for(y) == 1
    assert kernels_for(y + 1) == 1  # y is a buffer now: only the new op runs


def test_second_identical_expression_compiles_nothing(abc):
    a, b, c = abc
    (kd.sin(a) * b + c).sum(axis=0).numpy()
    before = dict(compiler.stats)
    programs = kd.stats()["programs"]
    for _ in range(3):
        (kd.sin(a) * b + c).sum(axis=0).numpy()
    assert compiler.stats["compiled"] == before["compiled"]
    assert kd.stats()["programs"] == programs


def test_python_scalars_do_not_change_the_kernel(abc):
    a, _, _ = abc
    (a * 0.5 + 1.0).numpy()
    programs = kd.stats()["programs"]
    for k in range(4):
        np.testing.assert_allclose((a * (0.1 * k) + k).numpy(), a.numpy() * np.float32(0.1 * k) + k, rtol=1e-6)
    assert kd.stats()["programs"] == programs


def test_same_kernel_twice_in_one_batch(abc):
    a, b, c = abc
    x, y = kd.sin(a) * b, kd.sin(c) * a
    assert kernels_for(x, y) == 2
    np.testing.assert_allclose(x.numpy(), np.sin(a.numpy()) * b.numpy(), rtol=1e-6)
    np.testing.assert_allclose(y.numpy(), np.sin(c.numpy()) * a.numpy(), rtol=1e-6)


def test_explain_and_dot(tmp_path, abc):
    a, b, _ = abc
    y = (a * b).sum(axis=1) / (a @ b.T).max()
    text = kd.explain(y, dot=str(tmp_path / "plan.dot"))
    assert "Matmul" in text and "Reduce" in text
    assert (tmp_path / "plan.dot").read_text().startswith("digraph")
    assert kd.explain(a) == "nothing to run: every array is already realised"


def test_debug_prints_kernels(abc, capsys, monkeypatch):
    a, _, _ = abc
    monkeypatch.setenv("KDSL_DEBUG", "1")
    (a * 1.25 - 17.0).numpy()
    out = capsys.readouterr().out
    assert "ms" in out and "[kdsl]" in out


def test_very_long_chain_is_cut_into_bounded_kernels():
    a = kd.asarray(np.ones(4, np.float32))
    y = a
    for _ in range(1200):  # one batch dispatching the same kernel structure on different buffers, each kernel
        y = y + 1.0  # as many scalars as the device's push space holds (none baked into the shader)
    budget = kd.device().max_push_words - fusion.PUSH_MARGIN
    # (cut every `budget` steps, where the scalars fill the push space: the loop's steps, kdsl.engine.periodic)
    assert kernels_for(y) == -(-1200 // budget)
    np.testing.assert_array_equal(y.numpy(), np.full(4, 1201, np.float32))


def test_replayed_batches_follow_new_data(abc):
    a, b, _ = abc
    before = kd.stats()["replays"]
    for k in range(4):
        y = a * float(k % 2) + b  # two push-constant values alternate: recorded batches are replayed
        np.testing.assert_allclose(y.numpy(), a.numpy() * (k % 2) + b.numpy(), rtol=1e-6)
    assert kd.stats()["replays"] > before


def test_vec4_kernels_match_scalar_ones(monkeypatch):
    """The vec4 elementwise path GPUs take, forced on whatever device runs the tests."""
    monkeypatch.setattr(kd.device(), "vector_width", 4)
    rng = np.random.default_rng(3)
    x = rng.uniform(-2, 2, (6, 8)).astype(np.float32)
    i = rng.integers(-50, 50, (6, 8)).astype(np.int32)
    a, b = kd.asarray(x), kd.asarray(i)
    y = kd.sin(a) * 2 + a[2, 3] - kd.sqrt(kd.abs(a))  # contiguous operands and one broadcast element
    z = (b * 3 + 1) // 2
    w = a[1:5] + 1  # offset 8: still aligned
    v = a.T * 1  # transposed: scalar path
    from kdsl.engine.plan import plan
    assert plan([y._node])[0].kernel.vec == 4 and plan([v._node])[0].kernel.vec == 1
    np.testing.assert_allclose(y.numpy(), np.sin(x) * 2 + x[2, 3] - np.sqrt(np.abs(x)), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(z.numpy(), (i * 3 + 1) // 2)
    np.testing.assert_allclose(w.numpy(), x[1:5] + 1)
    np.testing.assert_allclose(v.numpy(), x.T)


def test_vec4_kernels_of_float16(monkeypatch):
    """float16 lanes (four halves per uvec2, by their bits): NaN payloads and signs, -0.0, inf, subnormals,
    round-to-nearest-even from float32, a float16 broadcast element and mixed float16 / float32 operands."""
    monkeypatch.setattr(kd.device(), "vector_width", 4)
    rng = np.random.default_rng(4)
    h = rng.standard_normal((5, 8)).astype(np.float16)
    h.flat[:8] = np.array([0x7E01, 0xFE00, 0x8000, 0x7C00, 0xFC00, 0x0001, 0x83FF, 0x3C00], np.uint16).view(np.float16)
    f = rng.standard_normal((5, 8)).astype(np.float32)
    f.flat[:4] = [1 + 2.0 ** -11, 1 + 3 * 2.0 ** -11, 65520.0, 2.0 ** -25]  # ties to even, overflow, underflow
    a, b = kd.asarray(h), kd.asarray(f)
    from kdsl.engine.plan import plan
    with np.errstate(over="ignore"):
        cases = [(a * 1, h * np.float16(1)), (-a, -h), (a + a[1, 2], h + h[1, 2]),
                 (b.astype(kd.float16), f.astype(np.float16)), (a.astype(kd.float32) * b, h.astype(np.float32) * f)]
    for got, want in cases:
        assert plan([got._node])[0].kernel.vec == 4
        g = got.numpy()
        assert g.dtype == want.dtype
        nan = np.isnan(want)  # a NaN's sign and payload after arithmetic are the device's (docs/float-semantics.md)
        np.testing.assert_array_equal(np.isnan(g), nan)
        bits = np.uint16 if g.dtype == np.float16 else np.uint32
        np.testing.assert_array_equal(g[~nan].view(bits), want[~nan].view(bits))


def test_changing_scalars_compile_nothing_new():
    """A chain with more scalars than the push space holds, new values each call: nothing is baked into a
    shader, so the second call compiles nothing and replans nothing."""
    a = kd.asarray(np.ones(4, np.float32))

    def chain(k):
        y = a
        for i in range(200):
            y = y + float(i * k)
        return y.numpy()

    chain(1)
    before = kd.stats()
    got = chain(2)
    after = kd.stats()
    assert after["programs"] == before["programs"] and after["compiled"] == before["compiled"]
    np.testing.assert_allclose(got, np.full(4, 1 + 2 * sum(range(200)), np.float32))
