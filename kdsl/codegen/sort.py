"""Sorting kernels: a bitonic network over (key, index) records, sorted within tiles first.

A record is ``words`` uint32: the order-preserving key of a value (one word, two for 64-bit dtypes; most
significant first) and the value's index along the sorted axis. Records compare as tuples, so equal keys
keep their original order (a stable sort) although the bitonic network itself is not stable. Keys make
unsigned order equal NumPy's sort order: signed ints flip the sign bit; floats flip every bit when negative
and set the sign bit otherwise, with -0.0 read as +0.0 and every NaN as the largest key (NaNs last). A
descending sort inverts the key words (NaNs first, as ``torch.topk``) but keeps ascending indices on ties.

Kernels (:mod:`kdsl.ir.kernels`): :class:`SortKeys` builds the records and sorts each tile of ``tile``
records (blocks up to ``kmax``); then for each longer block ``k`` the stages with distance ``j >= tile`` run
as :class:`SortMerge` passes over global memory (two stages per pass where it can), and the rest as one
:class:`SortLocal` pass on tiles; :class:`SortOut` reads the sorted indices (or the values at them) back
into the array's layout. Tiles live in shared memory (GPUs: a workgroup per tile of 1 024) or, on CPU
drivers, which pay for every barrier, in one invocation's private memory (a tile of 256). Every loop of one
invocation stays short (a few thousand trips at most; passes grid-stride), far below lavapipe's cap.

Example:
    >>> from kdsl import dtype as dt
    >>> key_lines(dt.float32, "x", "k", False)[1]
    ['k0']
    >>> "barrier();" in render(SortLocal(2, 1024, 4, 4)), "barrier();" in render(SortLocal(2, 64, 4, 1, True))
    (True, False)
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.ops import render_cast
from kdsl.codegen.radix_keys import decode_raw, raw_words
from kdsl.ir.kernels import LOCAL
from kdsl.ir.sort_kernels import SortKeys, SortLocal, SortMerge, SortOut

ONES = "0xFFFFFFFFu"


def key_words(d: dt.DType) -> int:
    """uint32 words in the sort key of ``d``."""
    return 2 if d.itemsize == 8 else 1


def key_lines(d: dt.DType, v: str, name: str, descending: bool) -> tuple[list[str], list[str]]:
    """GLSL lines computing the key words of compute-type value ``v`` into ``name0``, ``name1``, ...;
    returns (lines, the word names, most significant first)."""
    c, k0, k1 = d.glsl_compute, f"{name}0", f"{name}1"
    if c == "bool":
        lines = [f"uint {k0} = {v} ? 1u : 0u;"]
    elif c == "int":
        lines = [f"uint {k0} = uint({v}) ^ 0x80000000u;"]
    elif c == "uint":
        lines = [f"uint {k0} = {v};"]
    elif c == "float":  # float16 values are exact in float32: one key for both
        u = f"{name}u"
        lines = [f"uint {u} = floatBitsToUint({v});",
                 f"if (({u} & 0x7FFFFFFFu) == 0u) {u} = 0u;",  # -0.0 sorts as +0.0
                 f"uint {k0} = ({u} & 0x7FFFFFFFu) > 0x7F800000u ? {ONES} : "
                 f"(({u} & 0x80000000u) != 0u ? ~{u} : ({u} | 0x80000000u));"]
    elif c == "double":
        p, m = f"{name}p", f"{name}m"
        lines = [f"uvec2 {p} = unpackDouble2x32({v});",  # (low word, high word)
                 f"uint {m} = {p}.y & 0x7FFFFFFFu;",
                 f"if ({m} == 0u && {p}.x == 0u) {p} = uvec2(0u);",
                 f"bool {name}n = {m} > 0x7FF00000u || ({m} == 0x7FF00000u && {p}.x != 0u);",
                 f"if (({p}.y & 0x80000000u) != 0u) {p} = ~{p}; else {p}.y |= 0x80000000u;",
                 f"uint {k0} = {name}n ? {ONES} : {p}.y;",
                 f"uint {k1} = {name}n ? {ONES} : {p}.x;"]
    elif c in ("int64_t", "uint64_t"):
        p = f"{name}p"
        flip = " ^ 0x80000000u" if c == "int64_t" else ""
        lines = [f"uint64_t {p} = uint64_t({v});", f"uint {k0} = uint({p} >> 32){flip};", f"uint {k1} = uint({p});"]
    elif d.kind == "c":
        # NumPy's complex order: [R + Rj, R + nanj, nan + Rj, nan + nanj], each group by the real part's key
        # (NaNs equal), then the imaginary part's
        part = dt.float32 if c == "vec2" else dt.float64
        group = [f"uint {name}g = (isnan(({v}).x) ? 2u : 0u) | (isnan(({v}).y) ? 1u : 0u);"]
        if descending:
            group.append(f"{name}g = ~{name}g;")
        real, real_names = key_lines(part, f"({v}).x", f"{name}r", descending)
        imag, imag_names = key_lines(part, f"({v}).y", f"{name}i", descending)
        return group + real + imag, [f"{name}g", *real_names, *imag_names]
    else:
        raise TypeError(f"no sort key for dtype {d.name}")
    names = [k0, k1][:key_words(d)]
    if descending:
        lines += [f"{n} = ~{n};" for n in names]
    return lines, names


def less_function(words: int) -> str:
    """``bool kd_rless(uint a0.., uint b0..)``: record ``a`` sorts before record ``b``."""
    a = ", ".join(f"uint a{w}" for w in range(words))
    b = ", ".join(f"uint b{w}" for w in range(words))
    body = "".join(f" if (a{w} != b{w}) return a{w} < b{w};" for w in range(words - 1))
    return f"bool kd_rless({a}, {b}) {{{body} return a{words - 1} < b{words - 1}; }}"


def _args(buf: str, base: str, words: int) -> str:
    return ", ".join(f"{buf}[{base} + {w}u]" for w in range(words))


def _records_decl(words: int, tile: int) -> str:
    return f"uint s_r[{tile * words}];"


def _cx(i: str, l: str, asc: str, words: int) -> list[str]:
    """Compare-exchange records ``i`` and ``l`` of the tile (into ascending order when ``asc``)."""
    w = words
    swap = " ".join(f"uint t{x} = s_r[a + {x}u]; s_r[a + {x}u] = s_r[b + {x}u]; s_r[b + {x}u] = t{x};"
                    for x in range(w))
    return [f"uint a = ({i}) * {w}u; uint b = ({l}) * {w}u;",
            f"bool later = kd_rless({_args('s_r', 'b', w)}, {_args('s_r', 'a', w)});",
            f"if (later == ({asc})) {{ {swap} }}"]


def _lanes(private: bool) -> tuple[str, str, list[str]]:
    """(first, step, sync) of a loop over a tile's items: the whole workgroup shares a tile in shared memory
    (GPUs), or one invocation owns a tile in private memory and needs no barrier (CPU drivers)."""
    if private:  # start at a zero the compiler cannot see: no loop over a whole tile gets unrolled
        return "z0", "1u", []
    return "tid", f"{LOCAL}u", ["memoryBarrierShared(); barrier();"]


def _network(kstart: str, kend: str, tile: int, mask: str, words: int, private: bool) -> list[str]:
    """The bitonic stages of blocks ``kstart..kend`` with distances below ``tile``, on tile ``base``'s
    records. A record's direction comes from its position in its line (``& mask``, ``mask = n_pad - 1``)."""
    half = tile // 2
    first, step, sync = _lanes(private)
    return [f"for (uint k = {kstart}; k <= {kend}; k <<= 1u) {{",
            f"    for (uint j = min(k >> 1u, {half}u); j > 0u; j >>= 1u) {{",
            f"        for (uint p = {first}; p < {half}u; p += {step}) {{",
            "            uint i = ((p & ~(j - 1u)) << 1u) | (p & (j - 1u));",
            *["            " + x for x in _cx("i", "i | j", f"(((base + i) & {mask}) & k) == 0u", words)],
            "        }",
            *["        " + x for x in sync],
            "    }",
            "}"]


