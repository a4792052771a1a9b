"""sin, cos and tan in GLSL for float and double, from one generator, with NumPy-like accuracy everywhere.

GLSL has no double trigonometry, and its float ``sin``/``cos`` are allowed any accuracy: NVIDIA's have an
*absolute* error near 1e-7, so ``sin(1e-13)`` can be 0 and every relative digit of a small result is lost
(complex ``sinh``, ``tan`` and ``expm1`` near zero inherit it). kdsl computes them itself, identically on every
device:

* reduction ``x = k pi/2 + r`` in double-word arithmetic: pi/2 in three parts, each product ``k * part`` exact
  (Dekker's product with Veltkamp's split, no ``fma``: lavapipe's double ``fma`` is not fused), summed with
  Knuth's two-sums, and a second pass for what a rounded ``k`` left (on devices whose ``fma`` rounds once,
  :data:`FUSED` does the same in half the operations: :mod:`kdsl.codegen.fused_fma`). Exact to the last bit
  while the three parts cover ``k``'s bits well enough: ``|x| < 2**17`` in float, ``|x| < 2**36`` in double
  (pi's 159 bits leave ``k 2**-158``, under 2**-8 ulp of the smallest ``|r|`` any double has, 2**-61; at
  2**56 and beyond that error reaches 13 ulps);
* beyond, up to the largest finite value, Payne and Hanek's reduction (:mod:`kdsl.codegen.payne_hanek`): the
  bits of 2/pi that matter times the significand in 32-bit integer limbs, exact whatever ``x``, on a branch of
  its own so that the common case does not pay for it;
* Taylor polynomials on ``|r| <= pi/4`` in Horner form, long enough that truncation is below the last bit
  (``cos`` as ``1 - z/2`` plus its rounding error, Kahan's trick); ``q = k mod 4`` picks the function and sign;
* ``sin(+-0) = +-0`` and ``tan(+-0) = +-0``; ``inf`` and NaN give NaN. Every helper is ``precise``.

Measured against exact values (tests/precision/test_trig_*.py), over the whole finite range incl. the arguments
closest to multiples of pi/2: ``sin``/``cos`` within 0.83 ulp (float32) and 0.87 ulp (float64; NumPy's, glibc's,
0.51 on random arguments but 1e5 ulps off at some of the hardest), ``tan`` within 1 ulp (sin and cos of the
reduced argument carried in two parts, the quotient corrected by its exact residual: 2.1 and 1.9 ulp as a plain
quotient). The rounding of the polynomials, not the reduction, sets these: at the hardest arguments the results
are within 0.5 ulp.

Example:
    >>> "float kd_sin_f(float x)" in LIBRARY["kd_sin_f"], "double kd_cos_d(double x)" in LIBRARY["kd_cos_d"]
    (True, True)
"""

from __future__ import annotations

from decimal import Decimal, getcontext
from fractions import Fraction
from math import factorial

import numpy as np

from kdsl.codegen import payne_hanek

getcontext().prec = 60
# pi/2 to 55 digits (Decimal: Python's float has 17)
_PIO2 = Decimal("1.570796326794896619231321691639751442098584699687552910487")


def _parts(np_type: type) -> tuple[float, float, float]:
    """pi/2 as three values of ``np_type``, each the nearest to what the ones before it leave."""
    rest, out = Fraction(_PIO2), []
    for _ in range(3):  # each part need not be the nearest value, only exactly what the sum subtracts
        p = float(np_type(float(rest)))
        out.append(p)
        rest -= Fraction(p)
    return out[0], out[1], out[2]


class _Width:
    """What differs between the float and double versions."""

    def __init__(self, s: str, t: str, np_type: type, split: str, limit_exp: int, sin_n: int, cos_n: int):
        self.s, self.t, self.np_type, self.split, self.limit_exp = s, t, np_type, split, limit_exp
        self.limit = self.lit(2.0**limit_exp)
        self.sin_n, self.cos_n = sin_n, cos_n
        self.pio2 = _parts(np_type)

    def lit(self, v: float) -> str:
        text = repr(float(self.np_type(v)))
        return text + "LF" if self.t == "double" else text

    def horner(self, coefs: list[float], var: str, fused: bool = False) -> str:
        text = self.lit(coefs[-1])
        for c in reversed(coefs[:-1]):
            text = f"fma({var}, {text}, {self.lit(c)})" if fused else f"{self.lit(c)} + {var} * ({text})"
        return text

    @property
    def nan(self) -> str:
        return "uintBitsToFloat(0x7fc00000u)" if self.t == "float" else "double(uintBitsToFloat(0x7fc00000u))"


# Veltkamp's split constant 2**ceil(p/2) + 1; Taylor terms: r**(2n+1)/(2n+1)! below 2**-p at |r| = pi/4.
_WIDTHS = (_Width("f", "float", np.float32, "4097.0", 17, 5, 6),
           _Width("d", "double", np.float64, "134217729.0LF", 36, 10, 11))


