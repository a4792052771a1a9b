"""The GLSL renderer: every kernel kind, for every dtype, yields deterministic source that glslang compiles."""

import numpy as np
import pytest

from kdsl import dtype as dt
from kdsl.codegen import elementwise, helpers, matmul, reduce, scan
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise, Matmul, Reduce, Scan, elementwise_groups
from kdsl.ir.view import View
from kdsl.runtime.compiler import compile_source


def load(slot, d, shape):
    return ir.load(slot, d, View.contiguous(shape))


@pytest.mark.parametrize("d", dt.ALL, ids=lambda d: d.name)
def test_elementwise_compiles_for_every_dtype(d):
    shape = (3, 5)
    x = load(1, d, shape)
    op = "add" if d is not dt.bool_ else "or"
    c = ir.const(0, d)
    cast = Expr("cast", d, (load(2, dt.int8, shape),))
    cmp = "lt"  # (complex: NumPy's lexicographic order, kd_clt_f/d)
    e = Expr("where", d, (Expr(cmp, dt.bool_, (x, c)), Expr(op, d, (x, c)), cast))
    k = Elementwise(shape, d, View.contiguous(shape), e, 4, 1)  # complex128 constants take 4 words
    src = elementwise.render(k)
    assert src == elementwise.render(k)  # deterministic
    assert compile_source(src)[:4] == b"\x03\x02\x23\x07"


# Bools are cast to an integer type before sum/prod, so those kernels never see a bool accumulator.
@pytest.mark.parametrize(("op", "d"), [(o, d) for o in ["sum", "prod", "max", "min", "argmax", "argmin"]
                                       for d in [dt.float32, dt.float16, dt.int64, dt.uint8, dt.bool_, dt.float64]
                                       if not (d is dt.bool_ and o in ("sum", "prod"))])
@pytest.mark.parametrize("mode", ["group", "thread"])
def test_reduce_compiles(op, mode, d):
    out = dt.int64 if op.startswith("arg") else d
    k = Reduce(op, (4, 7, 3), (0, 2), out, load(1, d, (4, 7, 3)), 0, mode, 1, 7, None)
    compile_source(reduce.render(k))


def test_reduce_with_splits_and_epilogue_compiles():
    epi = Expr("mul", dt.float32, (ir.acc(dt.float32), ir.const(0, dt.float32)))
    k = Reduce("sum", (2, 100000), (1,), dt.float32, load(1, dt.float32, (2, 100000)), 1, "group", 8, 16, epi,
               (2,))
    src = reduce.render(k)
    assert "g_p" in src and "accv" in src
    compile_source(src)


def test_split_reductions_compile_in_both_index_widths():
    """Splits in both modes, argmax candidates read back (``index_of``), with 32- and 64-bit positions."""
    for r in (70000, 2**31 + 8):
        shape = (1, r)
        x = ir.const(0, dt.float32) if r > 2**30 else load(1, dt.float32, shape)
        for mode in ("thread", "group"):
            for op in ("sum", "argmax"):
                out = dt.int64 if op == "argmax" else dt.float32
                k = Reduce(op, shape, (1,), out, x, 1, mode, 64, 4, None)
                assert ("int64_t r =" in reduce.render(k)) == (r > 2**31)
                compile_source(reduce.render(k))
        picked = load(2, dt.int64, (1, 64))
        compile_source(reduce.render(Reduce("argmin", shape, (1,), dt.int64, x, 1, "group", 1, 1, None, (),
                                            picked, 64)))


@pytest.mark.parametrize("d", [dt.float32, dt.float16, dt.int32, dt.float64, dt.int8])
def test_matmul_and_scan_compile(d):
    compile_source(matmul.render(Matmul(2, 70, 33, 20, d, load(1, d, (2, 70, 20)), load(2, d, (2, 20, 33)), 0)))
    compile_source(scan.render(Scan((3, 9), 1, d, load(1, d, (3, 9)), 0, 1)))


def test_helpers_only_when_named():
    assert helpers.needed("x + y") == []
    defined = [h.split("(")[0].split()[-1] for h in helpers.needed("kd_mod_i(a, b) + kd_mod_i(c, d) + kd_pow_f(x, y)")]
    # each named helper once, with what kd_pow_f calls (float32_exp_log's) and nothing else
    assert defined.count("kd_mod_i") == 1 and defined[-1] == "kd_pow_f"
    assert set(defined) == {"kd_mod_i"} | {h.split("(")[0].split()[-1] for h in helpers.needed("kd_pow_f(x, y)")}
    assert "kd_sin_f" not in defined and len(defined) == len(set(defined))


def test_groups_respect_loop_cap():
    assert elementwise_groups(10, 512) == 1
    assert elementwise_groups(1 << 20, 512) == 512
    assert elementwise_groups(1 << 20, 65535) == 4096
    big = 512 * 256 * 70000
    assert -(-big // (elementwise_groups(big, 512) * 256)) < 65535


@pytest.mark.parametrize("shape,perm,new", [((4, 6), (1, 0), (24,)), ((2, 3, 4), (0, 2, 1), (2, 12)),
                                            ((6, 4), (0, 1), (3, 2, 4)), ((2, 3, 4), (2, 0, 1), (4, 6))])
def test_view_reshape_matches_numpy(shape, perm, new):
    host = np.arange(int(np.prod(shape))).reshape(shape).transpose(perm)
    v = View.contiguous(shape).permute(perm)
    r = v.reshape(new)
    expected = host.reshape(new)
    if r is None:  # NumPy would copy too
        assert not np.shares_memory(expected, host)
        return
    flat = np.arange(int(np.prod(shape)))
    got = np.lib.stride_tricks.as_strided(flat[r.offset:], r.shape, [s * flat.itemsize for s in r.strides])
    np.testing.assert_array_equal(got, expected)
