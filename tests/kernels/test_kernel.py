"""@kd.kernel against NumPy: indexing, control flow, types, shared memory, atomics, subgroups, helpers."""

import math
import runpy
from pathlib import Path

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.kernels.kernel import func, kernel
from kdsl.frontend.kernels.launch import default_manager
from kdsl.frontend.kernels.types import constexpr, f32, f64, i32
from kdsl.runtime import compiler


def features():
    return set(default_manager().get_device_properties()["features"])


@kernel
def saxpy(a: f32, x: f32[:], y: f32[:]):
    i = kd.global_id(0)
    y[i] = a * x[i] + y[i]


def test_saxpy_both_launch_forms():
    x = np.arange(100, dtype=np.float32)
    y = np.ones(100, np.float32)
    saxpy[100](2.0, x, y)
    np.testing.assert_allclose(y, 2 * np.arange(100) + 1)
    saxpy(0.5, x, y, grid=100, block=32)
    np.testing.assert_allclose(y, 2.5 * np.arange(100) + 1)


def test_grid_smaller_than_arrays_leaves_the_rest():
    x, y = np.ones(10, np.float32), np.zeros(10, np.float32)
    saxpy[4](3.0, x, y)
    np.testing.assert_array_equal(y, [3, 3, 3, 3, 0, 0, 0, 0, 0, 0])


@kernel
def matvec(m, v, out):
    i = kd.global_id(0)
    s = 0  # widens to float32 when floats are added
    for j in range(m.shape[1]):
        s += m[i, j] * v[j]
    out[i] = s


def test_2d_indexing_shape_and_variable_widening():
    rng = np.random.default_rng(0)
    m, v = rng.random((5, 7), np.float32), rng.random(7, np.float32)
    out = np.zeros(5, np.float32)
    matvec[5](m, v, out)
    np.testing.assert_allclose(out, m @ v, rtol=1e-5)


@kernel
def add2d(a, b, c):
    i, j = kd.global_id(0), kd.global_id(1)
    c[i, j] = a[i, j] + b[i, j] * 2


def test_2d_grid():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = np.ones((3, 4), np.int32)
    c = np.zeros((3, 4), np.int32)
    add2d[(3, 4)](a, b, c)
    np.testing.assert_array_equal(c, a + 2 * b)


@kernel
def control(x, out):
    i = kd.global_id(0)
    v = x[i]
    r = 0
    if v < 0:
        r = -1
    elif v == 0:
        r = 100
    else:
        k = 0
        while True:
            k += 1
            if k % 2 == 0:
                continue
            if k > v:
                break
            r += k
    out[i] = r


def test_if_elif_else_while_break_continue():
    x = np.array([-3, 0, 1, 4, 7], np.int32)
    out = np.zeros(5, np.int32)
    control[5](x, out)
    expected = [-1, 100, 1, 1 + 3, 1 + 3 + 5 + 7]
    np.testing.assert_array_equal(out, expected)


@kernel
def int_ops(a, b, q, r, f):
    i = kd.global_id(0)
    q[i] = a[i] // b[i]
    r[i] = a[i] % b[i]
    f[i] = a[i] / b[i]


def test_python_integer_division_semantics():
    a = np.array([7, -7, 7, -7, 0], np.int32)
    b = np.array([2, 2, -2, -2, 3], np.int32)
    q, r, f = np.zeros(5, np.int32), np.zeros(5, np.int32), np.zeros(5, np.float32)
    int_ops[5](a, b, q, r, f)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)
    np.testing.assert_allclose(f, a / b, rtol=1e-6)


@kernel
def math_fns(x, out):
    i = kd.global_id(0)
    v = x[i]
    out[i, 0] = kd.sin(v) + kd.sqrt(abs(v))
    out[i, 1] = max(v, 0.5) - min(v, -0.5, 0.0)
    out[i, 2] = math.exp(v) if v < 1 else kd.tanh(v)
    out[i, 3] = v ** 2 + np.floor(v) + kd.atan2(v, 2.0)
    out[i, 4] = float(int(v * 3))


