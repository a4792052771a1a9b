"""JAX's functional transforms over kdsl's lazy graph: :func:`grad`, :func:`value_and_grad`, :func:`vjp`,
:func:`jvp` and :func:`stop_gradient`.

``f`` runs once on its arguments as usual (building lazy graph); reverse mode then walks that graph backwards
from the output and builds the gradient as more lazy graph (:mod:`kdsl.autodiff.tape`), so forward and backward
pass realise together, fuse, and replay under ``kd.jit``. Gradients are ordinary lazy Arrays, and can be
differentiated again (``grad(grad(f))``). Forward mode (:func:`jvp`) transposes the reverse pass: the vjp is
linear in its cotangent, and the vjp of that linear map is the jvp.

Arguments and results may be pytrees (nested lists, tuples, dicts; :mod:`kdsl.pytree`) of float
Arrays; Python floats become float32 arrays.

Example:
    >>> import kdsl as kd
    >>> def loss(w, x):
    ...     return ((x @ w) ** 2).mean()
    >>> w, x = kd.asarray([1.0, -1.0]), kd.asarray([[1.0, 2.0], [3.0, 4.0]])
    >>> value, g = kd.value_and_grad(loss)(w, x)
    >>> float(value), g.tolist()
    (1.0, [-4.0, -6.0])
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from kdsl.autodiff import tape as tp
from kdsl.autodiff.registry import zeros
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.creation import asarray, ones
from kdsl.ir.graph import Node
from kdsl.pytree import TreeDef, tree_flatten, tree_map, tree_unflatten


def _as_primal(x: Any, where: str, complex_ok: bool) -> Array:
    if isinstance(x, float):
        return asarray(x)
    if not isinstance(x, Array):
        raise TypeError(f"{where} is a {type(x).__name__}; differentiated arguments must be kdsl float arrays or "
                        "pytrees (lists, tuples, dicts) of them: convert with kd.asarray(x, dtype=kd.float32)")
    if x.dtype.is_complex and complex_ok:  # kd.vjp: cotangents dL/dRe + i dL/dIm (PyTorch's convention)
        return x
    if x.dtype.is_complex:
        raise TypeError(f"{where} has dtype {x.dtype.name}, but kd.grad needs real float inputs (a complex "
                        "input's gradient is not one number per element): pass its parts kd.real(z), kd.imag(z) "
                        "as two arguments, or use kd.vjp, whose cotangents of complex inputs are "
                        "dL/dRe(z) + 1j * dL/dIm(z)")
    if not x.dtype.is_float:
        raise TypeError(f"{where} has dtype {x.dtype.name}, but gradients need float inputs: cast it with "
                        "x.astype(kd.float32), or leave it out of argnums if it is not differentiated")
    return x


def _run(f: Callable[..., Any], primals: Sequence[Any], has_aux: bool, name: str):
    """Run ``f`` on fresh input nodes: (outputs' leaves, their TreeDef, aux, tape, inputs per primal)."""
    flat: list[tuple[list[Array], TreeDef]] = []
    for i, p in enumerate(primals):
        leaves, td = tree_flatten(p)
        flat.append(([_as_primal(x, f"{name}: argument {i}", name == "kd.vjp") for x in leaves], td))
    taken: set[int] = set()
    wrapped = [[tp.as_input(x, taken) for x in leaves] for leaves, _ in flat]
    with tp.recording() as saved:
        out = f(*[tree_unflatten(td, w) for w, (_, td) in zip(wrapped, flat, strict=True)])
        aux = None
        if has_aux:
            if not isinstance(out, (tuple, list)) or len(out) != 2:
                raise ValueError(f"{name}(has_aux=True) needs f to return a pair (output, aux), got "
                                 f"{type(out).__name__}")
            out, aux = out
        out_leaves, out_td = tree_flatten(out)
        for leaf in out_leaves:
            if not isinstance(leaf, Array):
                raise TypeError(f"{name}: f must return kdsl Arrays (or pytrees of them), got a "
                                f"{type(leaf).__name__}")
        tape = tp.Tape.build([o._node for o in out_leaves], [x._node for w in wrapped for x in w], saved)
    # the input nodes, not Arrays: a live Array would make the scheduler store a stand-in copy separately
    nodes = [[x._node for x in w] for w in wrapped]
    return out_leaves, out_td, aux, tape, nodes, [td for _, td in flat]


def vjp(f: Callable[..., Any], *primals: Any, has_aux: bool = False):
    """``(f(*primals), vjp_fn)`` (and ``aux`` third with ``has_aux``): ``vjp_fn(cotangent)`` returns a tuple
    with the cotangent of each primal (a pytree like it) for a cotangent shaped like ``f``'s output.

    Example:
        >>> import kdsl as kd
        >>> y, back = kd.vjp(lambda x: x * x, kd.asarray([1.0, 3.0]))
        >>> back(kd.asarray([1.0, 10.0]))[0].tolist()
        [2.0, 60.0]
    """
    _check_callable(f, "kd.vjp")
    return _vjp(f, primals, has_aux, "kd.vjp")


def _vjp(f: Callable[..., Any], primals: Sequence[Any], has_aux: bool, name: str):
    """:func:`vjp` (``name``: the public function, kd.vjp takes complex primals, kd.grad does not)."""
    outs, out_td, aux, tape, inputs, treedefs = _run(f, primals, has_aux, name)

    def vjp_fn(cotangent: Any) -> tuple[Any, ...]:
        leaves, td = tree_flatten(cotangent)
        if td != out_td:
            raise ValueError("vjp_fn: the cotangent must have the structure of f's output "
                             f"({out_td.num_leaves} arrays), got {td.num_leaves}")
        seeds: dict[int, Array] = {}
        for o, c in zip(outs, leaves, strict=True):
            c = c if isinstance(c, Array) else asarray(c, dtype=o.dtype, device=o.device)
            if c.shape != o.shape:
                raise ValueError(f"vjp_fn: a cotangent has shape {c.shape} but its output has shape {o.shape}")
            if not (o.dtype.is_float or o.dtype.is_complex):
                continue
            if c.dtype.is_complex and not o.dtype.is_complex:
                raise TypeError(f"vjp_fn: a cotangent has dtype {c.dtype.name} but its output is real "
                                f"({o.dtype.name}): pass a real cotangent (kd.real(c))")
            c = c.astype(o.dtype) if c.dtype is not o.dtype else c
            seeds[o._node.id] = seeds[o._node.id] + c if o._node.id in seeds else c
        grads = tp.backward(tape, seeds)
        result = []
        for w, td_in in zip(inputs, treedefs, strict=True):
            result.append(tree_unflatten(td_in, [_or_zeros(grads.get(n.id), n) for n in w]))
        return tuple(result)

    primal_out = tree_unflatten(out_td, outs)
    return (primal_out, vjp_fn, aux) if has_aux else (primal_out, vjp_fn)


def _or_zeros(g: Array | None, node: Node) -> Array:
    """A gradient of its own (rules may hand one Array to several sources: ``a += 1`` on one gradient must not
    change another), or zeros where no path led."""
    return zeros(node.shape, node) if g is None else Array(g._node)


def _check_callable(f: Any, name: str) -> None:
    """A TypeError when the transform is handed something other than the function to differentiate (it would
    otherwise fail only at the call, as "'int' object is not callable")."""
    if not callable(f):
        raise TypeError(f"{name}: f must be a function, got {type(f).__name__}; pass the function to "
                        "differentiate first")


def _argnums(argnums: int | Sequence[int], nargs: int, name: str) -> tuple[int, ...]:
    nums = tuple(argnums) if isinstance(argnums, (tuple, list)) else (argnums,)
    if any(not isinstance(k, (int, np.integer)) or isinstance(k, (bool, np.bool_)) for k in nums):
        raise TypeError(f"{name}: argnums must be an int or a tuple of ints (positions of f's arguments), got "
                        f"{argnums!r}")
    nums = tuple(int(k) for k in nums)
    for k in nums:
        if not -nargs <= k < nargs:
            raise ValueError(f"{name}: argnums {argnums} is out of range for {nargs} positional arguments")
    return tuple(k % nargs for k in nums)


def value_and_grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False, *,
                   _name: str = "kd.value_and_grad"):
    """A function returning ``(f(*args), gradient)`` (``((value, aux), gradient)`` with ``has_aux``) for a
    scalar-valued ``f``; the gradient is with respect to argument ``argnums`` (a tuple of them for a tuple).

    Example:
        >>> import kdsl as kd
        >>> v, (gx, gy) = kd.value_and_grad(lambda x, y: (x * y).sum(), argnums=(0, 1))(
        ...     kd.asarray([1.0, 2.0]), kd.asarray([3.0, 4.0]))
        >>> float(v), gx.tolist(), gy.tolist()
        (11.0, [3.0, 4.0], [1.0, 2.0])
    """
    name = _name
    _check_callable(f, name)

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any):
        nums = _argnums(argnums, len(args), name)

        def partial(*diff: Any) -> Any:
            full = list(args)
            for k, v in zip(nums, diff, strict=True):
                full[k] = v
            return f(*full, **kwargs)

        out, back, *rest = _vjp(partial, [args[k] for k in nums], has_aux, name)
        if not isinstance(out, Array):
            raise TypeError(f"{name} needs f to return one scalar Array, got {type(out).__name__}; use kd.vjp "
                            "for pytree outputs")
        if out.shape != ():
            raise ValueError(f"{name} needs f to return a scalar (shape ()), got shape {out.shape}: reduce it "
                             "(e.g. .sum() or .mean()), or use kd.vjp for a vector-Jacobian product")
        if not out.dtype.is_float:
            raise TypeError(f"{name} needs a real float output, got {out.dtype.name}" + (
                ": take kd.abs(), kd.real() or kd.imag() of it, or use kd.vjp" if out.dtype.is_complex else ""))
        grads = back(ones((), dtype=out.dtype, device=out.device))
        g = grads[0] if isinstance(argnums, int) else grads
        return ((out, rest[0]) if has_aux else out), g

    return wrapper


