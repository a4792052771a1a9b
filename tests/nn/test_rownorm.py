"""Row normalisers as one kernel (kdsl.engine.rowfuse, kdsl.codegen.rownorm) against NumPy's formulas: softmax,
log_softmax, layer_norm, rms_norm and the plain NumPy-style softmax, on both workgroup-combine paths, with the
row in registers and re-read, and through jit and autodiff."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import rownorm
from kdsl.engine.schedule import schedule

LENGTHS = [1, 3, 100, 1024, 5000]


@pytest.fixture(params=["subgroup", "tree"])
def path(request):
    dev = kd.device()
    if request.param == "subgroup" and not {"subgroup_arithmetic", "subgroup_shuffle"} <= dev.features:
        pytest.skip(f"{dev.name} has no subgroup arithmetic and shuffle in compute shaders")
    saved = dev.reduce_subgroup
    dev.reduce_subgroup = dev.subgroup_size if request.param == "subgroup" else 0
    yield request.param
    dev.reduce_subgroup = saved


def np_softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def np_log_softmax(x):
    s = x - x.max(-1, keepdims=True)
    return s - np.log(np.exp(s).sum(-1, keepdims=True))


def np_layer_norm(x, w=None, b=None, eps=1e-5):
    m = x.mean(-1, keepdims=True)
    y = (x - m) / np.sqrt(((x - m) ** 2).mean(-1, keepdims=True) + eps)
    return y * (1 if w is None else w) + (0 if b is None else b)


def np_rms_norm(x, eps):
    return x / np.sqrt((x * x).mean(-1, keepdims=True) + eps)


def kd_plain_softmax(x):
    e = kd.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def kernels(a):
    return [type(s.kernel).__name__ for s in schedule([a._node])]


@pytest.mark.parametrize("n", LENGTHS)
def test_one_kernel_matches_numpy(path, n):
    rng = np.random.default_rng(n)
    x = (rng.standard_normal((3, n)) * 4).astype(np.float32)
    w, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    a = kd.asarray(x)
    eps = float(np.finfo(np.float32).eps)
    cases = [(kd.nn.softmax(a), np_softmax(x)), (kd_plain_softmax(a), np_softmax(x)),
             (kd.nn.log_softmax(a), np_log_softmax(x)), (kd.nn.layer_norm(a, n), np_layer_norm(x)),
             (kd.nn.layer_norm(a, n, kd.asarray(w), kd.asarray(b)), np_layer_norm(x, w, b)),
             (kd.nn.rms_norm(a, n), np_rms_norm(x, eps))]
    for k, (got, want) in enumerate(cases):
        assert kernels(got) == ["RowNorm"], k
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-4, atol=2e-5, err_msg=str(k))


def test_row_in_registers_and_re_read():
    """Short rows are cached in registers; rows past the cache re-read memory in each pass: both are right."""
    for n, cached in ((1000, True), (9000, False)):
        x = np.random.default_rng(n).standard_normal((2, n)).astype(np.float32)
        y = kd.nn.softmax(kd.asarray(x))
        k = schedule([y._node])[0].kernel
        assert (k.cache > 0) == cached
        assert rownorm.online_pairs(k) == {0}
        assert ("m_own0" in rownorm.render(k)) != cached  # re-read rows: max and sum in one online pass
        np.testing.assert_allclose(y.numpy(), np_softmax(x), rtol=1e-4, atol=1e-7)


def test_online_pass_special_rows(path):
    """The online max + sum of long rows agrees with max-then-sum on -inf, inf, NaN and huge values."""
    x = np.random.default_rng(9).standard_normal((7, 9000)).astype(np.float32) * 30
    x[0] = -np.inf
    x[1, :4000] = -np.inf
    x[2, 5] = np.inf
    x[3, 8999] = np.nan
    x[4] = 3e38
    x[5, ::7] = -3e38
    x[6, 300:] = -np.inf
    a = kd.asarray(x)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(kd.nn.softmax(a).numpy(), np_softmax(x), rtol=1e-4, atol=1e-7)
        np.testing.assert_allclose(kd.nn.log_softmax(a).numpy(), np_log_softmax(x), rtol=1e-4, atol=1e-4)


def test_thread_mode_rows():
    """Short rows get one invocation per row (no barriers, no idle invocations); so do many rows on a CPU
    driver, which pays for every barrier."""
    dev = kd.device()
    many = "thread" if dev.partials else "subgroup" if dev.reduce_subgroup else "group"
    for shape, mode in (((5, 64), "thread"), ((1100, 3), "thread"), ((dev.thread_outputs + 3, 70), many)):
        x = np.random.default_rng(shape[0]).standard_normal(shape).astype(np.float32)
        y = kd.nn.log_softmax(kd.asarray(x))
        assert schedule([y._node])[0].kernel.mode == mode
        np.testing.assert_allclose(y.numpy(), np_log_softmax(x), rtol=1e-5, atol=1e-6)


def test_special_rows(path):
    x = np.array([[-np.inf] * 5, [1e30, 1e30, 0, -1e30, 3], [np.nan, 1, 2, 3, 4], [88.0, 89, 90, 91, 92],
                  [-np.inf, 0, -np.inf, 1, -np.inf]], np.float32)
    a = kd.asarray(x)
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(kd.nn.softmax(a).numpy(), np_softmax(x), rtol=1e-5)
        np.testing.assert_allclose(kd.nn.log_softmax(a).numpy(), np_log_softmax(x), rtol=1e-5)
        np.testing.assert_allclose(kd.nn.layer_norm(a, 5).numpy()[3:4], np_layer_norm(x[3:4]), rtol=1e-4)


def test_shapes_views_and_dtypes(path):
    x = np.random.default_rng(3).standard_normal((2, 3, 40)).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(kd.nn.softmax(a).numpy(), np_softmax(x), rtol=1e-5, atol=1e-7)
    t = a.transpose(0, 2, 1)  # rows are strided
    np.testing.assert_allclose(kd.nn.softmax(t).numpy(), np_softmax(x.transpose(0, 2, 1)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(kd.nn.layer_norm(a[:, ::2, 1::3], 13).numpy(), np_layer_norm(x[:, ::2, 1::3]),
                               rtol=1e-4, atol=1e-5)
    h = x.astype(np.float16)
    got = kd.nn.softmax(kd.asarray(h)).numpy()
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, np_softmax(h.astype(np.float32)), rtol=2e-3, atol=1e-4)
    v = np.random.default_rng(4).standard_normal(7).astype(np.float32)  # one row, 1-d
    np.testing.assert_allclose(kd.nn.log_softmax(kd.asarray(v)).numpy(), np_log_softmax(v), rtol=1e-5)


def test_shared_intermediates_stay_stored():
    """When something else reads the row maximum, it is stored by its own kernel, and everything is right."""
    x = np.random.default_rng(5).standard_normal((4, 50)).astype(np.float32)
    a = kd.asarray(x)
    m = a.max(-1, keepdims=True)
    e = kd.exp(a - m)
    y, mm = e / e.sum(-1, keepdims=True), m * 2
    kd.realize(y, mm)
    np.testing.assert_allclose(y.numpy(), np_softmax(x), rtol=1e-5)
    np.testing.assert_allclose(mm.numpy(), 2 * x.max(-1, keepdims=True))


def test_loop_budget_falls_back():
    dev = kd.device()
    saved = dev.loop_budget
    dev.loop_budget = 100  # a 9000-long uncached row needs 36 trips a pass: too many for three passes
    try:
        x = np.random.default_rng(6).standard_normal((2, 9000)).astype(np.float32)
        y = kd.nn.softmax(kd.asarray(x))
        assert "RowNorm" not in kernels(y)
        np.testing.assert_allclose(y.numpy(), np_softmax(x), rtol=1e-4, atol=1e-7)
    finally:
        dev.loop_budget = saved


def test_jit_and_grad(path):
    x = np.random.default_rng(7).standard_normal((3, 20)).astype(np.float32)
    w = np.random.default_rng(8).standard_normal((3, 20)).astype(np.float32)
    f = kd.jit(lambda a: kd.nn.softmax(a))
    for _ in range(2):
        np.testing.assert_allclose(f(kd.asarray(x)).numpy(), np_softmax(x), rtol=1e-5)
    g = kd.grad(lambda a: kd.sum(kd.nn.softmax(a) * kd.asarray(w)))(kd.asarray(x)).numpy()
    s = np_softmax(x)
    np.testing.assert_allclose(g, s * (w - (s * w).sum(-1, keepdims=True)), rtol=1e-4, atol=1e-6)
    g = kd.grad(lambda a: kd.sum(kd.nn.log_softmax(a) * kd.asarray(w)))(kd.asarray(x)).numpy()
    np.testing.assert_allclose(g, w - s * w.sum(-1, keepdims=True), rtol=1e-4, atol=1e-6)


def test_stacked_residual_layers_each_get_one_row_kernel():
    """A transformer's pattern: each layer norm's input is also read by the next layer's matmul (stored, read
    from memory), so the walk from one norm must stop there and not swallow the layers below it."""
    rng = np.random.default_rng(12)
    x, w = rng.standard_normal((16, 64)).astype(np.float32), (rng.standard_normal((64, 64)) / 8).astype(np.float32)

    def layers(h, mm, norm):
        for _ in range(3):
            h = norm(h + mm(h, w))
        return h
    got = layers(kd.asarray(x), lambda a, b: a @ kd.asarray(b), lambda h: kd.nn.layer_norm(h, (64,)))
    assert kd.explain(got).count("RowNorm") == 3
    want = layers(x, lambda a, b: a @ b, np_layer_norm)
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-4, atol=1e-4)
