"""``kd.optim``: functional optimisers (``sgd``, ``adam``, ``adamw``) over pytrees of kdsl arrays, and
learning-rate schedules as plain functions. Built on the public ``kdsl`` API only (pytrees: ``kd.tree_map`` and
friends).

    state = opt.init(params)
    params, state = opt.update(grads, state, params)   # lazy: fuses with the step that made the grads
    kd.optim.realize(params, state)                     # one submission for the whole update

Example:
    >>> import kdsl as kd
    >>> opt = kd.optim.adamw(1e-2)
    >>> params = {"w": kd.ones((2, 2)), "b": kd.zeros(2)}
    >>> state = opt.init(params)
    >>> grads = {"w": kd.ones((2, 2)), "b": kd.ones(2)}
    >>> params, state = opt.update(grads, state, params)
    >>> kd.optim.realize(params, state)
    >>> int(state["step"]), round(float(params["b"][0]), 4)
    (1, -0.01)
"""

from kdsl.optim.adam import adam, adamw
from kdsl.optim.optimizer import Optimizer, realize
from kdsl.optim.schedules import constant, cosine_decay, linear_warmup, step_decay
from kdsl.optim.sgd import sgd

__all__ = ["Optimizer", "sgd", "adam", "adamw", "realize", "constant", "step_decay", "cosine_decay",
           "linear_warmup"]
