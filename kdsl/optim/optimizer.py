"""The functional optimiser shape shared by ``sgd``, ``adam`` and ``adamw``: an :class:`Optimizer` is a pair of
pure functions, ``state = opt.init(params)`` and ``params, state = opt.update(grads, state, params)``, over
pytrees (nested dict / list / tuple of kdsl arrays). Every value they return is a lazy kdsl expression, so the
whole update (and the gradient and forward pass before it) fuses into as few kernels as the scheduler can make;
the step count lives on the device, so nothing is read back and every step runs the same cached kernels.

A training loop should realise the new parameters *and* the state each step (:func:`realize`), or the next step
would recompute the old state from scratch.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import kdsl as kd

__all__ = ["Optimizer", "Schedule", "learning_rate", "realize", "check_grads"]

Schedule = Callable[[Any], Any]  # step (a 0-d int32 array, or an int) -> learning rate (an array or a float)


class Optimizer(NamedTuple):
    """``init(params) -> state`` and ``update(grads, state, params) -> (params, state)``."""

    init: Callable[[Any], Any]
    update: Callable[[Any, Any, Any], tuple[Any, Any]]


def learning_rate(lr: float | Schedule, step: Any) -> Any:
    """``lr`` itself, or the schedule's value at ``step`` (the count of updates done before this one)."""
    if callable(lr):
        return lr(step)
    if not isinstance(lr, (int, float)) or lr < 0:
        raise ValueError(f"learning rate must be a float >= 0 or a schedule (a function of the step), got {lr!r}")
    return float(lr)


def check_grads(grads: Any, params: Any) -> None:
    """Raise early, naming the problem, when a gradient's shape differs from its parameter's."""
    def check(g: Any, p: Any) -> None:
        if tuple(getattr(g, "shape", ())) != tuple(getattr(p, "shape", ())):
            raise ValueError(f"a gradient of shape {getattr(g, 'shape', ())} for a parameter of shape "
                             f"{getattr(p, 'shape', ())}: grads must mirror params")
    kd.tree_map(check, grads, params)


def step_counter(device: Any = None) -> kd.Array:
    return kd.zeros((), dtype=kd.int32, device=device)


def params_device(leaves: list[Any]) -> Any:
    """The device of the first kdsl array among the parameters (None: the default device; NumPy arrays'
    ``device`` is the string ``'cpu'``, no kdsl device)."""
    return next((p.device for p in leaves if isinstance(p, kd.Array)), None)


def check_state(state: Any, keys: tuple[str, ...], name: str) -> None:
    """A ValueError, not a KeyError from inside, for an optimizer state that ``init`` did not make."""
    if not isinstance(state, dict) or any(k not in state for k in keys):
        got = sorted(state) if isinstance(state, dict) else type(state).__name__
        raise ValueError(f"{name}.update: state must be what {name}.init(params) returned (keys {list(keys)}), "
                         f"got {got}")


def realize(*trees: Any) -> None:
    """Compute every array leaf of the given pytrees now, in one submission (results stay on the device).

    >>> import kdsl as kd
    >>> params = {"w": kd.ones(2) * 3}
    >>> kd.optim.realize(params)
    >>> params["w"].tolist()
    [3.0, 3.0]
    """
    kd.realize(*[leaf for leaf in kd.tree_leaves(list(trees)) if isinstance(leaf, kd.Array)])
