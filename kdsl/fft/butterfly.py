"""GLSL of a length-R DFT done in registers (forward sign ``exp(-2 pi i q r / R)``), R any 7-smooth number.

Composite radices split as ``R = R1 * R2`` (decimation in time: ``R2`` DFTs of length ``R1`` over the inputs
``R2 * n1 + n2``, constant twiddles ``W_R^(n2 k1)``, ``R1`` DFTs of length ``R2``), so radix 16 is two radix-4
levels (144 real additions and 24 real multiplications instead of the 480 multiplications of a direct DFT).
Twiddles that are powers of ``-i`` are swaps and signs; the others are float64 constants printed as literals
(``LF`` for doubles). Primes 3, 5 and 7 pair ``r`` with ``R - r`` (half the multiplications).

Example:
    >>> b = Butterfly("vec2")
    >>> b.dft(["x0", "x1"])
    ['z0', 'z1']
    >>> b.lines
    ['vec2 z0 = x0 + x1;', 'vec2 z1 = x0 - x1;']
"""

from __future__ import annotations

import math


class Butterfly:
    """Emits the lines of DFTs over named ``vec`` variables (``vec2`` or ``dvec2``) into ``lines``."""

    def __init__(self, vec: str):
        self.vec = vec
        self.lines: list[str] = []
        self._count = 0

    def dft(self, x: list[str]) -> list[str]:
        """Names of the ``len(x)`` outputs, in order, of the DFT of the variables ``x``."""
        n = len(x)
        if n == 1:
            return list(x)
        if n == 2:
            return [self._let(f"{x[0]} + {x[1]}"), self._let(f"{x[0]} - {x[1]}")]
        f1 = 4 if n % 4 == 0 and n > 4 else _smallest_factor(n)
        if f1 == n:
            return self._prime(x)
        f2 = n // f1
        inner = [self.dft([x[f2 * i + k] for i in range(f1)]) for k in range(f2)]  # inner[n2][k1]
        turned = [[self.twiddle(inner[k][i], k * i, n) for i in range(f1)] for k in range(f2)]
        out = [""] * n
        for i in range(f1):
            for q, name in enumerate(self.dft([turned[k][i] for k in range(f2)])):
                out[i + f1 * q] = name
        return out

    def twiddle(self, a: str, e: int, n: int) -> str:
        """``a * W_n^e`` with the exact cases (powers of ``-i``) as swaps and signs."""
        e %= n
        if e == 0:
            return a
        if 4 * e == n:
            return self._let(f"{self.vec}({a}.y, -{a}.x)")
        if 2 * e == n:
            return self._let(f"-{a}")
        if 4 * e == 3 * n:
            return self._let(f"{self.vec}(-{a}.y, {a}.x)")
        c, s = math.cos(2 * math.pi * e / n), -math.sin(2 * math.pi * e / n)
        if 8 * e == n:  # (1 - i) / sqrt 2
            return self._let(f"{self.vec}({a}.x + {a}.y, {a}.y - {a}.x) * {self._num(c)}")
        if 8 * e == 3 * n:  # (-1 - i) / sqrt 2
            return self._let(f"{self.vec}({a}.y - {a}.x, -{a}.x - {a}.y) * {self._num(-s)}")
        return self._let(f"{self.vec}({a}.x * {self._num(c)} - {a}.y * {self._num(s)}, "
                         f"{a}.x * {self._num(s)} + {a}.y * {self._num(c)})")

    def _prime(self, x: list[str]) -> list[str]:
        """Direct DFT of an odd prime length: ``X_q = x_0 + sum_r (x_r + x_-r) cos - i (x_r - x_-r) sin``."""
        n = len(x)
        half = (n - 1) // 2
        sums = [self._let(f"{x[r]} + {x[n - r]}") for r in range(1, half + 1)]
        diffs = [self._let(f"{x[r]} - {x[n - r]}") for r in range(1, half + 1)]
        rot = [self._let(f"{self.vec}({d}.y, -{d}.x)") for d in diffs]  # -i * d
        out = [self._let(" + ".join([x[0], *sums]))]
        for q in range(1, n):
            terms = [x[0]]
            for r in range(1, half + 1):
                angle = 2 * math.pi * q * r / n
                terms.append(f"{sums[r - 1]} * {self._num(math.cos(angle))}")
                terms.append(f"{rot[r - 1]} * {self._num(math.sin(angle))}")
            out.append(self._let(" + ".join(terms)))
        return out

    def _let(self, expr: str) -> str:
        name = f"z{self._count}"
        self._count += 1
        self.lines.append(f"{self.vec} {name} = {expr};")
        return name

    def _num(self, v: float) -> str:
        text = f"{v:.17e}"
        return f"({text}LF)" if self.vec == "dvec2" else f"({text})"


def _smallest_factor(n: int) -> int:
    for p in (2, 3, 5, 7):
        if n % p == 0:
            return p
    return n
