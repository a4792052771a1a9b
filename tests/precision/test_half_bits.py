"""float16 values move by their bits: loads widen the 16 bits with integer operations, stores and every float16
rounding narrow with integer round-to-nearest-even, so NaN signs and payloads, -0.0 and subnormals survive on
drivers whose half conversions quiet NaNs (NVIDIA's made every half NaN 0x7fff)."""

import numpy as np

import kdsl as kd
from kdsl import dtype as dt
from kdsl.codegen import elementwise
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise
from kdsl.ir.view import View


def test_float32_to_float16_rounds_as_numpy_bit_for_bit():
    rng = np.random.default_rng(0)
    bits = rng.integers(0, 2**32, 40000, dtype=np.uint64).astype(np.uint32)
    # and the edges: half's overflow, subnormal and underflow thresholds, exact ties
    edges = np.array([0x477FE000, 0x477FEFFF, 0x477FF000, 0x38800000, 0x387FFFFF, 0x33000000, 0x33000001,
                      0x33800000, 0x337FFFFF, 0x3F801000, 0x3F803000, 0x7F800001, 0x7FC00000, 0x7F802000],
                     np.uint32)
    x = np.concatenate([bits, edges, edges | 0x80000000]).view(np.float32)
    with np.errstate(all="ignore"):
        want = x.astype(np.float16)
    got = kd.asarray(x).astype(kd.float16).numpy()
    np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def test_half_nans_keep_sign_and_payload_through_ops():
    h = np.array([0x7E05, 0xFE01, 0x7C01, 0xFC02, 0x8000, 0x0001, 0x83FF], np.uint16).view(np.float16)
    np.testing.assert_array_equal(kd.asarray(h).view(kd.int16).numpy(), h.view(np.int16))
    np.testing.assert_array_equal(kd.signbit(kd.asarray(h)).numpy(), np.signbit(h))
    got = kd.copysign(kd.asarray(h), kd.asarray(h[::-1].copy())).numpy()
    want = np.copysign(h, h[::-1])
    np.testing.assert_array_equal(np.signbit(got), np.signbit(want))
    np.testing.assert_array_equal((-kd.asarray(h)).numpy().view(np.uint16)[4:], (-h).view(np.uint16)[4:])


def test_half_kernels_read_and_write_bits_not_half_values():
    x = ir.load(1, dt.float16, View.contiguous((8,)))
    src = elementwise.render(Elementwise((8,), dt.float16, View.contiguous((8,)), Expr("neg", dt.float16, (x,)), 0, 1))
    assert "kd_f16val_u(uint(b1h.d[" in src and "b0h.d[" in src
    assert "float(b1.d[" not in src and "packHalf2x16" not in src