def grad(f: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False):
    """The gradient of scalar-valued ``f`` with respect to argument ``argnums`` (``(gradient, aux)`` with
    ``has_aux``).

    Example:
        >>> import kdsl as kd
        >>> kd.grad(lambda x: (x ** 3).sum())(kd.asarray([1.0, 2.0])).tolist()
        [3.0, 12.0]
        >>> float(kd.grad(kd.grad(lambda x: x ** 3))(kd.asarray(2.0)))
        12.0
    """
    vg = value_and_grad(f, argnums, has_aux, _name="kd.grad")

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any):
        (value, g) = vg(*args, **kwargs)
        return (g, value[1]) if has_aux else g

    return wrapper


def jvp(f: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any]):
    """``(f(*primals), J @ tangents)``: the Jacobian-vector product (forward mode), JAX's signature.

    Example:
        >>> import kdsl as kd
        >>> y, t = kd.jvp(lambda x: kd.sin(x) * 2, (kd.asarray([0.0]),), (kd.asarray([3.0]),))
        >>> y.tolist(), t.tolist()
        ([0.0], [6.0])
    """
    _check_callable(f, "kd.jvp")
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"kd.jvp: primals and tangents must be tuples (one entry per argument of f), got "
                        f"{type(primals).__name__} and {type(tangents).__name__}: write kd.jvp(f, (x,), (t,))")
    primals, tangents = tuple(primals), tuple(tangents)
    if len(primals) != len(tangents):
        raise ValueError(f"kd.jvp: {len(primals)} primals but {len(tangents)} tangents")
    for p, t in zip(primals, tangents, strict=True):
        pl, ptd = tree_flatten(p)
        tl, ttd = tree_flatten(t)
        if ptd != ttd or any(getattr(a, "shape", ()) != getattr(b, "shape", ()) for a, b in zip(pl, tl,
                                                                                                 strict=True)):
            raise ValueError("kd.jvp: each tangent must have the structure and shapes of its primal")
    out, back = vjp(f, *primals)
    leaves, td = tree_flatten(out)
    floats = [k for k, o in enumerate(leaves) if o.dtype.is_float or o.dtype.is_complex]

    def linear(*cts: Array) -> tuple[Any, ...]:  # the vjp on the float outputs' cotangents (linear in them)
        full = [zeros(o.shape, o._node) for o in leaves]
        for k, c in zip(floats, cts, strict=True):
            full[k] = c
        return back(tree_unflatten(td, full))

    _, back_t = vjp(linear, *[zeros(leaves[k].shape, leaves[k]._node) for k in floats])
    along = back_t(tangents)
    result = [zeros(o.shape, o._node) for o in leaves]  # integer outputs: zero tangents of their dtype
    for k, t in zip(floats, along, strict=True):
        result[k] = t
    return out, tree_unflatten(td, result)


def stop_gradient(x: Any) -> Any:
    """``x`` (an Array or a pytree of them) unchanged, but a constant to :func:`grad` and friends.

    Example:
        >>> import kdsl as kd
        >>> kd.grad(lambda x: (x * kd.stop_gradient(x)).sum())(kd.asarray([3.0])).tolist()
        [3.0]
    """
    return tree_map(lambda a: tp.stop_gradient(a) if isinstance(a, Array) else a, x)