def _tiles(tiles: str, tile: int, private: bool, body: list[str]) -> list[str]:
    """``body`` once per tile (``base`` = its first record), tiles spread over workgroups or invocations."""
    if private:
        head = ["uint z0 = gl_NumWorkGroups.y - 1u;",
                f"for (uint tl = gl_GlobalInvocationID.x; tl < {tiles}; tl += gl_NumWorkGroups.x * {LOCAL}u) {{"]
    else:
        head = ["uint tid = gl_LocalInvocationID.x;",
                f"for (uint tl = gl_WorkGroupID.x; tl < {tiles}; tl += gl_NumWorkGroups.x) {{"]
    return [*head, f"    uint base = tl * {tile}u;", *["    " + x for x in body + _lanes(private)[2]], "}"]


def _store_tile(total: str, tile: int, words: int, private: bool) -> list[str]:
    first, step, _ = _lanes(private)
    return [f"for (uint q = {first}; q < {tile}u; q += {step}) {{",
            f"    if (base + q < {total}) {{",
            *[f"        b0.d[(base + q) * {words}u + {w}u] = s_r[q * {words}u + {w}u];" for w in range(words)],
            "    }",
            "}"]


def _finish(buffers: dict[int, dt.DType], n_words: int, words: int, tile: int, private: bool,
            text: str) -> str:
    shared = [less_function(words)] if private else [f"shared {_records_decl(words, tile)}", less_function(words)]
    if private:
        text = _records_decl(words, tile) + "\n" + text
    return _main(glsl.header(LOCAL, buffers, n_words, shared=shared, body_text=text), text)


