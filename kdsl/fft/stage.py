"""One Stockham stage of the local FFT kernel (:mod:`kdsl.fft.stockham`) as GLSL: every invocation's butterflies
between two barriers, its twiddles read ahead, and the shared-memory layout of the sequences.

Example:
    >>> stage = Stage(64, 2, 16, "vec2", 8, 1, first=True, last=False)
    >>> stage.count, shared_stride(64)
    (1, 67)
"""

from __future__ import annotations

from collections.abc import Sequence

from kdsl.fft.butterfly import Butterfly

TABLE_BLOCK = 2048
"""Fine entries of a two-level twiddle table: ``W_N^e = fine[e % B] * coarse[e // B]``."""

PAD_SHIFT = 5
"""One padding slot every ``2**PAD_SHIFT`` elements of shared memory."""


def shared_stride(m: int) -> int:
    """Shared-memory slots of one sequence: ``m`` plus its padding, made odd (sequences start in different
    banks)."""
    sp = m + (m >> PAD_SHIFT)
    return sp + 1 - sp % 2


def scaled(vec: str, names: Sequence[str]) -> str:
    """Multiply the values ``names`` by ``scale`` (from the push words ``scale_lo``/``scale_hi``) if ``SCALED``."""
    scalar = "float scale = uintBitsToFloat(scale_lo);" if vec == "vec2" else \
        "double scale = packDouble2x32(uvec2(scale_lo, scale_hi));"
    return "if (SCALED) { " + scalar + "".join(f" {name} *= scale;" for name in names) + " }"


