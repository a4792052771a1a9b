"""NEP 13 for kdsl's ufuncs: an operand of a foreign type with its own ``__array_ufunc__`` computes the call.

NumPy hands ``np.sqrt(q)``, ``np.add(a, q)``, ``a + q`` and ``np.add.reduce(q)`` to
``type(q).__array_ufunc__(q, ufunc, method, *inputs, **kwargs)``: that is how a units-aware ``Quantity``, a dual
number for forward-mode derivatives or any class built on ``np.lib.mixins.NDArrayOperatorsMixin`` takes part in
NumPy code. kdsl's ufuncs (``kd.sqrt``, ``kd.add.reduce``...) and its arrays' operators do the same: the
override gets kdsl's ufunc object (``getattr(ufunc, method)(*values, **kwargs)`` runs kdsl's), the method's name,
the inputs and the keywords the caller gave (``out`` as a tuple, as NumPy passes it). Overrides are tried
subclasses before their bases, else left to right; the first result that is not ``NotImplemented`` is the
call's, and when every one declines it is NumPy's TypeError.

Only types kdsl cannot read as arrays take this path: array-likes with ``__array__``/``__array_interface__`` or a
buffer (pandas, h5py) are converted to kdsl arrays as before, and kdsl's own types (``kd.Array``, ``kd.ma``'s
``__kdsl_ufunc__``) keep theirs; ``__array_ufunc__ = None`` still makes kdsl's operators defer
(``operator_deferral.py``).

Example:
    >>> import kdsl as kd
    >>> class Q:
    ...     def __init__(self, v): self.v = v
    ...     def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
    ...         vals = [x.v if isinstance(x, Q) else x for x in inputs]
    ...         return Q(getattr(ufunc, method)(*vals, **kwargs))
    >>> kd.sqrt(Q(kd.asarray([4.0, 9.0]))).v.tolist(), (kd.asarray([1.0]) + Q(kd.asarray([2.0]))).v.tolist()
    ([2.0, 3.0], [3.0])
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, MutableMapping
from typing import Any

import numpy as np

from kdsl.frontend.array.host_dtypes import typed
from kdsl.frontend.array.ops import array_class

NONE = object()
"""What :func:`dispatch` returns when no operand overrides the call (``NotImplemented`` may be an answer)."""

# Array's operator names (ops.py) -> NumPy's ufunc names, for ``a + q`` as ndarray's operators do it
OPERATOR_UFUNCS = {
    "add": "add", "sub": "subtract", "mul": "multiply", "div": "divide", "floordiv": "floor_divide",
    "mod": "remainder", "pow": "power", "and": "bitwise_and", "or": "bitwise_or", "xor": "bitwise_xor",
    "shl": "left_shift", "shr": "right_shift", "eq": "equal", "ne": "not_equal", "lt": "less",
    "le": "less_equal", "gt": "greater", "ge": "greater_equal", "matmul": "matmul", "divmod": "divmod",
}

_PLAIN = (bool, int, float, complex, str, bytes, list, tuple, range, dict, type(None))


def overrides(x: Any, method: str = "__call__") -> bool:
    """Whether ``x`` computes kdsl ufunc calls itself: a foreign type with an ``__array_ufunc__`` that is not
    None, which kdsl cannot read as an array; for a ``method`` (``reduce``, ``outer``...) also kd.ma's masked
    arrays, whose ``__array_ufunc__`` runs the method as NumPy's runs on numpy.ma arrays (their plain calls
    take the faster ``__kdsl_ufunc__`` path instead).

    >>> import kdsl as kd, numpy as np
    >>> class Q:
    ...     def __array_ufunc__(self, *args, **kwargs): return NotImplemented
    >>> overrides(Q()), overrides(kd.arange(2)), overrides(np.arange(2)), overrides(2.0)
    (True, False, False, False)
    """
    cls = type(x)
    if method != "__call__" and hasattr(cls, "__kdsl_ufunc__"):
        return True
    if cls in _PLAIN or isinstance(x, (array_class(), np.ndarray, np.generic)):
        return False
    return getattr(cls, "__array_ufunc__", None) is not None and not hasattr(cls, "__kdsl_ufunc__") and not typed(x)


def dispatch(ufunc: Any, method: str, inputs: tuple, kwargs: dict[str, Any]) -> Any:
    """The result of the first overriding operand's ``__array_ufunc__(ufunc, method, *inputs, **kwargs)``
    (inputs and ``kwargs['out']``'s arrays are looked at); :data:`NONE` when no operand overrides.

    >>> import kdsl as kd
    >>> dispatch(kd.add, "__call__", (kd.arange(2), 1), {}) is NONE
    True
    """
    outs = kwargs.get("out")
    candidates = [x for x in (*inputs, *(outs if isinstance(outs, tuple) else ())) if overrides(x, method)]
    if not candidates:
        return NONE
    ordered: list[Any] = []
    for x in candidates:  # one per type; a subclass goes before its base (NEP 13)
        if any(type(y) is type(x) for y in ordered):
            continue
        at = next((i for i, y in enumerate(ordered) if issubclass(type(x), type(y))), len(ordered))
        ordered.insert(at, x)
    for x in ordered:
        result = type(x).__array_ufunc__(x, ufunc, method, *inputs, **kwargs)
        if result is not NotImplemented:
            return result
    names = ", ".join(repr(type(x).__name__) for x in inputs)
    raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__({ufunc!r}, {method!r}, "
                    f"...): {names}")


def call_keywords(out: Any, where: Any, dtype: Any, casting: str, order: str, subok: bool, signature: Any,
                  kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keywords of a ufunc call as NumPy passes them to ``__array_ufunc__``: only those given, ``out`` as a
    tuple.

    >>> call_keywords(None, True, None, "same_kind", "K", True, None, {})
    {}
    >>> call_keywords("o", False, None, "same_kind", "K", True, None, {})
    {'out': ('o',), 'where': False}
    """
    given: dict[str, Any] = {}
    if out is not None:
        given["out"] = out if isinstance(out, tuple) else (out,)
    for key, value, default in (("where", where, True), ("dtype", dtype, None), ("subok", subok, True),
                                ("signature", signature, None)):
        if value is not default:  # identity: ``where`` may be an array
            given[key] = value
    for key, text, default_text in (("casting", casting, "same_kind"), ("order", order, "K")):
        if text != default_text:
            given[key] = text
    return {**given, **kwargs}


def method_call(ufunc: Any, method: str, n_inputs: int, args: tuple, kwargs: dict[str, Any]) -> Any:
    """``ufunc.<method>(*args, **kwargs)`` (``reduce``, ``accumulate``, ``reduceat``, ``outer``, ``at``) handed to an
    overriding input: the first ``n_inputs`` arguments are inputs, later positional ones become keywords by the
    method's parameter names, ``out`` a tuple; :data:`NONE` when no input overrides."""
    inputs = args[:n_inputs]
    if not any(overrides(x, method) for x in inputs):
        return NONE
    names = _PARAMETERS[method]
    keywords = dict(zip(names, args[n_inputs:], strict=False))
    keywords.update(kwargs)
    if keywords.get("out", 0) is None:  # NumPy passes out only when one is given
        del keywords["out"]
    if "out" in keywords and not isinstance(keywords["out"], tuple):
        keywords["out"] = (keywords["out"],)
    return dispatch(ufunc, method, inputs, keywords)


def overridable(fn: Callable[..., Any], method: str, n_inputs: int) -> Callable[..., Any]:
    """Ufunc method ``fn`` that first hands the call to an overriding input (:func:`method_call`); same name,
    docstring and signature as ``fn``."""
    @functools.wraps(fn)
    def method_with_overrides(self: Any, *args: Any, **kwargs: Any) -> Any:
        result = method_call(self, method, n_inputs, args, kwargs)
        return fn(self, *args, **kwargs) if result is NONE else result
    return method_with_overrides


# the parameters after the inputs, in NumPy's order (np.add.reduce(a, axis, dtype, out, keepdims, initial, where))
_PARAMETERS = {"reduce": ("axis", "dtype", "out", "keepdims", "initial", "where"),
               "accumulate": ("axis", "dtype", "out"), "reduceat": ("axis", "dtype", "out"),
               "outer": (), "at": ()}


def operator(name: str, a: Any, b: Any) -> Any:
    """``a <op> b`` of a kdsl array and an overriding operand, as ndarray's operators run ``np.add(a, b)``:
    kdsl's ufunc for the operator, whose call hands it to the override."""
    return getattr(sys.modules["kdsl"], OPERATOR_UFUNCS[name])(a, b)  # the namespace's ufunc (a layer above)


def inplace(name: str, a: Any, b: Any) -> Any:
    """``a <op>= b`` of a kdsl array ``a`` and an overriding ``b``: kdsl's ufunc with ``out=(a,)``, as ndarray's
    in-place operators run ``np.add(a, b, out=(a,))``; what the override returns is what ``a`` is bound to."""
    return getattr(sys.modules["kdsl"], OPERATOR_UFUNCS[name])(a, b, out=(a,))


# NumPy's functions that are ufunc reductions (its _wrapreduction): (ufunc, the parameters after the array)
_REDUCTIONS = {
    "sum": ("add", ("axis", "dtype", "out", "keepdims", "initial", "where")),
    "prod": ("multiply", ("axis", "dtype", "out", "keepdims", "initial", "where")),
    "max": ("maximum", ("axis", "out", "keepdims", "initial", "where")),
    "min": ("minimum", ("axis", "out", "keepdims", "initial", "where")),
    "any": ("logical_or", ("axis", "out", "keepdims")), "all": ("logical_and", ("axis", "out", "keepdims")),
}
_ALIASES = {"amax": "max", "amin": "min"}


def install(namespace: MutableMapping[str, Any]) -> None:
    """``kd.sum(q)``, ``kd.max(q)``... of an overriding ``q`` as NumPy's: ``q``'s method of that name
    (``q.sum(axis=None, out=None)``) where it has one, else ``kd.add.reduce(q, None, None, None)``, which hands
    the fold to ``q``'s ``__array_ufunc__``."""
    for name in (*_REDUCTIONS, *_ALIASES):
        if name in namespace:
            namespace[name] = _reduction(_ALIASES.get(name, name), namespace[name], namespace)


def _reduction(method: str, fn: Callable[..., Any], namespace: MutableMapping[str, Any]) -> Callable[..., Any]:
    ufunc_name, parameters = _REDUCTIONS[method]

    @functools.wraps(fn)
    def reduction(a: Any, *args: Any, **kwargs: Any) -> Any:
        if not overrides(a):
            return fn(a, *args, **kwargs)
        given = {**dict(zip(parameters, args, strict=False)), **kwargs}
        axis, dtype, out = given.pop("axis", None), given.pop("dtype", None), given.pop("out", None)
        own = getattr(a, method, None)
        if own is not None:  # NumPy: type(obj) is not ndarray, so obj.sum(axis=..., out=...) runs
            return own(axis=axis, out=out, **({"dtype": dtype} if dtype is not None else {}), **given)
        if method in ("any", "all"):  # NumPy's any/all fold in bool
            dtype = bool
        return namespace[ufunc_name].reduce(a, axis, dtype, out, **given)
    return reduction


__all__ = ["NONE", "OPERATOR_UFUNCS", "call_keywords", "dispatch", "inplace", "install", "method_call", "operator",
           "overridable", "overrides"]
