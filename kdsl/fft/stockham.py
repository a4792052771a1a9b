"""GLSL for one workgroup-local FFT: ``S`` sequences of length ``m`` transformed with radix-R butterflies in
registers and shared-memory exchanges between them.

Design (as the fast GPU FFTs do it): the length is split into a few *stages* of radix up to 16 (4096 =
16 x 16 x 16). In every stage each invocation holds the R elements of one butterfly (or a few butterflies)
in registers and does the whole length-R DFT there (:mod:`kdsl.fft.butterfly`: radix 16 is two radix-4
levels with constant twiddles, radix 3/5/7 use symmetric pairs). The first stage reads global memory
directly and the last one writes it directly, so a length of ``k`` stages costs ``k - 1`` shared-memory
exchanges (write, barrier, read, barrier) and one read and one write of every element in global memory.

Stockham stage ``(R, Ns)`` (``Ns``: length of the sub-transforms done so far), for ``j < m / R``::

    v[r] = x[j + r * m / R] * W_m^(r * (j % Ns) * m / (Ns * R))      r < R
    v    = DFT_R(v)
    y[(j / Ns) * Ns * R + j % Ns + r * Ns] = v[r]

which leaves the transform in natural order after the last stage. The first stage reads element
``j + r * m / R`` and the last writes ``j + r * m / R`` (there ``Ns * R = m``): neighbouring invocations touch
neighbouring elements, so global accesses coalesce. Shared memory holds real and imaginary parts in two
arrays, element ``k`` of sequence ``s`` at ``s * SP + k + k / 32`` (``SP`` odd): the padding breaks the bank
conflicts of the strided writes of early stages. Stage twiddles come from a table computed in float64 on the
host (``plan.twiddles``), never from ``sin``/``cos`` on the device (GPU trigonometry is only accurate to about
1e-6); the butterflies' own constants are float64 literals.

The kernel loads ``S`` sequences through a two-level batch layout (so the same kernel reads rows, columns or
the columns of a batch of matrices), and stores through another, optionally multiplied by the four-step
twiddles ``W_N^(column * k)``. Sizes, radices and the thread mapping are compile-time constants: no
division by a runtime value except the batch layout's, once per butterfly.

Example:
    >>> src = kernel_source(64, (8, 8), 2, 16, "float", seq_fast_load=False, seq_fast_store=False)
    >>> src.count("barrier();")
    1
"""

from __future__ import annotations

from collections.abc import Sequence

from kdsl.fft.paired_stage import PairedStage
from kdsl.fft.stage import Stage, shared_stride

PUSH_MEMBERS = ("nseq", "in_d", "in_p", "in_q", "in_e", "in_n", "out_d", "out_p", "out_q", "out_e", "out_n",
                "tw_lo", "tw_hi", "tw_div", "groups_x", "mul_at", "scale_lo", "scale_hi")
"""The push-constant array ``pc``, in order. Batch layouts: element ``k`` of sequence ``b`` is at
``(b / d) * p + pos`` with ``pos = (b % d) * q + k * e`` its position in its row; positions from ``in_n`` on
read as zeros (padding for free), those from ``out_n`` on are not written (``rfft`` keeps half). Four-step
twiddles ``W^(column * k)`` come from a two-level table (``TABLE_BLOCK`` fine entries from ``tw_lo``, then
the coarse ones from ``tw_hi``), the column of sequence ``b`` being ``(b % in_d) / tw_div``; ``mul_at`` is where
the store's part of the ``mul`` table starts; ``scale_lo``/``scale_hi`` are the bits of the float64
``scale`` (the normalisation). ``groups_x``: the workgroups along x (the rest continue along y)."""