def _main(head: str, text: str) -> str:
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def _render_keys(k: SortKeys) -> str:
    lines = math.prod(k.shape) // k.shape[k.axis] if k.shape[k.axis] else 0
    total = lines * k.n_pad
    others = tuple(n for a, n in enumerate(k.shape) if a != k.axis)
    buffers: dict[int, dt.DType] = {0: dt.uint32}
    r = ExprRenderer(buffers, prefix="v")
    line_idx = list(index_vars(r, "li", others)) if others else []
    idx = tuple(line_idx[:k.axis] + ["lj"] + line_idx[k.axis:])
    v = r.value(k.expr, k.shape, idx)
    key, names = key_lines(k.key_dtype, v, "kk", k.descending)
    w = k.words
    fill = [f"s_r[q * {w}u + {x}u] = {n};" for x, n in enumerate(names)]
    shift = k.n_pad.bit_length() - 1
    first, step, sync = _lanes(k.private)
    build = [f"for (uint q = {first}; q < {k.tile}u; q += {step}) {{",
             "    uint g = base + q;",
             f"    int li = int(g >> {shift}u); int lj = int(g & {k.n_pad - 1}u);",
             f"    if (g < {total}u && lj < {k.shape[k.axis]}) {{",
             *["        " + x for x in r.lines + key + fill],
             f"        s_r[q * {w}u + {w - 1}u] = uint(lj);",
             "    } else {",
             *[f"        s_r[q * {w}u + {x}u] = {ONES};" for x in range(w)],
             "    }",
             "}", *sync]
    kmax = f"{k.kmax}u" + (" + z0" if k.private else "")
    body = build + _network("2u", kmax, k.tile, f"{k.n_pad - 1}u", w, k.private)
    body += _store_tile(f"{total}u", k.tile, w, k.private)
    text = "\n".join(_tiles(f"{-(-total // k.tile)}u", k.tile, k.private, body))
    return _finish(buffers, k.n_words, w, k.tile, k.private, text)


def _render_local(k: SortLocal) -> str:
    w = k.words
    first, step, sync = _lanes(k.private)
    load = [f"for (uint q = {first}; q < {k.tile}u; q += {step}) {{",
            *[f"    s_r[q * {w}u + {x}u] = b1.d[(base + q) * {w}u + {x}u];" for x in range(w)],
            "}", *sync]
    body = load + _network("pc.w[0]", "pc.w[0]", k.tile, "pc.w[2]", w, k.private)
    text = "\n".join(_tiles("pc.w[3]", k.tile, k.private, body + _store_tile("pc.w[1]", k.tile, w, k.private)))
    return _finish({0: dt.uint32, 1: dt.uint32}, k.n_words, w, k.tile, k.private, text)


def _render_merge(k: SortMerge) -> str:
    text = "\n".join(_merge4(k.words) if k.radix == 4 else _merge2(k.words))
    buffers = {0: dt.uint32, 1: dt.uint32}
    return _main(glsl.header(LOCAL, buffers, k.n_words, shared=[less_function(k.words)], body_text=text), text)


def _merge2(w: int) -> list[str]:
    """One stage (distance ``pc.w[1]``): an invocation compare-exchanges one pair."""
    a, b = _args("b1.d", "ia", w), _args("b1.d", "ib", w)
    return [
        "uint kb = pc.w[0]; uint j = pc.w[1];",
        f"for (uint p = gl_GlobalInvocationID.x; p < pc.w[2]; p += gl_NumWorkGroups.x * {LOCAL}u) {{",
        "    uint i = ((p & ~(j - 1u)) << 1u) | (p & (j - 1u));",
        f"    uint ia = i * {w}u; uint ib = (i | j) * {w}u;",
        "    bool asc = ((i & pc.w[3]) & kb) == 0u;",
        f"    bool sw = kd_rless({b}, {a}) == asc;",
        "    uint lo = sw ? ib : ia; uint hi = sw ? ia : ib;",
        *[f"    b0.d[ia + {x}u] = b1.d[lo + {x}u]; b0.d[ib + {x}u] = b1.d[hi + {x}u];" for x in range(w)],
        "}"]


