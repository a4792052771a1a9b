"""The two faces of kdsl compute the same math: ``kd.<fn>(array)`` and a ``@kd.kernel`` calling ``kd.<fn>`` give
bit-identical results (both render kdsl.codegen's GLSL), within the documented tolerance of NumPy, in float32
and float64, NaN / inf / -0.0 and edge domains included. One kernel per dtype evaluates every function (so the
whole module compiles a handful of shaders).
"""

from __future__ import annotations

import importlib.util
import warnings

import numpy as np
import pytest

import kdsl as kd

# name -> NumPy reference
UNARY = {
    "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "log10": np.log10, "log1p": np.log1p,
    "expm1": np.expm1, "sqrt": np.sqrt, "rsqrt": lambda x: 1 / np.sqrt(x), "sin": np.sin, "cos": np.cos,
    "tan": np.tan, "arcsin": np.arcsin, "arccos": np.arccos, "arctan": np.arctan, "sinh": np.sinh,
    "cosh": np.cosh, "tanh": np.tanh, "arcsinh": np.arcsinh, "arccosh": np.arccosh, "arctanh": np.arctanh,
    "sigmoid": lambda x: 1 / (1 + np.exp(-x)), "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc,
    "rint": np.rint, "abs": np.abs, "sign": np.sign, "square": np.square, "reciprocal": np.reciprocal,
}
# name -> (kernel expression of a, b; NumPy reference)
BINARY = {
    "power": ("a ** b", np.power), "arctan2": ("kd.arctan2(a, b)", np.arctan2),
    "floor_divide": ("a // b", np.floor_divide), "mod": ("a % b", np.mod),
    "maximum": ("kd.maximum(a, b)", np.maximum), "minimum": ("kd.minimum(a, b)", np.minimum),
}
# Documented accuracy (docs/kernels.md): float64 everywhere ~1e-16 (a few ulp); float32 what lavapipe's GLSL
# built-ins give (exp/log/pow grow with the result's exponent).
RTOL = {"float64": 4e-16, "float32": 4e-6}
RTOL_F32 = {"power": 2e-5, "tan": 2e-5, "sinh": 1e-5, "cosh": 1e-5, "exp": 1e-5, "exp2": 1e-5, "expm1": 1e-5,
            "sigmoid": 1e-5, "arccosh": 1e-5, "arcsinh": 1e-5}
RTOL_F64 = {"tan": 1e-15}  # power: within 1 ulp since its log is carried to ~2**-66 (was 7e-16 on lavapipe)
EDGES = [-np.inf, -1e30, -100.0, -3.0, -1.0, -0.5, -1e-30, -0.0, 0.0, 1e-30, 0.5, 1.0, 3.0, 100.0, 1e30,
         np.inf, np.nan]
EDGES64 = [700.0, 709.5, 710.0, -700.0, -745.0, -746.0, 1e-300, 5e-324, -1e-310, 1e300, -1e300, 1e15, 1e-8]


