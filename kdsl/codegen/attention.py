"""Fused attention (:class:`kdsl.ir.kernels.Attention`): ``softmax(q @ k^T * scale + mask) @ v`` in one kernel,
flash-attention style, without ever writing the ``(L, S)`` scores.

Each workgroup takes tiles of (batch position, block of ``rows`` query rows), grid-stride. Each invocation owns
one query row: it keeps the row of ``q`` (times ``scale``) and its output accumulator in registers, as
``vec4`` variables (straight-line code: ``e`` and ``ev`` are compile-time constants, padded to multiples of
4 with zeros, so no loop runs over them). The keys and values pass through shared memory ``block`` keys at a
time, loaded once per workgroup through ``k``'s and ``v``'s expressions (their views: a head slice of a
``(b, s, 3, heads, d)`` projection is read in place, never copied). Every invocation then walks the block's
keys in order with an online softmax: a running maximum ``m``, the running sum ``l`` of ``exp(score - m)``
and the accumulator, rescaled by ``exp(m_old - m_new)`` only when the maximum grows.

No value is combined across invocations (a query row's softmax is all its own), so the kernel needs no
subgroup operations and no reductions in shared memory; shared memory only holds the key and value blocks.

Semantics follow the composite path (:func:`kdsl.nn.scaled_dot_product_attention`): a masked key's weight is
exactly 0 (and ``0 * v`` is still added, so an infinite value gives NaN as the matmul does); a row whose keys
are all masked ends with ``l == 0`` and gives ``0 / 0`` = NaN; a NaN score or a ``+inf`` maximum makes ``l``
NaN, and the whole row NaN, as ``exp(x - max(x))`` does.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.expr import load
    >>> from kdsl.ir.kernels import Attention
    >>> q = load(1, dt.float32, View.contiguous((2, 5, 8)))
    >>> k = Attention((2,), 5, 5, 8, 8, dt.float32, q, q, q, None, True, 0.35, 0, 2, 32, 16)
    >>> src = render(k)
    >>> "shared vec4 ks[32];" in src and "barrier();" in src and launch(k)
    (2, 1, 1)
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Attention

NEG_INF = "uintBitsToFloat(0xff800000u)"
_BARRIER = "memoryBarrierShared(); barrier();"


def quads(n: int) -> int:
    """``vec4`` slots holding ``n`` floats (padded with zeros)."""
    return -(-n // 4)


def row_free(e: Expr, axis: int) -> bool:
    """Whether expression ``e`` does not depend on index ``axis`` (a key-padding mask ``(b, 1, 1, s)``
    broadcast along the query rows): every load has stride 0 along it, no index node reads it, and nothing
    re-indexes (conservatively, a remap or a row gather depends)."""
    if e.op == "load":
        view = e.arg[1]
        return view.shape[axis] == 1 or view.strides[axis] == 0
    if e.op == "iota":
        return e.arg != axis
    if e.op in ("remap", "rows", "rand"):
        return False
    return all(row_free(s, axis) for s in e.srcs)


def shared_mask(k: Attention) -> bool:
    """The mask is the same for every query row: each block's slice of it goes through shared memory with the
    keys (one load per key per workgroup, not per invocation)."""
    return k.mask is not None and row_free(k.mask, len(k.batch))


def render(k: Attention) -> str:
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    nqb = -(-k.l // k.rows)
    tiles = math.prod(k.batch) * nqb
    outer = ExprRenderer(buffers, prefix="g")
    bidx = index_vars(outer, "bh", k.batch) if k.batch else ()
    body = ["int tid = int(gl_LocalInvocationID.x);",
            f"for (int tile = int(gl_WorkGroupID.x); tile < {tiles}; tile += {k.groups}) {{",
            f"    int bh = tile / {nqb};",
            f"    int i = (tile % {nqb}) * {k.rows} + tid;",
            f"    int ic = min(i, {k.l - 1});  // rows past the end compute row L-1 and store nothing"]
    inner = list(outer.lines)
    inner += _query(k, bidx, buffers)
    inner += [f"vec4 o{c} = vec4(0.0);" for c in range(quads(k.ev))]
    inner += [f"float m = {NEG_INF};", "float l = 0.0;",
              f"for (int j0 = 0; j0 < {k.s}; j0 += {k.block}) {{",
              *["    " + x for x in _fill(k, "ks", k.k, k.e, bidx, buffers) + _fill(k, "vs", k.v, k.ev, bidx, buffers)],
              *["    " + x for x in fill_mask(k, bidx, buffers, k.rows)],
              f"    {_BARRIER}",
              f"    int n = min({k.block}, {k.s} - j0);",
              "    for (int jj = 0; jj < n; jj++) {",
              *["        " + x for x in _key(k, bidx, buffers)],
              "    }",
              f"    {_BARRIER}  // every invocation is done with the block before the next overwrites it",
              "}"]
    inner += _store(k)
    body += ["    " + x for x in inner] + ["}"]
    text = "\n".join(body)
    shared = [f"shared vec4 ks[{k.block * quads(k.e)}];", f"shared vec4 vs[{k.block * quads(k.ev)}];"]
    if shared_mask(k):
        shared.append(f"shared float ms[{k.block}];")
    src = glsl.header(k.rows, buffers, k.n_words, extra_dtypes=(dt.float32,), shared=shared, body_text=text)
    return f"{src}\nvoid main() {{\n" + "\n".join("    " + x for x in text.splitlines()) + "\n}\n"


def _f32(e: Expr, value: str) -> str:
    return value if e.dtype.glsl_compute == "float" else f"float({value})"


def _query(k: Attention, bidx: tuple[str, ...], buffers: dict[int, dt.DType]) -> list[str]:
    """``vec4 qv<c>``: the invocation's query row times the scale, zero-padded."""
    r = ExprRenderer(buffers, prefix="qe")
    shape = (*k.batch, k.l, k.e)
    comps = [_f32(k.q, r.value(k.q, shape, (*bidx, "ic", str(e)))) if e < k.e else "0.0"
             for e in range(4 * quads(k.e))]
    scale = glsl.literal(k.scale, dt.float32)
    return r.lines + [f"vec4 qv{c} = vec4({', '.join(comps[4 * c:4 * c + 4])}) * {scale};" for c in range(quads(k.e))]