CONJ_LOAD, CONJ_STORE, MUL_LOAD, MUL_STORE, SCALE_STORE = 1, 2, 4, 8, 16
TWIDDLE, CHECK_LOAD, CHECK_STORE, CHECK_SEQ = 32, 64, 128, 256
"""Bits of the specialization constant ``FLAGS`` (so the driver compiles out every step a launch does not
take: no runtime branch, no bounds check a full launch does not need). Conjugate on load / on store;
multiply what was loaded by ``mul[pos]`` / what is stored by ``mul[mul_at + pos]`` (after the conjugation:
Bluestein's chirps); multiply what is stored by ``scale``; the four-step twiddle ``W_N^(column * k)`` on
store; check positions against ``in_n`` / ``out_n``; check sequences against ``nseq`` (a partial last
workgroup)."""



def stage_table(stages: Sequence[int]) -> list[tuple[int, int, int]]:
    """``(radix, Ns, offset)`` of every stage after the first: its twiddles ``W_(Ns R)^(r t)`` (``0 < r < R``,
    ``t < Ns``) sit at ``offset + (r - 1) * Ns + t`` of the table, so neighbouring invocations (neighbouring
    ``t``) read neighbouring entries (coalesced) and nothing is indexed by a product. The table's length is
    the last offset plus ``(R - 1) * Ns`` of the last stage: less than ``m``."""
    out, ns, at = [], stages[0], 0
    for radix in stages[1:]:
        out.append((radix, ns, at))
        at += (radix - 1) * ns
        ns *= radix
    return out


def stage_table_size(stages: Sequence[int]) -> int:
    """Entries of the stage twiddle table of :func:`stage_table` (where the four-step table starts)."""
    return sum((radix - 1) * ns for radix, ns, _ in stage_table(stages))


