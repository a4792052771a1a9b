"""Payne and Hanek's range reduction: ``x = k pi/2 + r`` exactly for every finite float and double.

:mod:`kdsl.codegen.trig` subtracts ``k pi/2`` with pi/2 in three parts; that is exact only while ``k`` is short.
Past that, this reduction: ``x = m 2**e`` (``m`` the integer significand) times ``2/pi`` is needed only modulo
4, and ``m 2**e b 2**-i`` for a bit ``b`` of 2/pi at position ``i < e - 1`` is a multiple of 4. So a window of
``32 n`` bits of 2/pi starting at position ``e - 1`` suffices (``n`` 32-bit words: 4 for float, 8 for double),
times ``m`` in 32-bit limbs (``umulExtended``/``uaddCarry``: core GLSL, no 64-bit integers), low ``32 n`` bits
kept: their top two bits are ``q = k mod 4``, the rest the fraction ``f`` of a quarter turn, in ``[0, 1)``.
``f >= 1/2`` rounds ``k`` up (``f - 1`` by complementing the bits, short by ``2**(2 - 32 n)``). Leading zeros of
``f`` (``x`` close to a multiple of pi/2: at most 61 in double, 6381956970095103 * 2**797 is the worst case)
are shifted out, and the next 48 (float) or 128 (double) bits times pi/2 in two parts give ``r`` as a
double-word value ``r + rl``: relatively accurate to ~2**-46 (float) or ~2**-104 (double), whatever ``x``.

The bits of 2/pi come from pi computed here with Python integers (Machin's formula), checked to be exact; the
shader picks its window's words by selects on the word index (5 values in float, 33 in double). The code is
straight-line (lavapipe counts loop iterations of an invocation against one budget).

Example:
    >>> hex(two_over_pi_bits(32))  # 2/pi = 0.63661977236... = 0xa2f9836e... / 2**32
    '0xa2f9836e'
    >>> "double kd_trigbig_d(double x, out double rl, out int q)" in reduction("d", "double", (1.57, 0.0), 60)
    True
"""

from __future__ import annotations


def _arctan_inv(n: int, bits: int) -> tuple[int, int]:
    """(``atan(1/n) 2**bits`` by its Taylor series, the number of terms): each term is the floor of its exact
    value, so the sum is off by less than the number of terms."""
    total, power, k = 0, (1 << bits) // n, 0
    while power:
        term = power // (2 * k + 1)  # power is floor(2**bits / n**(2k+1)) exactly: floor(floor(a)/b) = floor(a/b)
        total += -term if k % 2 else term
        power //= n * n
        k += 1
    return total, k


