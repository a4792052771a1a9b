"""Complex elementary functions added to the GLSL helper library - tan, sinh, cosh, the inverse trigonometric and
hyperbolic functions, log1p, expm1, exp2, log2, log10 - against NumPy: random values of several magnitudes,
branch cuts (the sign of a zero component picks the side), the special-value grid, and accuracy near 0 (where
NumPy's own log1p loses it: mpmath is the reference there)."""

import mpmath
import numpy as np
import pytest
from cx_testing import ARITH_RTOL, CDTYPES, FUNC_RTOL, assert_complex_close, need, special_grid

import kdsl as kd

INVERSE = ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"]
LOGS = ["log1p", "log2", "log10"]
PERIODIC = ["tan", "sinh", "cosh", "expm1", "exp2"]  # sin/cos of one component: moderate magnitudes only
ALL = INVERSE + LOGS + PERIODIC + ["square", "sqrt"]
GRID = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 1e-30, 1e30]


def _sample(cd: str, scale: float, n: int = 48, seed: int = 3) -> np.ndarray:
    """Components of magnitude ~scale, both signs, the two components' magnitudes spread over a factor 100."""
    rng = np.random.default_rng(seed)
    mag = scale * 10.0 ** rng.uniform(-1, 1, (2, n))
    sign = rng.choice([-1.0, 1.0], (2, n))
    return (mag[0] * sign[0] + 1j * mag[1] * sign[1]).astype(cd)


def _numpy(name: str, z: np.ndarray) -> np.ndarray:
    """NumPy's result; expm1 of non-finite results and of 0 is exp(z) - 1 (C99's and the array API's special
    values: NumPy's expm1(inf + 0j) is inf + NaN j and expm1(-0 + 0j) -0 + 0j, kdsl's and the standard's inf + 0j
    and 0 + 0j)."""
    with np.errstate(all="ignore"):
        want = getattr(np, name)(z)
        if name == "log1p":  # NumPy's log(1 + z) loses the relative accuracy near 0: mpmath's there
            want = _mpmath_log1p(z, want)
        if name == "expm1":
            e = np.exp(z) - z.dtype.type(1)
            want = np.where(np.isfinite(want), want, e).astype(z.dtype)
            want = np.where(z == 0, e, want).astype(z.dtype)  # exp(-0 + 0j) - 1 = +0 + 0j (NumPy: -0 + 0j)
    return want


def _mpmath_log1p(z: np.ndarray, numpy_result: np.ndarray) -> np.ndarray:
    """log(1 + z) to 40 digits where 0 < |z| < 1/2; zero components keep NumPy's sign."""
    out = numpy_result.copy()
    with mpmath.workdps(40):
        for i, w in enumerate(z.tolist()):
            if 0 < abs(w) < 0.5:
                v = complex(mpmath.log(1 + mpmath.mpc(w)))
                out[i] = complex(v.real if v.real != 0 else numpy_result[i].real,
                                 v.imag if v.imag != 0 else numpy_result[i].imag)
    return out


def _run(name: str, z: np.ndarray) -> kd.Array:
    return getattr(kd, name)(kd.asarray(z))


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ALL)
@pytest.mark.parametrize("scale", [1e-3, 0.7, 3.0])
def test_random_moderate(cd, name, scale):
    need(cd)
    z = _sample(cd, scale)
    assert_complex_close(_run(name, z), _numpy(name, z), FUNC_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", INVERSE + LOGS + ["sqrt"])
@pytest.mark.parametrize("scale", [1e4, 1e15, 1e30])
def test_random_large(cd, name, scale):
    """Past the thresholds where asin/acos/atanh switch to their asymptotic forms, and near overflow."""
    need(cd)
    z = _sample(cd, scale)
    assert_complex_close(_run(name, z), _numpy(name, z), FUNC_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ["arcsin", "arctan", "arcsinh", "arctanh", "tan", "sinh", "log1p", "expm1"])
def test_relative_accuracy_near_zero(cd, name):
    """Functions that vanish at 0 keep their relative accuracy for tiny arguments (mpmath is the reference:
    NumPy's log1p(1e-20 + 1e-20j) is 0)."""
    need(cd)
    z = _sample(cd, 1e-12 if cd == "complex64" else 1e-20, n=16)
    f = {"arcsin": mpmath.asin, "arctan": mpmath.atan, "arcsinh": mpmath.asinh,
         "arctanh": mpmath.atanh, "tan": mpmath.tan, "sinh": mpmath.sinh,
         "log1p": lambda w: mpmath.log(1 + w), "expm1": mpmath.expm1}[name]
    with mpmath.workdps(40):
        want = np.array([complex(f(mpmath.mpc(complex(w)))) for w in z.tolist()], cd)
    assert_complex_close(_run(name, z), want, FUNC_RTOL[cd], zero_sign=False)


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ["arcsin", "arccos", "arccosh", "arctanh", "log1p"])
def test_accuracy_near_branch_points(cd, name):
    """Near +-1 (and -1 for log1p), where A - 1 and 1 - |z|^2 cancel in the textbook formulas."""
    need(cd)
    eps = np.finfo(np.dtype(cd).type(0).real.dtype).eps
    d = np.array([eps, 16 * eps, 1e-3, 0.0])
    pts = [c + s * dx + 1j * t * dy for c in (1.0, -1.0) for s in (1, -1) for t in (1, -1)
           for dx in d for dy in d[:3]]
    z = np.array(pts, cd)
    with mpmath.workdps(40):
        f = {"arcsin": mpmath.asin, "arccos": mpmath.acos, "arccosh": mpmath.acosh, "arctanh": mpmath.atanh,
             "log1p": lambda w: mpmath.log(1 + w)}[name]
        want = np.array([complex(f(mpmath.mpc(complex(w)))) for w in z.tolist()], cd)
    assert_complex_close(_run(name, z), want, FUNC_RTOL[cd], zero_sign=False)


