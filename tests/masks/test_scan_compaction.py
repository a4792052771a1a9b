"""The fused compaction (one workgroup scan of a mask's flags writes positions or values to their slots) against
NumPy: lengths around the tile and subgroup boundaries, densities, value dtypes, views, both scan paths."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine.explain import plan

RNG = np.random.default_rng(91)
LENGTHS = [1, 7, 255, 256, 257, 1023, 1024, 1025, 2049, 65537]



@pytest.mark.parametrize("n", LENGTHS)
@pytest.mark.parametrize("density", [0.0, 0.02, 0.5, 1.0])
def test_positions_and_values(scan_path, n, density):
    m = RNG.random(n) < density
    x = RNG.standard_normal(n).astype(np.float32)
    km, kx = kd.asarray(m), kd.asarray(x)
    got = kd.flatnonzero(km).numpy()
    assert got.dtype == np.flatnonzero(m).dtype
    np.testing.assert_array_equal(got, np.flatnonzero(m))
    np.testing.assert_array_equal(kx[km].numpy(), x[m])


def test_one_fused_kernel_writes_the_values(scan_path):
    m, x = kd.asarray(RNG.random(5000) < 0.5), kd.asarray(RNG.standard_normal(5000).astype(np.float32))
    steps = plan(x[m])
    last = steps[-1].kernel
    assert type(last).__name__ == "Scan" and last.phase == "compact" and last.values is not None
    assert last.subgroups == (scan_path == "subgroups")
    assert not any(type(s.kernel).__name__ == "Gather" for s in steps)


def test_the_flags_are_never_written_out(scan_path):
    """The count and the scans each read the mask itself (1 byte per element): before, counting realised the
    int32 flags the scans then read back (4 bytes written and 12 read per element in all). The count is the sum
    of the flags' tile counts, which the compaction's scan then reads instead of counting the tiles again."""
    m, x = kd.asarray(RNG.random(5000) < 0.5), kd.asarray(RNG.standard_normal(5000).astype(np.float32))
    kd.realize(m, x)
    before = kd.stats()["kernels"]
    np.testing.assert_array_equal(x[m].numpy(), x.numpy()[m.numpy()])
    used = kd.stats()["kernels"] - before
    kinds = [(type(s.kernel).__name__, getattr(s.kernel, "phase", "")) for s in plan(x[m])]
    assert ("Elementwise", "") not in kinds and ("Scan", "sums") not in kinds
    assert used <= 2 + len(kinds)  # the tile counts and their sum, then the scans


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float64", "complex64"])
def test_value_dtypes(scan_path, dtype):
    n = 3000
    x = (RNG.standard_normal(n) * 50).astype(dtype) if dtype != "complex64" else \
        (RNG.standard_normal(n) + 1j * RNG.standard_normal(n)).astype(dtype)
    m = RNG.random(n) < 0.4
    got = kd.asarray(x)[kd.asarray(m)].numpy()
    assert got.dtype == x.dtype
    np.testing.assert_array_equal(got, x[m])


def test_views_expressions_and_nd(scan_path):
    a = RNG.standard_normal((40, 70)).astype(np.float32)
    x = kd.asarray(a)
    np.testing.assert_array_equal(x[x > 0.3].numpy(), a[a > 0.3])  # 2-D mask over the whole array
    np.testing.assert_array_equal(x.T[::-1][x.T[::-1] < 0].numpy(), a.T[::-1][a.T[::-1] < 0])
    sel = a[:, 3] > 0  # a mask over the leading axis: the rows gathered
    np.testing.assert_array_equal(x[kd.asarray(sel)].numpy(), a[sel])
    rows, cols = kd.nonzero(x[::3, 1::2] > 0.5)
    want = np.nonzero(a[::3, 1::2] > 0.5)
    np.testing.assert_array_equal(rows.numpy(), want[0])
    np.testing.assert_array_equal(cols.numpy(), want[1])
    np.testing.assert_array_equal(kd.extract(x % 0.5 > 0.2, x * 2).numpy(), np.extract(a % 0.5 > 0.2, a * 2))


def test_empty_and_nan(scan_path):
    assert kd.flatnonzero(kd.zeros(0)).numpy().shape == (0,)
    f = np.array([np.nan, 0.0, -0.0, 1.0, np.inf] * 100, np.float32)
    np.testing.assert_array_equal(kd.flatnonzero(kd.asarray(f)).numpy(), np.flatnonzero(f))


def test_many_tiles_per_workgroup(scan_path, monkeypatch):
    dev = kd.device()
    monkeypatch.setattr(dev, "loop_budget", 2000)
    monkeypatch.setattr(dev, "max_groups", 4)
    m = RNG.random(65537) < 0.5
    x = RNG.integers(-100, 100, 65537).astype(np.int32)
    np.testing.assert_array_equal(kd.asarray(x)[kd.asarray(m)].numpy(), x[m])
    np.testing.assert_array_equal(kd.flatnonzero(kd.asarray(m)).numpy(), np.flatnonzero(m))


def test_gradient_through_fused_mask():
    a = RNG.standard_normal(3000).astype(np.float32)
    m = kd.asarray(a > 0)
    g = kd.grad(lambda x: (x[m] * kd.arange(int(m.sum().numpy()), dtype=kd.float32)).sum())(kd.asarray(a))
    want = np.zeros(3000, np.float32)
    want[a > 0] = np.arange((a > 0).sum())
    np.testing.assert_array_equal(g.numpy(), want)
