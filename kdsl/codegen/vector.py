"""Elementwise kernels with vec4 memory access: each invocation handles four neighbouring elements, reading
every contiguous operand with one 16-byte load and writing one 16-byte store (fewer, wider memory transactions
on a GPU). The expression is one GLSL function evaluated per lane on scalars, so every op works unchanged
and the source stays as short as the scalar kernel's.

It applies when the kernel's output and every buffer it reads are 32-bit or float16 (four halves in one
``uvec2``, converted by their bits as the scalar kernels do), C-contiguous over the kernel's whole
index space (or one broadcast scalar) with offsets (literal ones: an offset read from a push constant has no
alignment known when the kernel is built) and size divisible by four, and the expression does not
depend on the index itself (no ``iota``, random numbers or re-indexed views). The buffer blocks are declared a
second time as ``vec4`` arrays on the same bindings.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir.view import View
    >>> from kdsl.ir.kernels import Elementwise
    >>> from kdsl.ir.expr import Expr, load
    >>> x = load(1, dt.float32, View.contiguous((8,)))
    >>> k = Elementwise((8,), dt.float32, View.contiguous((8,)), Expr("sin", dt.float32, (x,)), 0, 1, 4)
    >>> eligible(k), "vec4 v0 = b1v.d[i];" in render(k)
    (True, True)
"""

from __future__ import annotations

import math

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import grid_loop
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import LOCAL, Elementwise
from kdsl.ir.view import View

_VEC = {"float": "vec4", "int": "ivec4", "uint": "uvec4", "float16_t": "uvec2"}
_LANES = "xyzw"


def _wide_ok(d: dt.DType) -> bool:
    return d is dt.float16 or (d.glsl_storage in _VEC and d.glsl_storage == d.glsl_compute)


def _lane(var: str, d: dt.DType, lane: int) -> str:
    """Lane ``lane`` of the loaded vector ``var``: float16 as its bits widened by integer operations (exact NaNs,
    as the scalar kernels' :func:`kdsl.codegen.glsl.load`), four of them packed in a ``uvec2``."""
    if d is not dt.float16:
        return f"{var}.{_LANES[lane]}"
    word = f"{var}.{_LANES[lane // 2]}"
    return f"kd_f16val_u({word} >> 16)" if lane % 2 else f"kd_f16val_u({word} & 0xffffu)"


def _packed(d: dt.DType, lanes: list[str]) -> str:
    """The vector that stores the four lane values: float16 rounded by :func:`kd_f16bits_f`, two per word."""
    if d is not dt.float16:
        return f"{_VEC[d.glsl_storage]}({', '.join(lanes)})"
    bits = [f"kd_f16bits_f({v})" for v in lanes]
    return f"uvec2({bits[0]} | ({bits[1]} << 16), {bits[2]} | ({bits[3]} << 16))"


def shared_loads(e: Expr) -> list[Expr] | None:
    """The loads of ``e``; None when ``e`` depends on the index in a way lanes cannot share."""
    nodes = e.walk()
    if any(n.op in ("iota", "rand", "remap", "rows") for n in nodes):
        return None
    return [n for n in nodes if n.op == "load"]


def lane_invariant(view: View) -> bool:
    """Whether every index reads the same element of ``view`` (each axis has stride 0 or extent 1): one
    scalar load serves all four lanes."""
    return all(s == 0 or n == 1 for n, s in zip(view.shape, view.strides, strict=True))


def eligible(k: Elementwise) -> bool:
    """Whether ``k`` can run four elements per invocation with vec4 loads (see the module docstring)."""
    size = math.prod(k.shape)
    full = View.contiguous(k.shape)
    if size % 4 or k.out_offset is not None or not _wide_ok(k.out_dtype) or \
            k.out_view.canonical() != View.contiguous(k.shape, k.out_view.offset):
        return False
    if k.out_view.offset % 4:
        return False
    loads = shared_loads(k.expr)
    if loads is None:
        return False
    for load in loads:
        d, view = load.dtype, load.arg[1]
        if lane_invariant(view):
            continue
        # An offset in a push word is not known when the kernel is built (nor its alignment): scalar loads.
        if len(load.arg) > 2 and load.arg[2] is not None:
            return False
        if not _wide_ok(d) or view.offset % 4 or view.canonical() != View(full.shape, full.strides, view.offset):
            return False
    return True


class ParamRenderer(ExprRenderer):
    """Renders the expression once as a function body: each contiguous operand becomes a parameter."""

    def __init__(self, buffers: dict[int, dt.DType], wide: dict[tuple[int, int], tuple[int, dt.DType]]) -> None:
        super().__init__(buffers, prefix="t", half_bits=True)
        self.wide = wide  # (slot, offset) -> (parameter index, dtype)

    def _code(self, e: Expr, shape: tuple[int, ...], idx: tuple[str, ...]) -> str:
        if e.op == "load" and not lane_invariant(e.arg[1]):
            slot, view, d = e.arg[0], e.arg[1], e.dtype
            self.buffers[slot] = d
            k, _ = self.wide.setdefault((slot, view.offset), (len(self.wide), d))
            return f"p{k}"
        return super()._code(e, shape, idx)


def _at(offset: int) -> str:
    return f"i + {offset // 4}" if offset else "i"


def render(k: Elementwise) -> str:
    """One function ``kd_lane`` holds the expression (compiled once), called for each of the four lanes."""
    quads = math.prod(k.shape) // 4
    buffers: dict[int, dt.DType] = {0: k.out_dtype}
    wide: dict = {}
    r = ParamRenderer(buffers, wide)
    # Broadcast (scalar) loads ignore the index; the function reads them itself.
    value = r.value(k.expr, k.shape, tuple("0" for _ in k.shape))
    params = ", ".join(f"{d.glsl_compute} p{i}" for i, d in sorted(wide.values(), key=lambda x: x[0]))
    fn = [f"{k.out_dtype.glsl_compute} kd_lane({params}) {{", *["    " + x for x in r.lines],
          f"    return {value};", "}"]
    order = sorted(wide.items(), key=lambda item: item[1][0])
    loads = [f"{_VEC[d.glsl_storage]} v{i} = b{slot}v.d[{_at(offset)}];" for (slot, offset), (i, d) in order]
    calls = [f"kd_lane({', '.join(_lane(f'v{i}', d, lane) for _, (i, d) in order)})" for lane in range(4)]
    results = [f"{k.out_dtype.glsl_compute} r{lane} = {call};" for lane, call in enumerate(calls)]
    store = f"b0v.d[{_at(k.out_view.offset)}] = {_packed(k.out_dtype, [f'r{lane}' for lane in range(4)])};"
    body = "\n".join(grid_loop(quads, k.groups, loads + results + [store]))
    extra = [f"layout(std430, set = 0, binding = {slot}) {'readonly ' if slot else ''}buffer B{slot}v "
             f"{{ {_VEC[buffers[slot].glsl_storage]} d[]; }} b{slot}v;"
             for slot in sorted({0} | {s for s, _ in wide})]
    fn_text = "\n".join(fn)
    head = glsl.header(LOCAL, buffers, k.n_words, shared=extra, body_text=fn_text + body)
    return f"{head}\n{fn_text}\nvoid main() {{\n" + "\n".join("    " + x for x in body.splitlines()) + "\n}\n"
