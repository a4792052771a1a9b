"""``dropout``: zero each element with probability ``p`` and scale the rest by ``1 / (1 - p)`` (inverted dropout,
as PyTorch), with a mask drawn by kdsl's counter-based Philox generator inside the same kernel.

Example:
    >>> import kdsl as kd
    >>> x = kd.ones(8)
    >>> y = kd.nn.dropout(x, 0.5, key=3)
    >>> sorted(set(y.numpy().tolist())) in ([0.0, 2.0], [0.0], [2.0])
    True
    >>> bool((kd.nn.dropout(x, 0.5, training=False) == x).all())
    True
"""

from __future__ import annotations

import kdsl as kd

__all__ = ["dropout"]


def rng_of(key: int | kd.random.Generator | None, device) -> kd.random.Generator | None:
    """A Generator from ``key`` (an int seed, a Generator used as is, or None for the global stream)."""
    if key is None or isinstance(key, kd.random.Generator):
        return key
    if isinstance(key, bool) or not isinstance(key, int):
        raise TypeError(f"key must be an int seed, a kd.random.Generator or None, not {key!r}")
    return kd.random.default_rng(key, device=device)


def dropout(x: kd.Array, p: float = 0.5, training: bool = True,
            key: int | kd.random.Generator | None = None) -> kd.Array:
    """Inverted dropout. ``key``: an int seed (the same seed gives the same mask), a ``kd.random.Generator``
    (advanced by the draw) or None (the global ``kd.random`` stream). ``training=False`` or ``p=0`` returns
    ``x`` unchanged."""
    x = kd.asarray(x)
    if not 0.0 <= p <= 1.0:
        raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if not training or p == 0.0:
        return x
    if p == 1.0:
        return kd.zeros_like(x)
    rng = rng_of(key, x.device)
    u = kd.random.random(x.shape, dtype=kd.float32, device=x.device) if rng is None else rng.random(x.shape)
    return kd.where(u >= p, x * (1.0 / (1.0 - p)), 0.0).astype(x.dtype)