def _fill(k: Attention, name: str, e: Expr, width: int, bidx: tuple[str, ...],
          buffers: dict[int, dt.DType]) -> list[str]:
    """Load ``block`` rows of ``e`` (keys ``j0..``, clamped into range: the tail of the last block is loaded
    but never read) into the shared ``vec4`` array ``name``."""
    r = ExprRenderer(buffers, prefix=f"{name}_")
    w4 = quads(width)
    shape = (*k.batch, k.s, width)
    comps = []
    for x in range(4):
        col = f"(c * 4 + {x})" if x else "(c * 4)"
        if width % 4:  # padded components read a valid column and are zeroed below
            col = f"min({col}, {width - 1})"
        v = _f32(e, r.value(e, shape, (*bidx, "key", col)))
        comps.append(v if width % 4 == 0 else f"(c * 4 + {x} < {width} ? {v} : 0.0)")
    return [f"for (int t = tid; t < {k.block * w4}; t += {k.rows}) {{",
            f"    int c = t % {w4};",
            f"    int key = min(j0 + t / {w4}, {k.s - 1});",
            *["    " + x for x in r.lines],
            f"    {name}[t] = vec4({', '.join(comps)});",
            "}"]


def fill_mask(k: Attention, bidx: tuple[str, ...], buffers: dict[int, dt.DType], local: int) -> list[str]:
    """A row-independent mask's block into ``ms`` (by the workgroup's ``local`` invocations): a boolean as 1.0
    (attend) / 0.0, a float as its value."""
    if not shared_mask(k):
        return []
    r = ExprRenderer(buffers, prefix="mf")
    value = mask_value(k, r, (*bidx, "0", "key"))
    return [f"for (int t = tid; t < {k.block}; t += {local}) {{",
            f"    int key = min(j0 + t, {k.s - 1});", *["    " + x for x in r.lines],
            f"    ms[t] = {value};", "}"]


def _key(k: Attention, bidx: tuple[str, ...], buffers: dict[int, dt.DType]) -> list[str]:
    """One key of the block: its score, the mask, the online-softmax update of ``m``, ``l`` and the
    accumulator."""
    e4, v4 = quads(k.e), quads(k.ev)
    dots = " + ".join(f"dot(qv{c}, ks[jj * {e4} + {c}])" for c in range(e4))
    lines = ["int j = j0 + jj;", f"float s = {dots};"]
    if k.causal:
        lines.append(f"if (j > ic) {{ s = {NEG_INF}; }}")
    if k.mask is not None and shared_mask(k):
        lines.append(f"if (ms[jj] == 0.0) {{ s = {NEG_INF}; }}" if k.mask.dtype is dt.bool_ else "s = s + ms[jj];")
    elif k.mask is not None:
        r = ExprRenderer(buffers, prefix="mk")
        v = r.value(k.mask, (*k.batch, k.l, k.s), (*bidx, "ic", "j"))
        lines += r.lines
        lines.append(f"if (!{v}) {{ s = {NEG_INF}; }}" if k.mask.dtype is dt.bool_ else f"s = s + {_f32(k.mask, v)};")
    lines += ["if (s > m) {  // a new maximum (never NaN): rescale what was summed to it",
              "    float a = exp(m - s);",
              "    l = l * a;",
              *[f"    o{c} = o{c} * a;" for c in range(v4)],
              "    m = s;",
              "}",
              f"float p = s == {NEG_INF} ? 0.0 : exp(s - m);  // a masked key weighs 0, even while m is -inf",
              "l = l + p;",
              *[f"o{c} = o{c} + p * vs[jj * {v4} + {c}];" for c in range(v4)]]
    return lines


def _store(k: Attention) -> list[str]:
    """Write the row (``acc / l``: 0 / 0 = NaN where every key was masked) in the output's layout."""
    lines = [f"if (i < {k.l}) {{", f"    int base = {output_base(k)};"]
    for x in range(k.ev):
        v = f"(o{x // 4}.{'xyzw'[x % 4]} / l)"
        lines.append("    " + glsl.store(0, k.out_dtype, f"base + {x}", v))
    return lines + ["}"]


def output_base(k: Attention) -> str:
    """Where the output row of query ``i`` of batch position ``bh`` starts."""
    if k.heads_inner:  # batch[:-1] + (l, heads, ev)
        h = k.batch[-1]
        return f"(((bh / {h}) * {k.l} + i) * {h} + bh % {h}) * {k.ev}"
    return f"(bh * {k.l} + i) * {k.ev}"


def mask_value(k: Attention, r: ExprRenderer, idx: tuple[str, ...]) -> str:
    """The mask at ``idx`` (of ``batch + (l, s)``) as a float: a boolean as 1.0 (attend) or 0.0, a float as its
    value (added to the score)."""
    assert k.mask is not None
    v = r.value(k.mask, (*k.batch, k.l, k.s), idx)
    return f"({v} ? 1.0 : 0.0)" if k.mask.dtype is dt.bool_ else _f32(k.mask, v)


def launch(k: Attention) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