def _merge4(w: int) -> list[str]:
    """Two stages (distances ``pc.w[1]`` and half of it) in one pass: an invocation loads the four records
    the two stages connect, compare-exchanges them in registers and stores them (half the memory traffic)."""
    def rec(n: int) -> str:
        return ", ".join(f"r{n}_{x}" for x in range(w))

    def cx(a: int, b: int) -> list[str]:
        swap = " ".join(f"uint t{x} = r{a}_{x}; r{a}_{x} = r{b}_{x}; r{b}_{x} = t{x};" for x in range(w))
        return [f"    if (kd_rless({rec(b)}, {rec(a)}) == asc) {{ {swap} }}"]

    offsets = ["0u", "h", "j", "j + h"]
    loads = [f"    uint o{n} = (i + {off}) * {w}u;" for n, off in enumerate(offsets)]
    loads += [f"    uint r{n}_{x} = b1.d[o{n} + {x}u];" for n in range(4) for x in range(w)]
    stores = [f"    b0.d[o{n} + {x}u] = r{n}_{x};" for n in range(4) for x in range(w)]
    return [
        "uint kb = pc.w[0]; uint j = pc.w[1]; uint h = j >> 1u;",
        f"for (uint p = gl_GlobalInvocationID.x; p < pc.w[2]; p += gl_NumWorkGroups.x * {LOCAL}u) {{",
        "    uint t = ((p & ~(h - 1u)) << 1u) | (p & (h - 1u));",  # a zero bit at h, then one at j
        "    uint i = ((t & ~(j - 1u)) << 1u) | (t & (j - 1u));",
        "    bool asc = ((i & pc.w[3]) & kb) == 0u;",  # the block k > j: one direction for all four
        *loads, *cx(0, 2), *cx(1, 3), *cx(0, 1), *cx(2, 3), *stores,
        "}"]


def _render_out(k: SortOut) -> str:
    size = math.prod(k.shape)
    buffers: dict[int, dt.DType] = {0: k.out_dtype, 1: dt.uint32}
    r = ExprRenderer(buffers, prefix="v")
    idx = list(index_vars(r, "i", k.shape))
    others = [a for a in range(len(k.shape)) if a != k.axis]
    stride, terms = 1, []
    for a in reversed(others):
        terms.append(f"uint({idx[a]}) * {stride}u")
        stride *= k.shape[a]
    line = " + ".join(terms) if terms else "0u"
    r.lines.append(f"uint rec = ({line}) * {k.n_pad}u + uint({idx[k.axis]});")
    if k.raw is not None:  # a keys-only radix sort: the sorted records are the values' raw bits
        raw = [f"b1.d[{x * k.total}u + rec]" if x else "b1.d[rec]" for x in range(raw_words(k.raw))]
        value = decode_raw(k.raw, raw)
    else:
        at = f"{k.soa}u + rec" if k.soa else f"rec * {k.words}u + {k.words - 1}u"
        r.lines.append(f"int sj = int(b1.d[{at}]);")
        if k.want == "values":
            assert k.expr is not None, "SortOut of values needs the sorted expression"
            value = r.value(k.expr, k.shape, tuple(idx[:k.axis] + ["sj"] + idx[k.axis + 1:]))
        else:
            value = render_cast("sj", dt.int32, k.out_dtype)
    r.lines.append(f"b0.d[i] = {glsl.store_value(k.out_dtype, value)};")
    stride_all = k.groups * LOCAL
    loop = (f"for (int i = int(gl_GlobalInvocationID.x); i < {size}; i += {stride_all}) {{" if stride_all < size
            else f"int i = int(gl_GlobalInvocationID.x); if (i < {size}) {{")
    text = "\n".join([loop, *["    " + x for x in r.lines], "}"])
    return _main(glsl.header(LOCAL, buffers, k.n_words, body_text=text), text)


_BY_TYPE = {SortKeys: _render_keys, SortLocal: _render_local, SortMerge: _render_merge, SortOut: _render_out}


def render(k: SortKeys | SortMerge | SortLocal | SortOut) -> str:
    """GLSL of one sorting kernel."""
    return _BY_TYPE[type(k)](k)  # type: ignore[operator]


def launch(k: SortKeys | SortMerge | SortLocal | SortOut) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
