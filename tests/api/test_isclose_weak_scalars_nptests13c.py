"""isclose/allclose with Python scalars compare as NumPy's NEP 50 has it: the scalar is weak, so a float32 array
next to ``2`` compares in float32 (kdsl made ``2`` an int32 array and compared in float64)."""
import numpy as np
import pytest

import kdsl as kd

BELOW_ONE = float(1.0 - np.finfo("f8").eps)  # 1.0 at float32 precision


def _both(fn):
    return bool(np.all(fn(np))), bool(np.all(np.asarray(fn(kd))))


@pytest.mark.parametrize("case", [
    lambda m: m.isclose(m.asarray(np.float32(BELOW_ONE)), 2, atol=0, rtol=BELOW_ONE / 2),
    lambda m: m.isclose(2, m.asarray(np.float32(BELOW_ONE)), atol=0, rtol=BELOW_ONE / 2),
    lambda m: m.isclose(m.asarray(np.float32(BELOW_ONE)), BELOW_ONE, atol=0, rtol=0),
    lambda m: m.isclose(m.asarray(np.float32(BELOW_ONE)), np.float64(BELOW_ONE), atol=0, rtol=0),
    lambda m: m.isclose(m.asarray(np.float32(BELOW_ONE)), 2, atol=0, rtol=np.float64(BELOW_ONE / 2)),
    lambda m: m.allclose(m.asarray(np.full((2, 3), BELOW_ONE, np.float32))[:, ::2], 2, atol=0, rtol=BELOW_ONE / 2),
    lambda m: m.isclose(m.asarray(np.array([1, 100, -128], np.int8)), 100),
    lambda m: m.isclose(m.asarray(np.array([1, 100], np.int8)), 1.0),
    lambda m: m.isclose(m.asarray(np.array([1, 0], np.uint8)), True),
    lambda m: m.isclose(1, 1.0000001),
    lambda m: m.isclose(m.asarray(np.array([np.inf, np.nan, -0.0], np.float32)), np.inf),
    lambda m: m.isclose(m.asarray(np.array([np.nan], np.float16)), np.nan, equal_nan=True),
    lambda m: m.isclose(m.asarray(np.array([1 + 1j], np.complex64)), 1.0000001 + 1j),
    lambda m: m.allclose(m.asarray(np.zeros((0, 3), np.float32)), 1.5),
    lambda m: m.isclose(m.asarray(np.ones((1, 1), np.float32)), 1 + 2 ** -30, atol=0, rtol=0),
])
def test_isclose_with_python_scalars_as_numpy(case):
    want, got = _both(case)
    assert got == want


def test_result_shape_and_dtype():
    data = np.array([[1.0, np.nan], [np.inf, 2.0]], np.float32)
    got = kd.isclose(kd.asarray(data)[:, ::-1], 2)
    want = np.isclose(data[:, ::-1], 2)
    assert got.dtype == kd.bool and got.shape == want.shape
    np.testing.assert_array_equal(np.asarray(got), want)
