"""``scaled_dot_product_attention``: ``softmax(q @ k^T * scale + mask) @ v`` with PyTorch's signature.

Example:
    >>> import kdsl as kd, numpy as np
    >>> q = k = kd.asarray(np.eye(2, dtype=np.float32)[None])
    >>> v = kd.asarray(np.array([[[1.0, 0.0], [0.0, 1.0]]], dtype=np.float32))
    >>> kd.nn.scaled_dot_product_attention(q, k, v, is_causal=True).numpy()[0, 0]
    array([1., 0.], dtype=float32)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

import kdsl as kd
from kdsl.nn.activations import softmax
from kdsl.nn.dropout import dropout

__all__ = ["scaled_dot_product_attention"]


def _causal(lq: int, lk: int, device) -> kd.Array:
    """True where query ``i`` may see key ``j``: ``j <= i`` (top-left aligned, as PyTorch)."""
    i = kd.arange(lq, dtype=kd.int32, device=device)[:, None]
    j = kd.arange(lk, dtype=kd.int32, device=device)[None, :]
    return j <= i


def _check_batch(q: tuple[int, ...], k: tuple[int, ...], v: tuple[int, ...], attn_mask: Any) -> None:
    """The leading (batch, head) axes of query, key and value must broadcast together, and ``attn_mask`` to the
    scores' ``(..., L, S)``: a ValueError naming them, not a broadcast error from inside the product."""
    try:
        batch = np.broadcast_shapes(q[:-2], k[:-2], v[:-2])
    except ValueError:
        raise ValueError(f"scaled_dot_product_attention: the batch and head axes of query {q[:-2]}, key {k[:-2]} "
                         f"and value {v[:-2]} must match (or be 1); got shapes {q}, {k}, {v}") from None
    scores = batch + (q[-2], k[-2])
    mask = None if attn_mask is None else np.shape(attn_mask)
    if mask is not None and not _broadcasts(mask, scores):
        raise ValueError(f"scaled_dot_product_attention: attn_mask of shape {mask} must broadcast to the scores' "
                         f"shape (..., L, S) = {scores}")


def _broadcasts(shape: tuple[int, ...], to: tuple[int, ...]) -> bool:
    """Whether ``shape`` broadcasts to ``to`` (NumPy's broadcast_to rule)."""
    return len(shape) <= len(to) and all(n in (1, m) for n, m in zip(shape[::-1], to[::-1], strict=False))


def scaled_dot_product_attention(query: kd.Array, key: kd.Array, value: kd.Array, attn_mask: kd.Array | None = None,
                                 dropout_p: float = 0.0, is_causal: bool = False, scale: float | None = None,
                                 dropout_key: int | kd.random.Generator | None = None) -> kd.Array:
    """Attention of ``query`` ``(..., L, E)`` over ``key`` ``(..., S, E)`` and ``value`` ``(..., S, Ev)``.

    ``attn_mask``: boolean (True = may attend) or float (added to the scores), broadcast to ``(..., L, S)``;
    ``is_causal``: query ``i`` sees keys ``0..i`` (not together with ``attn_mask``, as in PyTorch); ``scale``
    defaults to ``1 / sqrt(E)``. A row whose keys are all masked gives NaN (as PyTorch's reference math).
    ``dropout_p`` drops attention weights with :func:`kdsl.nn.dropout` keyed by ``dropout_key``.

    Without dropout, float32 / float16 inputs with head dims up to 128 and any of the masks run as one fused
    kernel (flash-attention style: the ``(L, S)`` scores are never stored; see docs/attention.md), computing
    in float32; other cases, and functions being differentiated, run as matmul, softmax and matmul kernels.
    """
    q, k, v = kd.asarray(query), kd.asarray(key), kd.asarray(value)
    if q.ndim < 2 or k.ndim < 2 or v.ndim < 2 or q.shape[-1] != k.shape[-1] or k.shape[-2] != v.shape[-2]:
        raise ValueError(f"scaled_dot_product_attention: need query (..., L, E), key (..., S, E) and value "
                         f"(..., S, Ev); got {q.shape}, {k.shape}, {v.shape}")
    _check_batch(q.shape, k.shape, v.shape, attn_mask)
    if is_causal and attn_mask is not None:
        raise ValueError("scaled_dot_product_attention: give attn_mask or is_causal=True, not both")
    s = 1.0 / math.sqrt(q.shape[-1]) if scale is None else scale
    if not dropout_p:
        # one kernel where it fits (kd._fused_attention: kdsl.frontend.array.attention), else None
        fused = kd._fused_attention(q, k, v, None if attn_mask is None else kd.asarray(attn_mask), is_causal, s)
        if fused is not None:
            return fused
    return _composite(q, k, v, attn_mask, dropout_p, is_causal, s, dropout_key)


def _composite(q: kd.Array, k: kd.Array, v: kd.Array, attn_mask: kd.Array | None, dropout_p: float,
               is_causal: bool, s: float, dropout_key: int | kd.random.Generator | None) -> kd.Array:
    """The attention as separate kernels: scores, mask, softmax, weights @ v (what the fused kernel follows)."""
    scores = kd.matmul(q * s, kd.swapaxes(k, -1, -2))
    if is_causal:
        attn_mask = _causal(q.shape[-2], k.shape[-2], q.device)
    if attn_mask is not None:
        m = kd.asarray(attn_mask)
        scores = kd.where(m, scores, -math.inf) if m.dtype == kd.bool_ else scores + m
    weights = softmax(scores, axis=-1)
    if dropout_p:
        weights = dropout(weights, dropout_p, True, dropout_key)
    return kd.matmul(weights.astype(v.dtype), v)