def _module(tmp_path_factory):
    """A module with the two kernels (written to a file: kernels need readable source)."""
    unary = "\n".join(f"        y[{k}, i] = kd.{name}(x[i])" for k, name in enumerate(UNARY))
    binary = "\n".join(f"        z[{k}, i] = {expr}" for k, (expr, _) in enumerate(BINARY.values()))
    text = f'''import kdsl as kd

@kd.kernel
def unary(x, y):
    i = kd.global_id(0)
    if i < x.shape[0]:
{unary}

@kd.kernel
def binary(xa, xb, z):
    i = kd.global_id(0)
    if i < xa.shape[0]:
        a = xa[i]
        b = xb[i]
{binary}
'''
    path = tmp_path_factory.mktemp("two_faces") / "two_faces_kernels.py"
    path.write_text(text)
    spec = importlib.util.spec_from_file_location("two_faces_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    return _module(tmp_path_factory)


def _inputs(dtype: str) -> np.ndarray:
    rng = np.random.default_rng(7)
    values = EDGES + (EDGES64 if dtype == "float64" else []) + list(rng.uniform(-1, 1, 48)) \
        + list(rng.uniform(-20, 20, 48)) + list(np.exp(rng.uniform(-30, 30, 48)))
    return np.array(values, dtype=dtype)


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    both_nan = np.isnan(a) & np.isnan(b)
    return bool(np.all((a.view(f"u{a.itemsize}") == b.view(f"u{b.itemsize}")) | both_nan))


def _close(got: np.ndarray, ref: np.ndarray, rtol: float, what: str) -> None:
    """Within rtol relatively or, in float32, 1.2e-7 absolutely (lavapipe's float32 log near 1, sin near pi;
    GPU drivers' float32 built-ins are absolute-error approximations: 1.5e-6 measured for sin on NVIDIA, where
    Vulkan itself promises only 2**-11); values that are 0 or inf in NumPy must match exactly, -0.0
    included."""
    tiny = np.finfo(got.dtype).tiny
    exact = ~np.isfinite(ref) | (ref == 0)
    assert np.array_equal(got[exact], ref[exact], equal_nan=True), \
        f"{what}: {got[exact]} vs NumPy {ref[exact]}"
    assert np.array_equal(np.signbit(got[ref == 0]), np.signbit(ref[ref == 0])), f"{what}: the sign of zero"
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / np.maximum(np.abs(ref), tiny)
    cpu = kd.device().info.get("device_type") == "cpu"
    atol = (1.2e-7 if cpu else 4e-6) if got.dtype == np.float32 else 0.0
    with np.errstate(all="ignore"):
        bad = ~exact & ~(err <= rtol) & ~(np.abs(got.astype(np.float64) - ref) <= atol)
    assert not bad.any(), f"{what}: {got[bad][:4]} vs NumPy {ref[bad][:4]} at inputs with error {err[bad][:4]}"


def _skip_float64():
    if "float64" not in kd.device().manager.features:
        pytest.skip("the device has no float64")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_unary_functions_both_faces(kernels, dtype):
    if dtype == "float64":
        _skip_float64()
    x = _inputs(dtype)
    y = np.zeros((len(UNARY), len(x)), dtype)
    kernels.unary[len(x)](x, y)
    xa = kd.asarray(x)
    arrays = kd.stack([getattr(kd, name)(xa) for name in UNARY]).numpy()
    for k, (name, ref_fn) in enumerate(UNARY.items()):
        assert _same_bits(y[k], arrays[k]), f"{name} {dtype}: @kd.kernel and kd.{name}(array) differ"
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = ref_fn(x).astype(dtype)
        rtol = (RTOL_F32 if dtype == "float32" else RTOL_F64).get(name, RTOL[dtype])
        if dtype == "float32":  # lavapipe's float32 built-ins: compare where NumPy's result is moderate
            keep = np.isfinite(x) & (np.abs(x) < 80) & ~((name in ("tan",)) & (np.abs(x) > 10))
            _close(y[k][keep], ref[keep], rtol, f"{name} {dtype}")
        else:
            _close(y[k], ref, rtol, f"{name} {dtype}")


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64"])
def test_binary_functions_both_faces(kernels, dtype):
    if dtype in ("float64", "int64"):
        _skip_float64()
    rng = np.random.default_rng(3)
    if dtype.startswith("int"):
        a = np.array([7, -7, 7, -7, 0, 5, -2**31 + 1, 3] + list(rng.integers(-50, 50, 40)), dtype)
        b = np.array([2, 2, -2, -2, 3, 0, -1, 0] + list(rng.integers(-6, 6, 40)), dtype)
        b = np.where((np.abs(b) > 4) | (b < 0) & (a != -2**31 + 1), np.abs(b) % 5, b).astype(dtype)
    else:
        grid = np.array([-np.inf, -2.0, -1.0, -0.0, 0.0, 0.5, 1.0, 3.0, np.inf, np.nan], dtype)
        a, b = (g.ravel() for g in np.meshgrid(grid, grid))
        a = np.concatenate([a, rng.uniform(-10, 10, 64), rng.uniform(0, 5, 64)]).astype(dtype)
        b = np.concatenate([b, rng.uniform(-10, 10, 64), rng.uniform(-20, 20, 64)]).astype(dtype)
    z = np.zeros((len(BINARY), len(a)), dtype)
    kernels.binary[len(a)](a, b, z)
    xa, xb = kd.asarray(a), kd.asarray(b)
    for k, (name, (_, ref_fn)) in enumerate(BINARY.items()):
        if name == "arctan2" and dtype.startswith("int"):
            assert np.array_equal(z[k], np.arctan2(a, b).astype(dtype)), "arctan2 of ints: float64, stored back"
            continue
        if name == "power" and dtype.startswith("int"):  # kd.power refuses negative integer powers, as NumPy's
            with pytest.raises(ValueError, match="negative integer powers"):
                kd.power(xa, xb)
            got = kd.power(xa, kd.asarray(np.where(b >= 0, b, 0).astype(dtype))).numpy()
            assert _same_bits(z[k][b >= 0], got[b >= 0]), f"power {dtype}: @kd.kernel and kd.power differ"
        else:
            got = getattr(kd, name)(xa, xb).numpy()
            assert _same_bits(z[k], got), f"{name} {dtype}: @kd.kernel and kd.{name}(arrays) differ"
        if dtype.startswith("int"):
            keep = b >= 0 if name == "power" else slice(None)  # NumPy refuses negative integer powers
            with np.errstate(all="ignore"):
                ref = ref_fn(a[keep], b[keep])
            assert np.array_equal(z[k][keep], ref), f"{name} {dtype}"  # x // 0 and x % 0 are 0, as in NumPy
            continue
        with np.errstate(all="ignore"):
            ref = ref_fn(a, b)
        rtol = (RTOL_F32 if dtype == "float32" else RTOL_F64).get(name, RTOL[dtype])
        _close(z[k], ref.astype(dtype), rtol, f"{name} {dtype}")


# ----- one semantics for operators, indices and dtypes -----------------------------------------------------

@kd.kernel
def _semantics(x: kd.f32[:], n: kd.i32, m: kd.i32, out: kd.f32[:], iout: kd.i32[:]):
    out[0] = x[0] ** -1
    out[1] = (x[1] - 4.0) ** 3.0  # (-2.0) ** 3.0
    out[2] = x[2] // 1.0  # inf // 1.0
    out[3] = x[3] % 0.0
    iout[0] = n % m  # 5 % 0
    iout[1] = n // m  # 5 // 0
    iout[2] = (-n) // 2
    iout[3] = (-n) % 3


def test_operators_follow_numpy_in_kernels():
    x = np.array([4.0, 2.0, np.inf, 5.0], np.float32)
    out, iout = np.zeros(4, np.float32), np.zeros(4, np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        _semantics[1](x, 5, 0, out, iout)
        ref = [np.float32(4.0) ** -1, np.float32(-2.0) ** np.float32(3.0), np.float32(np.inf) // np.float32(1),
               np.float32(5) % np.float32(0)]
        iref = [np.int32(5) % np.int32(0), np.int32(5) // np.int32(0), -5 // 2, -5 % 3]
    np.testing.assert_array_equal(out, ref)  # 0.25, -8, nan, nan (no NaN from pow of negatives)
    np.testing.assert_array_equal(iout, iref)  # integer division by zero gives 0, as in NumPy


@kd.kernel
def _negative_index(x: kd.f32[:], k: kd.i32, out: kd.f32[:]):
    i = kd.global_id(0)
    if i < out.shape[0]:
        out[i] = x[k - i]


def test_negative_index_computed_at_run_time_wraps():
    x = np.arange(6, dtype=np.float32)
    out = np.zeros(4, np.float32)
    _negative_index[4](x, 1, out)  # indices 1, 0, -1, -2
    np.testing.assert_array_equal(out, [x[1], x[0], x[-1], x[-2]])
    glsl = _negative_index.glsl(x, 1, out)
    assert "kd_wrap_i(" in glsl and "b_out[v_i]" in glsl  # i = kd.global_id(0) is >= 0: no wrapping cost


@kd.kernel
def _dtypes(x: kd.f32[:], i: kd.i32, u: kd.u32, out: kd.f64[:], k: kd.i64[:]):
    out[0] = x[0] * i  # float32 * int32 -> float32 in kernels (NumPy: float64; see docs/kernels.md)
    out[1] = x[0] * 2  # Python literals are weak: float32
    k[0] = i + u  # int32 + uint32 -> int64


def test_kernel_promotion_is_numpy_nep50():
    if "float64" not in kd.device().manager.features or "int64" not in kd.device().manager.features:
        pytest.skip("needs float64 and int64")
    x = np.array([0.1], np.float32)
    out, k = np.zeros(2), np.zeros(1, np.int64)
    _dtypes[1](x, 3, 2**32 - 1, out, k)
    assert out[0] == np.float32(np.float32(0.1) * np.float32(3))  # float32 arithmetic: a kernel asks for doubles
    assert out[1] == np.float64(np.float32(0.1) * np.float32(2))
    assert k[0] == 3 + 2**32 - 1  # no int32 wrap-around
    glsl = _dtypes.glsl(x, 3, 2**32 - 1, out, k)
    assert "int64_t(" in glsl


@kd.kernel
def _too_big(x: kd.i32[:]):
    x[0] = x[0] + 3000000000


def test_out_of_range_literal_is_refused_like_numpy():
    with pytest.raises(kd.KernelTypeError, match="Python integer 3000000000 out of bounds for int32"):
        _too_big.glsl(np.zeros(1, np.int32))
    with pytest.raises(OverflowError):
        kd.asarray(np.zeros(1, np.int32)) + 3000000000


@kd.kernel
def _f64(x: kd.f64[:], out: kd.f64[:]):
    out[0] = kd.exp(x[0])
    out[1] = kd.log(x[1])
    out[2] = x[2] ** x[3]


def test_float64_functions_have_the_float64_range():
    if "float64" not in kd.device().manager.features:
        pytest.skip("the device has no float64")
    x = np.array([300.0, 1e-300, 1.0000000000000002, np.inf])
    out = np.zeros(3)
    _f64[1](x, out)
    np.testing.assert_allclose(out, [np.exp(300.0), np.log(1e-300), np.inf], rtol=1e-15)
    arr = kd.asarray(x)
    assert float(kd.exp(arr)[0]) == out[0] and float(kd.log(arr)[1]) == out[1]
    assert float((arr[2:3] ** arr[3:4])[0]) == np.inf


def test_one_dtype_object_per_type():
    assert kd.f32 is kd.float32 and kd.f64 is kd.float64 and kd.i32 is kd.int32 and kd.u8 is kd.uint8
    assert kd.boolean is kd.bool is kd.bool_
    assert repr(kd.f32[:, :]) == "kdsl.float32[:, :]" and kd.f32(2) == np.float32(2)
    assert type(kd.f32(2)) is np.float32 and kd.i64[:].ndim == 1


@kd.kernel
def _long_loops(out: kd.i32[:]):
    s = 0
    for _ in range(40000):
        s += 1
    for _ in range(40000):
        s += 1
    out[0] = s


@kd.kernel
def _nested_loops(out: kd.i32[:], n: kd.i32):
    s = 0
    for _ in range(300):
        for _ in range(300):
            s += 1
    for _ in range(n):  # not constant: counts as one iteration
        s += 1
    out[0] = s


@kd.kernel
def _short_loops(out: kd.i32[:]):
    s = 0
    for _ in range(3000):
        for _ in range(20):
            s += 1
    out[0] = s


def test_loop_budget_warning_on_cpu_devices():
    out = np.zeros(1, np.int32)
    cpu = kd.device().manager.get_device_properties()["device_type"] == "cpu"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _short_loops[1](out)
    assert not [w for w in caught if "loops run" in str(w.message)] and out[0] == 60000
    for k, trips in ((_long_loops, 80000), (_nested_loops, 90300)):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            k[1](out) if k is _long_loops else k[1](out, 2)
        found = [w for w in caught if issubclass(w.category, RuntimeWarning) and "loops run" in str(w.message)]
        assert bool(found) == cpu, f"{k.__name__}: {[str(w.message) for w in caught]}"
        if cpu:
            assert f"run {trips} iterations" in str(found[0].message)
