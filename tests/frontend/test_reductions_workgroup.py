"""Workgroup reductions (kdsl.codegen.reduce_workgroup) against NumPy on both combine paths: subgroup operations
and the shared-memory tree, under the GPU launch policy (workgroup trees and contiguous partial chunks) as
well as the device's own."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine.schedule import schedule

SIZES = [1, 7, 31, 32, 33, 1000, 4097]


@pytest.fixture(params=["subgroup", "tree"])
def path(request):
    """The device with its workgroup combine forced to one path, and GPU-like reduction plans (a workgroup
    tree per output or chunk, not the CPU driver's strided partials)."""
    dev = kd.device()
    if request.param == "subgroup" and not {"subgroup_arithmetic", "subgroup_shuffle"} <= dev.features:
        pytest.skip(f"{dev.name} has no subgroup arithmetic and shuffle in compute shaders")
    saved = dev.reduce_subgroup, dev.partials, dev.thread_outputs
    dev.reduce_subgroup = dev.subgroup_size if request.param == "subgroup" else 0
    dev.partials, dev.thread_outputs = 0, 65536
    yield request.param
    dev.reduce_subgroup, dev.partials, dev.thread_outputs = saved


def test_paths_render_what_they_say(path):
    x = kd.asarray(np.ones((3, 1000), np.float32))
    k = schedule([x.sum(axis=1)._node])[0].kernel
    assert k.mode == "group"
    from kdsl.codegen import reduce

    assert ("subgroupAdd" in reduce.render(k)) == (path == "subgroup")
    assert "vec4 u0" in reduce.render(k)  # rows of whole quads: 16-byte loads
    k = schedule([x[:, 1:].sum(axis=1)._node])[0].kernel
    assert "vec4 u0" not in reduce.render(k) and "acc3" in reduce.render(k)  # scalar loads, four accumulators


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min", "prod", "argmax", "argmin"])
def test_rows_and_full(path, n, op):
    rng = np.random.default_rng(n)
    x = rng.uniform(0.9, 1.1, (3, n)).astype(np.float32)
    a = kd.asarray(x)
    for axis in (None, 0, 1, -1):
        got, want = getattr(kd, op)(a, axis=axis).numpy(), getattr(np, op)(x, axis=axis)
        np.testing.assert_allclose(got, want, rtol=2e-5 if op != "prod" else 2e-4, err_msg=f"{op} axis={axis}")
    np.testing.assert_allclose(getattr(kd, op)(a, axis=1, keepdims=True).numpy(),
                               getattr(np, op)(x, axis=1, keepdims=True), rtol=2e-4)


@pytest.mark.parametrize("n", [2**20, 2**20 + 1])
@pytest.mark.parametrize("op", ["sum", "max", "min", "argmax"])
def test_long_full_reduction(path, op, n):
    """About 2**20 elements (vec4 loads when whole quads): contiguous chunks (partials) and a second pass; the
    sum stays pairwise-accurate."""
    x = np.random.default_rng(1).standard_normal(n).astype(np.float32) + 3
    got, want = getattr(kd, op)(kd.asarray(x)).numpy(), getattr(np, op)(x.astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_non_contiguous_views(path):
    x = np.random.default_rng(2).standard_normal((40, 301)).astype(np.float32)
    a = kd.asarray(x)
    np.testing.assert_allclose(a[::3, 1::2].sum(axis=1).numpy(), x[::3, 1::2].sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(a.T.max(axis=0).numpy(), x.T.max(axis=0))
    np.testing.assert_allclose(a[:, ::-1].min(axis=-1).numpy(), x[:, ::-1].min(axis=-1))
    np.testing.assert_allclose(a.T.sum(axis=1).numpy(), x.T.sum(axis=1), rtol=1e-5, atol=1e-5)


def test_nan_propagates(path):
    x = np.ones((4, 1000), np.float32)
    x[1, 777] = np.nan
    x[2, 0] = -np.inf
    x[3, 999] = np.nan
    a = kd.asarray(x)
    for op in ("max", "min", "sum", "argmax", "argmin"):
        np.testing.assert_array_equal(getattr(kd, op)(a, axis=1).numpy(), getattr(np, op)(x, axis=1), err_msg=op)
    assert np.isnan(kd.max(a).numpy()) and np.isnan(kd.min(a).numpy())


def test_float16_accumulates_in_float32(path):
    x = np.full((2, 4097), 0.1, np.float16)
    got = kd.sum(kd.asarray(x), axis=1).numpy()
    assert got.dtype == np.float16
    np.testing.assert_allclose(got, x.astype(np.float32).sum(axis=1), rtol=1e-3)  # float16 steps would stall at 256
    np.testing.assert_allclose(kd.mean(kd.asarray(x)).numpy(), 0.1, rtol=1e-3)


@pytest.mark.parametrize("dtype", ["int32", "uint8", "int8", "int64"])
def test_integer_accumulators_as_numpy(path, dtype):
    info = np.iinfo(dtype)
    x = np.full((3, 4097), info.max, dtype)
    for axis in (None, 1):
        got, want = kd.sum(kd.asarray(x), axis=axis).numpy(), np.sum(x, axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(kd.max(kd.asarray(x), axis=axis).numpy(), np.max(x, axis=axis))


def test_empty(path):
    x = np.zeros((3, 0), np.float32)
    np.testing.assert_array_equal(kd.sum(kd.asarray(x), axis=1).numpy(), np.sum(x, axis=1))
    np.testing.assert_array_equal(kd.prod(kd.asarray(x), axis=1).numpy(), np.prod(x, axis=1))
    assert kd.sum(kd.asarray(x)).numpy() == 0
    with pytest.raises(ValueError):
        kd.max(kd.asarray(x), axis=1)
    with pytest.raises(ValueError):
        kd.argmax(kd.asarray(x))
