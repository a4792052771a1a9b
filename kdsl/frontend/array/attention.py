"""The fused attention node (``"attention"``, lowered by :mod:`kdsl.engine.lower_attention`, rendered by
:mod:`kdsl.codegen.attention`): what :func:`kdsl.nn.scaled_dot_product_attention` builds where the kernel fits.
kd.nn sees only the ``kdsl`` namespace, so this is ``kd._fused_attention`` there (not public API).

Example:
    >>> import kdsl as kd, numpy as np
    >>> q = kd.asarray(np.ones((2, 3, 4), np.float32))
    >>> fused_attention(q, q, q, None, False, 0.5)._node.op
    'attention'
    >>> fused_attention(q.astype(kd.float64), q, q, None, False, 0.5) is None  # float64: the composite path
    True
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.engine.lower_attention import fused_plan
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.ops import broadcast_shapes
from kdsl.frontend.array.shape_ops import broadcast_values_to, reshape
from kdsl.ir import graph
from kdsl.ir.graph import Node

_FLOATS = (dt.float32, dt.float16)
# Whether a function being differentiated gets the fused node too (its derivative rule, kdsl.autodiff.attention,
# recomputes the softmax). False: it gets the composite path, whose backward reuses the forward's softmax.
FUSED_UNDER_GRAD = False


def fused_attention(q: Array, k: Array, v: Array, mask: Array | None, causal: bool, scale: float) -> Array | None:
    """``softmax(q @ k^T * scale + mask) @ v`` as one fused node, or None where the kernel does not apply: q, k
    or v not float32 / float16, a mask neither boolean nor float32 / float16, shapes that do not broadcast,
    head dims past its limit, too many keys for the loop budget, an empty result, or a gradient being traced
    (unless ``FUSED_UNDER_GRAD``: ``graph.before_become_buffer`` is non-empty only while one is). The node's
    dtype is ``v``'s, as the composite path's last matmul gives."""
    if graph.before_become_buffer and not FUSED_UNDER_GRAD:
        return None
    if any(x.dtype not in _FLOATS for x in (q, k, v)) or not (mask is None or mask.dtype in (dt.bool_, *_FLOATS)):
        return None
    if mask is not None and mask.ndim < 2:
        mask = reshape(mask, (1,) * (2 - mask.ndim) + mask.shape)
    (l, e), (s, ev) = q.shape[-2:], v.shape[-2:]
    try:
        batch = broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2], () if mask is None else mask.shape[:-2])
        if mask is not None and broadcast_shapes(mask.shape, (*batch, l, s)) != (*batch, l, s):
            return None
    except ValueError:  # the composite path raises NumPy's error
        return None
    if fused_plan(batch, l, s, e, ev, q.device) is None:
        return None
    srcs = [broadcast_values_to(x, (*batch, *x.shape[-2:]))._node for x in (q, k, v)]
    if mask is not None:
        srcs.append(broadcast_values_to(mask, (*batch, l, s))._node)
    return Array(Node("attention", tuple(srcs), v.dtype, (*batch, l, ev), (float(scale), bool(causal))))
