"""Memory-pattern floors of rfft2 layouts kd.fft does not use: would two passes over 4096 x 4096 beat its three?

kd.fft's rfft2 of 4096 x 4096 float32 reads and writes 64 MiB three times (the rows, then two four-step launches
down the columns, each near a plain copy's speed on an H100). A two-pass plan needs one of:

* ``transposed``: the rows launch stores its spectra transposed (``T[k, r]``), then a launch transforms each row
  of ``T`` (a 4096-point column, contiguous) and stores it transposed into the output. ``A`` is the first
  pattern with R rows a workgroup (a warp's lanes split across the R rows, so it stores R * 8-byte runs), ``B``
  the second with C columns a workgroup. A 4096-point complex64 column takes 32 KiB of shared memory, so within
  Vulkan's 48 KiB (NVIDIA) the real kernel could hold C = 1 only.
* ``strips``: one launch down the columns holding C whole columns (4096 rows each) in registers, WG invocations
  a workgroup, rows of ``pin`` and ``pout`` complex numbers (2049 is the output's; 2052/2056 align the rows to
  32/64 bytes).

Each kernel here only loads and stores (no FFT): the time a real kernel with that layout could not beat.
Times are GPU timestamps of one dispatch (median of ``--repeat``), next to a 64 MiB memcpy.

    python3 benchmarks/fft_layouts.py              # the GPU machine: 4096 x 4096
    python3 benchmarks/fft_layouts.py --n 256      # a smoke run for CPU drivers
"""

from __future__ import annotations

import argparse

import numpy as np
from dsl_common import kd, table
from fft_anatomy import _MEMCPY, Timer

from kdsl.runtime.compiler import compile_source

_HEAD = """#version 450
layout(local_size_x_id = 1) in;
layout(constant_id = 0) const uint W = 1;   // rows (A) or columns (B, strips) a workgroup
layout(constant_id = 1) const uint WG = 256;
layout(constant_id = 2) const uint N = 4096;  // the rows of a column (strips: a constant, so v[] is registers)
layout(constant_id = 3) const uint EXCHANGES = 0;  // strips: shared-memory exchanges a column (an FFT's stages - 1)
layout(set = 0, binding = 0) readonly buffer Src { vec2 src[]; };
layout(set = 0, binding = 1) writeonly buffer Dst { vec2 dst[]; };
layout(push_constant) uniform P { uint n; uint h; uint pin; uint pout; };
"""
# A: real rows of n read as n/2 complex numbers, the n/2 + 1 spectra stored transposed (T[k, r]).
_A = _HEAD + """void main() {
    uint lid = gl_LocalInvocationID.x, r = gl_WorkGroupID.x * W + lid % W;
    for (uint k = lid / W; k < h; k += WG / W)
        dst[k * n + r] = src[r * (n / 2u) + min(k, n / 2u - 1u)];
}
"""
# B: rows of T (n complex numbers, contiguous) stored as the output's columns (rows of h).
_B = _HEAD + """void main() {
    uint lid = gl_LocalInvocationID.x, k = gl_WorkGroupID.x * W + lid % W;
    if (k < h)
        for (uint r = lid / W; r < n; r += WG / W) dst[r * h + k] = src[k * n + r];
}
"""
# strips: W whole columns of n rows loaded into registers, then stored (reversed, so no load is forwarded).
# Between them, EXCHANGES rounds through shared memory (padded as kd.fft pads), one column at a time: 48 KiB
# hold one column of 4096 complex64, not W.
_STRIPS = _HEAD + """const uint PER = N * W / WG;
shared vec2 sh[N + N / 32u];
void main() {
    uint lid = gl_LocalInvocationID.x, k = gl_WorkGroupID.x * W + lid % W, r0 = lid / W;
    vec2 v[PER];
    for (uint i = 0u; i < PER; i++) v[i] = src[(r0 + i * (WG / W)) * pin + min(k, h - 1u)];
    for (uint e = 0u; e < EXCHANGES; e++)
        for (uint c = 0u; c < W; c++) {
            if (lid % W == c)
                for (uint i = 0u; i < PER; i++) { uint j = r0 + i * (WG / W); sh[j + (j >> 5)] = v[i]; }
            barrier();
            if (lid % W == c)
                for (uint i = 0u; i < PER; i++) { uint q = i + PER * r0; v[i] = sh[q + (q >> 5)] + v[i]; }
            barrier();
        }
    barrier();
    if (k < h)
        for (uint i = 0u; i < PER; i++) dst[(r0 + i * (WG / W)) * pout + k] = v[PER - 1u - i] * 1.5;
}
"""


def measure(n: int, repeat: int) -> list[list]:
    """The patterns' GPU milliseconds for rfft2 of n x n (n a power of two, at least 256)."""
    h = n // 2 + 1
    timer = Timer(repeat)
    big = kd.asarray(np.zeros(2 * (h + 7) * n, np.float32))
    src, dst = big.__kdsl_buffer__(), kd.empty_like(big).__kdsl_buffer__(writable=True)
    words = n * h * 8 // 16
    memcpy = compile_source(_MEMCPY)
    rows = [["memcpy", f"{words * 16 >> 20} MiB",
             timer.time([src, dst], memcpy, (words // 256, 1), None, np.array([words, words // 256], np.uint32))]]
    a, b, strips = (compile_source(s) for s in (_A, _B, _STRIPS))

    def time(spirv: bytes, groups: int, width: int, wg: int, pin: int = h, pout: int = h, rounds: int = 0) -> float:
        spec, push = np.array([width, wg, n, rounds], np.uint32), np.array([n, h, pin, pout], np.uint32)
        return timer.time([src, dst], spirv, (groups, 1), spec, push)

    rows += [["transposed A", f"R={r}", time(a, n // r, r, 256)] for r in (1, 2, 4, 8)]
    rows += [["transposed B", f"C={c}", time(b, -(-h // c), c, 256)] for c in (1, 2, 4, 8)]
    for c, wg in ((2, 512), (4, 256), (4, 1024), (8, 512), (16, 1024)):
        if n * c // wg > 64:  # 128 floats an invocation: past what registers hold
            continue
        for pin, pout in ((h, h), (h + 3, h), (h + 3, h + 3)):
            rows.append(["strips", f"C={c} WG={wg} pin={pin} pout={pout}", time(strips, -(-h // c), c, wg, pin, pout)])
        rows.append(["strips, 2 exchanges", f"C={c} WG={wg} pin=pout={h + 3}",
                     time(strips, -(-h // c), c, wg, h + 3, h + 3, rounds=2)])
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096, help="the side of the rfft2 input (a power of two >= 256)")
    parser.add_argument("--repeat", type=int, default=20, help="timed dispatches per pattern")
    args = parser.parse_args()
    if not kd.device().info.get("timestamps_supported"):
        raise SystemExit("this device has no timestamps; the patterns need them")
    table(f"rfft2 {args.n} x {args.n} layouts, load/store only (GPU ms, median of {args.repeat})",
          ["pattern", "shape", "ms"], measure(args.n, args.repeat))


if __name__ == "__main__":
    main()
