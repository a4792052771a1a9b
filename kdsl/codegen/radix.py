"""LSD radix sort kernels: stable, 4 bits per pass, batched over lines.

The records live in one uint32 buffer as a structure of arrays: ``words`` rows of ``total`` elements (all
lines one after another), key words first (most significant first), the element's index along the axis last.
Keys are order-preserving unsigned integers of only as many bits as the dtype needs (:func:`radix_key`):
8-bit dtypes take 2 passes, 16-bit ones 4, 32-bit ones 8, 64-bit ones 16. Signed ints flip the sign bit;
floats flip every bit when negative and set the sign bit otherwise, with -0.0 read as +0.0 (equal keys keep
their order) and every NaN as the largest key (NaNs last, as NumPy). A descending sort inverts the key bits.

A pass (digit ``(key >> shift) & 15`` of key row ``row``) is three steps:

1. :class:`RadixPass` "count": per tile of ``tile`` records of one line, how many records hold each digit,
   into ``counts[(line * 16 + digit) * tiles_per_line + tile]``;
2. an inclusive scan of the counts (CPU drivers: the scheduler's scan; GPUs: :class:`RadixPass` "sums" and
   "scan", two workgroup passes): in that layout the scan minus the count is where a tile's records of a
   digit go, line offsets included (each line's counts add up to its length);
3. :class:`RadixPass` "scatter": each record moves to its digit's place, in order within each tile and digit
   (so the pass, and the sort, is stable).

``private`` kernels (CPU drivers, which pay for every workgroup barrier) give a tile to one invocation, which
walks it in order; otherwise a workgroup shares a tile: it stages the records in shared memory, ranks each
invocation's run of ``tile / LOCAL`` records with packed 16-bit per-invocation digit counters and a
workgroup scan, reorders the tile by digit in shared memory and writes each digit's records as one run
(neighbouring invocations write neighbouring words). No loop of one invocation runs past a tile's length.

Example:
    >>> from kdsl import dtype as dt
    >>> radix_key(dt.int8, "x", "k", False)
    (['uint k0 = (uint(x) ^ 128u) & 255u;'], ['k0'], 8)
    >>> radix_passes(dt.float32), radix_passes(dt.uint16), radix_passes(dt.float64)
    (8, 4, 16)
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.sort import key_lines
from kdsl.ir.kernels import LOCAL, RadixKeys, RadixPass

BITS = 4  # bits per pass
assert LOCAL == 256, "the count kernel adds up 8 rows of LOCAL counters with 32 invocations per row"
DIGITS = 1 << BITS
_PUSH = ["uint shift = pc.w[0];", "uint row = pc.w[1] * pc.w[4];", "uint n = pc.w[2];", "uint tpl = pc.w[3];",
         "uint total = pc.w[4];", "uint tiles = pc.w[5];"]


def key_bits(d: dt.DType) -> int:
    """Significant bits of ``d``'s radix key."""
    if d is dt.bool_:
        return 1
    return d.itemsize * 8


def radix_passes(d: dt.DType) -> int:
    """Passes of :data:`BITS` bits that sort keys of ``d``."""
    return -(-key_bits(d) // BITS)


def radix_key(d: dt.DType, v: str, name: str, descending: bool) -> tuple[list[str], list[str], int]:
    """GLSL lines computing the radix key of compute-type value ``v`` into ``name0`` (``name1``); returns
    (lines, the word names, most significant first, significant bits)."""
    bits = key_bits(d)
    if bits >= 32:
        lines, names = key_lines(d, v, name, descending)
        return lines, names, bits
    k, mask = f"{name}0", (1 << bits) - 1
    if d is dt.bool_:
        lines = [f"uint {k} = {v} ? 1u : 0u;"]
    elif d.name == "float16":  # the value is exact in float32; its half-precision bits are 16 key bits
        h = f"{name}h"
        lines = [f"uint {h} = packHalf2x16(vec2({v}, 0.0)) & 65535u;",
                 f"if (({h} & 32767u) == 0u) {h} = 0u;",  # -0.0 sorts as +0.0
                 f"uint {k} = ({h} & 32767u) > 31744u ? 65535u : "
                 f"(({h} & 32768u) != 0u ? (~{h} & 65535u) : ({h} | 32768u));"]
    elif d.kind == "i":
        lines = [f"uint {k} = (uint({v}) ^ {1 << (bits - 1)}u) & {mask}u;"]
    else:
        lines = [f"uint {k} = uint({v}) & {mask}u;"]
    if descending:
        lines.append(f"{k} = ~{k} & {mask}u;")
    return lines, [k], bits


def _main(head: str, lines: list[str]) -> str:
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + x for x in lines) + "\n}\n"


