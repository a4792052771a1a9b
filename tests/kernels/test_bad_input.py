"""Bad input to the custom-kernel APIs raises a clear Python exception before anything runs: no crash, no
validation error, no silently wrong answer."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.kernels.raw import raw_kernel


@kd.kernel
def fill(x: kd.f32[:]):
    x[kd.global_id(0)] = 7.0


@kd.kernel
def store_i32(n: kd.i32, out: kd.i32[:]):
    out[0] = n


@kd.kernel
def store_any(n, out: kd.f32[:]):
    out[0] = n


@kd.kernel
def two_outputs(x: kd.f32[:], y: kd.f32[:]):
    if kd.global_id(0) == 0:
        x[0] = 1.0
    else:
        y[1] = 2.0


# ----- @kd.kernel launches -------------------------------------------------------------------------------
def test_launch_limits_are_checked_before_compiling():
    x = np.zeros(4, np.float32)
    with pytest.raises(ValueError, match=r"block \(workgroup size\) \(2048, 1, 1\) is over this device"):
        fill(x, grid=4, block=2048)
    with pytest.raises(ValueError, match="1024 invocations in all"):
        fill(x, grid=4, block=(64, 64))
    with pytest.raises(ValueError, match=r"needs \(17179869184, 1, 1\) workgroups"):
        fill[2 ** 40](x)
    fill[0](x)
    assert not x.any()


def test_scalars_must_fit_their_dtype():
    out = np.zeros(1, np.int32)
    with pytest.raises(OverflowError, match=r"argument 'n' is int32 \(-2147483648 to 2147483647\)"):
        store_i32[1](2 ** 40, out)
    with pytest.raises(TypeError, match="2.5, which is not a whole number"):
        store_i32[1](np.float32(2.5), out)
    with pytest.raises(OverflowError, match="too large for any kernel integer type"):
        store_any[1](2 ** 64, np.zeros(1, np.float32))
    with pytest.raises(TypeError, match="complex64 scalar, which kernels do not support"):
        store_any[1](np.complex64(1), np.zeros(1, np.float32))
    store_i32[1](3.0, out)
    assert out[0] == 3


def test_read_only_numpy_output_is_refused_before_the_launch():
    x = np.zeros(3, np.float32)
    x.flags.writeable = False
    with pytest.raises(ValueError, match="argument 'x' is a read-only NumPy array but the kernel writes it"):
        fill[3](x)


def test_same_numpy_array_twice_aliases_like_a_kd_array():
    a = np.zeros(4, np.float32)
    two_outputs[2](a, a)
    assert a.tolist() == [1, 2, 0, 0]
    with pytest.raises(ValueError, match="overlapping NumPy arrays"):
        two_outputs[2](a[1:], a[:-1])


def test_non_native_byte_order_and_strided_numpy():
    big = np.zeros(4, ">f4")
    fill[4](big)
    assert big.tolist() == [7] * 4
    strided = np.zeros(8, np.float32)
    fill[4](strided[::2])
    assert strided.tolist() == [7, 0] * 4


def test_kd_views_written_by_a_kernel():
    a = kd.asarray(np.zeros(6, np.float32))
    with pytest.raises(ValueError, match="is a view .* of another kd array and the kernel writes it"):
        fill[3](a[1:4])
    with pytest.raises(ValueError, match="is a view"):
        fill[3](a.reshape(2, 3).T[0])
    out = np.zeros(3, np.float32)
    kd_copy = kd.kernel(lambda_copy)
    kd_copy[3](a[::2] + 1, out)  # views are fine as inputs
    assert out.tolist() == [1, 1, 1]
    fill[6](a.reshape(6))        # a whole-array reshape shares the buffer: the writes land in a
    assert a.numpy().tolist() == [7] * 6
    z = kd.zeros(6, dtype=np.float32)
    fill[6](z)
    assert z.numpy().tolist() == [7] * 6


def lambda_copy(x: kd.f32[:], y: kd.f32[:]):
    i = kd.global_id(0)
    y[i] = x[i]


# ----- kd.raw_kernel -------------------------------------------------------------------------------------
SCALE = """
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer X { float x[]; };
layout(set = 0, binding = 1) buffer Y { float y[]; };
layout(push_constant) uniform P { float a; uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = a * x[i];
}"""


def test_raw_push_constants_are_checked():
    k = raw_kernel(SCALE)
    x, y = np.ones(4, np.float32), np.zeros(4, np.float32)
    with pytest.raises(OverflowError, match=r"push constant 'n' is uint32 \(0 to 4294967295\); -1"):
        k(x, y, 2.0, -1, grid=4)
    with pytest.raises(TypeError, match="push constant 'n' is uint32 but got 2.5"):
        k(x, y, 2.0, 2.5, grid=4)
    with pytest.raises(TypeError, match="push constant 'a' takes float32 numbers, got 'a'"):
        k(x, y, "a", 4, grid=4)
    with pytest.raises(OverflowError, match="push constant 'a' is float32"):
        k(x, y, 1e300, 4, grid=4)
    assert not y.any()


def test_raw_launch_and_binding_checks():
    k = raw_kernel(SCALE)
    x, y = np.ones(4, np.float32), np.zeros(4, np.float32)
    over = kd.device().manager.get_device_properties()["max_work_group_count"][0] + 1  # the device's, not lavapipe's
    with pytest.raises(ValueError, match=rf"needs \({over}, 1, 1\) workgroups"):
        k(x, y, 2.0, 4, groups=over)
    frozen = np.zeros(4, np.float32)
    frozen.flags.writeable = False
    with pytest.raises(ValueError, match=r"binding 1 \(Y\) is a read-only NumPy array"):
        k(x, frozen, 2.0, 4, grid=4)
    k(frozen, y, 2.0, 4, grid=4)  # a readonly binding may take a read-only array
    base = kd.asarray(np.zeros(8, np.float32))
    with pytest.raises(ValueError, match=r"binding 1 \(Y\) is a view"):
        k(x, base[::2], 2.0, 4, grid=4)
    big = raw_kernel(SCALE.replace("local_size_x = 64", "local_size_x = 32, local_size_y = 64"))
    with pytest.raises(ValueError, match="over this device's limits"):
        big(x, y, 2.0, 4, grid=4)


def test_raw_shaders_outside_set_zero_are_refused():
    with pytest.raises(ValueError, match=r"descriptor set\(s\) \[1\]; raw_kernel binds arrays to set 0 only"):
        raw_kernel("""#version 450
