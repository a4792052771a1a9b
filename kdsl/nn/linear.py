"""``linear`` and ``embedding``: a matmul with a transposed weight, and a row gather.

Example:
    >>> import kdsl as kd, numpy as np
    >>> w = kd.asarray(np.eye(2, 3, dtype=np.float32))
    >>> kd.nn.linear(kd.ones((1, 3)), w, kd.asarray([10.0, 20.0])).numpy()
    array([[11., 21.]], dtype=float32)
    >>> kd.nn.embedding(kd.asarray([[1, 0]]), kd.asarray(np.arange(6.0, dtype=np.float32).reshape(3, 2))).numpy()
    array([[[2., 3.],
            [0., 1.]]], dtype=float32)
"""

from __future__ import annotations

import kdsl as kd

__all__ = ["linear", "embedding"]


def linear(x: kd.Array, weight: kd.Array, bias: kd.Array | None = None) -> kd.Array:
    """``x @ weight.T + bias`` (PyTorch's layout: ``weight`` is ``(out_features, in_features)``)."""
    x, weight = kd.asarray(x), kd.asarray(weight)
    if weight.ndim != 2:
        raise ValueError(f"linear: weight must be 2-d (out_features, in_features), got shape {weight.shape}")
    if x.ndim == 0 or x.shape[-1] != weight.shape[1]:
        raise ValueError(f"linear: input's last axis ({x.shape[-1:] or 'a 0-d input'}) must equal weight's "
                         f"in_features ({weight.shape[1]})")
    if x.ndim > 2:  # one (rows, in) @ (in, out) product, not a batch of small ones over a broadcast weight
        y = kd.reshape(kd.matmul(kd.reshape(x, (-1, x.shape[-1])), weight.T), x.shape[:-1] + (weight.shape[0],))
    else:
        y = kd.matmul(x, weight.T)
    if bias is None:
        return y
    b = kd.asarray(bias)
    if b.shape not in ((weight.shape[0],), ()):
        raise ValueError(f"linear: bias must have shape (out_features,) = ({weight.shape[0]},), got {b.shape}")
    return y + b


def embedding(indices: kd.Array, weight: kd.Array) -> kd.Array:
    """Rows of ``weight`` (``(num_embeddings, dim)``) picked by the integer ``indices``: shape
    ``indices.shape + (dim,)``. Out-of-range indices are clipped to the table (checking them would read back
    from the device every call, which a ``kd.jit`` training step cannot replay)."""
    indices, weight = kd.asarray(indices), kd.asarray(weight)
    if weight.ndim != 2:
        raise ValueError(f"embedding: weight must be 2-d (num_embeddings, dim), got shape {weight.shape}")
    if not kd.isdtype(indices.dtype, "integral"):
        raise TypeError(f"embedding: indices must be integers, got {indices.dtype.name}")
    return kd.take(weight, indices, axis=0, mode="clip")