def _render_keys(k: RadixKeys) -> str:
    n = k.shape[k.axis]
    total = math.prod(k.shape)
    others = tuple(m for a, m in enumerate(k.shape) if a != k.axis)
    buffers: dict[int, dt.DType] = {0: dt.uint32}
    r = ExprRenderer(buffers, prefix="v")
    r.lines.append(f"int li = int(e / {n}u); int lj = int(e - uint(li) * {n}u);")
    line_idx = list(index_vars(r, "li", others)) if others else []
    idx = tuple(line_idx[:k.axis] + ["lj"] + line_idx[k.axis:])
    v = r.value(k.expr, k.shape, idx)
    key, names, _ = radix_key(k.key_dtype, v, "kk", k.descending)
    body = r.lines + key + [f"b0.d[{w * total}u + e] = {name};" for w, name in enumerate(names)]
    body.append(f"b0.d[{(k.words - 1) * total}u + e] = uint(lj);")
    lines = [f"for (uint e = gl_GlobalInvocationID.x; e < {total}u; e += gl_NumWorkGroups.x * {LOCAL}u) {{",
             *["    " + x for x in body], "}"]
    return _main(glsl.header(LOCAL, buffers, k.n_words, body_text="\n".join(lines)), lines)


def _tile_bounds(tile: int) -> list[str]:
    """``l``, ``t``: the line and tile within it of tile ``tl``; ``s``, ``e``: its records' range."""
    return ["uint l = tl / tpl; uint t = tl - l * tpl;",
            f"uint s = l * n + t * {tile}u; uint e = l * n + min(n, (t + 1u) * {tile}u);"]


def _digit(word: str) -> str:
    return f"(({word} >> shift) & {DIGITS - 1}u)"


