"""GLSL for one workgroup-local FFT: ``S`` sequences of length ``m`` transformed in shared memory.

The kernel loads ``S`` sequences (strided through a two-level batch layout, so the same kernel reads rows,
columns or the columns of a batch of matrices), runs one Stockham stage per radix (each stage reads and writes
the shared buffer through registers, so one buffer of ``S * m`` elements is enough), and stores the results
through another layout, optionally multiplied by the four-step twiddles ``W_N^(column * k)``. Twiddles come
from tables computed in float64 on the host (``plan.twiddles``), never from ``sin``/``cos`` on the device:
GPU trigonometry is only accurate to about 1e-6.

Stockham stage ``(R, Ns)`` (``Ns``: length of the sub-transforms done so far), for ``j < m / R``::

    v[r] = x[j + r * m / R] * W^(r * (j % Ns) * m / (Ns * R))      r < R
    v    = DFT_R(v)
    y[(j / Ns) * Ns * R + j % Ns + r * Ns] = v[r]

which leaves the transform in natural order after the last stage.

Example:
    >>> src = kernel_source(8, (4, 2), 2, 8, "float", seq_fast_load=False, seq_fast_store=False)
    >>> "shared vec2 sh[16];" in src
    True
"""

from __future__ import annotations

from collections.abc import Sequence

PUSH_MEMBERS = ("nseq", "in_d", "in_p", "in_q", "in_e", "out_d", "out_p", "out_q", "out_e",
                "tw_n", "tw_b", "tw_lo", "tw_hi", "flags", "groups_x")
"""Push constants, in order: batch layouts ``base(b) = (b / d) * p + (b % d) * q``, element stride ``e``;
four-step twiddle length ``tw_n`` (0: none) with a two-level table (``tw_b`` entries from ``tw_lo``, then
the coarse ones from ``tw_hi``); ``flags`` bit 0 conjugates on load, bit 1 on store; ``groups_x`` the
workgroups along x (the rest continue along y)."""


def kernel_source(m: int, radices: Sequence[int], seqs: int, group: int, scalar: str,
                  seq_fast_load: bool, seq_fast_store: bool) -> str:
    """GLSL of the local FFT of ``seqs`` sequences of length ``m = prod(radices)``, ``group`` invocations.

    ``scalar`` is ``"float"`` or ``"double"``; ``seq_fast_*`` orders the global accesses with the sequence
    index varying fastest (coalesced when neighbouring sequences are neighbours in memory).
    """
    vec = "vec2" if scalar == "float" else "dvec2"
    total = seqs * m
    lines = [
        "#version 450",
        "#extension GL_EXT_control_flow_attributes : require",
        f"layout(local_size_x = {group}) in;",
        f"layout(set = 0, binding = 0) readonly buffer Src {{ {vec} src[]; }};",
        f"layout(set = 0, binding = 1) writeonly buffer Dst {{ {vec} dst[]; }};",
        f"layout(set = 0, binding = 2) readonly buffer Tw {{ {vec} tw[]; }};",
        "layout(push_constant) uniform P { " + " ".join(f"uint {n};" for n in PUSH_MEMBERS) + " };",
        f"shared {vec} sh[{total}];",
        f"{vec} cmul({vec} a, {vec} b) {{ return {vec}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}",
        "void main() {",
        "    uint group = gl_WorkGroupID.x + gl_WorkGroupID.y * groups_x;",
        f"    uint first = group * {seqs}u;",
        "    uint tid = gl_LocalInvocationID.x;",
    ]
    lines += _load(m, seqs, group, vec, seq_fast_load)
    ns = 1
    for radix in radices:
        lines += _stage(m, seqs, group, vec, radix, ns)
        ns *= radix
    lines += _store(m, seqs, group, vec, seq_fast_store)
    lines.append("}")
    return "\n".join(lines) + "\n"


def _decode(m: int, seqs: int, seq_fast: bool) -> str:
    if seq_fast:
        return f"uint s = idx % {seqs}u; uint k = idx / {seqs}u;"
    return f"uint s = idx / {m}u; uint k = idx % {m}u;"