def two_over_pi_bits(nbits: int) -> int:
    """``floor(2/pi 2**nbits)``, exactly: pi from Machin's formula with guard bits, bracketed on both sides."""
    guard = nbits + 64
    (a, ka), (b, kb) = _arctan_inv(5, guard), _arctan_inv(239, guard)
    pi, slack = 4 * (4 * a - b), 16 * ka + 4 * kb  # pi 2**guard, off by less than slack
    lo, hi = ((1 << (nbits + guard + 1)) // (pi + d) for d in (slack, -slack))
    if lo != hi:  # needs a run of ~60 equal bits in 2/pi right after the first nbits
        raise ArithmeticError("more guard bits needed for 2/pi")
    return lo


def _table(n: int, e_min: int, e_max: int) -> tuple[int, list[int]]:
    """(pad, words): 2/pi's bits as 32-bit words, ``pad`` zero words first, so that the window of ``n`` words
    (plus one for the shift) at bit ``e - 2 + 32 pad`` exists for every exponent ``e`` in ``[e_min, e_max]``."""
    pad = max(0, -((e_min - 2) // 32))
    count = (e_max - 2 + 32 * pad) // 32 + n + 1 - pad
    bits = two_over_pi_bits(32 * count)
    return pad, [0] * pad + [(bits >> (32 * (count - 1 - i))) & 0xFFFFFFFF for i in range(count)]


def _window(words: list[int], n: int) -> list[str]:
    """GLSL lines for ``t0 .. t{n}`` = ``words[j] .. words[j + n]``: chains of selects on ``j``, not an indexed
    constant array (lavapipe's LLVM takes ~15 s to compile 9 dynamic reads of a 40-word array, this 0.3 s)."""
    out = []
    for k in range(n + 1):
        chain = f"0x{words[k]:08x}u"
        for j in range(1, len(words) - n):
            chain = f"j == {j} ? 0x{words[j + k]:08x}u : {chain}"
        out.append(f"uint t{k} = {chain};")
    return out


def _product(limbs: list[str], n: int) -> list[str]:
    """GLSL lines for ``p0 .. p{n-1}``: the low ``n`` words of ``limbs`` (little-endian) times ``n0 .. n{n-1}``
    (little-endian), column by column; each column's carries are counted into the next."""
    lines: list[str] = ["uint cy;"]
    cols: list[list[str]] = [[] for _ in range(n)]
    for i, m in enumerate(limbs):
        for k in range(n - i):
            lines.append(f"uint h{i}_{k}, l{i}_{k};")
            lines.append(f"umulExtended({m}, n{k}, h{i}_{k}, l{i}_{k});")
            cols[i + k].append(f"l{i}_{k}")
            if i + k + 1 < n:
                cols[i + k + 1].append(f"h{i}_{k}")
    carry: list[str] = []  # the previous column's carry count, where it has one
    for c, col in enumerate(cols):
        terms = col + carry
        lines.append(f"uint p{c} = {terms[0]};")
        carry = [f"c{c}"] if len(terms) > 1 and c + 1 < n else []
        lines += [f"uint {v} = 0u;" for v in carry]
        for t in terms[1:]:
            lines.append(f"p{c} = uaddCarry(p{c}, {t}, cy);" + "".join(f" {v} += cy;" for v in carry))
    return lines


def _shift_words(names: list[str], by: str) -> list[str]:
    """GLSL lines shifting the words ``names`` (most significant first) left by ``by`` bits, ``0 <= by < 32``:
    ``(w >> 1) >> (31 - by)`` is the next word's top bits, also for ``by = 0`` (a shift by 32 is undefined)."""
    out = [f"{a} = ({a} << {by}) | (({b} >> 1) >> (31 - {by}));" for a, b in zip(names, names[1:], strict=False)]
    return [*out, f"{names[-1]} = {names[-1]} << {by};"]


_BITS = {  # significand limbs (little-endian) and exponent of a positive normal x = m 2**e
    "f": ("uint u = floatBitsToUint(x);\n    int e = int(u >> 23) - 150;", ["((u & 0x7fffffu) | 0x800000u)"]),
    "d": ("uvec2 u = unpackDouble2x32(x);\n    int e = int(u.y >> 20) - 1075;",
          ["u.x", "((u.y & 0xfffffu) | 0x100000u)"]),
}
# The fraction's words, most significant first, as the value hi + lo in [1/2, 1) (before the 2**-lz scale).
_TO_FLOAT = {
    "f": """float hi = float(f{n1} >> 8) * 5.9604644775390625e-08;
    float lo = float(((f{n1} & 0xffu) << 16) | (f{n2} >> 16)) * 3.552713678800501e-15;""",
    "d": """double lo;
    double hi = kd_twosum_d(double(f{n1}) * 2.3283064365386963e-10LF, double(f{n2}) * 5.421010862427522e-20LF, lo);
    lo += double(f{n3}) * 1.2621774483536189e-29LF + double(f{n4}) * 2.938735877055719e-39LF;""",
}


def reduction(s: str, t: str, pio2: tuple[float, float], limit_exp: int) -> str:
    """GLSL of ``kd_trigbig_<s>(x, out rl, out q)``: ``x = k pi/2 + r + rl`` with ``q = k mod 4``, ``|r| <= pi/4``,
    for finite ``|x| >= 2**limit_exp`` of type ``t`` (``s``: "f" or "d"); ``pio2``: pi/2 as two values of ``t``
    (the nearest, then the nearest to the rest)."""
    n = 4 if s == "f" else 8
    sig = 24 if s == "f" else 53
    bias = 127 if s == "f" else 1023
    pad, words = _table(n, limit_exp - (sig - 1), bias - (sig - 1))
    lit = (lambda v: f"{v!r}LF") if s == "d" else repr
    bits_of_x, limbs = _BITS[s]
    window = "\n    ".join(_window(words, n) + [
        f"uint n{n - 1 - k} = (t{k} << sh) | ((t{k + 1} >> 1) >> (31 - sh));" for k in range(n)])
    product = "\n    ".join(_product(["m0", "m1"][: len(limbs)], n))
    # q and the fraction: bits 32n-1, 32n-2 of the product, then the rest shifted to the top
    frac = "\n    ".join(f"uint f{k} = (p{k} << 2) | (p{k - 1} >> 30);" for k in range(n - 1, 0, -1))
    names = [f"f{k}" for k in range(n - 1, -1, -1)]
    # at most 61 leading zeros (double) or 30 (float) occur: skip up to two whole words (one in float)
    skips = "\n    ".join(f"if ({names[0]} == 0u) {{ " + " ".join(f"{a} = {b};" for a, b in zip(names, names[1:],
                                                                                                  strict=False))
                          + f" {names[-1]} = 0u; lz += 32; }}" for _ in range(2 if s == "d" else 1))
    top = names[: 4 if s == "d" else 2]
    shift = "\n    ".join(_shift_words(top, "z"))
    convert = _TO_FLOAT[s].format(**{f"n{i + 1}": name[1:] for i, name in enumerate(top)})
    m_decl = "\n    ".join(f"uint m{i} = {limb};" for i, limb in enumerate(limbs))
    return f"""{t} kd_trigbig_{s}({t} x, out {t} rl, out int q) {{
    {t} ax = abs(x);
    {bits_of_x.replace("(x)", "(ax)")}
    {m_decl}
    // the window of 2/pi from bit e - 1 on (bit 1 is worth 1/2), after {pad} zero words
    int b = e + {32 * pad - 2};
    int j = b >> 5;
    int sh = b & 31;
    {window}
    {product}
    uint k4 = p{n - 1} >> 30;
    {frac}
    uint f0 = p0 << 2;
    bool neg = f{n - 1} >= 0x80000000u;
    if (neg) {{  // f >= 1/2: k + 1 and f - 1, as -(1 - f)
        k4 += 1u;
        {" ".join(f"{v} = ~{v};" for v in names)}
    }}
    int lz = 0;
    {skips}
    int z = clamp(31 - findMSB({names[0]}), 0, 31);
    lz += z;
    {shift}
    {convert}
    {t} e1;
    {t} r = kd_twoprod_{s}(hi, {lit(pio2[0])}, e1);
    {t} r2 = e1 + (hi * {lit(pio2[1])} + lo * {lit(pio2[0])});
    {t} rlo;
    r = kd_twosum_{s}(r, r2, rlo);
    {t} scale = (neg != (x < {lit(0.0)})) ? -ldexp({lit(1.0)}, -lz) : ldexp({lit(1.0)}, -lz);
    rl = rlo * scale;
    q = int(x < {lit(0.0)} ? (4u - k4) & 3u : k4 & 3u);
    return r * scale;
}}"""
