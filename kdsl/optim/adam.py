"""Adam and AdamW with PyTorch's update rules (``torch.optim.Adam`` / ``AdamW``).

At step ``t`` (from 1): ``m = b1 * m + (1 - b1) * g``, ``v = b2 * v + (1 - b2) * g**2``,
``p = p - lr * (m / (1 - b1**t)) / (sqrt(v / (1 - b2**t)) + eps)``. Adam's ``weight_decay`` adds ``wd * p`` to
the gradient (L2); AdamW's decays the parameter directly first, ``p = p * (1 - lr * wd)``. ``amsgrad=True``
divides by the running maximum of ``v`` instead of ``v`` (kept in the state as ``max_exp_avg_sq``);
``maximize=True`` ascends (the gradient is negated first).

Example:
    >>> import kdsl as kd
    >>> opt = kd.optim.adam(0.1)
    >>> params = [kd.zeros(2)]
    >>> params, state = opt.update([kd.asarray([1.0, -3.0])], opt.init(params), params)
    >>> [round(v, 4) for v in params[0].tolist()]   # the first step moves each weight by lr
    [-0.1, 0.1]
"""

from __future__ import annotations

import math
from typing import Any

import kdsl as kd
from kdsl.optim.optimizer import (
    Optimizer,
    Schedule,
    check_grads,
    check_state,
    learning_rate,
    params_device,
    step_counter,
)

__all__ = ["adam", "adamw"]


def _check(lr: Any, betas: tuple[float, float], eps: float, weight_decay: float) -> None:
    if not callable(lr):
        learning_rate(lr, None)
    if not all(0.0 <= b < 1.0 for b in betas) or len(betas) != 2:
        raise ValueError(f"betas must be two floats in [0, 1), got {betas!r}")
    if eps < 0 or weight_decay < 0:
        raise ValueError(f"eps ({eps}) and weight_decay ({weight_decay}) must be >= 0")


def _adam(lr: float | Schedule, betas: tuple[float, float], eps: float, weight_decay: float,
          decoupled: bool, amsgrad: bool, maximize: bool) -> Optimizer:
    _check(lr, betas, eps, weight_decay)
    b1, b2 = betas

    def init(params: Any) -> dict:
        leaves, structure = kd.tree_flatten(params)
        device = params_device(leaves)
        state = {"step": step_counter(device),
                 "exp_avg": kd.tree_unflatten(structure, [kd.zeros_like(p) for p in leaves]),
                 "exp_avg_sq": kd.tree_unflatten(structure, [kd.zeros_like(p) for p in leaves])}
        if amsgrad:
            state["max_exp_avg_sq"] = kd.tree_unflatten(structure, [kd.zeros_like(p) for p in leaves])
        return state

    def update(grads: Any, state: dict, params: Any) -> tuple[Any, dict]:
        check_state(state, ("step", "exp_avg", "exp_avg_sq") + (("max_exp_avg_sq",) if amsgrad else ()), "adam")
        check_grads(grads, params)
        step = state["step"]
        ps, structure = kd.tree_flatten(params)
        gs, ms, vs = (kd.tree_flatten(x)[0] for x in (grads, state["exp_avg"], state["exp_avg_sq"]))
        vmaxs = kd.tree_flatten(state["max_exp_avg_sq"])[0] if amsgrad else [None] * len(ps)
        new_p, new_m, new_v, new_vmax = [], [], [], []
        for g, m, v, vmax, p in zip(gs, ms, vs, vmaxs, ps, strict=True):
            rate = learning_rate(lr, step)  # per parameter, like the corrections: a schedule fuses into each update
            if maximize:
                g = -g
            if weight_decay and decoupled:
                p = p * (1.0 - rate * weight_decay)
            elif weight_decay:
                g = g + weight_decay * p
            # the bias corrections per parameter, not shared: each fuses into its update kernel (two expm1 per
            # element are free in a memory-bound pass) instead of costing scalar kernels of their own
            c1, c2 = _corrections(step, p.dtype, b1, b2)
            m = (b1 * m + (1.0 - b1) * g).astype(m.dtype)
            v = (b2 * v + (1.0 - b2) * g * g).astype(v.dtype)
            if amsgrad:
                vmax = kd.maximum(vmax, v)
                new_vmax.append(vmax)
            new_p.append((p - rate * (m / c1) / (kd.sqrt((vmax if amsgrad else v) / c2) + eps)).astype(p.dtype))
            new_m.append(m)
            new_v.append(v)
        new_state = {"step": step + 1, "exp_avg": kd.tree_unflatten(structure, new_m),
                     "exp_avg_sq": kd.tree_unflatten(structure, new_v)}
        if amsgrad:
            new_state["max_exp_avg_sq"] = kd.tree_unflatten(structure, new_vmax)
        return kd.tree_unflatten(structure, new_p), new_state

    return Optimizer(init, update)


def _corrections(step: kd.Array, dtype: kd.DType, b1: float, b2: float) -> tuple[kd.Array, kd.Array]:
    """``1 - b**t`` for ``t = step + 1`` as ``-expm1(t * log(b))`` (``log(b)`` in double on the host): full
    relative precision in ``dtype`` even where ``b**t`` is close to 1. On the device, so every step runs the
    same kernels."""
    t = (step + 1).astype(dtype if kd.isdtype(dtype, "real floating") else kd.float32)
    return tuple(-kd.expm1(t * math.log(b)) if b else kd.ones_like(t) for b in (b1, b2))  # type: ignore[return-value]


def adam(lr: float | Schedule = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
         weight_decay: float = 0.0, amsgrad: bool = False, *, maximize: bool = False) -> Optimizer:
    """Adam (L2 weight decay added to the gradient); ``amsgrad`` and ``maximize`` as ``torch.optim.Adam``.

    >>> import kdsl as kd
    >>> opt = kd.optim.adam(0.1, amsgrad=True)
    >>> sorted(opt.init([kd.zeros(2)]))
    ['exp_avg', 'exp_avg_sq', 'max_exp_avg_sq', 'step']
    """
    return _adam(lr, betas, eps, weight_decay, False, amsgrad, maximize)


def adamw(lr: float | Schedule = 1e-3, betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
          weight_decay: float = 1e-2, amsgrad: bool = False, *, maximize: bool = False) -> Optimizer:
    """AdamW (decoupled weight decay, PyTorch's default ``weight_decay=0.01``); ``amsgrad`` and ``maximize`` as
    ``torch.optim.AdamW``."""
    return _adam(lr, betas, eps, weight_decay, True, amsgrad, maximize)
