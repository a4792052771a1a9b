"""LSD radix sort kernels: stable, 8 bits per pass, batched over lines, keys only or with indices.

The records live in one uint32 buffer as a structure of arrays: ``words`` rows of ``total`` elements (all
lines one after another): the values' *raw bits* first (one word, two for 64-bit dtypes, most significant
first), then, for an argsort, the element's index along the axis. A pass derives each record's digit from
its raw bits through the order-preserving key of :mod:`kdsl.codegen.radix_keys` (NaNs last, -0.0 equal to
+0.0, as NumPy). Since the records keep the raw bits, a sort needs no index row at all (an argsort's first
pass makes the index row as it moves the records: nothing writes it before): its output decodes the bits
(the sign of each zero and each NaN's payload survive) instead of gathering the input at sorted indices.
8-bit dtypes take 1 pass, 16-bit ones 2, 32-bit ones 4, 64-bit ones 8.

A pass (digit ``(key word kr >> shift) & 255``) is three steps:

1. :class:`RadixPass` "count": per tile of ``tile`` records of one line, how many records hold each digit,
   into ``counts[(line * 256 + digit) * tiles_per_line + tile]``;
2. an inclusive scan of the counts (CPU drivers: the scheduler's scan; GPUs: :class:`RadixPass` "sums" and
   "scan", two workgroup passes): in that layout the scan minus the count is where a tile's records of a
   digit go, line offsets included (each line's counts add up to its length);
3. :class:`RadixPass` "scatter" (push words: shift, key word, line length, tiles per line, records, tiles,
   first pass): each record moves to its digit's place, in order within each tile and digit
   (so the pass, and the sort, is stable).

``private`` kernels (CPU drivers, which pay for every workgroup barrier) give a tile to one invocation, which
walks it in order; otherwise a workgroup shares a tile: the count kernel adds shared-memory counters up with
atomics (counts do not depend on the order), the scatter kernel stages the tile's records in shared memory,
sorts them stably by their 8-bit digit in two 4-bit splits (each ranks an invocation's run of ``tile /
LOCAL`` records with packed 16-bit per-invocation counters and a workgroup scan: subgroup arithmetic where
the device has it, in the order (subgroup, lane), which is right for any subgroup size; shared memory
otherwise) and writes each digit's records as one run (neighbouring invocations write
neighbouring words). No loop of one invocation runs past a tile's length.

Example:
    >>> padded(256)  # a tile's shared record row: one word skipped after every 32 (memory banks)
    264
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.radix_keys import DIGITS, digit_function, raw_lines, raw_words
from kdsl.ir.kernels import LOCAL
from kdsl.ir.sort_kernels import RadixKeys, RadixPass

assert LOCAL == DIGITS, "a workgroup's invocation d handles digit d of its tile"
# The count kernel keeps this many copies of its 256 counters (invocation i adds to copy i % COPIES, each copy
# one word further along the banks): neighbouring invocations holding the same digit (keys' top bytes often
# share a few values) then add to different words, so fewer atomics on one shared word wait for each other.
COPIES = 8
_PUSH = ["uint shift = pc.w[0];", "uint kr = pc.w[1];", "uint n = pc.w[2];", "uint tpl = pc.w[3];",
         "uint total = pc.w[4];", "uint tiles = pc.w[5];", "bool first = pc.w[6] != 0u;"]
N_PUSH = len(_PUSH)


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
    raw, names = raw_lines(k.key_dtype, v, "kr")
    body = r.lines + raw + [f"b0.d[{w * total}u + e] = {name};" for w, name in enumerate(names)]
    lines = [f"for (uint e = gl_GlobalInvocationID.x; e < {total}u; e += gl_NumWorkGroups.x * {LOCAL}u) {{",
             *["    " + x for x in body], "}"]
    return _main(glsl.header(LOCAL, buffers, k.n_words, body_text="\n".join(lines)), lines)


def _tile_bounds(tile: int) -> list[str]:
    """``l``, ``t``: the line and tile within it of tile ``tl``; ``s``, ``e``: its records' range."""
    return ["uint l = tl / tpl; uint t = tl - l * tpl;",
            f"uint s = l * n + t * {tile}u; uint e = l * n + min(n, (t + 1u) * {tile}u);"]