def _render_count(k: RadixPass) -> str:
    buffers = {0: dt.uint32, 1: dt.uint32}
    store = f"b0.d[(l * {DIGITS}u + d) * tpl + t]"
    if k.private:
        body = [f"uint c[{DIGITS}];",
                f"for (uint d = 0u; d < {DIGITS}u; d++) c[d] = 0u;",
                f"for (uint p = s; p < e; p++) c[{_digit('b1.d[row + p]')}] += 1u;",
                f"for (uint d = 0u; d < {DIGITS}u; d++) {store} = c[d];"]
        lines = [*_PUSH, f"for (uint tl = gl_GlobalInvocationID.x; tl < tiles; tl += gl_NumWorkGroups.x * {LOCAL}u) {{",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        shared: list[str] = []
    else:
        # each invocation counts its records into its own column of packed counters (no atomics), then 8
        # invocations per row add up the row's 256 columns (reading 32 neighbours at a time: no bank conflicts)
        body = [f"for (uint r = 0u; r < 8u; r++) s_c[r * {LOCAL}u + tid] = 0u;",
                # constant trip counts: the loops unroll and every load is in flight at once
                f"uint kv[{k.tile // LOCAL}];",
                f"for (uint v = 0u; v < {k.tile // LOCAL}u; v++) {{",
                f"    uint p = s + v * {LOCAL}u + tid; kv[v] = p < e ? b1.d[row + p] : 0u;",
                "}",
                f"for (uint v = 0u; v < {k.tile // LOCAL}u; v++) {{",
                f"    if (s + v * {LOCAL}u + tid < e) {{ uint d = {_digit('kv[v]')}; "
                f"s_c[(d & 7u) * {LOCAL}u + tid] += 1u << ((d >> 3u) << 4u); }}",
                "}",
                "barrier();",
                "uint part = 0u;",
                f"for (uint j = 0u; j < {LOCAL // 32}u; j++) {{",
                f"    part += s_c[(tid >> 5u) * {LOCAL}u + (tid & 31u) + 32u * j];",  # row tid / 32 (LOCAL = 256)
                "}",
                "s_x[tid] = part;",
                "barrier();",
                "if (tid < 8u) {",
                "    uint sum = 0u;",
                "    for (uint j = 0u; j < 32u; j++) sum += s_x[tid * 32u + j];",
                "    uint d = tid;",
                f"    {store} = sum & 65535u;",
                "    d = tid + 8u;",
                f"    {store} = sum >> 16u;",
                "}",
                "barrier();"]
        lines = [*_PUSH, "uint tid = gl_LocalInvocationID.x;",
                 "for (uint tl = gl_WorkGroupID.x; tl < tiles; tl += gl_NumWorkGroups.x) {",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        shared = [f"shared uint s_c[{8 * LOCAL}];", f"shared uint s_x[{LOCAL}];"]
    text = "\n".join(lines)
    return _main(glsl.header(LOCAL, buffers, 6, shared=shared, body_text=text), lines)


def _render_scatter(k: RadixPass) -> str:
    buffers = {0: dt.uint32, 1: dt.uint32, 2: dt.uint32, 3: dt.uint32}
    w = k.words
    place = f"(l * {DIGITS}u + d) * tpl + t"
    if k.private:
        move = " ".join(f"b0.d[{x}u * total + q] = b1.d[{x}u * total + p];" for x in range(w))
        body = [f"uint o[{DIGITS}];",
                f"for (uint d = 0u; d < {DIGITS}u; d++) {{ uint h = {place}; o[d] = b3.d[h] - b2.d[h]; }}",
                "for (uint p = s; p < e; p++) {",
                f"    uint d = {_digit('b1.d[row + p]')};",
                f"    uint q = o[d]; o[d] = q + 1u; {move}",
                "}"]
        lines = [*_PUSH, f"for (uint tl = gl_GlobalInvocationID.x; tl < tiles; tl += gl_NumWorkGroups.x * {LOCAL}u) {{",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        text = "\n".join(lines)
        return _main(glsl.header(LOCAL, buffers, 6, body_text=text), lines)
    lines = [*_PUSH, "uint tid = gl_LocalInvocationID.x;", "uint kr = pc.w[1];",
             "for (uint tl = gl_WorkGroupID.x; tl < tiles; tl += gl_NumWorkGroups.x) {",
             *["    " + x for x in _tile_bounds(k.tile) + _group_scatter(k.tile, w, place)], "}"]
    text = "\n".join(lines)
    shared = [f"shared uint s_r[{padded(k.tile) * w}];", "uint sk(uint p) { return p + (p >> 5u); }",
              f"shared uint s_c[{8 * LOCAL}];", f"shared uint s_s[{LOCAL}];",
              f"shared uint s_g[{DIGITS}];"]
    return _main(glsl.header(LOCAL, buffers, 6, shared=shared, body_text=text), lines)


def padded(tile: int) -> int:
    """Shared words of one record row of a tile: a word is skipped after every 32 (``sk``), so invocations
    reading their runs of consecutive records hit different memory banks."""
    return tile + tile // 32


def _group_scatter(tile: int, w: int, place: str) -> list[str]:
    """One workgroup's stable scatter of one tile (see the module docstring). Counter ``s_c[r * LOCAL + u]``
    packs invocation ``u``'s counts of digits ``r`` (low half) and ``r + 8`` (high half); scanned in that
    order, it gives each invocation's first tile position for each digit."""
    run = tile // LOCAL
    t = padded(tile)
    half = "((d >> 3u) << 4u)"
    # constant trip counts (a guard inside): the loops unroll and all of a tile's loads are in flight at once
    # (a loop to e - s waits for each load in turn: measured 2.4 times slower than a copy on an H200)
    stage = [f"uint gh = 0u; if (tid < {DIGITS}u) {{ uint d = tid; uint h = {place}; gh = b3.d[h] - b2.d[h]; }}",
             f"uint ld[{run * w}];",
             f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = v * {LOCAL}u + tid;",
             *[f"    ld[v * {w}u + {x}u] = p < e - s ? b1.d[{x}u * total + s + p] : 0u;" for x in range(w)],
             "}",
             f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = v * {LOCAL}u + tid;",
             *[f"    s_r[{x * t}u + sk(p)] = ld[v * {w}u + {x}u];" for x in range(w)],
             "}",
             f"for (uint r = 0u; r < 8u; r++) s_c[r * {LOCAL}u + tid] = 0u;",
             "barrier();"]
    count = [f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = tid * {run}u + v;",
             "    if (p < e - s) {",
             f"        uint d = {_digit(f's_r[kr * {t}u + sk(p)]')};",
             f"        s_c[(d & 7u) * {LOCAL}u + tid] += 1u << {half};",
             "    }",
             "}",
             "barrier();"]
    scan = ["uint sum = 0u;",
            "for (uint i = 0u; i < 8u; i++) sum += s_c[tid * 8u + i];",
            "s_s[tid] = sum;",
            "barrier();",
            *_inclusive_scan_lines(),
            "uint acc = s_s[tid] - sum;",
            f"uint low = s_s[{LOCAL - 1}u] & 65535u;",  # records of digits 0..7: where digit 8 starts
            "for (uint i = 0u; i < 8u; i++) { uint c = s_c[tid * 8u + i]; s_c[tid * 8u + i] = acc; acc += c; }",
            "barrier();",
            f"if (tid < {DIGITS}u) {{",
            "    uint d = tid;",
            f"    uint first = ((s_c[(d & 7u) * {LOCAL}u] >> {half}) & 65535u) + (d >= 8u ? low : 0u);",
            "    s_g[d] = gh - first;",  # global place minus tile place (mod 2**32)
            "}",
            "barrier();"]  # column 0's counters were read: now their invocation may count on
    rank = [f"uint lp[{run}]; uint rr[{run * w}];",
            f"for (uint v = 0u; v < {run}u; v++) {{",
            f"    uint p = tid * {run}u + v;",
            "    if (p < e - s) {",
            *[f"        rr[v * {w}u + {x}u] = s_r[{x * t}u + sk(p)];" for x in range(w)],
            f"        uint d = {_digit(f's_r[kr * {t}u + sk(p)]')};",  # (rr[kr]: a runtime index spills rr)
            f"        uint at = (d & 7u) * {LOCAL}u + tid; uint x = s_c[at];",
            f"        lp[v] = ((x >> {half}) & 65535u) + (d >= 8u ? low : 0u);",
            f"        s_c[at] = x + (1u << {half});",
            "    }",
            "}",
            "barrier();",
            f"for (uint v = 0u; v < {run}u; v++) {{",
            f"    if (tid * {run}u + v < e - s) {{",
            *[f"        s_r[{x * t}u + sk(lp[v])] = rr[v * {w}u + {x}u];" for x in range(w)],
            "    }",
            "}",
            "barrier();"]
    out = [f"for (uint v = 0u; v < {run}u; v++) {{",
           f"    uint p = v * {LOCAL}u + tid;",
           "    if (p < e - s) {",
           f"        uint q = s_g[{_digit(f's_r[kr * {t}u + sk(p)]')}] + p;",
           *[f"        b0.d[{x}u * total + q] = s_r[{x * t}u + sk(p)];" for x in range(w)],
           "    }",
           "}",
           "barrier();"]
    return stage + count + scan + rank + out


SCAN_RUN = 16  # counts per invocation of a workgroup's block in the counts' scan
SCAN_CHUNK = SCAN_RUN * LOCAL


def _inclusive_scan_lines() -> list[str]:
    """GLSL that turns ``s_s[0..LOCAL)`` into its inclusive prefix sums (log2(LOCAL) doubling steps, every
    invocation ``tid`` of the workgroup taking part)."""
    return [f"for (uint off = 1u; off < {LOCAL}u; off <<= 1u) {{",
            "    uint x = tid >= off ? s_s[tid - off] : 0u;",
            "    barrier();",
            "    s_s[tid] += x;",
            "    barrier();",
            "}"]


def _reduce_lines(var: str) -> list[str]:
    """A workgroup's sum of ``var`` over its invocations, into ``s_s[0]`` (every invocation reads it after)."""
    return [f"s_s[tid] = {var};", "barrier();",
            f"for (uint off = {LOCAL // 2}u; off > 0u; off >>= 1u) {{",
            "    if (tid < off) s_s[tid] += s_s[tid + off];",
            "    barrier();",
            "}"]


def _render_counts_scan(k: RadixPass) -> str:
    """The inclusive scan of the counts (``pc.w[0]`` of them) on GPUs, in blocks of :data:`SCAN_CHUNK`:
    phase "sums" writes each block's total; "scan" (slot 1: the counts, slot 2: the block totals) starts each
    block from the sum of the totals before it (its workgroup adds them up: there are few) and scans the
    block with a workgroup scan of its invocations' runs."""
    c, r = SCAN_CHUNK, SCAN_RUN
    head = ["uint size = pc.w[0]; uint tid = gl_LocalInvocationID.x;",
            f"for (uint b = gl_WorkGroupID.x; b * {c}u < size; b += gl_NumWorkGroups.x) {{"]
    if k.phase == "sums":
        buffers = {0: dt.uint32, 1: dt.uint32}
        body = ["uint sum = 0u;",
                f"for (uint v = 0u; v < {r}u; v++) {{ uint i = b * {c}u + v * {LOCAL}u + tid; "
                "if (i < size) sum += b1.d[i]; }",
                *_reduce_lines("sum"),
                "if (tid == 0u) b0.d[b] = s_s[0];",
                "barrier();"]
    else:
        buffers = {0: dt.uint32, 1: dt.uint32, 2: dt.uint32}
        body = ["uint before = 0u;",
                f"for (uint j = tid; j < b; j += {LOCAL}u) before += b2.d[j];",
                *_reduce_lines("before"),
                "uint carry = s_s[0];",
                "barrier();",
                f"uint at = b * {c}u + tid * {r}u; uint loc[{r}]; uint run = 0u;",
                f"for (uint v = 0u; v < {r}u; v++) {{ run += at + v < size ? b1.d[at + v] : 0u; loc[v] = run; }}",
                "s_s[tid] = run;",
                "barrier();",
                *_inclusive_scan_lines(),
                "carry += s_s[tid] - run;",
                f"for (uint v = 0u; v < {r}u; v++) if (at + v < size) b0.d[at + v] = carry + loc[v];",
                "barrier();"]
    lines = [*head, *["    " + x for x in body], "}"]
    text = "\n".join(lines)
    return _main(glsl.header(LOCAL, buffers, 1, shared=[f"shared uint s_s[{LOCAL}];"], body_text=text), lines)


def render(k: RadixKeys | RadixPass) -> str:
    """GLSL of one radix-sort kernel."""
    if isinstance(k, RadixKeys):
        return _render_keys(k)
    if k.phase in ("sums", "scan"):
        return _render_counts_scan(k)
    return _render_count(k) if k.phase == "count" else _render_scatter(k)


def launch(k: RadixKeys | RadixPass) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
