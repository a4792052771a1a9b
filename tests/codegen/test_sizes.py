"""Sizes past 2**31: index arithmetic stays correct (64-bit where it must, 32-bit where it can), or the size
is refused with a clear error before anything runs."""

import numpy as np
import pytest

import kdsl as kd
from kdsl import dtype as dt
from kdsl.codegen import elementwise, matmul, scan
from kdsl.codegen.loops import grid_loop
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise, Matmul, Scan
from kdsl.ir.view import View
from kdsl.runtime.compiler import compile_source


def test_arange_past_int32():
    got = kd.arange(0, 2**33, 2**31, dtype=kd.int64)
    np.testing.assert_array_equal(np.asarray(got), np.arange(0, 2**33, 2**31, dtype=np.int64))
    np.testing.assert_array_equal(np.asarray(kd.arange(-2**40, -2**40 + 5, 2, dtype=kd.int64)),
                                  np.arange(-2**40, -2**40 + 5, 2, dtype=np.int64))
    np.testing.assert_array_equal(np.asarray(kd.arange(5, 0, -1, dtype=kd.uint8)), np.arange(5, 0, -1, np.uint8))


def test_iota_of_a_long_axis_is_int64():
    from kdsl.frontend.array.creation import iota

    assert iota((2**31 + 8,), 0)._node.dtype is dt.int64
    assert iota((3, 2**31 - 1), 1)._node.dtype is dt.int32


# The two tests below reduce 2**31+ elements that are never stored (about 4 s each on lavapipe with 2 cores).

def test_sum_of_a_lazy_range_past_2_pow_31():
    """Every element's 64-bit position counts: the sum of 0 .. n-1 (it was wrong past 2**31: int counters)."""
    n = 2**31 + 8
    assert int(kd.arange(n, dtype=kd.int64).sum()) == n * (n - 1) // 2


def test_views_of_lazy_arrays_past_2_pow_31():
    """A few elements of a lazy array past 2**31 elements, read through a reshape and a slice: their positions are
    computed in 64 bits (they wrapped in int32 before)."""
    n = 2**31 + 8
    got = kd.arange(n, dtype=kd.int64).reshape(2, -1)[:, -3:] * 1  # * 1: computed, not read from a base array
    half = n // 2
    assert np.asarray(got).tolist() == [[half - 3, half - 2, half - 1], [n - 3, n - 2, n - 1]]
    assert int(kd.arange(n, dtype=kd.int64)[-1] + 0) == n - 1


def test_sum_of_ones_past_2_pow_32():
    """``kd.ones(2**32 + 8)`` used to fail in glslang (a literal past int32); ``2**31 + 8`` gave 0."""
    assert int(kd.ones(2**32 + 8, dtype=kd.int8).sum()) == 2**32 + 8


def test_index_width_of_the_plan():
    """2**31 - 1 elements: the last strided step passes int32, so positions count in 64 bits (the sum used to be
    4x too big); small reductions keep 32-bit arithmetic."""
    from kdsl.codegen import reduce_parts
    from kdsl.engine.schedule import schedule

    big = [s.kernel for s in schedule([kd.ones(2**31 - 1).sum()._node])]
    assert reduce_parts.needs_int64(big[0])
    small = [s.kernel for s in schedule([kd.ones(10**6).sum()._node])]
    assert not any(reduce_parts.needs_int64(k) for k in small)


def test_device_without_int64_refuses_long_reductions(monkeypatch):
    dev = kd.device()
    monkeypatch.setattr(dev, "features", dev.features - {dt.int64.feature})
    with pytest.raises(ValueError, match="64-bit integer positions"):
        kd.ones(2**31 + 24).sum().numpy()


def test_storing_past_2_pow_31_is_refused():
    with pytest.raises(ValueError, match="2\\*\\*31 elements"):
        (kd.ones(2**31 + 8, dtype=kd.int8) + 1).numpy()


def test_grid_loops_never_overflow():
    """A grid-stride counter whose last step would pass int32 counts in uint (or int64 past 2**31)."""
    assert "uint i_u" in grid_loop(2**31 - 100, 8, [])[0]
    assert "int64_t i" in grid_loop(2**31 + 100, 8, [])[0]
    k = Elementwise((2**31 - 100,), dt.int8, View.contiguous((2**31 - 100,)), ir.const(0, dt.int8), 1, 8)
    compile_source(elementwise.render(k))


def test_wide_views_compile():
    """A re-indexed view of a lazy expression past 2**31 elements computes its positions in 64 bits."""
    from kdsl.codegen import reduce
    from kdsl.ir.kernels import Reduce

    n = 2**31 + 8
    assert View.contiguous((3, 2**31)).wide and not View.contiguous((3, 2**29)).wide
    e = Expr("remap", dt.int64, (Expr("iota", dt.int64, (), 0),), (View.contiguous((2, n // 2)), (n,)))
    src = reduce.render(Reduce("sum", (2, n // 2), (0, 1), dt.int64, e, 0, "thread", 4096, 16, None))
    assert "int64_t(" in src
    compile_source(src)


def test_scan_and_matmul_passes_compile():
    d = dt.float32
    x = ir.load(1, d, View.contiguous((3, 5000)))
    carry = ir.load(2, d, View.contiguous((3, 5)))
    for k in (Scan((3, 5000), 1, d, x, 0, 4, 1024, "sums"), Scan((3, 5000), 1, d, x, 0, 4, 1024, "scan", carry)):
        compile_source(scan.render(k))
    a, b = ir.load(1, d, View.contiguous((2, 7, 900))), ir.load(2, d, View.contiguous((2, 900, 5)))
    for tiled in (True, False):
        k = Matmul(2, 7, 5, 900, d, a, b, 0, tiled, splits=3)
        assert matmul.chunk(k) % 16 == 0
        compile_source(matmul.render(k))