class Stage:
    """The code of one Stockham stage: every invocation's butterflies, between two barriers."""

    def __init__(self, m: int, seqs: int, group: int, vec: str, radix: int, ns: int, first: bool, last: bool,
                 half_in: bool = False):
        self.m, self.seqs, self.group, self.vec = m, seqs, group, vec
        self.radix, self.ns, self.first, self.last = radix, ns, first, last
        self.per_seq = m // radix
        self.count = -(-seqs * self.per_seq // group)  # butterflies per invocation
        self.butterflies = self.twiddles = True  # False only in the anatomy variants (kernel_source's part)
        self.half_in = half_in
        """The first stage loads rows of ``m + 1`` frequencies of real rows of ``2 m`` (:meth:`_load_half`)."""

    def code(self, seq_fast_load: bool, seq_fast_store: bool, real_input: bool, ahead: Sequence[str] = ()
             ) -> list[str]:
        """The stage's code; ``ahead`` (the next stage's :meth:`twiddle_loads`) goes before its last barrier."""
        seq_fast = self._seq_fast(seq_fast_load, seq_fast_store)
        r_, vec = self.radix, self.vec
        out = [f"    {{ // radix {r_}, Ns {self.ns}"]
        out += [f"    {vec} " + ", ".join(f"v{c}_{r}" for r in range(r_)) + ";" for c in range(self.count)]
        for c in range(self.count):
            out += self._guard(c, seq_fast)
            out += [f"        {line}" for line in (self._load(real_input) if self.first else self._read(c))]
            bf = Butterfly(vec)
            results = bf.dft([f"a{r}" for r in range(r_)]) if self.butterflies else [f"a{r}" for r in range(r_)]
            out += [f"        {line}" for line in bf.lines]
            out += [f"        v{c}_{r} = {name};" for r, name in enumerate(results)]
            out.append("    }")
        if not self.first and not self.last:
            out.append("    barrier();")  # every read of this stage done before the shared buffer is rewritten
        for c in range(self.count):
            out += self._guard(c, seq_fast)
            out += [f"        {line}" for line in (self._store(c) if self.last else self._write(c))]
            out.append("    }")
        out += ahead
        if not self.last:
            out.append("    barrier();")
        out.append("    }")
        return out

    def _seq_fast(self, seq_fast_load: bool, seq_fast_store: bool) -> bool:
        """Whether neighbouring invocations take neighbouring sequences in this stage (the read and the write of
        one butterfly must decode ``(s, j)`` alike)."""
        return (self.first and seq_fast_load) or (self.last and seq_fast_store)

    def _twiddle_names(self, c: int) -> list[str]:
        return [f"sw{self.ns}_{c}_{r}" for r in range(1, self.radix)]

    def twiddle_declarations(self) -> list[str]:
        """The registers of this stage's twiddles (declared at the top: :meth:`twiddle_loads` fills them inside
        the previous stage's block)."""
        if self.first or not self.twiddles:
            return []
        return [f"    {self.vec} " + ", ".join(self._twiddle_names(c)) + ";" for c in range(self.count)]

    def twiddle_loads(self, seq_fast_load: bool, seq_fast_store: bool, table_at: int) -> list[str]:
        """This stage's twiddle reads (``stage_table``: neighbouring invocations read neighbouring entries), placed
        by the previous stage before its last barrier: they are in flight while the workgroup waits there, not
        after it, between the shared reads and the butterflies."""
        if self.first or not self.twiddles:
            return []
        lines = []
        for c in range(self.count):
            lines += self._guard(c, self._seq_fast(seq_fast_load, seq_fast_store))
            lines.append(f"        uint t = j % {self.ns}u;")
            lines += [f"        {name} = tw[{table_at + r * self.ns}u + t];"
                      for r, name in enumerate(self._twiddle_names(c))]
            lines.append("    }")
        return lines

    def _guard(self, c: int, seq_fast: bool) -> list[str]:
        """Open the block of butterfly ``c`` of this invocation: ``s`` its sequence, ``j`` its index."""
        total = self.seqs * self.per_seq
        t = f"tid + {c * self.group}u"
        lines = [f"    if ({t} < {total}u) {{" if (c + 1) * self.group > total else "    {"]
        if seq_fast:
            lines.append(f"        uint s = ({t}) % {self.seqs}u, j = ({t}) / {self.seqs}u;")
        else:
            lines.append(f"        uint s = ({t}) / {self.per_seq}u, j = ({t}) % {self.per_seq}u;")
        return lines

    def _load(self, real_input: bool) -> list[str]:
        """The first stage: straight from global memory. Every load is issued before anything uses a loaded
        value (so they are all in flight at once); sequences past the batch and positions past ``in_n`` read
        as zeros, checked only where the launch needs it (``CHECK_SEQ_``, ``CHECK_IN``)."""
        vec, step, radix = self.vec, self.m // self.radix, self.radix
        lines = ["uint b = first + s;", "uint row = (b / in_d) * in_p, col = (b % in_d) * in_q;",
                 "bool live = !CHECK_SEQ_ || b < nseq;"]
        lines += [f"uint p{r} = col + (j + {r * step}u) * in_e;" for r in range(radix)]
        lines += [f"bool ok{r} = live && (!CHECK_IN || p{r} < in_n);" for r in range(radix)]
        if self.half_in:
            return lines + self._load_half()
        value = f"{vec}(src[row + p{{r}}], 0)" if real_input else "src[row + p{r}]"
        lines += [f"{vec} a{r} = ok{r} ? {value.format(r=r)} : {vec}(0);" for r in range(radix)]
        lines.append("if (CONJ_IN) { " + " ".join(f"a{r}.y = -a{r}.y;" for r in range(radix)) + " }")
        lines.append("if (MUL_IN) { " + " ".join(f"if (ok{r}) a{r} = cmul(a{r}, mul[p{r}]);"
                                                 for r in range(radix)) + " }")
        return lines

    def _load_half(self) -> list[str]:
        """The load of a ``half_in`` kernel, the inverse of :class:`kdsl.fft.paired_stage.PairedStage`'s store: from the
        half spectrum ``X[0..m]`` of real rows ``x`` of ``2 m`` (rows layout: ``p{r}`` is the frequency ``k``),
        ``Z[k] = E[k] + i O[k]`` with ``E[k] = (X[k] + conj(X[m - k])) / 2`` and ``O[k] = (X[k] - conj(X[m - k]))
        W_2m^-k / 2``, the transforms of the even and odd samples; ``Z`` is the transform of ``z[j] = x[2j] + i
        x[2j + 1]``, so the inverse transform of length ``m`` (conjugated here, and by the store's ``CONJ_OUT``)
        stored as pairs of reals is ``x``. The imaginary parts of ``X[0]`` and ``X[m]`` are ignored, as NumPy's
        ``irfft`` does; ``CONJ_IN`` conjugates ``X`` first (``hfft``). Twiddles at ``tw_lo`` of the table."""
        vec, radix, m = self.vec, self.radix, self.m
        lines = [f"uint pm{r} = {m}u - p{r};" for r in range(radix)]
        lines += [f"bool okm{r} = live && (!CHECK_IN || pm{r} < in_n);" for r in range(radix)]
        lines += [f"{vec} a{r} = ok{r} ? src[row + p{r}] : {vec}(0), b{r} = okm{r} ? src[row + pm{r}] : {vec}(0);"
                  for r in range(radix)]
        lines += [f"{vec} h{r} = tw[tw_lo + p{r}];" for r in range(radix)]
        lines.append("if (CONJ_IN) { " + " ".join(f"a{r}.y = -a{r}.y; b{r}.y = -b{r}.y;" for r in range(radix)) + " }")
        lines.append("if (p0 == 0u) { a0.y = 0.0; b0.y = 0.0; }")  # (only r = 0 can be the frequency 0)
        for r in range(radix):
            mirror = f"{vec}(b{r}.x, -b{r}.y)"
            lines += [f"{vec} e{r} = (a{r} + {mirror}) * 0.5, d{r} = (a{r} - {mirror}) * 0.5;",
                      f"{vec} o{r} = cmul(d{r}, {vec}(h{r}.x, -h{r}.y));",
                      f"a{r} = {vec}(e{r}.x - o{r}.y, -(e{r}.y + o{r}.x));"]
        return lines

    def _read(self, c: int) -> list[str]:
        """A later stage: from shared memory, times the stage twiddles (read ahead: :meth:`twiddle_loads`)."""
        vec, step = self.vec, self.m // self.radix
        lines = [f"uint at = s * {shared_stride(self.m)}u;"]
        for r in range(self.radix):
            k = f"j + {r * step}u"
            load = f"{vec}(sh_re[{slot(k)}], sh_im[{slot(k)}])"
            if r == 0 or not self.twiddles:
                lines.append(f"{vec} a{r} = {load};")
            else:
                lines.append(f"{vec} a{r} = cmul({load}, {self._twiddle_names(c)[r - 1]});")
        return lines

    def _write(self, c: int) -> list[str]:
        ns = self.ns
        lines = [f"uint at = s * {shared_stride(self.m)}u;",
                 f"uint k0 = (j / {ns}u) * {ns * self.radix}u + j % {ns}u;"]
        for r in range(self.radix):
            k = f"k0 + {r * ns}u"
            lines.append(f"sh_re[{slot(k)}] = v{c}_{r}.x; sh_im[{slot(k)}] = v{c}_{r}.y;")
        return lines

    def _store(self, c: int) -> list[str]:
        """The last stage: element ``j + r * Ns`` straight to global memory, with the four-step twiddle (from
        :meth:`prefetch`'s reads), conjugation, multiplication and scale the launch asks for."""
        radix, ns, vec = self.radix, self.ns, self.vec
        lines = ["uint b = first + s;", "if (!CHECK_SEQ_ || b < nseq) {",
                 "uint row = (b / out_d) * out_p, col = (b % out_d) * out_q;"]
        lines += [f"{vec} w{r} = v{c}_{r}; uint q{r} = col + (j + {r * ns}u) * out_e;" for r in range(radix)]
        lines += self._twiddle(c) if self.twiddles else []
        # a zero imaginary part becomes +0, as NumPy's backward transform's exact zeros are: ifft([4, 0, 0, 0]) is
        # 1+0j, where negating the forward transform's +0 printed 1-0j (a select: drivers fold 0.0 - y to -y)
        lines.append("if (CONJ_OUT) { " + " ".join(f"w{r}.y = w{r}.y == 0.0 ? 0.0 : -w{r}.y;"
                                                   for r in range(radix)) + " }")
        lines.append("if (MUL_OUT) { " + " ".join(f"if (!CHECK_OUT || q{r} < out_n) w{r} = cmul(w{r}, "
                                                  f"mul[mul_at + q{r}]);" for r in range(radix)) + " }")
        lines.append(scaled(vec, [f"w{r}" for r in range(radix)]))
        lines += [f"if (!CHECK_OUT || q{r} < out_n) dst[row + q{r}] = w{r};" for r in range(radix)]
        lines.append("}")
        return lines

    def _powers(self) -> list[int]:
        """The powers ``r`` of ``W^(column Ns)`` that :meth:`prefetch` reads from the table: 1, 2, 4, 8."""
        return [1 << i for i in range((self.radix - 1).bit_length())]

    def prefetch(self, seq_fast: bool) -> list[str]:
        """At the kernel's start, for each butterfly ``c`` of this (last) stage: the table reads of its four-step
        twiddles ``W^(column (j + r Ns))``, so that their latency passes during the stages (H100, fft of 2^24:
        0.395 -> 0.375 ms; read at the store they were on every workgroup's critical path). Read are
        ``q{c}_0 = W^(column j)`` and ``q{c}_r = W^(column Ns r)`` for ``r`` a power of two (:meth:`_powers`):
        each two entries of the two-level table (``TABLE_BLOCK``), which :meth:`_twiddle` multiplies together."""
        vec, lines = self.vec, []
        # exponents column * j and column * Ns * r stay below N (column < N / m, j + r Ns < m): no reduction
        look = "cmul(tw[tw_lo + ({e} & " + f"{TABLE_BLOCK - 1}u)], tw[tw_hi + " + "{e} / " + f"{TABLE_BLOCK}u])"
        for c in range(self.count):
            names = [f"q{c}_{r}" for r in (0, *self._powers())]
            lines.append(f"    {vec} " + ", ".join(f"{name} = {vec}(1, 0)" for name in names) + ";")
            lines.append("    if (TWIDDLED) {")
            lines += self._guard(c, seq_fast)[1:]  # (this butterfly's s and j; past the batch: unused)
            lines += ["        uint column = ((first + s) % in_d) / tw_div, es = column * " + f"{self.ns}u;",
                      f"        q{c}_0 = {look.format(e='column * j')};"]
            lines += [f"        q{c}_{r} = {look.format(e=f'es * {r}u')};" for r in self._powers()]
            lines.append("    }")
        return lines

    def _twiddle(self, c: int) -> list[str]:
        """The store's four-step twiddles from :meth:`prefetch`'s reads: ``W^(column (j + r Ns)) = q_0 * p_r``,
        ``p_r = W^(column Ns r)`` the product of the prefetched powers of ``r``'s bits (at most three products:
        as accurate as reading each twiddle from the table, which costs two reads an element)."""
        vec, lines = self.vec, ["if (TWIDDLED) {"]
        powers = self._powers()
        for r in range(1, self.radix):
            high = 1 << (r.bit_length() - 1)
            value = f"q{c}_{r}" if r in powers else f"cmul(p{high}, p{r - high})"
            lines.append(f"    {vec} p{r} = {value};")
        lines.append(f"    w0 = cmul(w0, q{c}_0);")
        lines += [f"    w{r} = cmul(w{r}, cmul(q{c}_0, p{r}));" for r in range(1, self.radix)]
        return lines + ["}"]


def slot(k: str) -> str:
    """The shared-memory slot of element ``k`` of the sequence starting at ``at``."""
    return f"at + ({k}) + (({k}) >> {PAD_SHIFT}u)"
