"""Column reductions ("cols" mode: neighbouring invocations read neighbouring columns, lanes stride through
blocks of rows, partial blocks combined by a second column pass) against NumPy, under the device's own launch
policy and a GPU's (many workgroups, no strided CPU partials)."""

import warnings

import numpy as np
import pytest
from kd_testing import ALL_DTYPES, assert_match, sample

import kdsl as kd
from kdsl.codegen import reduce
from kdsl.engine import lower_reduce
from kdsl.engine.schedule import schedule
from kdsl.ir.kernels import Elementwise, Reduce


def kernels(*arrays):
    return [s.kernel for s in schedule([a._node for a in arrays])]


def test_modes(policy):
    x = kd.asarray(sample((20_000, 64), "float32", special=False))
    if kd.device().partials:  # a CPU driver folds fewer than CPU_FOLD rows in one invocation per output
        folds = [k for k in kernels(x.sum(axis=0)) + kernels(x.T @ kd.ones(20_000)) if isinstance(k, Reduce)]
        assert len(folds) >= 2 and all(k.mode == "thread" for k in folds)
        np.testing.assert_allclose(x.sum(axis=0).numpy(), x.numpy().sum(axis=0), rtol=1e-5)
        x = kd.asarray(sample((lower_reduce.CPU_FOLD + 1000, 64), "float32", special=False))  # long: tiles
        assert kernels(x.sum(axis=0))[0].mode == "cols"
        return
    first, second = kernels(x.sum(axis=0))
    assert first.mode == "cols" and first.splits > 1 and first.cols == 16  # 16 quads of columns
    assert "vec4 u3" in reduce.render(first)  # 16-byte loads, four rows in flight
    assert second.shape == (first.splits, 64) and second.axes == (0,)
    first = kernels((x * 2).sum(axis=0))[0]
    assert first.mode == "cols" and first.cols == 32 and "vec4" not in reduce.render(first)
    assert kernels(x.T.sum(axis=1))[0].mode == "cols"  # the same memory, read through a transpose
    assert kernels(x @ kd.ones(64))[0].mode != "cols"  # row sums: the reduced axis is the contiguous one
    assert kernels(x.T @ kd.ones(20_000))[0].mode == "cols"  # X.T @ dz: a product-sum over the rows
    assert kernels(x.sum())[0].mode != "cols"  # nothing kept
    assert kernels(x[:, :1].sum(axis=0))[0].mode != "cols"  # one column