def test_math_functions_and_builtins():
    x = np.linspace(-2, 2, 9).astype(np.float32)
    out = np.zeros((9, 5), np.float32)
    math_fns[9](x, out)
    expected = np.stack([np.sin(x) + np.sqrt(np.abs(x)), np.maximum(x, 0.5) - np.minimum(np.minimum(x, -0.5), 0),
                         np.where(x < 1, np.exp(x), np.tanh(x)), x ** 2 + np.floor(x) + np.arctan2(x, 2),
                         np.trunc(x * 3)], axis=1)
    np.testing.assert_allclose(out, expected, rtol=1e-5, atol=1e-6)


@kernel
def typed(x, y, n: i32, scale: f64):
    i = kd.global_id(0)
    if i < n:
        y[i] = x[i] * scale


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int8, np.uint16, np.float16])
def test_array_dtypes(dtype):
    needed = {np.float64: "float64", np.int64: "int64", np.int8: "storage_buffer_8bit",
              np.uint16: "storage_buffer_16bit", np.float16: "storage_buffer_16bit"}[dtype]
    if needed not in features():
        pytest.skip(f"device lacks {needed}")
    x = np.arange(6).astype(dtype)
    y = np.zeros(6, dtype)
    typed[6](x, y, 4, 3.0)
    expected = np.where(np.arange(6) < 4, (x.astype(np.float64) * 3).astype(dtype), 0)
    np.testing.assert_array_equal(y, expected)


@kernel
def bools(x, out):
    i = kd.global_id(0)
    out[i] = x[i] and not (i == 2)


def test_bool_arrays():
    x = np.array([True, False, True, True])
    out = np.zeros(4, bool)
    bools[4](x, out)
    np.testing.assert_array_equal(out, [True, False, False, True])


@kernel
def with_constexpr(x, out, reps: constexpr):
    i = kd.global_id(0)
    acc = kd.local_array((reps,), kd.f32)
    for k in range(reps):
        acc[k] = x[i] * k
    total = 0.0
    for k in range(reps):
        total += acc[k]
    out[i] = total


def test_constexpr_and_local_arrays():
    x = np.arange(4, dtype=np.float32)
    out = np.zeros(4, np.float32)
    with_constexpr[4](x, out, 3)
    np.testing.assert_allclose(out, x * 3)
    with_constexpr[4](x, out, 5)
    np.testing.assert_allclose(out, x * 10)


# The example's kernel (TILE = 16), not a copy: examples/ is not a package, so load the file itself.
EXAMPLE_MATMUL = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "kernels" / "tiled_matmul.py"))
tiled_matmul = EXAMPLE_MATMUL["matmul"]


