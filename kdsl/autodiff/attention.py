"""The derivative of the fused attention node (``"attention"``, :mod:`kdsl.engine.lower_attention`): the
forward is recomputed with the composite ops (matmul, mask, softmax, matmul), as flash attention recomputes
its scores, and differentiated through their rules.

Functions being differentiated normally get the composite path in the first place
(:func:`kdsl.nn.scaled_dot_product_attention` checks for a trace), whose backward reuses the stored softmax;
this rule covers a fused node that reaches a tape anyway (``kdsl.nn.attention.FUSED_UNDER_GRAD``).

Example:
    >>> "attention" in RULES
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kdsl.autodiff.registry import RULES, rule
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node

__all__ = ["RULES"]


@rule("attention")
def _attention(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array,
               need: Sequence[bool]) -> list[Array | None]:
    from kdsl.autodiff.transforms import vjp  # (transforms imports the tape, which imports this module)
    from kdsl.nn.attention import _composite
    scale, causal = arg
    diff = [i for i, s in enumerate(srcs) if need[i] and s.dtype.is_float]

    def forward(*xs: Array) -> Array:
        args = [Array(s) for s in srcs]
        for i, x in zip(diff, xs, strict=True):
            args[i] = x
        mask = args[3] if len(args) > 3 else None
        return _composite(args[0], args[1], args[2], mask, 0.0, causal, scale, None)

    _, back = vjp(forward, *[Array(srcs[i]) for i in diff])
    grads: list[Array | None] = [None] * len(srcs)
    for i, gi in zip(diff, back(g), strict=True):
        grads[i] = gi
    return grads
