"""The LSD radix sort (kdsl/codegen/radix.py) against NumPy's stable sort: every dtype, batched lines of several
lengths, NaN/inf/-0.0, duplicates, empty and size-1 lines, non-contiguous views, descending keys (topk), and both
tile kinds (one invocation per tile on CPU drivers, one workgroup per tile on GPUs, forced here on lavapipe)."""


import numpy as np
import pytest
from sort_testing import ALL_DTYPES, assert_same, force_sort, sample

import kdsl as kd
from kdsl.codegen.radix_keys import radix_key, radix_passes
from kdsl.engine import programs
from kdsl.engine import sorting as engine_sorting
from kdsl.engine.schedule import schedule
from kdsl.ir.sort_kernels import RadixPass

KINDS = [True, False]  # private tiles (CPU drivers), workgroup tiles (GPUs)


# The digit of each dtype is the same code in both tile kinds; the workgroup kind (each variant ~5 s to compile
# on lavapipe) runs for one dtype of each record layout: a one-pass key, one raw word, two raw words.
@pytest.mark.parametrize(("dtype", "private"), [(d, True) for d in ALL_DTYPES]
                         + [("int8", False), ("float32", False), ("float64", False)])
def test_every_dtype_matches_numpy(dtype, private, monkeypatch):
    force_sort(monkeypatch, "radix", private)
    a = sample((3, 700), dtype, seed=11)
    x = kd.asarray(a)
    assert_same(kd.argsort(x, axis=1).numpy(), np.argsort(a, axis=1, kind="stable"))
    assert_same(kd.sort(x, axis=1).numpy(), np.sort(a, axis=1, kind="stable"))


@pytest.mark.parametrize("private", KINDS)
@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (5, 1), (4, 0), (20, 3), (2, 5000)])
def test_line_lengths_and_batches(shape, private, monkeypatch):
    force_sort(monkeypatch, "radix", private)
    a = sample(shape, "float32", seed=12)
    x = kd.asarray(a)
    assert_same(kd.argsort(x).numpy(), np.argsort(a, axis=-1, kind="stable"))
    assert_same(kd.sort(x).numpy(), np.sort(a, axis=-1, kind="stable"))


def test_many_tiles_and_a_scan_of_several_blocks(monkeypatch):
    """260 workgroup tiles of 16 digit counts: the counts' scan runs over two blocks of 4 096."""
    force_sort(monkeypatch, "radix", False)
    a = sample((260, 3), "int8", seed=13)
    assert_same(kd.argsort(kd.asarray(a)).numpy(), np.argsort(a, axis=-1, kind="stable"))


def test_special_floats_views_and_other_axes(monkeypatch):
    force_sort(monkeypatch, "radix")
    a = np.array([0.0, np.nan, -0.0, -np.inf, 1.0, np.inf, -0.0, np.nan, 0.0, -1.0], np.float32)
    assert kd.argsort(kd.asarray(a)).tolist() == [3, 9, 0, 2, 6, 8, 4, 5, 1, 7]  # -0.0 == 0.0: stable
    assert_same(kd.sort(kd.asarray(a)).numpy(), np.sort(a, kind="stable"))  # the zeros keep their signs
    b = sample((40, 30), "float32", seed=14)
    y = kd.asarray(b)
    assert_same(kd.argsort(y[::3, 1::2], axis=0).numpy(), np.argsort(b[::3, 1::2], axis=0, kind="stable"))
    assert_same(kd.sort(y.T * -2, axis=1).numpy(), np.sort(b.T * -2, axis=1, kind="stable"))


@pytest.mark.parametrize("private", KINDS)
def test_descending_keys_give_topk(private, monkeypatch):
    force_sort(monkeypatch, "radix", private)
    a = sample((2, 900), "float16", seed=15)
    values, indices = kd.topk(kd.asarray(a), 900, axis=1)
    want = np.argsort(-np.nan_to_num(a.astype(np.float64), nan=np.inf), axis=1, kind="stable")
    assert_same(indices.numpy(), want)
    assert_same(values.numpy(), np.take_along_axis(a, want, axis=1))


def test_functions_built_on_sort(monkeypatch):
    force_sort(monkeypatch, "radix")
    a = sample((3, 101), "int16", seed=16)
    x = kd.asarray(a)
    np.testing.assert_array_equal(kd.median(x, axis=1).numpy(), np.median(a, axis=1))
    np.testing.assert_array_equal(kd.unique(x).numpy(), np.unique(a))
    assert_same(kd.argpartition(x, 5).numpy(), np.argsort(a, axis=-1, kind="stable"))


def test_long_lines_take_the_radix_sort_and_short_ones_the_bitonic_sort():
    long_line = kd.asarray(np.zeros(1 << 16, np.float32))
    kinds = {type(s.kernel).__name__ for s in schedule([kd.sort(long_line)._node])}
    assert "RadixKeys" in kinds and "SortMerge" not in kinds
    short = kd.asarray(np.zeros((8, 100), np.float32))
    assert "SortKeys" in {type(s.kernel).__name__ for s in schedule([kd.sort(short)._node])}


def test_a_line_past_the_loop_cap_and_the_plan_cache(monkeypatch):
    """70 000 elements in one line: no invocation loops past lavapipe's cap; a cached plan sorts right again."""
    force_sort(monkeypatch, "radix")
    a = np.random.default_rng(17).standard_normal(70000).astype(np.float32)
    x = kd.asarray(a)
    for k in (1, 2):
        assert_same(kd.argsort(x * k).numpy(), np.argsort(a * np.float32(k), kind="stable"))