def test_shared_memory_tiled_matmul():
    # k spans three tiles, the last one partial, and the grid overhangs c: both guards are exercised.
    rng = np.random.default_rng(1)
    a, b = rng.random((20, 37), np.float32), rng.random((37, 18), np.float32)
    c = np.zeros((20, 18), np.float32)
    tiled_matmul[(24, 24)](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


@kernel
def histogram(x, bins, hist):
    i = kd.global_id(0)
    b = int(x[i] * bins)
    kd.atomic_add(hist, min(max(b, 0), bins - 1), 1)


def test_atomic_histogram():
    x = np.random.default_rng(2).random(1000).astype(np.float32)
    hist = np.zeros(8, np.int32)
    histogram[1000](x, 8, hist)
    np.testing.assert_array_equal(hist, np.histogram(x, bins=8, range=(0, 1))[0])


@kernel
def atomics(v, out):
    i = kd.global_id(0)
    kd.atomic_max(out, 0, v[i])
    kd.atomic_min(out, 1, v[i])
    kd.atomic_or(out, 2, v[i])
    kd.atomic_xor(out, 3, v[i])
    kd.atomic_and(out, 4, v[i])
    kd.atomic_sub(out, 5, v[i])
    kd.atomic_cas(out, 6, 0, 7)
    old = kd.atomic_exchange(out, 7, 1)
    kd.atomic_add(out, 8, old)


def test_atomic_operations():
    v = np.array([5, 3, 12, 9], np.int32)
    out = np.array([0, 100, 0, 0, -1, 0, 0, 0, 0], np.int32)
    atomics[4](v, out)
    assert out[0] == 12 and out[1] == 3 and out[2] == 5 | 3 | 12 | 9
    assert out[3] == 5 ^ 3 ^ 12 ^ 9 and out[4] == 5 & 3 & 12 & 9 and out[5] == -29
    assert out[6] == 7 and out[7] == 1 and out[8] == 3  # three of the four exchanges saw the 1


@kernel
def float_atomic(x, total):
    kd.atomic_add(total, 0, x[kd.global_id(0)])


def test_float_atomic_add_where_supported():
    x = np.ones(64, np.float32)
    total = np.zeros(1, np.float32)
    if "atomic_float32_add" not in features():
        with pytest.raises(TypeError, match="atomic_float32_add"):
            float_atomic[64](x, total)
        return
    float_atomic[64](x, total)
    assert total[0] == 64


@kernel(block=(64,))
def subgroup_sums(x, out, lanes):
    i = kd.global_id(0)
    s = kd.subgroup_add(x[i])
    if kd.subgroup_elect():
        kd.atomic_add(out, 0, s)
    lanes[i] = kd.subgroup_invocation_id()


def test_subgroup_add():
    if "subgroup_arithmetic" not in features():
        pytest.skip("this device has no subgroup arithmetic in compute shaders")
    x = np.arange(64, dtype=np.int32)
    out, lanes = np.zeros(1, np.int32), np.zeros(64, np.int32)
    subgroup_sums[64](x, out, lanes)
    assert out[0] == x.sum()
    size = default_manager().get_device_properties()["subgroup_size"]
    np.testing.assert_array_equal(lanes, np.arange(64) % size)


@func
def clamp01(v):
    return min(max(v, 0.0), 1.0)


@func
def put(arr, i, v):
    arr[i] = clamp01(v) * 2


@kernel
def uses_helpers(x, y):
    i = kd.global_id(0)
    put(y, i, x[i])


def test_kd_func_helpers_with_arrays_and_nesting():
    x = np.array([-1, 0.25, 3], np.float32)
    y = np.zeros(3, np.float32)
    uses_helpers[3](x, y)
    np.testing.assert_allclose(y, [0, 0.5, 2])
    assert clamp01(5) == 1.0  # plain Python outside kernels


@kernel
def tuple_swap(x):
    i = kd.global_id(0)
    a, b = x[i, 0], x[i, 1]
    a, b = b, a
    x[i, 0], x[i, 1] = a, b
    n, m = x.shape
    x[i, 2] = n * 10 + m + x[-1, 2] * 0


def test_tuple_assignment_and_shape_unpacking():
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    tuple_swap[2](x)
    np.testing.assert_array_equal(x, [[1, 0, 23], [4, 3, 23]])


def test_second_call_compiles_nothing():
    x, y = np.ones(8, np.float32), np.zeros(8, np.float32)
    saxpy[8](1.0, x, y)
    before = dict(compiler.stats)
    saxpy[8](2.0, x, y)
    saxpy(3.0, np.ones(16, np.float32), np.zeros(16, np.float32), grid=16)
    assert compiler.stats == before


def test_new_dtypes_make_a_new_variant():
    @kernel
    def copy(src, dst):
        dst[kd.global_id(0)] = src[kd.global_id(0)]

    copy[3](np.arange(3, dtype=np.float32), np.zeros(3, np.float32))
    copy[3](np.arange(3, dtype=np.int32), np.zeros(3, np.int32))
    assert len(copy._variants) == 2
    copy[3](np.arange(3, dtype=np.int32), np.zeros(3, np.int32))
    assert len(copy._variants) == 2


def test_glsl_compiles_standalone():
    text = matvec.glsl(np.zeros((2, 2), np.float32), np.zeros(2, np.float32), np.zeros(2, np.float32))
    assert "void main()" in text and "pc.m_shape1" in text
    assert compiler.compile_source(text)[:4] == compiler.SPIRV_MAGIC


def test_zero_grid_does_nothing():
    y = np.zeros(4, np.float32)
    saxpy[0](1.0, np.ones(4, np.float32), y)
    assert not y.any()
