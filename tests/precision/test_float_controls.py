"""Generated kernels ask the driver to keep signed zeros, inf/NaN and subnormals (SPIR-V float controls), for
the float widths the device reports and the shader uses; elementwise code is ``precise`` (no FMA contraction,
NumPy rounds every operation) while matmul accumulation keeps its fused multiply-adds."""

import numpy as np
import pytest
from spirv_words import no_contraction_ids

import kdsl as kd
import kdsl.kp as kp
from kdsl import dtype as dt
from kdsl.codegen import elementwise, helpers
from kdsl.engine.schedule import schedule
from kdsl.engine.state import state
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise
from kdsl.ir.view import View
from kdsl.runtime.compiler import compile_source
from kdsl.runtime.float_controls import (
    DENORM_PRESERVE,
    ROUNDING_RTE,
    SIGNED_ZERO_INF_NAN_PRESERVE,
    add_float_controls,
    float_modes,
)


def execution_modes(spirv: bytes, mode: int) -> set[int]:
    return set(float_modes(spirv).get(mode, []))


def _fma_kernel(d: dt.DType) -> str:
    x = ir.load(1, d, View.contiguous((8,)))
    e = Expr("add", d, (Expr("mul", d, (x, x)), ir.load(2, d, View.contiguous((8,)))))
    return elementwise.render(Elementwise((8,), d, View.contiguous((8,)), e, 0, 1))


def test_the_device_reports_its_float_controls_as_widths():
    dev = kd.device()
    szinp, denorm, independence = dev.float_controls
    assert set(szinp) <= {16, 32, 64} and set(denorm) <= {16, 32, 64}
    assert independence in ("all", "32_bit_only", "none")
    info = kp.list_devices()[dev.physical_index]["float_controls"]
    assert (tuple(info["signed_zero_inf_nan"]), tuple(info["denorm_preserve"]), info["denorm_independence"]) == \
        dev.float_controls


def test_modes_only_for_the_widths_a_shader_uses():
    src = _fma_kernel(dt.float32)
    spirv = add_float_controls(compile_source(src), (16, 32, 64), (32, 64))
    assert execution_modes(spirv, SIGNED_ZERO_INF_NAN_PRESERVE) == {32}  # no half or double in this shader
    assert execution_modes(spirv, DENORM_PRESERVE) == {32}
    wide = add_float_controls(compile_source(_fma_kernel(dt.float64)), (32, 64), ())
    assert execution_modes(wide, SIGNED_ZERO_INF_NAN_PRESERVE) == {64}  # a double-only shader
    x = Expr("cast", dt.float64, (ir.load(1, dt.float32, View.contiguous((8,))),))
    mixed = elementwise.render(Elementwise((8,), dt.float64, View.contiguous((8,)), x, 0, 1))
    both = add_float_controls(compile_source(mixed), (16, 32, 64), ())
    assert execution_modes(both, SIGNED_ZERO_INF_NAN_PRESERVE) == {32, 64}  # one mode, two widths
    # one denormal mode for all widths ("none"): all the shader's widths get it, or none does
    for independence, want in (("all", {32}), ("32_bit_only", {32}), ("none", set())):
        assert execution_modes(add_float_controls(compile_source(mixed), (), (32,), independence),
                               DENORM_PRESERVE) == want
    assert execution_modes(add_float_controls(compile_source(mixed), (), (32, 64), "none"), DENORM_PRESERVE) == \
        {32, 64}
    assert float_modes(both).keys() == {SIGNED_ZERO_INF_NAN_PRESERVE}
    plain = compile_source(src)
    assert add_float_controls(plain, (), ()) == plain  # a device without float controls: the module as it was
    assert add_float_controls(spirv, (16, 32, 64), (32, 64)) == spirv  # modes present: left alone


def test_rounding_mode_rte_is_asked_for_the_listed_widths_only():
    spirv = add_float_controls(compile_source(_fma_kernel(dt.float16)), (16, 32), (16, 32), "all", (16,))
    assert execution_modes(spirv, ROUNDING_RTE) == {16} and execution_modes(spirv, DENORM_PRESERVE) == {16, 32}
    assert execution_modes(add_float_controls(compile_source(_fma_kernel(dt.float32)), (), (), "all", (16,)),
                           ROUNDING_RTE) == set()  # no float16 in the shader: no mode


def test_the_engine_compiles_kernels_with_the_devices_modes():
    dev = kd.device()
    x = kd.asarray(np.array([0.0, -0.0, np.inf, np.nan], np.float32))
    np.testing.assert_array_equal(np.signbit((-x).numpy())[:3], [True, False, True])  # a NaN's sign: the device's
    progs = [p for k, p in state(dev).programs.items() if isinstance(k, Elementwise)]
    assert progs
    szinp, denorm = set(dev.float_controls[0]), set(dev.float_controls[1])
    assert all(execution_modes(p.spirv, SIGNED_ZERO_INF_NAN_PRESERVE) <= szinp for p in progs)
    assert all(execution_modes(p.spirv, DENORM_PRESERVE) <= denorm for p in progs)
    if 32 in szinp:  # lavapipe has it (the validation layer checks the module against the device)
        assert any(execution_modes(p.spirv, SIGNED_ZERO_INF_NAN_PRESERVE) == {32} for p in progs)


@pytest.mark.parametrize("d", [dt.float32, dt.complex64, dt.float16], ids=lambda d: d.name)
def test_elementwise_values_are_not_contracted(d):
    src = _fma_kernel(d)
    assert "precise " in src
    assert len(no_contraction_ids(compile_source(src))) >= 2  # the product and the sum


def test_every_float_helper_rounds_as_written():
    for name, code in helpers.LIBRARY.items():
        if code.split("(")[0].split()[0] in ("float", "double", "vec2", "dvec2"):
            raise AssertionError(f"{name} is not precise: {code.splitlines()[0]}")


def test_matmul_accumulators_keep_their_fused_multiply_adds():
    a = kd.asarray(np.ones((70, 70), np.float32))
    y = a @ a
    product = y._node.srcs[0]  # y is a (70, 70) view of it; y.numpy() realises it and reads the view
    assert product.op == "matmul"
    kernels = [s.kernel for s in schedule([product])]
    y.numpy()
    # this product's own programs (another test's matmul may carry an epilogue, whose elementwise math is precise)
    sources = [state(kd.device()).programs[k].source for k in kernels if type(k).__name__ == "Matmul"]
    assert sources
    for src in sources:
        assert not [line for line in src.splitlines() if "precise" in line and "acc" in line]


def test_smiths_division_cancels_to_an_exact_zero():
    """(x + yi) / (x + yi) with Smith's algorithm: the imaginary part is y - x * (y / x) * ... = -0 only if each
    product is rounded before the subtraction (an FMA leaves the rounding residue: 5e-9 on NVIDIA)."""
    g = np.array([0.7 + 0.3j, 1e-3 + 2.5j, -3.1 + 0.9j], np.complex64)
    got = (kd.asarray(g) / kd.asarray(g)).numpy()
    np.testing.assert_array_equal(got, g / g)
    np.testing.assert_array_equal(np.signbit(got.imag), np.signbit((g / g).imag))
