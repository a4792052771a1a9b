"""Data-dependent reads: :class:`Gather` (``take``, ``take_along_axis``) and :class:`Search` (``searchsorted``).

Both evaluate fused expressions at indices computed in the kernel. A gathered index is always brought inside
the axis before it is used (wrapped or clamped), so no index can read outside the data, whatever the host
checked. A search is a binary search over sort keys (:mod:`kdsl.codegen.sort`), so it agrees with the sort's
order: NaNs last, -0.0 equal to 0.0; it loops at most 33 times per value.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir import expr as ir
    >>> from kdsl.ir.view import View
    >>> load = ir.load(1, dt.float32, View.contiguous((5,)))
    >>> idx = ir.load(2, dt.int64, View.contiguous((3,)))
    >>> k = Gather((3,), dt.float32, load, (5,), idx, (3,), dt.int64, 0, False, "raise", 0, 1)
    >>> "clamp(" in render(k)
    True
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.codegen.ops import render_cast
from kdsl.codegen.sort import key_lines, less_function
from kdsl.ir.kernels import LOCAL, Compact, Gather, Search


def _grid(size: int, groups: int, body: list[str]) -> list[str]:
    stride = groups * LOCAL
    head = (f"for (int i = int(gl_GlobalInvocationID.x); i < {size}; i += {stride}) {{" if stride < size
            else f"int i = int(gl_GlobalInvocationID.x); if (i < {size}) {{")
    return [head, *["    " + x for x in body], "}"]


def _main(head: str, lines: list[str]) -> str:
    return f"{head}\nvoid main() {{\n" + "\n".join("    " + x for x in lines) + "\n}\n"


def _wrapped(value: str, index_dtype: dt.DType, n: int, mode: str) -> list[str]:
    """Lines setting ``int g`` to index ``value`` brought inside [0, n)."""
    wide = index_dtype.itemsize == 8 or index_dtype.glsl_compute == "uint"
    t = "int64_t" if wide else "int"
    lit = f"{n}l" if wide else str(n)
    cast = render_cast(value, index_dtype, dt.int64 if wide else dt.int32)
    lines = [f"{t} gi = {cast};"]
    if mode == "wrap":
        # GLSL's % is undefined for negative operands (NVIDIA differs from lavapipe): reduce |gi| instead
        lines.append(f"gi = (gi < {t}(0)) ? {t}({lit} - 1) - ((-gi - {t}(1)) % {lit}) : gi % {lit};")
    elif mode == "raise":  # negative indices count from the end (checked on the host before the launch)
        lines.append(f"if (gi < {t}(0)) gi += {lit};")
    lines.append(f"int g = int(clamp(gi, {t}(0), {t}({lit} - 1)));")
    return lines


def _render_gather(k: Gather) -> str:
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    r = ExprRenderer(buffers, prefix="v")
    o = list(index_vars(r, "i", k.shape))
    if k.along:
        i_idx, d_idx = o, o[:k.axis] + ["g"] + o[k.axis + 1:]
    else:
        m = len(k.index_shape)
        i_idx = o[k.axis:k.axis + m]
        d_idx = o[:k.axis] + ["g"] + o[k.axis + m:]
    iv = r.value(k.indices, k.index_shape, tuple(i_idx))  # type: ignore[arg-type]  # the IR is opaque here
    r.lines += _wrapped(iv, k.index_dtype, k.data_shape[k.axis], k.mode)
    value = r.value(k.data, k.data_shape, tuple(d_idx))  # type: ignore[arg-type]
    r.lines.append(f"b0.d[i] = {glsl.store_value(k.out_dtype, value)};")
    lines = _grid(math.prod(k.shape), k.groups, r.lines)
    return _main(glsl.header(LOCAL, buffers, k.n_words, body_text="\n".join(lines)), lines)


def _render_search(k: Search) -> str:
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    r = ExprRenderer(buffers, prefix="v")
    o = index_vars(r, "i", k.shape) if k.shape else ("0",)
    vv = r.value(k.v, k.shape, tuple(o) if k.shape else ())  # type: ignore[arg-type]
    vkey, vnames = key_lines(k.key_dtype, vv, "kv", False)
    inner = ExprRenderer(buffers, prefix="a")
    pos = "m"
    if k.sorter is not None:
        sv = inner.value(k.sorter, (k.n,), ("m",))  # type: ignore[arg-type]
        # an int sorter clamps as int: lavapipe miscompiles comparisons of int64_t(x) of an int x (kd_sext_l)
        sorter_dtype: dt.DType = getattr(k.sorter, "dtype")  # noqa: B009 - a graph Node, typed object in Search
        wide = sorter_dtype.glsl_compute != "int"
        inner.lines.append(f"int ms = int(clamp(int64_t({sv}), int64_t(0), int64_t({k.n - 1})));" if wide else
                           f"int ms = clamp({sv}, 0, {min(k.n - 1, 2**31 - 1)});")
        pos = "ms"
    av = inner.value(k.a, (k.n,), (pos,))  # type: ignore[arg-type]
    akey, anames = key_lines(k.key_dtype, av, "ka", False)
    # left: the first position whose value is not below v; right: the first whose value is above v
    right = (f"kd_rless({', '.join(anames)}, {', '.join(vnames)})" if k.side == "left"
             else f"!kd_rless({', '.join(vnames)}, {', '.join(anames)})")
    body = r.lines + vkey + [f"uint lo = 0u; uint hi = {k.n}u;", "while (lo < hi) {",
                             "    uint mid = (lo + hi) >> 1u; int m = int(mid);",
                             *["    " + x for x in inner.lines + akey],
                             f"    if ({right}) lo = mid + 1u; else hi = mid;",
                             "}",
                             f"b0.d[i] = {glsl.store_value(k.out_dtype, render_cast('lo', dt.uint32, k.out_dtype))};"]
    lines = _grid(max(math.prod(k.shape), 1), k.groups, body)
    text = "\n".join(lines)
    head = glsl.header(LOCAL, buffers, k.n_words, extra_dtypes=[dt.int64],
                       shared=[less_function(len(vnames))], body_text=text)
    return _main(head, lines)


def _render_compact(k: Compact) -> str:
    """Each input position where the running count steps up writes its index to the count's slot (a
    scatter whose targets are distinct by construction); the other positions write nothing."""
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    r = ExprRenderer(buffers, prefix="v")
    t = "int64_t" if k.csum_dtype.itemsize == 8 else "int"
    cur = r.value(k.csum, (k.n,), ("i",))  # type: ignore[arg-type]  # the IR is opaque here
    r.lines.append(f"{t} c = {t}({cur}); {t} p = {t}(0);")
    prev = ExprRenderer(buffers, prefix="u")
    pv = prev.value(k.csum, (k.n,), ("(i - 1)",))  # type: ignore[arg-type]
    r.lines += ["if (i > 0) {", *["    " + x for x in prev.lines], f"    p = {t}({pv});", "}"]
    value = render_cast("i", dt.int32, k.out_dtype)
    r.lines.append(f"if (c != p) b0.d[int(c) - 1] = {glsl.store_value(k.out_dtype, value)};")
    lines = _grid(k.n, k.groups, r.lines)
    return _main(glsl.header(LOCAL, buffers, k.n_words, body_text="\n".join(lines)), lines)


_BY_TYPE = {Gather: _render_gather, Search: _render_search, Compact: _render_compact}


def render(k: Gather | Search | Compact) -> str:
    """GLSL of one gather or search kernel."""
    return _BY_TYPE[type(k)](k)  # type: ignore[operator]


def launch(k: Gather | Search | Compact) -> tuple[int, int, int]:
    return (k.groups, 1, 1)