def _library(w: _Width) -> dict[str, str]:
    T, S, L = w.t, w.s, w.lit
    p1, p2, p3 = w.pio2
    two_over_pi = L(float(1 / _PIO2))  # 2/pi
    sin_poly = w.horner([(-1) ** n / factorial(2 * n + 1) for n in range(1, w.sin_n + 1)], "z")
    cos_poly = w.horner([(-1) ** n / factorial(2 * n) for n in range(2, w.cos_n + 1)], "z")
    # a second pass takes out what a rounded k left: in float below 2**17, x * 2/pi is off by < 2**-7, so k is
    # off by one only where |r| exceeds pi/4 by < 0.01, which the polynomials cover: one pass, half the code
    second = f"""    {T} lo;
    {T} r = kd_trigsub_{S}(x, {L(0)}, k, lo);
    {T} k2 = floor(r * {two_over_pi} + {L(0.5)});
    r = kd_trigsub_{S}(r, lo, k2, rl);
    q = int(mod(mod(k, {L(4)}) + mod(k2, {L(4)}), {L(4)}));
    return r;"""
    # sin, cos and tan start alike: x reduced to r + rl in [-pi/4, pi/4] and its quadrant q
    reduced = f"""int q;
    {T} rl;
    {T} r = kd_trigred_{S}(x, rl, q);"""
    if T == "float":
        second = f"""    q = int(mod(k, {L(4)}));
    return kd_trigsub_{S}(x, {L(0)}, k, rl);"""
    return {
        # a * b = p + e exactly (Dekker's product with Veltkamp's split)
        f"kd_twoprod_{S}": f"""{T} kd_twoprod_{S}({T} a, {T} b, out {T} e) {{
    {T} ca = {w.split} * a;
    {T} ah = ca - (ca - a);
    {T} al = a - ah;
    {T} cb = {w.split} * b;
    {T} bh = cb - (cb - b);
    {T} bl = b - bh;
    {T} p = a * b;
    {T} err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
    e = err;
    return p;
}}""",
        # a + b = s + e exactly (Knuth's two-sum)
        f"kd_twosum_{S}": f"""{T} kd_twosum_{S}({T} a, {T} b, out {T} e) {{
    {T} s = a + b;
    {T} bb = s - a;
    {T} err = (a - (s - bb)) + (b - bb);
    e = err;
    return s;
}}""",
        # (x + xl) - k pi/2 as a double-word value (returned + lo)
        f"kd_trigsub_{S}": f"""{T} kd_trigsub_{S}({T} x, {T} xl, {T} k, out {T} lo) {{
    {T} e1, e2, t1, t2, t3;
    {T} p1 = kd_twoprod_{S}(k, {L(p1)}, e1);
    {T} p2 = kd_twoprod_{S}(k, {L(p2)}, e2);
    {T} s = kd_twosum_{S}(x, -p1, t1);
    s = kd_twosum_{S}(s, -e1, t2);
    s = kd_twosum_{S}(s, -p2, t3);
    {T} l = (((xl + t1) + t2) + t3) - (e2 + k * {L(p3)});
    return kd_twosum_{S}(s, l, lo);
}}""",
        # x = k pi/2 + r (r + rl, |r| <= pi/4 about), q = k mod 4; Payne-Hanek past the exact range
        f"kd_trigbig_{S}": payne_hanek.reduction(S, T, (p1, p2), w.limit_exp),
        f"kd_trigred_{S}": f"""{T} kd_trigred_{S}({T} x, out {T} rl, out int q) {{
    if (!(abs(x) < {w.limit})) {{
        if (isinf(x) || isnan(x)) {{ q = 0; rl = {L(0)}; return {w.nan}; }}
        return kd_trigbig_{S}(x, rl, q);
    }}
    {T} k = floor(x * {two_over_pi} + {L(0.5)});
{second}
}}""",
        # sin(r + rl) and cos(r + rl) for rl below r's last bit: sin r + rl, cos r - r rl
        f"kd_sinr_{S}": f"""{T} kd_sinr_{S}({T} r, {T} rl) {{
    {T} z = r * r;
    return r + (r * z * ({sin_poly}) + rl);
}}""",
        f"kd_cosr_{S}": f"""{T} kd_cosr_{S}({T} r, {T} rl) {{
    {T} z = r * r;
    {T} hz = {L(0.5)} * z;
    {T} w = {L(1)} - hz;
    return w + ((({L(1)} - w) - hz) + (z * z * ({cos_poly}) - r * rl));
}}""",
        f"kd_sin_{S}": f"""{T} kd_sin_{S}({T} x) {{
    if (isinf(x) || isnan(x)) return {w.nan};
    if (x == {L(0)}) return x;
    {reduced}
    {T} v = (q == 0 || q == 2) ? kd_sinr_{S}(r, rl) : kd_cosr_{S}(r, rl);
    return q >= 2 ? -v : v;
}}""",
        f"kd_cos_{S}": f"""{T} kd_cos_{S}({T} x) {{
    if (isinf(x) || isnan(x)) return {w.nan};
    {reduced}
    {T} v = (q == 0 || q == 2) ? kd_cosr_{S}(r, rl) : kd_sinr_{S}(r, rl);
    return (q == 1 || q == 2) ? -v : v;
}}""",
        # sin(r + rl) and cos(r + rl) as value + lo for tan: the sum that rounds last gives its error back
        # (Fast2Sum: r, w are the larger terms), cos's r*r exact (Dekker's product)
        f"kd_sinrl_{S}": f"""{T} kd_sinrl_{S}({T} r, {T} rl, out {T} lo) {{
    {T} z = r * r;
    {T} t = r * z * ({sin_poly}) + rl;
    {T} s = r + t;
    lo = t - (s - r);
    return s;
}}""",
        f"kd_cosrl_{S}": f"""{T} kd_cosrl_{S}({T} r, {T} rl, out {T} lo) {{
    {T} ze;
    {T} z = kd_twoprod_{S}(r, r, ze);
    {T} hz = {L(0.5)} * z;
    {T} w = {L(1)} - hz;
    {T} t = (({L(1)} - w) - hz) + (z * z * ({cos_poly}) - (r * rl + {L(0.5)} * ze));
    {T} c = w + t;
    lo = t - (c - w);
    return c;
}}""",
        # tan = n / d with n, d = sin, cos (or cos, -sin) as value + lo: the quotient t corrected by the exact
        # residual n - t d (Dekker's product): rounds about once (s / c of two rounded values was 2 ulp off)
        f"kd_tan_{S}": f"""{T} kd_tan_{S}({T} x) {{
    if (isinf(x) || isnan(x)) return {w.nan};
    if (x == {L(0)}) return x;
    {reduced}
    {T} sl, cl;
    {T} s = kd_sinrl_{S}(r, rl, sl);
    {T} c = kd_cosrl_{S}(r, rl, cl);
    bool odd = q == 1 || q == 3;
    {T} n = odd ? c : s;
    {T} nl = odd ? cl : sl;
    {T} d = odd ? s : c;
    {T} dl = odd ? sl : cl;
    {T} t = n / d;
    {T} pe;
    {T} p = kd_twoprod_{S}(t, d, pe);
    {T} v = t + (((n - p) - pe) + (nl - t * dl)) / d;
    return odd ? -v : v;
}}""",
    }


