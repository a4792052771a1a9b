"""The complex GLSL: every helper compiles for both component types, reductions and scans of complex values
compile in every mode, and the shader gets only the helpers it calls."""

import pytest

from kdsl import dtype as dt
from kdsl.codegen import complex as cx
from kdsl.codegen import elementwise, glsl, helpers, reduce, scan
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise, Reduce, Scan
from kdsl.ir.view import View
from kdsl.runtime.compiler import compile_source

UNARY = ["exp", "log", "sqrt", "sin", "cos", "tanh", "square", "reciprocal", "sign", "conj", "neg", "isnan",
         "isinf", "isfinite"]


def _load(d, shape=(3, 5)):
    return ir.load(1, d, View.contiguous(shape))


@pytest.mark.parametrize("d", [dt.complex64, dt.complex128], ids=lambda d: d.name)
def test_every_function_compiles(d):
    x = _load(d)
    c = ir.const(0, d)
    parts = [Expr(name, dt.bool_ if name.startswith("is") else d, (x,)) for name in UNARY]
    parts += [Expr(name, d, (x, c)) for name in ("add", "sub", "mul", "div", "pow")]
    real = [Expr(name, d.real_dtype, (x,)) for name in ("abs", "real", "imag", "angle")]
    total = parts[0]
    for p in parts[1:]:
        total = Expr("add", d, (total, Expr("cast", d, (p,)) if p.dtype is dt.bool_ else p))
    for r in real:
        total = Expr("add", d, (total, Expr("cast", d, (r,))))
    total = Expr("where", d, (Expr("eq", dt.bool_, (x, c)), total, Expr("complex", d, (real[1], real[2]))))
    k = Elementwise((3, 5), d, View.contiguous((3, 5)), total, 2 * glsl.words_of(d), 1)
    src = elementwise.render(k)
    assert "kd_cpow_" in src and "kd_csqrt_" in src
    assert compile_source(src)[:4] == b"\x03\x02\x23\x07"


def test_shaders_get_only_the_helpers_they_call():
    needed = [h.split("(")[0] for h in helpers.needed("y = kd_cmul_f(a, b);")]
    assert needed == ["precise vec2 kd_cmul_f"]  # helpers round as written (kdsl.codegen.precise)
    assert all(name in helpers.LIBRARY for name in cx.LIBRARY)
    assert "double" not in "\n".join(helpers.needed("y = kd_cexp_f(kd_clog_f(kd_ctanh_f(a)));"))  # no fp64


@pytest.mark.parametrize("d", [dt.complex64, dt.complex128], ids=lambda d: d.name)
@pytest.mark.parametrize("op", ["sum", "prod"])
@pytest.mark.parametrize("mode", ["group", "thread"])
def test_reductions_compile(d, op, mode):
    k = Reduce(op, (4, 7, 3), (0, 2), d, _load(d, (4, 7, 3)), 0, mode, 1, 7, None)
    compile_source(reduce.render(k))


@pytest.mark.parametrize("d", [dt.complex64, dt.complex128], ids=lambda d: d.name)
def test_ordered_reductions_fold_in_numpys_order(d):
    k = Reduce("max", (4, 7), (1,), d, _load(d, (4, 7)), 0, "group", 1, 7, None)
    src = reduce.render(k)
    assert f"kd_cmax_{'f' if d is dt.complex64 else 'd'}" in src
    compile_source(src)


@pytest.mark.parametrize("op", ["sum", "prod"])
def test_scans_compile(op):
    d = dt.complex64
    k = Scan((2, 9), 1, d, _load(d, (2, 9)), 0, 1, op=op)
    assert ("kd_cmul_f" in scan.render(k)) == (op == "prod")
    compile_source(scan.render(k))


def test_literals_and_push_constants():
    assert glsl.literal(1 - 2j, dt.complex64) == "vec2(1.0, -2.0)"
    assert glsl.literal(0, dt.complex128) == "dvec2(0.0LF, 0.0LF)"
    assert glsl.words_of(dt.complex64) == 2 and glsl.words_of(dt.complex128) == 4
    assert glsl.const_word(3, dt.complex64) == "vec2(uintBitsToFloat(pc.w[3]), uintBitsToFloat(pc.w[4]))"
    assert "pc.w[5], pc.w[6]" in glsl.const_word(3, dt.complex128)
