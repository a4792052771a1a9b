"""A matmul's store, with its epilogue: the elementwise consumers of the product (a bias add, an activation, a
cast, a scale) that the scheduler fused into the matmul kernel (:func:`kdsl.engine.fusion.epilogue_source`).
Every matmul kernel (tiled, blocked, CPU driver, cooperative matrices) stores each result through
:func:`store`; with an epilogue, :func:`function` defines one GLSL function ``kd_epilogue(acc, z, row, col)``
that computes it from the accumulator, called at every store (one copy of its code however many results an
invocation holds).

The accumulator is first narrowed to the product's dtype (a float16 product rounds to float16 as a stored one
would), then the epilogue reads it as its "acc" node at the output position, which is the product's position
through a contiguous reshape of ``(batch, m, n)`` into ``Matmul.out_shape``.

Example:
    >>> from kdsl import dtype as dt
    >>> from kdsl.ir import expr as ir
    >>> from kdsl.ir.expr import Expr, load
    >>> from kdsl.ir.kernels import Matmul
    >>> from kdsl.ir.view import View
    >>> a = load(1, dt.float32, View.contiguous((1, 8, 4)))
    >>> b = load(2, dt.float32, View.contiguous((1, 4, 8)))
    >>> bias = load(3, dt.float32, View((1, 8, 8), (0, 0, 1), 0))
    >>> k = Matmul(1, 8, 8, 4, dt.float32, a, b, 0, epilogue=Expr("add", dt.float32, (ir.acc(dt.float32), bias)),
    ...            out_shape=(1, 8, 8))
    >>> store(k, "acc0", "gm", "gn")
    'b0.d[(zz * 8 + gm) * 8 + gn] = kd_epilogue(acc0, zz, gm, gn);'
    >>> print("\\n".join(function(k, {})))
    float kd_epilogue(float acc, int ez, int er, int ec) {
        float accv = acc;
        precise float e0 = accv;
        precise float e1 = b3.d[ec];
        precise float e2 = (e0 + e1);
        return e2;
    }
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.expr import ExprRenderer
from kdsl.codegen.loops import index_vars
from kdsl.ir.kernels import Matmul

NAME = "kd_epilogue"


def store(k: Matmul, acc: str, row: str, col: str, z: str = "zz") -> str:
    """The statement writing accumulator ``acc`` (the operands' compute type) of output ``(z, row, col)``,
    through the epilogue when ``k`` has one. ``z`` runs over batch (and k chunk: then without epilogue)."""
    if k.epilogue is None:
        value = glsl.narrow(k.out_dtype, acc)
    else:  # already in range when of the output's dtype: every narrow-typed op narrows (kdsl.codegen.ops)
        value = f"{NAME}({acc}, {z}, {row}, {col})"
        value = value if k.epilogue.dtype is k.out_dtype else glsl.narrow(k.out_dtype, value)
    return f"b0.d[({z} * {k.m} + {row}) * {k.n} + {col}] = {glsl.store_value(k.out_dtype, value)};"


def function(k: Matmul, buffers: dict[int, dt.DType]) -> list[str]:
    """The GLSL definition of ``kd_epilogue`` for ``k`` (none without an epilogue); records the buffers it
    reads in ``buffers``."""
    if k.epilogue is None:
        return []
    assert k.splits == 1, "a split-K matmul's epilogue goes on the reduction that sums its chunks"
    acc_t = next((a.dtype for a in k.epilogue.find("acc")), k.a.dtype)  # the product's dtype
    c = k.a.dtype.glsl_compute  # the accumulators' type
    r = ExprRenderer(buffers, prefix="e", half_bits=True)  # exact float16 NaNs, as an elementwise kernel reads
    r.lines.append(f"{acc_t.glsl_compute} accv = {glsl.narrow(acc_t, 'acc')};")
    r.acc_name = "accv"
    value = r.value(k.epilogue, k.out_shape, _index(k, r))
    out_c = k.out_dtype.glsl_compute
    return [f"{out_c} {NAME}({c} acc, int ez, int er, int ec) {{", *["    " + x for x in r.lines],
            f"    return {value};", "}"]


def _index(k: Matmul, r: ExprRenderer) -> tuple[str, ...]:
    """The output multi-index (in ``k.out_shape``) of product position ``(ez, er, ec)``: as it is, or through
    the rows when the last axis is kept (``linear``'s (batch..., rows, n) views), else through the flat
    position."""
    shape = tuple(k.out_shape)
    if shape == (k.batch, k.m, k.n):
        return ("ez", "er", "ec")
    if shape and shape[-1] == k.n:
        r.lines.append(f"int erow = ez * {k.m} + er;")
        return index_vars(r, "erow", shape[:-1]) + ("ec",) if shape[:-1] else ("ec",)
    r.lines.append(f"int eflat = (ez * {k.m} + er) * {k.n} + ec;")
    return index_vars(r, "eflat", shape) if shape else ()