LIBRARY: dict[str, str] = {name: code for w in _WIDTHS for name, code in _library(w).items()}


def _fused_library(w: _Width) -> dict[str, str]:
    """The helpers of :func:`_library` that a fused ``fma`` makes shorter, for :data:`FUSED`."""
    T, S, L = w.t, w.s, w.lit
    p1, p2, p3 = w.pio2
    sin_poly = w.horner([(-1) ** n / factorial(2 * n + 1) for n in range(1, w.sin_n + 1)], "z", fused=True)
    cos_poly = w.horner([(-1) ** n / factorial(2 * n) for n in range(2, w.cos_n + 1)], "z", fused=True)
    return {
        # the same p and e as Dekker's product (both are exact), in 2 operations instead of 17
        f"kd_twoprod_{S}": f"""{T} kd_twoprod_{S}({T} a, {T} b, out {T} e) {{
    {T} p = a * b;
    e = fma(a, b, -p);
    return p;
}}""",
        # x - k p1 is exact in one fma: below the exact range's limit it is smaller than 1 and a multiple of
        # the larger of ulp(x) and ulp(p1) (k is an integer), so it fits the significand; the two-sums of
        # the portable version that caught its rounding error are gone with it
        f"kd_trigsub_{S}": f"""{T} kd_trigsub_{S}({T} x, {T} xl, {T} k, out {T} lo) {{
    {T} e, t;
    {T} s1 = fma(-k, {L(p1)}, x);
    {T} p = kd_twoprod_{S}(k, {L(p2)}, e);
    {T} s = kd_twosum_{S}(s1, -p, t);
    {T} l = ((xl + t) - e) - k * {L(p3)};
    return kd_twosum_{S}(s, l, lo);
}}""",
        f"kd_sinr_{S}": f"""{T} kd_sinr_{S}({T} r, {T} rl) {{
    {T} z = r * r;
    return r + fma(r * z, {sin_poly}, rl);
}}""",
        f"kd_cosr_{S}": f"""{T} kd_cosr_{S}({T} r, {T} rl) {{
    {T} z = r * r;
    {T} hz = {L(0.5)} * z;
    {T} w = {L(1)} - hz;
    return w + ((({L(1)} - w) - hz) + fma(z * z, {cos_poly}, -r * rl));
}}""",
    }


FUSED: dict[str, str] = {name: code for w in _WIDTHS for name, code in _fused_library(w).items()}
"""Bodies of some :data:`LIBRARY` helpers for devices whose ``fma`` rounds once (:mod:`kdsl.codegen.fused_fma`
swaps them in): the same error-free products in 2 operations instead of 17, the reduction's first step in one
exact ``fma``, and Horner steps as ``fma``. About half the operations of ``sin``/``cos``: on an H200 a float32
``sin`` inside a chain at memory speed otherwise costs ~15% of the chain's time."""
