"""Learning-rate schedules as plain functions of the step (the number of updates done before this one): each
factory returns ``schedule(step) -> lr``, which works on a Python int (on the host) and on the optimisers'
0-d device step counter (a lazy kdsl expression, so a changing rate costs no recompilation and no read back).

Example:
    >>> import kdsl as kd
    >>> s = kd.optim.step_decay(0.1, step_size=10, gamma=0.5)
    >>> [s(0), s(9), s(10), s(25)]
    [0.1, 0.1, 0.05, 0.025]
    >>> w = kd.optim.linear_warmup(kd.optim.cosine_decay(1.0, 100), warmup_steps=10)
    >>> [round(w(i), 3) for i in (0, 5, 10, 60, 100, 200)]
    [0.0, 0.497, 0.976, 0.345, 0.0, 0.0]
    >>> round(float(w(kd.asarray(60, dtype=kd.int32))), 3)
    0.345
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import kdsl as kd

__all__ = ["constant", "step_decay", "cosine_decay", "linear_warmup"]


def _minimum(step: Any, n: int) -> Any:
    return kd.minimum(step, n) if isinstance(step, kd.Array) else min(step, n)


def _cos(x: Any) -> Any:
    return kd.cos(x) if isinstance(x, kd.Array) else math.cos(x)


def _positive(n: int, name: str) -> None:
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"{name} must be an int >= 1, got {n!r}")


def constant(lr: float) -> Callable[[Any], Any]:
    """The same rate at every step."""
    return lambda step: lr


def step_decay(lr: float, step_size: int, gamma: float = 0.1) -> Callable[[Any], Any]:
    """``lr * gamma ** (step // step_size)`` (PyTorch's StepLR)."""
    _positive(step_size, "step_size")
    return lambda step: lr * gamma ** (step // step_size)


def cosine_decay(lr: float, decay_steps: int, alpha: float = 0.0) -> Callable[[Any], Any]:
    """Cosine from ``lr`` down to ``alpha * lr`` over ``decay_steps`` steps, then flat (PyTorch's
    CosineAnnealingLR with ``eta_min = alpha * lr`` for the first half-period)."""
    _positive(decay_steps, "decay_steps")

    def schedule(step: Any) -> Any:
        frac = _minimum(step, decay_steps) / decay_steps
        return lr * ((1.0 - alpha) * 0.5 * (1.0 + _cos(math.pi * frac)) + alpha)
    return schedule


def linear_warmup(lr: float | Callable[[Any], Any], warmup_steps: int,
                  start_factor: float = 0.0) -> Callable[[Any], Any]:
    """``lr`` (a rate or a schedule) scaled by a factor rising linearly from ``start_factor`` at step 0 to 1 at
    ``warmup_steps`` (PyTorch's LinearLR with ``end_factor=1``)."""
    _positive(warmup_steps, "warmup_steps")
    inner = lr if callable(lr) else constant(lr)

    def schedule(step: Any) -> Any:
        factor = start_factor + (1.0 - start_factor) * (_minimum(step, warmup_steps) / warmup_steps)
        return inner(step) * factor
    return schedule
