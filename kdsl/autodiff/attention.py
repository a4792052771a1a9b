"""The derivative of the fused attention node (``"attention"``, :mod:`kdsl.engine.lower_attention`). As flash
attention does, the backward recomputes the softmax ``P`` (in float32, as the fused forward computes) and applies
the closed form: with ``O = P V``, ``P = softmax(S)``, ``S = scale * Q K^T + mask``,

    dV = P^T dO,   dS = P * (dO V^T - rowsum(dO * O)),   dQ = scale * dS K,   dK = scale * dS^T Q,

and ``dS`` for an additive float mask. ``rowsum(dO * O)`` is written ``rowsum(dP * P)`` (the same value) so the
output itself is not read.

Functions being differentiated normally get the composite path in the first place
(:func:`kdsl.frontend.array.attention.fused_attention` checks for a trace), whose backward reuses its stored
softmax; this rule covers a fused node that reaches a tape anyway (``FUSED_UNDER_GRAD``).

Example:
    >>> "attention" in RULES
    True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kdsl import dtype as dt
from kdsl.autodiff.registry import RULES, rule
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import arange
from kdsl.frontend.array.math import exp, where
from kdsl.ir.graph import Node

__all__ = ["RULES"]


def _weights(q: Array, k: Array, mask: Array | None, causal: bool, scale: float) -> Array:
    """The softmax ``P`` of the forward, in float32 (masked keys weigh 0; all-masked rows are NaN)."""
    scores = (q * scale) @ k.swapaxes(-1, -2)
    if causal:
        rows, cols = scores.shape[-2:]
        keep = arange(cols, dtype=dt.int32, device=q.device)[None, :] <= \
            arange(rows, dtype=dt.int32, device=q.device)[:, None]
        scores = where(keep, scores, -math.inf)
    if mask is not None:
        scores = where(mask, scores, -math.inf) if mask.dtype is dt.bool_ else scores + mask.astype(dt.float32)
    e = exp(scores - scores.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@rule("attention")
def _attention(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array,
               need: Sequence[bool]) -> list[Array | None]:
    scale, causal = arg
    q, k, v = (Array(s).astype(dt.float32) for s in srcs[:3])
    mask = Array(srcs[3]) if len(srcs) > 3 else None
    p = _weights(q, k, mask, causal, scale)
    go = g.astype(dt.float32)
    dp = go @ v.swapaxes(-1, -2)
    ds = p * (dp - (dp * p).sum(axis=-1, keepdims=True))
    grads: list[Array | None] = [(ds @ k) * scale, (ds.swapaxes(-1, -2) @ q) * scale, p.swapaxes(-1, -2) @ go]
    if mask is not None:
        grads.append(ds if mask.dtype.is_float else None)
    return grads
