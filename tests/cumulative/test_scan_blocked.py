"""The register-blocked subgroup scan (kdsl.codegen.scan_blocked) against NumPy: lengths around its tiles and its
rows of four (not multiples of 4 too), every row count, four-at-a-time loads (vec4, 8-bit words) and the scalar
loads of views they cannot take, several lines, compaction of masks and values."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.codegen import scan_blocked
from kdsl.codegen.scan import render
from kdsl.engine.explain import plan

RNG = np.random.default_rng(91)


@pytest.fixture(autouse=True)
def _subgroups():
    if not kd.device().scan_subgroups:
        pytest.skip("this device has no subgroup arithmetic in compute shaders")


def _blocked(x):
    return [s.kernel for s in plan(x) if type(s.kernel).__name__ == "Scan" and s.kernel.blocked]


def test_contiguous_lines_take_it_with_wide_loads():
    x = kd.cumsum(kd.asarray(np.ones(5000, np.float32)))
    kernels = _blocked(x)
    assert len(kernels) == 2 and {k.phase for k in kernels} == {"sums", "scan"}
    text = render(kernels[-1])
    assert "vec4 v0 = b1v.d[" in text and "b0v.d[" in text and "s_d" not in text
    np.testing.assert_allclose(x.numpy(), np.arange(1, 5001), rtol=1e-6)
    m = kd.asarray(RNG.random(5000) < 0.5)
    y = kd.flatnonzero(m)
    compact = [k for k in _blocked(y) if k.phase == "compact"]
    assert compact and "uint v0 = b1v.d[" in render(compact[0])
    np.testing.assert_array_equal(y.numpy(), np.flatnonzero(m.numpy()))


@pytest.mark.parametrize("rows", [1, 2, 8])
@pytest.mark.parametrize("n", [1, 3, 4, 5, 1023, 1025, 4095, 4097, 8193, 70001])
def test_rows_and_lengths(monkeypatch, rows, n):
    monkeypatch.setattr(scan_blocked, "ROWS", rows)
    a = RNG.integers(-50, 50, n).astype(np.int32)
    x = kd.cumsum(kd.asarray(a), dtype=kd.int32)
    if n > 32:  # (shorter lines: one invocation each)
        kernels = _blocked(x)
        assert kernels and max(k.per for k in kernels) == 4 * scan_blocked.rows_for(n)
    np.testing.assert_array_equal(x.numpy(), np.cumsum(a, dtype=np.int32))
    f = RNG.standard_normal(n).astype(np.float32)
    np.testing.assert_allclose(kd.cumsum(kd.asarray(f)).numpy(), np.cumsum(f.astype(np.float64)), rtol=1e-4,
                               atol=1e-4 * np.sqrt(n))
    m = RNG.random(n) < 0.3  # compactions take the blocked kernel at every length
    np.testing.assert_array_equal(kd.asarray(f)[kd.asarray(m)].numpy(), f[m])
    np.testing.assert_array_equal(kd.flatnonzero(kd.asarray(m)).numpy(), np.flatnonzero(m))


@pytest.mark.parametrize("dtype", ["int8", "uint8", "bool", "uint32", "int64", "float64"])
def test_byte_words_and_other_dtypes(dtype):
    n = 10003
    a = (RNG.random(n) < 0.5) if dtype == "bool" else RNG.integers(0 if dtype[0] in "ub" else -128, 127, n).astype(
        dtype)
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a)).numpy(), np.cumsum(a))
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a)[4:]).numpy(), np.cumsum(a[4:]))  # wide, an offset
    np.testing.assert_array_equal(kd.cumsum(kd.asarray(a)[1:]).numpy(), np.cumsum(a[1:]))  # scalar loads


def test_views_and_lines():
    a = RNG.integers(-9, 10, (3, 8200)).astype(np.int32)
    x = kd.asarray(a)
    for view, host in [(x[:, 4:], a[:, 4:]), (x[:, 1:], a[:, 1:]), (x[:, ::2], a[:, ::2]), (x[::-1], a[::-1]),
                       (x[1:, :4099], a[1:, :4099])]:
        got = kd.cumsum(view, axis=1)
        assert _blocked(got)
        np.testing.assert_array_equal(got.numpy(), np.cumsum(host, axis=1))
    many = RNG.integers(-9, 10, (1500, 1030)).astype(np.int32)  # more lines than workgroups: grid-stride
    got = kd.cumsum(kd.asarray(many), axis=1, dtype=kd.int32)
    assert _blocked(got)
    np.testing.assert_array_equal(got.numpy(), np.cumsum(many, axis=1, dtype=np.int32))
    np.testing.assert_array_equal(kd.cumprod(kd.where(x > 0, 1, -1), axis=1).numpy(),
                                  np.cumprod(np.where(a > 0, 1, -1), axis=1))


@pytest.mark.parametrize("dtype", ["float64", "int64", "int16"])
def test_axes_of_length_one_after_the_scanned_axis(dtype):
    """``cumsum(axis=0)`` of an ``(n, 1)`` column (``x.reshape(-1, 1)``, ``x[:, None]``): the blocked kernel's
    element-by-element loads (types it does not read four at a time) put the line's index where the scanned
    axis is, and those views' stride 0 on the length-1 axis made every element the first (x[0] * (i + 1))."""
    a = RNG.integers(-9, 10, (9000, 1)).astype(dtype)  # two tiles: the carry between them too
    got = kd.cumsum(kd.asarray(a), axis=0)
    assert _blocked(got)
    np.testing.assert_array_equal(got.numpy(), np.cumsum(a, axis=0))
    b = a.reshape(3, 3000, 1, 1)
    np.testing.assert_array_equal(kd.cumprod(kd.asarray(b) % 3 - 1, axis=1).numpy(), np.cumprod(b % 3 - 1, axis=1))


