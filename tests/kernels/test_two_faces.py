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
RTOL_F64 = {"power": 1e-15, "tan": 1e-15}
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
    """Within rtol relatively or, in float32, 1.2e-7 absolutely (lavapipe's float32 log near 1, sin near pi);
    values that are 0 or inf in NumPy must match exactly, -0.0 included."""
    tiny = np.finfo(got.dtype).tiny
    exact = ~np.isfinite(ref) | (ref == 0)
    assert np.array_equal(got[exact], ref[exact], equal_nan=True), \
        f"{what}: {got[exact]} vs NumPy {ref[exact]}"
    assert np.array_equal(np.signbit(got[ref == 0]), np.signbit(ref[ref == 0])), f"{what}: the sign of zero"
    with np.errstate(all="ignore"):
        err = np.abs(got - ref) / np.maximum(np.abs(ref), tiny)
    atol = 1.2e-7 if got.dtype == np.float32 else 0.0
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
        elif name in ("sin", "cos", "tan"):  # NaN past 2**60, where kdsl's 159 bits of pi end (documented)
            far = np.abs(x) >= 2.0 ** 60
            assert np.isnan(y[k][far]).all()
            _close(y[k][~far], ref[~far], rtol, f"{name} {dtype}")
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
