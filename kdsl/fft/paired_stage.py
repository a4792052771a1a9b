"""The last Stockham stage of a ``real_half`` kernel (:func:`kdsl.fft.stockham.kernel_source`): each invocation
does the butterflies ``j`` and ``Ns - j``, whose outputs are mirror images (``k`` and ``m - k``), so it turns
them into the half spectrum of the real rows in registers and stores it: no shared-memory round trip after the
butterflies.

For real rows ``x`` of ``2 m`` read as ``z[j] = x[2j] + i x[2j + 1]`` with transform ``Z`` (length ``m``), the
transforms of the even and odd samples are ``E[k] = (Z[k] + conj(Z[m-k])) / 2`` and ``O[k] = (Z[k] -
conj(Z[m-k])) / 2i`` (indices modulo ``m``), and::

    X[k] = E[k] + W_2m^k O[k]        X[m - k] = conj(E[k] - W_2m^k O[k])

The last stage (radix ``R``, ``Ns = m / R``) leaves ``Z[j + Ns r]`` (``r < R``) with butterfly ``j``; the mirror
``m - j - Ns r`` is ``(Ns - j) + Ns (R - 1 - r)``: output ``R - 1 - r`` of butterfly ``Ns - j``. Butterfly 0 is
its own mirror (``r`` with ``R - r``, and ``Z[0]`` with itself), as is ``Ns / 2``; their pairs are stored twice,
by the same invocation, with the same values. Invocation ``j <= Ns / 2`` of a sequence computes both butterflies
(``Ns / 2 + 1`` invocations a sequence) and stores ``X[j + Ns r]`` and ``X[m - j - Ns r]``: neighbouring
invocations store neighbouring frequencies, up and down the row.

Example:
    >>> stage = PairedStage(2048, 1, 256, "vec2", 8, 256, first=False)
    >>> stage.pairs, stage.count
    (129, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

from kdsl.fft.butterfly import Butterfly
from kdsl.fft.stage import Stage, scaled, shared_stride, slot


class PairedStage(Stage):
    """The code of the last stage of a ``real_half`` kernel and of its store (see the module docstring)."""

    def __init__(self, m: int, seqs: int, group: int, vec: str, radix: int, ns: int, first: bool):
        super().__init__(m, seqs, group, vec, radix, ns, first=first, last=True)
        self.pairs = ns // 2 + 1
        self.count = -(-seqs * self.pairs // group)  # pairs of butterflies per invocation

    def _guard(self, c: int, seq_fast: bool) -> list[str]:
        """Open the block of pair ``c`` of this invocation: ``s`` its sequence, ``j`` and ``jb`` its butterflies
        (``jb = j`` for 0, as for ``Ns / 2``: butterfly 0 pairs with itself, see the module docstring)."""
        total = self.seqs * self.pairs
        t = f"tid + {c * self.group}u"
        return [f"    if ({t} < {total}u) {{" if (c + 1) * self.group > total else "    {",
                f"        uint s = ({t}) / {self.pairs}u, j = ({t}) % {self.pairs}u, "
                f"jb = ({self.ns}u - j) % {self.ns}u;"]

    def _mirror_names(self, c: int) -> list[str]:
        return [f"swb{self.ns}_{c}_{r}" for r in range(1, self.radix)]

    def _half_names(self, c: int) -> list[str]:
        return [f"hw{c}_{r}" for r in range(self.radix)]

    def twiddle_declarations(self) -> list[str]:
        """The registers of the stage twiddles of both butterflies and of the half spectrum's ``W_2m^k``."""
        out = []
        for c in range(self.count):
            names = self._half_names(c)
            if not self.first and self.twiddles:
                names = self._twiddle_names(c) + self._mirror_names(c) + names
            out.append(f"    {self.vec} " + ", ".join(names) + ";")
        return out

    def twiddle_loads(self, seq_fast_load: bool, seq_fast_store: bool, table_at: int) -> list[str]:
        """The table reads of :meth:`twiddle_declarations`' registers (placed before the previous stage's last
        barrier; in the stage itself when it is the first); ``W_2m^k`` from ``tw_lo``."""
        lines = []
        for c in range(self.count):
            lines += self._guard(c, False)
            if not self.first and self.twiddles:
                lines += [f"        {name} = tw[{table_at + r * self.ns}u + j];"
                          for r, name in enumerate(self._twiddle_names(c))]
                lines += [f"        {name} = tw[{table_at + r * self.ns}u + jb];"
                          for r, name in enumerate(self._mirror_names(c))]
            lines += [f"        {name} = tw[tw_lo + j + {r * self.ns}u];" for r, name in enumerate(self._half_names(c))]
            lines.append("    }")
        return lines

    def code(self, seq_fast_load: bool, seq_fast_store: bool, real_input: bool, ahead: Sequence[str] = (),
             after: Stage | None = None) -> list[str]:
        """The two butterflies of every pair, then the half spectrum's stores."""
        r_, vec = self.radix, self.vec
        out = [f"    {{ // radix {r_}, Ns {self.ns}, pairs of butterflies"]
        if self.first:  # (no stage before it to read its table ahead)
            out += self.twiddle_loads(seq_fast_load, seq_fast_store, 0)
        for c in range(self.count):
            out += self._guard(c, False)
            out.append(f"        {vec} " + ", ".join(f"A{r}, B{r}" for r in range(r_)) + ";")
            out += self._butterfly(c, "A", "j", real_input)
            if self.first:  # one butterfly a sequence (Ns = 1): its own mirror
                out.append("        " + " ".join(f"B{r} = A{r};" for r in range(r_)))
            else:
                out += self._butterfly(c, "B", "jb", real_input)
            out += [f"        {line}" for line in self._store_half(c)]
            out.append("    }")
        out.append("    }")
        return out

    def _butterfly(self, c: int, into: str, j: str, real_input: bool) -> list[str]:
        """Butterfly ``j`` (a variable's name) of this stage into the registers ``into0..``, in a block of its own
        (two butterflies' temporaries share names)."""
        if self.first:
            body = self._load(real_input)
        else:
            step = self.m // self.radix
            body = [f"uint at = s * {shared_stride(self.m)}u;"]
            names = self._twiddle_names(c) if j == "j" else self._mirror_names(c)
            for r in range(self.radix):
                k = slot(f"{j} + {r * step}u")
                load = f"{self.vec}(sh_re[{k}], sh_im[{k}])"
                twiddled = r > 0 and self.twiddles
                body.append(f"{self.vec} a{r} = " + (f"cmul({load}, {names[r - 1]});" if twiddled else f"{load};"))
        bf = Butterfly(self.vec)
        results = bf.dft([f"a{r}" for r in range(self.radix)]) if self.butterflies else \
            [f"a{r}" for r in range(self.radix)]
        body += bf.lines + [f"{into}{r} = {name};" for r, name in enumerate(results)]
        return ["        {"] + [f"            {line}" for line in body] + ["        }"]

    def _store_half(self, c: int) -> list[str]:
        """``X[k]`` and ``X[m - k]`` for ``k = j + Ns r`` from ``Z[k] = A_r`` and its mirror (``A_(R-r)`` for
        butterfly 0, else ``B_(R-1-r)``), scaled, where the launch writes."""
        vec, radix = self.vec, self.radix
        lines = ["uint b = first + s;", "if (!CHECK_SEQ_ || b < nseq) {",
                 "uint row_at = (b / out_d) * out_p, col_at = (b % out_d) * out_q;"]
        for r in range(radix):
            k = f"j + {r * self.ns}u"
            lines += [
                "{",
                f"{vec} za = A{r}, zm = j == 0u ? A{(radix - r) % radix} : B{radix - 1 - r};",
                f"{vec} zc = {vec}(zm.x, -zm.y), e = (za + zc) * 0.5, d = (za - zc) * 0.5;",
                f"{vec} o = cmul({self._half_names(c)[r]}, {vec}(d.y, -d.x));",
                f"{vec} lo = e + o, hi = {vec}(e.x - o.x, o.y - e.y);",
                scaled(vec, ("lo", "hi")),
                f"uint q = col_at + ({k}) * out_e, qb = col_at + ({self.m}u - ({k})) * out_e;",
                "if (!CHECK_OUT || q < out_n) dst[row_at + q] = lo;",
                "if (!CHECK_OUT || qb < out_n) dst[row_at + qb] = hi;",
                "}",
            ]
        return lines + ["}"]