def _load(m: int, seqs: int, group: int, vec: str, seq_fast: bool) -> list[str]:
    return [
        f"    [[unroll]] for (uint idx = tid; idx < {seqs * m}u; idx += {group}u) {{",
        f"        {_decode(m, seqs, seq_fast)}",
        "        uint b = first + s;",
        f"        {vec} v = {vec}(0);",
        "        if (b < nseq) {",
        "            v = src[(b / in_d) * in_p + (b % in_d) * in_q + k * in_e];",
        "            if ((flags & 1u) != 0u) v.y = -v.y;",
        "        }",
        f"        sh[s * {m}u + k] = v;",
        "    }",
        "    barrier();",
    ]


def _store(m: int, seqs: int, group: int, vec: str, seq_fast: bool) -> list[str]:
    return [
        f"    [[unroll]] for (uint idx = tid; idx < {seqs * m}u; idx += {group}u) {{",
        f"        {_decode(m, seqs, seq_fast)}",
        "        uint b = first + s;",
        "        if (b >= nseq) continue;",
        f"        {vec} v = sh[s * {m}u + k];",
        "        if (tw_n != 0u) {",
        "            uint e = ((b % in_d) * k) % tw_n;",  # the four-step twiddle W_N^(column * k)
        "            v = cmul(v, cmul(tw[tw_lo + e % tw_b], tw[tw_hi + e / tw_b]));",
        "        }",
        "        if ((flags & 2u) != 0u) v.y = -v.y;",
        "        dst[(b / out_d) * out_p + (b % out_d) * out_q + k * out_e] = v;",
        "    }",
    ]


def _stage(m: int, seqs: int, group: int, vec: str, radix: int, ns: int) -> list[str]:
    """One Stockham stage: registers hold this invocation's butterflies between the two barriers."""
    per_seq = m // radix
    count = -(-seqs * per_seq // group)  # butterflies per invocation
    stride = m // (ns * radix)  # table step of the stage twiddle W_{Ns R} = W_m^(m / (Ns R))
    out = [f"    {{ // radix {radix}, Ns {ns}", f"    {vec} v[{count * radix}];"]
    out += [
        f"    [[unroll]] for (uint c = 0u; c < {count}u; c++) {{",
        f"        uint t = tid + c * {group}u;",
        f"        if (t >= {seqs * per_seq}u) break;",
        f"        uint s = t / {per_seq}u; uint j = t % {per_seq}u;",
        f"        uint w = (j % {ns}u) * {stride}u;",
    ]
    for r in range(radix):
        load = f"sh[s * {m}u + j + {r * per_seq}u]"
        if r == 0:
            out.append(f"        {vec} a0 = {load};")
        else:
            out.append(f"        {vec} a{r} = cmul({load}, tw[({r}u * w) % {m}u]);")
    out += _dft(radix, m, vec)
    out += [f"        v[c * {radix}u + {r}u] = a{r};" for r in range(radix)]
    out += ["    }", "    barrier();"]
    out += [
        f"    [[unroll]] for (uint c = 0u; c < {count}u; c++) {{",
        f"        uint t = tid + c * {group}u;",
        f"        if (t >= {seqs * per_seq}u) break;",
        f"        uint s = t / {per_seq}u; uint j = t % {per_seq}u;",
        f"        uint d = s * {m}u + (j / {ns}u) * {ns * radix}u + j % {ns}u;",
    ]
    out += [f"        sh[d + {r * ns}u] = v[c * {radix}u + {r}u];" for r in range(radix)]
    out += ["    }", "    barrier();", "    }"]
    return out


def _dft(radix: int, m: int, vec: str) -> list[str]:
    """``a0..a{R-1}`` replaced by their length-R DFT (forward sign), with ``W_R^q = tw[q * m / R]``."""
    if radix == 2:
        return [f"        {vec} t0 = a0 + a1; a1 = a0 - a1; a0 = t0;"]
    if radix == 4:  # two radix-2 levels; the -i rotation is a swap and a sign
        return [
            f"        {vec} b0 = a0 + a2, b1 = a0 - a2, b2 = a1 + a3, b3 = a1 - a3;",
            f"        b3 = {vec}(b3.y, -b3.x);",
            "        a0 = b0 + b2; a2 = b0 - b2; a1 = b1 + b3; a3 = b1 - b3;",
        ]
    step = m // radix
    lines = [f"        {vec} y{q} = a0;" for q in range(radix)]
    for q in range(radix):
        for r in range(1, radix):
            lines.append(f"        y{q} += cmul(a{r}, tw[{(q * r % radix) * step}u]);")
    lines += [f"        a{q} = y{q};" for q in range(radix)]
    return lines