def _digit_of(k: RadixPass, word: str) -> str:
    """The digit of the record whose raw word ``x`` is ``word.format(x=x)``."""
    kw = raw_words(_key_dtype(k))
    return "kd_digit(" + ", ".join(word.format(x=x) for x in range(kw)) + ", kr, shift)"


def _key_dtype(k: RadixPass) -> dt.DType:
    assert k.key_dtype is not None, "a count or scatter pass needs its key dtype"
    return k.key_dtype


def _render_count(k: RadixPass) -> str:
    buffers = {0: dt.uint32, 1: dt.uint32}
    kw = raw_words(_key_dtype(k))
    store = f"b0.d[(l * {DIGITS}u + d) * tpl + t]"
    if k.private:
        body = [f"uint c[{DIGITS}];",
                f"for (uint d = 0u; d < {DIGITS}u; d++) c[d] = 0u;",
                f"for (uint p = s; p < e; p++) c[{_digit_of(k, 'b1.d[{x}u * total + p]')}] += 1u;",
                f"for (uint d = 0u; d < {DIGITS}u; d++) {store} = c[d];"]
        lines = [*_PUSH, f"for (uint tl = gl_GlobalInvocationID.x; tl < tiles; tl += gl_NumWorkGroups.x * {LOCAL}u) {{",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        shared = [digit_function(_key_dtype(k), k.descending)]
    else:
        run = k.tile // LOCAL
        kdig = _digit_of(k, f"kv[v * {kw}u + {{x}}u]")
        # constant trip counts: the loops unroll and every load of the tile is in flight at once; the order
        # of the atomic additions does not change the counts
        body = [f"for (uint c = 0u; c < {COPIES}u; c++) s_h[c * {DIGITS + 1}u + tid] = 0u;",
                f"uint kv[{run * kw}];",
                f"for (uint v = 0u; v < {run}u; v++) {{",
                f"    uint p = s + v * {LOCAL}u + tid;",
                *[f"    kv[v * {kw}u + {x}u] = p < e ? b1.d[{x}u * total + p] : 0u;" for x in range(kw)],
                "}",
                "barrier();",
                f"for (uint v = 0u; v < {run}u; v++) {{",
                f"    if (s + v * {LOCAL}u + tid < e) atomicAdd(s_h[mine + {kdig}], 1u);",
                "}",
                "barrier();",
                "uint d = tid; uint sum = 0u;",
                f"for (uint c = 0u; c < {COPIES}u; c++) sum += s_h[c * {DIGITS + 1}u + tid];",
                f"{store} = sum;",
                "barrier();"]
        lines = [*_PUSH, "uint tid = gl_LocalInvocationID.x;",
                 f"uint mine = (tid % {COPIES}u) * {DIGITS + 1}u;",
                 "for (uint tl = gl_WorkGroupID.x; tl < tiles; tl += gl_NumWorkGroups.x) {",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        shared = [f"shared uint s_h[{COPIES * (DIGITS + 1)}];", digit_function(_key_dtype(k), k.descending)]
    text = "\n".join(lines)
    return _main(glsl.header(LOCAL, buffers, N_PUSH, shared=shared, body_text=text), lines)


def _render_scatter(k: RadixPass) -> str:
    buffers = {0: dt.uint32, 1: dt.uint32, 2: dt.uint32, 3: dt.uint32}
    w = k.words
    place = f"(l * {DIGITS}u + d) * tpl + t"
    digit = digit_function(_key_dtype(k), k.descending)
    if k.private:
        kw = raw_words(_key_dtype(k))
        move = " ".join(f"b0.d[{x}u * total + q] = b1.d[{x}u * total + p];" for x in range(kw))
        if w > kw:  # the index row: the first pass makes it (the records kernel does not write it)
            move += f" b0.d[{kw}u * total + q] = first ? p - l * n : b1.d[{kw}u * total + p];"
        body = [f"uint o[{DIGITS}];",
                f"for (uint d = 0u; d < {DIGITS}u; d++) {{ uint h = {place}; o[d] = b3.d[h] - b2.d[h]; }}",
                "for (uint p = s; p < e; p++) {",
                f"    uint d = {_digit_of(k, 'b1.d[{x}u * total + p]')};",
                f"    uint q = o[d]; o[d] = q + 1u; {move}",
                "}"]
        lines = [*_PUSH, f"for (uint tl = gl_GlobalInvocationID.x; tl < tiles; tl += gl_NumWorkGroups.x * {LOCAL}u) {{",
                 *["    " + x for x in _tile_bounds(k.tile) + body], "}"]
        text = "\n".join(lines)
        return _main(glsl.header(LOCAL, buffers, N_PUSH, shared=[digit], body_text=text), lines)
    lines = [*_PUSH, *_rank(k.subgroups),
             "for (uint tl = gl_WorkGroupID.x; tl < tiles; tl += gl_NumWorkGroups.x) {",
             *["    " + x for x in _tile_bounds(k.tile) + _group_scatter(k)], "}"]
    text = "\n".join(lines)
    t = padded(k.tile)
    sdig = _digit_of(k, f"s_r[{{x}}u * {t}u + sk(p)]").replace("kr, shift", "pc.w[1], pc.w[0]")
    shared = [f"shared uint s_r[{t * w}];", "uint sk(uint p) { return p + (p >> 5u); }",
              f"shared uint s_c[{8 * LOCAL}];", f"shared uint s_s[{LOCAL}];", f"shared uint s_g[{DIGITS}];",
              digit, f"uint sdig(uint p) {{ return {sdig}; }}"]
    if k.subgroups:
        shared.append(f"shared uint s_t[{LOCAL}];")
    head = glsl.header(LOCAL, buffers, N_PUSH, shared=shared, body_text=text)
    if k.subgroups:
        head = head.replace("#version 450\n", "#version 450\n#extension GL_KHR_shader_subgroup_basic : require\n"
                            "#extension GL_KHR_shader_subgroup_arithmetic : require\n", 1)
    return _main(head, lines)


def _rank(subgroups: bool) -> list[str]:
    """Lines setting ``tid``, the invocation's place in the order of the workgroup scans: its index, or with
    subgroup scans (subgroup id, then lane) order, so every subgroup size and layout is right."""
    if not subgroups:
        return ["uint tid = gl_LocalInvocationID.x;"]
    return ["uint sgc = subgroupAdd(1u);",
            "if (subgroupElect()) s_t[gl_SubgroupID] = sgc;",
            "barrier();",
            "uint tid = subgroupExclusiveAdd(1u);",
            "for (uint g = 0u; g < gl_SubgroupID; g++) tid += s_t[g];",
            "barrier();"]


def _exclusive_sum(var: str, subgroups: bool) -> list[str]:
    """Lines setting ``ex`` to the workgroup's exclusive sum of ``var`` over the invocations before ``tid``
    and ``tot`` to its total (every invocation takes part; barriers inside, and one after the last read)."""
    if subgroups:
        return [f"uint sg_all = subgroupAdd({var});",
                "if (subgroupElect()) s_t[gl_SubgroupID] = sg_all;",
                "barrier();",
                f"uint ex = subgroupExclusiveAdd({var}); uint tot = 0u;",
                "for (uint g = 0u; g < gl_NumSubgroups; g++) { uint x = s_t[g]; tot += x; "
                "if (g < gl_SubgroupID) ex += x; }",
                "barrier();"]
    return [f"s_s[tid] = {var};",
            "barrier();",
            *_inclusive_scan_lines(),
            f"uint ex = s_s[tid] - {var}; uint tot = s_s[{LOCAL - 1}u];",
            "barrier();"]


def padded(tile: int) -> int:
    """Shared words of one record row of a tile: a word is skipped after every 32 (``sk``), so invocations
    reading their runs of consecutive records hit different memory banks."""
    return tile + tile // 32


def _group_scatter(k: RadixPass) -> list[str]:
    """One workgroup's stable scatter of one tile (see the module docstring): stage the tile, sort it by its
    digit in shared memory (two 4-bit splits), then write record ``p`` of the sorted tile to its digit's
    global place plus ``p`` minus where the digit starts in the tile."""
    run, w, t = k.tile // LOCAL, k.words, padded(k.tile)
    kw = raw_words(_key_dtype(k))
    # constant trip counts (a guard inside): the loops unroll and all of a tile's loads are in flight at once
    # (a loop to e - s waits for each load in turn: measured 2.4 times slower than a copy on an H200)
    stage = [f"uint h = (l * {DIGITS}u + tid) * tpl + t; uint cnt = b2.d[h]; uint gbase = b3.d[h] - cnt;",
             f"uint ld[{run * w}];",
             f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = v * {LOCAL}u + tid;",
             *[f"    ld[v * {w}u + {x}u] = p < e - s ? b1.d[{x}u * total + s + p] : 0u;" for x in range(kw)],
             # the index row: the first pass makes it (the records kernel does not write it)
             *[f"    ld[v * {w}u + {kw}u] = first ? t * {k.tile}u + p : (p < e - s ? b1.d[{kw}u * total + s + p] : 0u);"
               for _ in range(w - kw)],
             "}",
             f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = v * {LOCAL}u + tid;",
             *[f"    s_r[{x * t}u + sk(p)] = ld[v * {w}u + {x}u];" for x in range(w)],
             "}"]
    # where each digit starts in the sorted tile: an exclusive scan of the tile's counts (invocation d: digit d)
    starts = ["{", *["    " + x for x in _exclusive_sum("cnt", k.subgroups)],
              "    s_g[tid] = gbase - ex;",  # global place minus tile place (mod 2**32)
              "}",
              "barrier();"]
    out = [f"for (uint v = 0u; v < {run}u; v++) {{",
           f"    uint p = v * {LOCAL}u + tid;",
           "    if (p < e - s) {",
           "        uint q = s_g[sdig(p)] + p;",
           *[f"        b0.d[{x}u * total + q] = s_r[{x * t}u + sk(p)];" for x in range(w)],
           "    }",
           "}",
           "barrier();"]
    return stage + _split(run, w, t, 0, k.subgroups) + _split(run, w, t, 4, k.subgroups) + starts + out


def _split(run: int, w: int, t: int, sub: int, subgroups: bool) -> list[str]:
    """Reorder the staged tile stably by the 4 digit bits at ``sub``. Counter ``s_c[r * LOCAL + u]`` packs
    invocation ``u``'s counts of nibbles ``r`` (low half) and ``r + 8`` (high half); scanned in that order,
    it gives each invocation's first tile position for each nibble."""
    half = "((d >> 3u) << 4u)"
    count = [f"for (uint r = 0u; r < 8u; r++) s_c[r * {LOCAL}u + tid] = 0u;",
             "barrier();",
             f"uint nb[{run}];",
             f"for (uint v = 0u; v < {run}u; v++) {{",
             f"    uint p = tid * {run}u + v;",
             "    nb[v] = 0u;",
             "    if (p < e - s) {",
             f"        uint d = (sdig(p) >> {sub}u) & 15u; nb[v] = d;",
             f"        s_c[(d & 7u) * {LOCAL}u + tid] += 1u << {half};",
             "    }",
             "}",
             "barrier();"]
    scan = ["uint sum = 0u;",
            "for (uint i = 0u; i < 8u; i++) sum += s_c[tid * 8u + i];",
            *_exclusive_sum("sum", subgroups),
            "uint acc = ex;",
            "uint low = tot & 65535u;",  # records of nibbles 0..7: where nibble 8 starts
            "for (uint i = 0u; i < 8u; i++) { uint c = s_c[tid * 8u + i]; s_c[tid * 8u + i] = acc; acc += c; }",
            "barrier();"]
    rank = [f"uint lp[{run}]; uint rr[{run * w}];",
            f"for (uint v = 0u; v < {run}u; v++) {{",
            f"    uint p = tid * {run}u + v;",
            "    if (p < e - s) {",
            *[f"        rr[v * {w}u + {x}u] = s_r[{x * t}u + sk(p)];" for x in range(w)],
            "        uint d = nb[v];",
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
    return ["{", *["    " + x for x in count + scan + rank], "}"]
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
