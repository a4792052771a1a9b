"""Stochastic gradient descent with PyTorch's update rule (``torch.optim.SGD``).

With weight decay ``wd``, momentum ``mu``, dampening ``tau``: ``g = grad + wd * p``; the momentum buffer is ``g``
on the first step and ``mu * buf + (1 - tau) * g`` after; Nesterov uses ``g + mu * buf``, plain momentum ``buf``;
then ``p = p - lr * g``. ``maximize=True`` ascends (the gradient is negated first).

Example:
    >>> import kdsl as kd
    >>> opt = kd.optim.sgd(0.1, momentum=0.9)
    >>> params = {"w": kd.ones(2)}
    >>> state = opt.init(params)
    >>> params, state = opt.update({"w": kd.ones(2)}, state, params)
    >>> [round(v, 6) for v in params["w"].tolist()]
    [0.9, 0.9]
"""

from __future__ import annotations

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

__all__ = ["sgd"]


def sgd(lr: float | Schedule = 1e-3, momentum: float = 0.0, dampening: float = 0.0, weight_decay: float = 0.0,
        nesterov: bool = False, *, maximize: bool = False) -> Optimizer:
    """SGD (see the module docstring). ``lr``: a float or a schedule (``step -> lr``, e.g.
    :func:`kdsl.optim.cosine_decay`)."""
    if momentum < 0 or weight_decay < 0:
        raise ValueError(f"momentum ({momentum}) and weight_decay ({weight_decay}) must be >= 0")
    if nesterov and (momentum <= 0 or dampening != 0):
        raise ValueError("Nesterov momentum requires a momentum > 0 and zero dampening")
    if not callable(lr):
        learning_rate(lr, None)  # validate a constant rate now, not at the first update

    def init(params: Any) -> dict:
        leaves, structure = kd.tree_flatten(params)
        device = params_device(leaves)
        bufs = kd.tree_unflatten(structure, [kd.zeros_like(p) for p in leaves]) if momentum else None
        return {"step": step_counter(device), "momentum": bufs}

    def update(grads: Any, state: dict, params: Any) -> tuple[Any, dict]:
        check_state(state, ("step", "momentum"), "sgd")
        check_grads(grads, params)
        step = state["step"]
        ps, structure = kd.tree_flatten(params)
        gs = kd.tree_flatten(grads)[0]
        bufs = kd.tree_flatten(state["momentum"])[0] if momentum else [None] * len(ps)
        new_ps, new_bufs = [], []
        for g, buf, p in zip(gs, bufs, ps, strict=True):
            rate = learning_rate(lr, step)  # per parameter: a schedule fuses into each update, no scalar kernel
            if maximize:
                g = -g
            if weight_decay:
                g = g + weight_decay * p
            if momentum:
                later = momentum * buf + (1.0 - dampening) * g
                buf = kd.where(step == 0, g, later).astype(g.dtype) if dampening else later
                g = g + momentum * buf if nesterov else buf
            new_ps.append((p - rate * g).astype(p.dtype))
            new_bufs.append(buf)
        new_state = {"step": step + 1, "momentum": kd.tree_unflatten(structure, new_bufs) if momentum else None}
        return kd.tree_unflatten(structure, new_ps), new_state

    return Optimizer(init, update)