CUTS = {  # points on each function's branch cuts, approached from both sides by the sign of the zero component
    "arcsin": [1.5, 3.0, 1e3, -1.5, -3.0, -1e3], "arccos": [1.5, 3.0, 1e3, -1.5, -3.0, -1e3],
    "arctanh": [1.5, 3.0, 1e3, -1.5, -3.0, -1e3], "arccosh": [0.5, 0.0, -0.5, -1.5, -1e3],
    "log1p": [-1.5, -3.0, -1e3], "log2": [-0.5, -3.0, -1e3], "log10": [-0.5, -3.0, -1e3],
    "arcsinh": [1.5j, 3j, 1e3j, -1.5j, -3j, -1e3j], "arctan": [1.5j, 3j, 1e3j, -1.5j, -3j, -1e3j],
}


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", sorted(CUTS))
def test_branch_cuts(cd, name):
    need(cd)
    pts = []
    for p in CUTS[name]:
        p = complex(p)
        if p.imag == 0:
            pts += [complex(p.real, 0.0), complex(p.real, -0.0)]
        else:
            pts += [complex(0.0, p.imag), complex(-0.0, p.imag)]
    z = np.array(pts, cd)
    assert_complex_close(_run(name, z), _numpy(name, z), FUNC_RTOL[cd])


def _grid_mask(name: str, g: np.ndarray, cd: str) -> np.ndarray:
    """The grid elements compared: the documented differences left out - sin/cos of 1e30 (the trigonometric
    component of tan's real part, of sinh/cosh/expm1/exp2's imaginary part; docs/complex.md) and complex64
    squares whose partial products overflow (NumPy fuses them)."""
    keep = np.ones(g.shape, bool)
    big = g.real.dtype.type(1e30)
    if name == "tan":
        keep &= np.abs(g.real) != big
    if name in ("sinh", "cosh", "expm1", "exp2"):
        keep &= np.abs(g.imag) != big
    if name == "square" and cd == "complex64":
        keep &= (np.abs(g.real) != big) & (np.abs(g.imag) != big)
    return keep


@pytest.mark.parametrize("cd", CDTYPES)
@pytest.mark.parametrize("name", ALL)
def test_special_value_grid(cd, name):
    """Every (real, imag) pair of 0, -0, 1, -1, inf, -inf, NaN, 1e-30, 1e30: NaN and inf placement, signs of
    infinities and zeros as NumPy (C99 Annex G)."""
    need(cd)
    g = special_grid(cd, GRID)
    g = g[_grid_mask(name, g, cd)]
    rtol = ARITH_RTOL[cd] if name == "square" else FUNC_RTOL[cd]
    assert_complex_close(_run(name, g), _numpy(name, g), rtol, atol=1e-30)


def test_fused_expression_and_scalar_promotion():
    """The new functions fuse like the others and promote real operands the NumPy way."""
    z = np.array([0.3 + 0.4j, -2 + 1j, 5j], np.complex64)
    x = kd.asarray(z)
    got = kd.arcsinh(x) + kd.log1p(x) * kd.tan(x)
    want = np.arcsinh(z) + np.log1p(z) * np.tan(z)
    assert_complex_close(got, want, FUNC_RTOL["complex64"])
    r = kd.asarray(np.array([2.0, -3.0], np.float32)) + 0j
    assert_complex_close(kd.arccos(r), np.arccos(np.array([2.0, -3.0], np.float32) + 0j), FUNC_RTOL["complex64"])
