"""``kd.custom_vjp``: JAX's ``jax.custom_vjp``, a function with its own reverse-mode derivative.

The way to differentiate what autodiff cannot walk: a custom kernel (``@kd.kernel``, ``kd.raw_kernel``) writes a
fresh buffer that the lazy graph knows no sources of, so ``kd.grad`` raises where such a kernel reads a traced
value (:mod:`kdsl.ir.composite`). Wrapped in ``custom_vjp`` and given a forward and a backward function, the
whole call is one operation to autodiff: the forward runs when a gradient is traced (the plain function
otherwise), and the backward maps the results' cotangents to the arguments'. ``kd.linalg`` gives its
factorisations their derivatives this way (:mod:`kdsl.linalg.derivatives`).

Example:
    >>> import kdsl as kd
    >>> @kd.custom_vjp
    ... def square(x):
    ...     return x * x
    >>> def square_fwd(x):
    ...     return x * x, x  # (the result, what the backward needs)
    >>> def square_bwd(x, g):
    ...     return (2 * x * g,)  # one cotangent per argument
    >>> _ = square.defvjp(square_fwd, square_bwd)
    >>> kd.grad(lambda x: square(x).sum())(kd.asarray([1.0, 3.0])).tolist()
    [2.0, 6.0]
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from kdsl.autodiff.registry import zeros
from kdsl.frontend.array.array import Array
from kdsl.ir import composite
from kdsl.ir.graph import Node
from kdsl.pytree import tree_flatten, tree_unflatten


class custom_vjp:  # noqa: N801 - JAX's name
    """``fun`` with the derivative that :meth:`defvjp` gives it.

    ``fwd(*args, **kwargs)`` returns ``(fun's result, residuals)``; ``bwd(residuals, g)`` takes the cotangent
    ``g`` of the result (its pytree structure, with zeros for the results the differentiated output does not
    use) and returns a tuple with one cotangent per positional argument (a pytree like the argument, or None:
    no gradient; trailing arguments that hold no arrays, such as a mode string, may be left out). Keyword
    arguments are passed to ``fun`` and ``fwd`` and are not differentiated."""

    def __init__(self, fun: Callable[..., Any]):
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.name: str = getattr(fun, "__name__", "f")
        self.fwd: Callable[..., Any] | None = None
        self.bwd: Callable[..., Any] | None = None

    def defvjp(self, fwd: Callable[..., Any], bwd: Callable[..., Any]) -> Callable[..., Any]:
        """Set the forward (result and residuals) and backward (residuals, cotangent -> argument cotangents).
        Returns the differentiable function as a plain Python function (``help()``, ``np.info`` and
        ``inspect`` see ``fun``'s signature and docstring); calling this object does the same."""
        self.fwd, self.bwd = fwd, bwd

        @functools.wraps(self.fun)
        def differentiable(*args: Any, **kwargs: Any) -> Any:
            if not composite.tracing() and self.fwd is not None and self.bwd is not None:
                return self.fun(*args, **kwargs)  # (what __call__ does untraced, a frame less: every call)
            return self(*args, **kwargs)
        return differentiable

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.fwd is None or self.bwd is None:
            raise TypeError(f"custom_vjp function {self.name} has no derivative: define it with "
                            f"{self.name}.defvjp(fwd, bwd) before calling it")
        if not composite.tracing():
            return self.fun(*args, **kwargs)
        with composite.marked():  # its kernels' reads are covered by the derivative given here
            out, residuals = self.fwd(*args, **kwargs)
        leaves, tree = tree_flatten(out)
        flat_args = [tree_flatten(a) for a in args]
        inputs = tuple(x._node for arg_leaves, _ in flat_args for x in arg_leaves if isinstance(x, Array))
        bwd = self.bwd

        def backward(index: int, g: Array) -> tuple[Array | None, ...]:
            cts = [g if j == index else zeros(leaf.shape, leaf._node) if isinstance(leaf, Array) else None
                   for j, leaf in enumerate(leaves)]
            grads = _per_argument(bwd(residuals, tree_unflatten(tree, cts)), flat_args, self.name)
            return tuple(g for g_arg, (arg_leaves, _) in zip(grads, flat_args, strict=True)
                         for g in _matched(g_arg, arg_leaves))

        marked, outputs = [], {}
        for j, leaf in enumerate(leaves):
            if isinstance(leaf, Array) and (leaf.dtype.is_float or leaf.dtype.is_complex):
                outputs[id(leaf)] = leaf = _marked(leaf, inputs, backward, j)
            marked.append(leaf)
        residuals = self._traced_residuals(residuals, outputs, inputs)
        return tree_unflatten(tree, marked)

    def _traced_residuals(self, residuals: Any, outputs: dict[int, Array], inputs: tuple[Node, ...]) -> Any:
        """The residuals as the backward should see them when it is itself differentiated (a gradient of a
        gradient): a result of the function is its marked copy (differentiable); another float array that
        the forward computed raises if a cotangent reaches it, since kernels may have made it."""
        name = self.name

        def unknown(index: int, g: Array) -> Any:
            raise NotImplementedError(f"kd.grad: the derivative of custom_vjp function {name} is not differentiable "
                                      "again: its backward uses an intermediate result of the forward that is not "
                                      "one of its results (return it, or compute it in the backward)")

        leaves, td = tree_flatten(residuals)
        known = set(inputs)
        for i, leaf in enumerate(leaves):
            if isinstance(leaf, Array) and (leaf.dtype.is_float or leaf.dtype.is_complex) and \
                    leaf._node not in known:
                out = outputs.get(id(leaf))
                leaves[i] = out if out is not None else _marked(leaf, inputs, unknown, 0)
        return tree_unflatten(td, leaves)


def _marked(leaf: Array, inputs: tuple[Node, ...], backward: Callable[[int, Any], Any], index: int) -> Array:
    """A copy of ``leaf`` that autodiff differentiates by ``backward`` (:func:`kdsl.ir.composite.mark`)."""
    node = Node("copy", (leaf._node,), leaf.dtype, leaf.shape)
    composite.mark(node, inputs, backward, index)
    return Array(node)


def _per_argument(grads: Any, flat_args: list[tuple[list[Any], Any]], name: str) -> tuple[Any, ...]:
    """The backward's result checked: one cotangent per positional argument (trailing arguments holding no
    arrays, options such as a mode string, may be left out)."""
    if isinstance(grads, (tuple, list)) and len(grads) < len(flat_args) and not any(
            isinstance(x, Array) for arg_leaves, _ in flat_args[len(grads):] for x in arg_leaves):
        grads = (*grads, *[None] * (len(flat_args) - len(grads)))
    if not isinstance(grads, (tuple, list)) or len(grads) != len(flat_args):
        raise TypeError(f"the backward function of custom_vjp function {name} must return a tuple of "
                        f"{len(flat_args)} cotangents (one per positional argument), got {grads!r:.80}")
    return tuple(grads)


def _matched(g: Any, leaves: list[Any]) -> list[Array | None]:
    """The cotangent ``g`` of one argument as one entry per Array leaf of it (None where there is none)."""
    if g is None:
        return [None for x in leaves if isinstance(x, Array)]
    g_leaves, _ = tree_flatten(g)
    if len(g_leaves) != len(leaves):
        raise TypeError(f"a custom_vjp cotangent has {len(g_leaves)} leaves where its argument has {len(leaves)}")
    return [gl for gl, x in zip(g_leaves, leaves, strict=True) if isinstance(x, Array)]


__all__ = ["custom_vjp"]