layout(local_size_x = 1) in;
layout(set = 1, binding = 0) buffer Y { float y[]; };
void main() { y[0] = 1.0; }""")


# ----- kd.compute ----------------------------------------------------------------------------------------
def compute_error(expr, **operands) -> kd.KdslError:
    with pytest.raises(kd.KdslError) as info:
        kd.compute(expr, xp=np, **operands)
    return info.value


X = np.arange(3.0)
A = np.arange(9.0).reshape(3, 3)


@pytest.mark.parametrize(("expr", "column", "message"), [
    ("d[i] = a[i, i]", 13, "index 'i' appears twice in a[i, i]; diagonals are not supported"),
    ("d[i] = a[i, j]", 13, "index 'j' is not an output index; reduce over it"),
    ("y[i] = x[i, j]", 8, "'x' has 1 dimension(s) but 2 index(es)"),
    ("y[i] = foo(x[i])", 8, "unknown function 'foo'"),
    ("y = sum(i, sum(i, x[i]))", 16, "index 'i' is already reduced over by an enclosing reduction"),
    ("y[i] = sum(x[i])", 8, "sum() reduces: give the indices to reduce over first"),
    ("y[i] = sum(q, x[i])", 12, "cannot infer the range of index 'q'"),
    ("y[i] = x[i] + i * w[i]", 10, "'i' is both an index and an operand"),
    ("y[i] = x[i] + a[i]", 15, "'a' has 2 dimension(s) but 1 index(es)"),
])
def test_compute_errors_point_at_the_column(expr, column, message):
    err = compute_error(expr, a=A, x=X, **({"i": 1.0, "w": X} if "w" in expr else {}))
    assert message in err.msg and err.column == column, (err.msg, err.column)


def test_compute_size_one_broadcasting_scalar_output_and_operand_kinds():
    b = np.array([[10.0, 20.0, 30.0]])
    np.testing.assert_allclose(kd.compute("y[i, j] = a[i, j] + b[i, j]", a=A, b=b, xp=np), A + b)
    np.testing.assert_allclose(kd.compute("y[i] = sum(k, a[i, k] * b[i, k])", a=A, b=b, xp=np), A @ b[0])
    np.testing.assert_allclose(kd.compute("y[i] = max(i, x[i] - 1)", x=X, xp=np), [0, 1, 2])
    np.testing.assert_allclose(kd.compute("y[i] = x[i] + z", x=X, z=np.array(2.0), xp=np), X + 2)
    np.testing.assert_allclose(kd.compute("y[i] = l[i]", l=[1, 2, 3], xp=np), [1, 2, 3])
    assert float(kd.compute("s = sum(i, x[i])", x=X.astype(np.float32)).numpy()) == 3.0
    with pytest.raises(kd.KdslError, match=r"sizes must match, or be 1 to broadcast"):
        kd.compute("y[i] = a[i, 0] + x[i]", a=A, x=np.ones(2), xp=np)
    with pytest.raises(TypeError, match="operand 's' is a str"):
        kd.compute("y[i] = x[i] + s", x=X, s="a", xp=np)
    with pytest.raises(kd.KdslError, match="empty text"):
        kd.compute("  ", xp=np)


# ----- kd.elementwise / kd.reduction ---------------------------------------------------------------------
def test_factory_input_errors():
    add = kd.elementwise("T x, T y", "T z", "z = x + y", "add", xp=np)
    f32 = np.ones(3, np.float32)
    with pytest.raises(TypeError, match="type T is float32 from an earlier argument but float64 from 'y'"):
        add(f32, np.ones(3))
    with pytest.raises(ValueError, match=r"add: the inputs' shapes do not broadcast together: x \(3,\), y \(4,\)"):
        add(f32, np.ones(4, np.float32))
    with pytest.raises(TypeError, match="input 'y' is a str"):
        add(f32, "a")
    with pytest.raises(TypeError, match="input 'y' is int32 but got 2.5"):
        add(np.ones(3, np.int32), 2.5)
    with pytest.raises(ValueError, match="type 'complex128' of 'c' is not supported"):
        kd.elementwise("T x, complex128 c", "T z", "z = x", xp=np)
    with pytest.raises(TypeError, match=r"output type U is not bound by any input \(bound: T=float32\)"):
        kd.elementwise("T x", "U z", "z = x", xp=np)(f32)


def test_reduction_errors_point_into_the_users_text():
    with pytest.raises(kd.KdslError) as info:
        kd.reduction("T x", "T y", "x * w", "a + b", "y = a", "0", xp=np)(np.ones(3))
    assert info.value.column == 5 and info.value.text == "x * w"
    with pytest.raises(kd.KdslSyntaxError) as info:
        kd.reduction("T x", "T y", "x *", "a + b", "y = a", "0", xp=np)
    assert info.value.text == "x *" and info.value.column == 4
    with pytest.raises(ValueError, match="shapes do not broadcast"):
        kd.reduction("T x, T w", "T y", "x * w", "a + b", "y = a", "0", xp=np)(np.ones(3), np.ones(4))