def kernel_source(m: int, stages: Sequence[int], seqs: int, group: int, scalar: str,
                  seq_fast_load: bool, seq_fast_store: bool, real_input: bool = False, part: str = "",
                  real_half: bool = False, half_in: bool = False) -> str:
    """GLSL of the local FFT of ``seqs`` sequences of length ``m = prod(stages)``, ``group`` invocations.

    ``scalar`` is ``"float"`` or ``"double"``; ``seq_fast_*`` maps neighbouring invocations to neighbouring
    sequences in the global load (store): coalesced when neighbouring sequences are neighbours in memory
    (columns). ``real_input`` reads a real array (imaginary parts zero) instead of a complex one. What the
    ends do besides the FFT is the specialization constant ``FLAGS`` (bits: ``CONJ_LOAD``...).

    ``real_half``: the transform of real rows of ``2 m`` by one of length ``m`` (half the work): the rows are
    read as complex ``z[j] = x[2j] + i x[2j + 1]``, and the last stage (:class:`kdsl.fft.paired_stage.PairedStage`)
    does the butterflies of mirror frequencies ``k`` and ``m - k`` in one invocation, which stores the ``m + 1``
    non-negative frequencies from them (twiddles ``W_2m^k`` at ``tw_lo`` of the table).

    ``half_in``: the inverse of ``real_half``: rows of ``m + 1`` frequencies of real rows of ``2 m`` are read,
    and the rows (``irfft``) stored as ``m`` pairs of reals (:meth:`kdsl.fft.stage.Stage._load_half`; the launch
    sets ``CONJ_OUT``).

    ``part`` builds a wrong-on-purpose variant that isolates a cost (``benchmarks/fft_anatomy.py``):
    ``"copy"`` loads and stores with the first stage's pattern and nothing between (no four-step twiddles
    either; for ``real_half``, no half spectrum either); ``"one-stage"`` does the first stage's butterflies
    between them; ``"exchanges"`` keeps every stage's shared-memory exchange but no butterfly and no twiddle;
    ``"no-twiddles"`` is the whole kernel without the stage twiddles and the four-step ones.
    """
    if part not in PARTS:
        raise ValueError(f"part must be one of {PARTS}, got {part!r}")
    if half_in and (real_half or real_input):
        raise ValueError("a half_in kernel reads complex half spectra (real_half=False, real_input=False)")
    vec = "vec2" if scalar == "float" else "dvec2"
    src_type = scalar if real_input else vec
    lines = [
        "#version 450",
        f"layout(local_size_x = {group}) in;",
        f"layout(set = 0, binding = 0) readonly buffer Src {{ {src_type} src[]; }};",
        f"layout(set = 0, binding = 1) writeonly buffer Dst {{ {vec} dst[]; }};",
        f"layout(set = 0, binding = 2) readonly buffer Tw {{ {vec} tw[]; }};",
        f"layout(set = 0, binding = 3) readonly buffer Mul {{ {vec} mul[]; }};",
        # one array member: the host packs all the values in one go (no per-member conversion per launch)
        f"layout(push_constant) uniform P {{ uint pc[{len(PUSH_MEMBERS)}]; }};",
        *(f"#define {name} pc[{i}]" for i, name in enumerate(PUSH_MEMBERS)),
        "layout(constant_id = 0) const uint FLAGS = 0u;",
        *(f"const bool {name} = (FLAGS & {bit}u) != 0u;" for name, bit in _FLAG_NAMES),
        f"{vec} cmul({vec} a, {vec} b) {{ return {vec}(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x); }}",
    ]
    if len(stages) > 1:
        size = seqs * shared_stride(m)
        lines += [f"shared {scalar} sh_re[{size}];", f"shared {scalar} sh_im[{size}];"]
    lines += [
        "void main() {",
        "    uint first = (gl_WorkGroupID.x + gl_WorkGroupID.y * groups_x) * " + f"{seqs}u;",
        "    uint tid = gl_LocalInvocationID.x;",
    ]
    offsets = {ns: at for _, ns, at in stage_table(stages)}
    if part in ("copy", "one-stage"):  # one stage read and written in the same places: j + r * m / R
        stage = Stage(m, seqs, group, vec, stages[0], m // stages[0], first=True, last=True)
        stage.butterflies, stage.twiddles = part == "one-stage", False
        lines += stage.code(seq_fast_load, seq_fast_store, real_input)
        stages = ()
    ns, built = 1, []
    for i, radix in enumerate(stages):  # (real_half: the last stage pairs its butterflies: PairedStage)
        first, last = i == 0, i == len(stages) - 1
        stage = PairedStage(m, seqs, group, vec, radix, ns, first) if real_half and last else \
            Stage(m, seqs, group, vec, radix, ns, first=first, last=last, half_in=half_in and first)
        stage.butterflies = part != "exchanges"
        stage.twiddles = part not in ("exchanges", "no-twiddles")
        built.append(stage)
        ns *= radix
    lines += [line for stage in built for line in stage.twiddle_declarations()]
    if built and built[-1].twiddles and not real_half:  # the four-step twiddles' table reads, issued first
        lines += built[-1].prefetch(seq_fast_store)
    for i, stage in enumerate(built):
        after = built[i + 1] if i + 1 < len(built) else None
        ahead = after.twiddle_loads(seq_fast_load, seq_fast_store, offsets[after.ns]) if after else []
        lines += stage.code(seq_fast_load, seq_fast_store, real_input, ahead)
    lines.append("}")
    return "\n".join(lines) + "\n"


PARTS = ("", "copy", "one-stage", "exchanges", "no-twiddles")
"""The kernel (``""``) and the variants of :func:`kernel_source` that isolate its costs."""

_FLAG_NAMES = (("CONJ_IN", CONJ_LOAD), ("CONJ_OUT", CONJ_STORE), ("MUL_IN", MUL_LOAD), ("MUL_OUT", MUL_STORE),
               ("SCALED", SCALE_STORE), ("TWIDDLED", TWIDDLE), ("CHECK_IN", CHECK_LOAD),
               ("CHECK_OUT", CHECK_STORE), ("CHECK_SEQ_", CHECK_SEQ))