def test_compaction_views_and_values():
    n = 2**16 + 3
    f = RNG.standard_normal(n).astype(np.float32)
    b = RNG.integers(-100, 100, n).astype(np.int8)
    x, y = kd.asarray(f), kd.asarray(b)
    np.testing.assert_array_equal(x[x > 0.5].numpy(), f[f > 0.5])
    np.testing.assert_array_equal(y[4:][x[4:] < 0].numpy(), b[4:][f[4:] < 0])
    got = kd.flatnonzero(y[1:])
    # flags read one at a time (an unaligned int8 view): the shared-memory kernel compacts (the blocked one was
    # wrong here on an H200; lavapipe's subgroups did not show it)
    assert not [k for k in _blocked(got) if k.phase == "compact"]
    np.testing.assert_array_equal(got.numpy(), np.flatnonzero(b[1:]))
    np.testing.assert_array_equal(kd.flatnonzero(x[::3] > 0).numpy(), np.flatnonzero(f[::3] > 0))
    assert kd.flatnonzero(kd.asarray(np.zeros(0, bool))).numpy().shape == (0,)
    assert kd.cumsum(kd.asarray(np.zeros((2, 0), np.float32)), axis=1).numpy().shape == (2, 0)


def test_many_tiles_per_workgroup(monkeypatch):
    dev = kd.device()
    monkeypatch.setattr(dev, "loop_budget", 2000)
    monkeypatch.setattr(dev, "max_groups", 3)
    a = RNG.integers(-9, 10, 100001).astype(np.int32)
    x = kd.cumsum(kd.asarray(a))
    assert any(k.groups * k.per * 256 < 100001 for k in _blocked(x))
    np.testing.assert_array_equal(x.numpy(), np.cumsum(a))
    m = a > 0
    np.testing.assert_array_equal(kd.asarray(a)[kd.asarray(m)].numpy(), a[m])
    got = kd.flatnonzero(kd.asarray(m))  # positions through shared memory, reused tile after tile
    assert [k for k in _blocked(got) if k.phase == "compact" and k.stage and k.groups * k.per * 256 < 100001]
    np.testing.assert_array_equal(got.numpy(), np.flatnonzero(m))


@pytest.mark.parametrize("stage", [True, False])
@pytest.mark.parametrize("density", [0.01, 0.5, 0.999])
def test_positions_staged_or_scattered(monkeypatch, stage, density):
    monkeypatch.setattr(scan_blocked, "STAGE_POSITIONS", stage)
    for n in (300, 4096, 3 * 4096 + 7):
        m = RNG.random(n) < density
        got = kd.flatnonzero(kd.asarray(m))
        if m.sum() not in (0, n):
            compact = [k for k in _blocked(got) if k.phase == "compact"]
            assert compact and compact[0].stage == stage and ("s_p[" in render(compact[0])) == stage
        np.testing.assert_array_equal(got.numpy(), np.flatnonzero(m))


@pytest.mark.parametrize("density", [0.05, 0.3, 0.9])
@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "float64"])
def test_dense_selections_read_the_values_with_the_flags(density, dtype):
    n = 3 * 4096 + 5
    a = (RNG.random(n) < 0.5) if dtype == "bool" else (RNG.standard_normal(n) * 50).astype(dtype)
    m = RNG.random(n) < density
    x, km = kd.asarray(a), kd.asarray(m)
    got = x[km]
    last = plan(got)[-1].kernel
    assert last.phase == "compact" and last.preload == (density >= scan_blocked.PRELOAD_DENSITY)
    assert ("kd_value(" in render(last)) == (last.preload and dtype != "float64")  # (64-bit: one at a time)
    np.testing.assert_array_equal(got.numpy(), a[m])
    np.testing.assert_array_equal(x[4:][km[4:]].numpy(), a[4:][m[4:]])
    np.testing.assert_array_equal(x[3:][km[3:]].numpy(), a[3:][m[3:]])


@pytest.mark.parametrize("lane_major", [True, False])
@pytest.mark.parametrize("n", [4096 * 3 + 5, 4096 * 8, 70001])
def test_mask_tile_counts_read_lane_major(monkeypatch, lane_major, n):
    """The tile counts of an 8-bit mask (a compaction's first pass) read each invocation's elements as one run;
    either order gives the same counts and the same compaction."""
    from kdsl import dtype as dt
    from kdsl.engine.lower_scan import compact_tile
    from kdsl.ir.graph import Node

    monkeypatch.setattr(scan_blocked, "SUMS_LANE_MAJOR", lane_major)
    host = RNG.random(n) < 0.3
    m = kd.asarray(host)
    tile = compact_tile(n, m.device)
    flags = kd.where(m != 0, 1, 0).astype(kd.int32)._node  # not held by an Array: fused into the counts' kernel
    tiles = kd.Array(Node("compact", (flags,), dt.int32, (-(-n // tile),), ("tiles", tile), device=m.device))
    sums = [k for k in _blocked(tiles) if k.phase == "sums"]
    assert sums and (f"int(lane) * {sums[0].per}" in render(sums[0])) == lane_major
    np.testing.assert_array_equal(tiles.numpy(), np.add.reduceat(host.astype(np.int32), np.arange(0, n, tile)))
    values = kd.asarray(RNG.random(n).astype(np.float32))
    np.testing.assert_array_equal(values[m].numpy(), values.numpy()[host])