def test_keys_and_passes():
    assert [radix_passes(kd.dtype.as_dtype(d)) for d in ("bool", "int8", "float16", "int32", "uint64")] == \
        [1, 1, 2, 4, 8]
    lines, names, bits = radix_key(kd.dtype.uint16, "v", "k", True)
    assert names == ["k0"] and bits == 16 and lines[-1] == "k0 = ~k0 & 65535u;"
    assert engine_sorting.uses_radix(kd.device(), 1 << 20)


@pytest.mark.parametrize("private", KINDS)
@pytest.mark.parametrize("n", [4095, 4096, 4097, 8192 + 3])
def test_tile_boundaries(n, private, monkeypatch):
    """Lines just under, at and over a tile of 4 096 records, and several tiles with a partial last one."""
    force_sort(monkeypatch, "radix", private)
    a = sample((n,), "float32", seed=n)
    x = kd.asarray(a)
    assert_same(kd.argsort(x).numpy(), np.argsort(a, kind="stable"))
    assert_same(kd.sort(x).numpy(), np.sort(a, kind="stable"))


# workgroup tiles for one two-word dtype only: lavapipe takes ~10 s to compile each unrolled workgroup scatter
@pytest.mark.parametrize(("dtype", "private"), [("int64", False), ("int64", True), ("uint64", True),
                                                ("float64", True), ("int32", True), ("uint32", True)])
def test_full_range_keys_over_several_tiles(dtype, private, monkeypatch):
    """Every byte of the key varies (each pass moves records), two-word keys switch words mid-sort."""
    force_sort(monkeypatch, "radix", private)
    if not kd.device().supports(kd.dtype.as_dtype(dtype)):
        pytest.skip(f"{dtype} is not supported by this device")
    rng = np.random.default_rng(21)
    if dtype == "float64":
        a = rng.standard_normal(5000) * 10.0 ** rng.integers(-30, 30, 5000)
        a[::97] = a[3]  # duplicates: stability shows in the argsort
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, 5000, dtype=dtype, endpoint=True)
        a[::89] = a[5]
    x = kd.asarray(a)
    assert_same(kd.argsort(x).numpy(), np.argsort(a, kind="stable"))
    assert_same(kd.sort(x).numpy(), np.sort(a, kind="stable"))
    reverse = -a if dtype == "float64" else ~a  # ~ reverses the order of ints exactly (no overflow)
    assert_same(kd.argsort(x, descending=True).numpy(), np.argsort(reverse, kind="stable"))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_sort_keeps_every_bit(dtype, monkeypatch):
    """A sort decodes the sorted raw bits: each zero keeps its sign and each NaN its payload and sign, in the
    stable order (NumPy's stable sort gives exactly these bits)."""
    force_sort(monkeypatch, "radix")
    if not kd.device().supports(kd.dtype.as_dtype(dtype)):
        pytest.skip(f"{dtype} is not supported by this device")
    d = np.dtype(dtype)
    u = np.dtype(f"u{d.itemsize}")
    exp = {2: 0x7C00, 4: 0x7F800000, 8: 0x7FF0000000000000}[d.itemsize]
    sign = 1 << (8 * d.itemsize - 1)
    nans = np.array([exp | 1, exp | 5, sign | exp | 3, exp | (exp >> 1)], u).view(d)  # payloads and signs
    a = np.tile(np.concatenate([nans, np.array([-0.0, 0.0, -1.5, np.inf, -np.inf, 2.0], d)]), 300)
    np.random.default_rng(22).shuffle(a)
    got = kd.sort(kd.asarray(a)).numpy()
    assert got.view(u).tobytes() == np.sort(a, kind="stable").view(u).tobytes()


def test_a_repeated_sort_replays_its_recorded_batch(monkeypatch):
    """Every temporary is allocated once per sort and reused by every pass: the second identical sort binds
    the same buffers (from the pool) and replays the recorded command buffer. (At the end of a long run the
    pool is full of other tests' sizes and lets go of those: test_engine_caches checks that case.)"""
    force_sort(monkeypatch, "radix")
    x = kd.asarray(sample((5000,), "float32", seed=23))
    for _ in range(3):
        kd.realize(kd.argsort(x))
    before = dict(programs.stats)
    kd.realize(kd.argsort(x))
    assert programs.stats["replays"] == before["replays"] + 1
    assert programs.stats["programs"] == before["programs"]


def test_workgroup_tiles_with_and_without_subgroup_scans(scan_path, monkeypatch):
    """The workgroup scatter's scans use subgroup arithmetic where the device has it (in the order subgroup,
    lane: right for any subgroup size) and shared memory otherwise; both sort the same."""
    force_sort(monkeypatch, "radix", False)
    a = sample((3, 700), "float32", seed=24)
    x = kd.asarray(a)
    passes = [s.kernel for s in schedule([kd.argsort(x, axis=1)._node]) if isinstance(s.kernel, RadixPass)]
    assert {k.subgroups for k in passes if k.phase == "scatter"} == {scan_path == "subgroups"}
    assert_same(kd.argsort(x, axis=1).numpy(), np.argsort(a, axis=1, kind="stable"))
    assert_same(kd.sort(x, axis=1).numpy(), np.sort(a, axis=1, kind="stable"))