def test_producers_fuse(policy):
    """Elementwise producers stay inside the first pass; the mean's division rides on the last."""
    x, w = kd.asarray(sample((3000, 20), "float32", special=False)), kd.asarray(sample(20, "float32", 1, special=False))
    ks = kernels((x * w).sum(axis=0))
    want = "thread" if kd.device().partials else "cols"  # (a CPU driver: 3000 rows fold in one invocation)
    assert not any(isinstance(k, Elementwise) for k in ks) and ks[0].mode == want
    assert ks[0].expr.op == "mul"
    m = x.mean(axis=0)
    ks = kernels(((x - m) ** 2).mean(axis=0))
    assert ks[-1].epilogue is not None and not any(isinstance(k, Elementwise) for k in ks)
    xn, wn = x.numpy(), w.numpy()
    np.testing.assert_allclose((x * w).sum(axis=0).numpy(), (xn * wn).sum(axis=0), rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(((x - m) ** 2).mean(axis=0).numpy(), xn.var(axis=0), rtol=1e-5)


@pytest.mark.parametrize("dtype", ALL_DTYPES)
def test_dtypes(policy, dtype):
    if not kd.device().supports(dtype):
        pytest.skip(f"{kd.device().name} has no {dtype}")
    h = sample((700, 37), dtype, seed=3, special=False, **({} if dtype == "bool" else {"low": 0, "high": 3}))
    a = kd.asarray(h)
    rtol = 2e-2 if dtype == "float16" else 2e-5  # NumPy sums float16 in float16
    for name in ("sum", "max", "min", "any", "all", "argmax", "argmin"):
        assert_match(getattr(kd, name)(a, axis=0), getattr(np, name)(h, axis=0), rtol=rtol, atol=1e-3)
    if dtype != "bool":
        assert_match(kd.mean(a, axis=0), np.mean(h, axis=0), rtol=rtol)
    if dtype in ("float32", "int32", "uint32"):  # whole quads of columns: 16-byte loads
        q = np.ascontiguousarray(h[:, :36])
        for name in ("max", "min"):
            assert_match(getattr(kd, name)(kd.asarray(q), axis=0), getattr(np, name)(q, axis=0))
        assert_match(kd.sum(kd.asarray(q), axis=0, dtype=dtype), np.sum(q, axis=0, dtype=dtype), rtol=rtol)
    # products: integers wrap as NumPy's (any order gives the same wrapped value); floats stay near 1
    p = h if h.dtype.kind in "biu" else sample((700, 37), dtype, seed=4, special=False, low=0.99, high=1.01)
    want = np.prod(p, axis=0) if dtype != "float16" else np.prod(p.astype(np.float64), axis=0).astype(p.dtype)
    assert_match(kd.prod(kd.asarray(p), axis=0), want, rtol=2e-3 if dtype == "float16" else 1e-4)  # NumPy
    # multiplies float16 in float16, rounding every step; kdsl carries float32 and rounds once


@pytest.mark.parametrize("shape, axis", [((40_000, 20), 0), ((1000, 1), 0), ((1, 1000), 0), ((0, 5), 0),
                                         ((5, 0), 0), ((300, 300), 0), ((2, 3000), 0), ((500, 4, 6), 0),
                                         ((500, 4, 6), (0, 1)), ((6, 500, 4), 1), ((3, 70, 5), (0, 1))])
def test_shapes(policy, shape, axis):
    h = sample(shape, "float32", seed=4, special=False, low=0.5, high=1.5)
    a = kd.asarray(h)
    for name in ("sum", "max", "mean", "std"):
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                want = getattr(np, name)(h, axis=axis, keepdims=True)
            except ValueError:  # max over an empty axis: no identity
                with pytest.raises(ValueError):
                    getattr(kd, name)(a, axis=axis, keepdims=True).numpy()
                continue
        assert_match(getattr(kd, name)(a, axis=axis, keepdims=True), want, rtol=2e-5, atol=1e-6)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.var(h, axis=axis, ddof=1)
    assert_match(kd.var(a, axis=axis, ddof=1), want, rtol=2e-5)


def test_views(policy):
    h = sample((900, 48), "float32", seed=5, special=False)
    a = kd.asarray(h)
    assert_match(a[::3, 1::2].sum(axis=0), h[::3, 1::2].sum(axis=0), rtol=1e-5, atol=1e-4)
    assert_match(a[::-1, ::-1].max(axis=0), h[::-1, ::-1].max(axis=0))
    assert_match(a.T.sum(axis=1), h.T.sum(axis=1), rtol=1e-5, atol=1e-4)
    assert_match(a[100:800, 5:40].min(axis=0), h[100:800, 5:40].min(axis=0))
    t = h.reshape(30, 30, 48).transpose(1, 0, 2)
    assert_match(a.reshape(30, 30, 48).transpose(1, 0, 2).sum(axis=(0, 1)), t.sum(axis=(0, 1)), rtol=1e-5, atol=1e-4)
    dz = sample(900, "float32", seed=6, special=False)
    assert_match(a.T @ kd.asarray(dz), h.T @ dz, rtol=1e-4, atol=1e-3)


def test_nan_inf_and_signed_zero(policy):
    h = sample((2000, 40), "float32", seed=7, special=False)
    h[1500, 3], h[7, 4], h[3, 5], h[4, 5] = np.nan, np.inf, np.inf, -np.inf
    h[:, 6] = -0.0
    a = kd.asarray(h)
    for name in ("sum", "max", "min", "mean", "prod", "argmax", "argmin"):
        with np.errstate(all="ignore"):
            want = getattr(np, name)(h, axis=0)
        assert_match(getattr(kd, name)(a, axis=0), want, rtol=1e-4, atol=1e-4)
    assert np.signbit(kd.max(a, axis=0).numpy()[6]) == np.signbit(h.max(axis=0)[6])


def test_complex(policy):
    h = (sample((900, 12), "float32", seed=8, special=False) + 1j * sample((900, 12), "float32", seed=9,
                                                                           special=False)).astype(np.complex64)
    a = kd.asarray(h)
    p = (np.exp(1j * sample((900, 12), "float32", seed=10, special=False) / 50)).astype(np.complex64)
    for got, want in ((a.sum(axis=0), h.sum(axis=0)), (a.mean(axis=0), h.mean(axis=0)),
                      (kd.asarray(p).prod(axis=0), p.prod(axis=0))):
        g = got.numpy()
        assert g.dtype == want.dtype
        np.testing.assert_allclose(g, want, rtol=1e-4, atol=1e-4)  # real and imaginary parts


def test_integer_overflow_wraps_as_numpy():
    big = np.full((3000, 8), 2**30 + 7, np.int32)
    a = kd.asarray(big)
    assert_match(a.sum(axis=0, dtype=kd.int32), big.sum(axis=0, dtype=np.int32))  # wraps in int32
    assert_match(a.sum(axis=0), big.sum(axis=0))  # int32 sums in int64, as NumPy's default
    u = np.full((2000, 5), 250, np.uint8)
    assert_match(kd.asarray(u).sum(axis=0), u.sum(axis=0))
    if kd.device().supports("int64"):
        w = np.full((1000, 3), 2**62 + 3, np.int64)
        assert_match(kd.asarray(w).sum(axis=0), w.sum(axis=0))  # wraps modulo 2**64
        assert_match(kd.asarray(w).prod(axis=0), w.prod(axis=0))


def test_long_columns_keep_every_loop_in_budget(policy):
    """Far more rows than one lane may loop over: the plan splits the rows until each lane's trips fit."""
    dev = kd.device()
    h = np.ones((300_000, 3), np.float32)
    ks = kernels(kd.asarray(h).sum(axis=0))
    for k in ks:
        assert isinstance(k, Reduce)
        if k.mode == "cols":
            lanes = 256 // k.cols
            assert -(-k.shape[0] // k.splits // lanes) <= dev.loop_budget
    assert_match(kd.asarray(h).sum(axis=0), h.sum(axis=0))


@pytest.fixture
def many_outputs():
    """A GPU's policy with "rows" mode from 1000 outputs (a GPU takes it from 65 536: small arrays here)."""
    dev = kd.device()
    saved = dev.partials, dev.thread_outputs
    dev.partials, dev.thread_outputs = 0, 1000
    yield
    dev.partials, dev.thread_outputs = saved


def test_rows_shorter_than_a_line_keep_one_invocation_each(many_outputs):
    k = kernels(kd.asarray(sample((1500, 31), "float32", special=False)).sum(axis=1))[0]
    assert k.mode == "thread"


@pytest.mark.parametrize("n", [32, 33, 64, 300])
def test_rows_mode(many_outputs, n):
    """Many short rows: the lanes of each output read neighbouring elements of its row."""
    h = sample((1500, n), "float32", seed=n, special=False)
    a = kd.asarray(h)
    k = kernels(a.sum(axis=1))[0]
    assert k.mode == "rows" and k.cols == 256 // min(32, 1 << ((n // 4).bit_length() - 1))
    w = sample(n, "float32", seed=1, special=False)
    assert kernels(a @ kd.asarray(w))[0].mode == "rows"  # X @ w of a logistic regression's forward pass
    assert kernels(a.T.sum(axis=0))[0].mode == "rows"  # the same memory through a transpose
    assert_match(a.sum(axis=1), h.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert_match(a @ kd.asarray(w), h @ w, rtol=1e-4, atol=1e-4)
    assert_match(a.T.max(axis=0, keepdims=True), h.T.max(axis=0, keepdims=True))
    assert_match(((a - 1) ** 2).mean(axis=1), ((h - 1) ** 2).mean(axis=1), rtol=1e-5)
    assert_match(a[:, ::-1].min(axis=1), h[:, ::-1].min(axis=1))
    assert_match(kd.argmax(a, axis=1), np.argmax(h, axis=1))  # argmax keeps its own path
    i = (h * 7).astype(np.int32)
    assert_match(kd.asarray(i).sum(axis=1, dtype=kd.int32), i.sum(axis=1, dtype=np.int32))
    assert_match(kd.asarray(i > 0).any(axis=1), (i > 0).any(axis=1))
    assert_match(kd.asarray(i > -20).all(axis=1), (i > -20).all(axis=1))


@pytest.mark.parametrize("n", [33, 64, 300])
def test_rows_mode_lanes_combined_by_subgroup_shuffles(many_outputs, monkeypatch, n):
    """Where reductions use subgroups (GPUs; forced here), a "rows" output's lanes are combined by a butterfly
    of shuffles, placed by subgroup (no shared-memory tree, no barrier), with the tree's results: sums, NaN-aware
    max/min, integer sums, and the fused epilogue of a logistic regression's forward pass."""
    dev = kd.device()
    if not {"subgroup_arithmetic", "subgroup_shuffle"} <= dev.features:
        pytest.skip("this device has no subgroup arithmetic and shuffle in compute shaders")
    monkeypatch.setattr(dev, "reduce_subgroup", max(1, dev.subgroup_size))
    h = sample((1500, n), "float32", seed=n, special=False)
    h[3, 5] = np.nan
    a = kd.asarray(h)
    k = kernels(a.sum(axis=1))[0]
    assert k.mode == "rows" and k.subgroup and "subgroupShuffleXor" in reduce.render(k)
    w = sample(n, "float32", seed=1, special=False)
    z = 1 / (1 + kd.exp(-(a @ kd.asarray(w) + 0.5)))
    assert_match(z, 1 / (1 + np.exp(-(h @ w + np.float32(0.5)))), rtol=1e-4, atol=1e-4)
    assert_match(a.sum(axis=1), h.sum(axis=1), rtol=1e-5, atol=1e-5)
    assert_match(a.max(axis=1), h.max(axis=1))
    assert_match(a[:, ::-1].min(axis=1), h[:, ::-1].min(axis=1))
    i = (np.nan_to_num(h) * 7).astype(np.int32)
    assert_match(kd.asarray(i).sum(axis=1, dtype=kd.int32), i.sum(axis=1, dtype=np.int32))
    assert_match(kd.asarray(i > 0).any(axis=1), (i > 0).any(axis=1))
