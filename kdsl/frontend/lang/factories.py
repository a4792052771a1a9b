"""CuPy-style kernel factories: ``kd.elementwise`` and ``kd.reduction``.

The body and expressions are kdsl-language text (C-like: ``z = x > 0 ? x : 0.1 * x``, statements separated by
``;`` or newlines). They are parsed once and lowered onto the public array functions, so the results are lazy
arrays that fuse with the surrounding elementwise code. Parameters are declared CuPy's way: ``"T x, T y"``
with ``T`` a type placeholder bound by the arguments, or a concrete dtype (``float32 a``, ``float b``).

``reduce_expr`` must be one of ``a + b``, ``a * b``, ``max(a, b)``, ``min(a, b)`` (either operand order);
anything else raises :class:`~kdsl.frontend.lang.compute.KdslError` — write an ``@kd.kernel`` for other reductions.

Example:
    >>> import numpy as np
    >>> sq_diff = elementwise("T x, T y", "T z", "z = (x - y) * (x - y)", "sq_diff", xp=np)
    >>> sq_diff(np.array([1., 2.]), np.array([0., 4.]))
    array([1., 4.])
    >>> l2 = reduction("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm", xp=np)
    >>> float(l2(np.array([3., 4.])))
    5.0
"""

from __future__ import annotations

import importlib
from types import ModuleType

import numpy as np
from lark import Tree

from kdsl.dtype.checked_values import checked_values
from kdsl.frontend.lang.compute import Evaluator, KdslError, KdslSyntaxError, column_of, default_xp, parse

# C and CuPy type names accepted in parameter lists, as NumPy dtype names.
_C_TYPES = {"float": "float32", "double": "float64", "int": "int32", "unsigned int": "uint32", "uint": "uint32",
            "long long": "int64", "bool": "bool", "half": "float16", "int8_t": "int8", "uint8_t": "uint8",
            "int16_t": "int16", "uint16_t": "uint16", "int32_t": "int32", "uint32_t": "uint32",
            "int64_t": "int64", "uint64_t": "uint64"}
_REDUCE_FORMS = {"+": "sum", "*": "prod", "max": "max", "min": "min"}
_DTYPES = ("bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
           "float64")
_PREFIX = "_e = "


def _parse_expr(text: str, what: str):
    """The tree of the expression ``text`` (parsed as ``_e = text``; syntax errors point into ``text``)."""
    if not isinstance(text, str):
        raise TypeError(f"{what} is a string expression, got {type(text).__name__}")
    try:
        return parse(_PREFIX + text).children[0].children[2]
    except KdslSyntaxError as err:
        column = err.column - len(_PREFIX) if err.line == 1 else err.column
        raise KdslSyntaxError(err.msg, text, max(column, 1), err.line) from None


def _parse_params(text: str, what: str) -> list[tuple[str, str]]:
    """``"T x, float32 y"`` -> [("T", "x"), ("float32", "y")]."""
    if not isinstance(text, str):
        raise TypeError(f"{what} is a string like 'T x, T y', got {type(text).__name__}")
    params: list[tuple[str, str]] = []
    if not text.strip():
        return params
    start = 0
    for raw in text.split(","):
        part = raw.strip()
        if not part:  # 'T x,,' or 'T x,': an empty parameter, not silently skipped
            column = start + len(raw) - len(raw.lstrip()) + 1
            raise KdslSyntaxError(f"{what}: empty parameter {len(params) + 1} (a stray ','?); write "
                                  "'T x, T y'", text, column)
        start += len(raw) + 1
        words = part.split()
        if words[0] == "raw":
            raise ValueError(f"{what}: 'raw' parameters are not supported; use @kd.kernel for indexed access")
        if len(words) < 2:
            raise ValueError(f"{what}: parameter {part!r} needs a type and a name, e.g. 'T {part}'")
        type_name, name = " ".join(words[:-1]), words[-1]
        if not name.isidentifier():
            raise ValueError(f"{what}: {name!r} is not a valid parameter name")
        type_name = _C_TYPES.get(type_name, type_name)
        if _is_concrete(type_name) and np.dtype(type_name).name not in _DTYPES:
            raise ValueError(f"{what}: type {type_name!r} of '{name}' is not supported; use a placeholder (T) or "
                             f"one of {', '.join(_DTYPES)}")
        params.append((type_name, name))
    names = [n for _, n in params]
    if len(set(names)) != len(names):
        raise ValueError(f"{what}: duplicate parameter names in {text!r}")
    return params


def _is_concrete(type_name: str) -> bool:
    try:
        np.dtype(type_name)
        return type_name != "T" and not type_name.isupper()
    except TypeError:
        return False


def _dtype_of(value) -> str | None:
    if isinstance(value, (bool, int, float)):
        return None
    return str(getattr(value.dtype, "name", value.dtype))


class _Factory:
    """Shared parts: parameter binding, type placeholders, casts."""

    def __init__(self, in_params: str, out_params: str, name: str, xp):
        self.inputs = _parse_params(in_params, "in_params")
        self.outputs = _parse_params(out_params, "out_params")
        self.name = name
        self._xp = xp

    _args: tuple  # the constructor's arguments but xp (pickling rebuilds the kernel from them)

    def __reduce__(self):
        """Pickled by its text (the constructor's arguments) and its xp module's name."""
        xp = self._xp.__name__ if isinstance(self._xp, ModuleType) else self._xp
        return _unpickle, (type(self), self._args, xp)

    @property
    def xp(self):
        if self._xp is None:
            return default_xp()
        return self._xp

    def bind(self, args) -> tuple[dict, dict[str, str]]:
        if len(args) != len(self.inputs):
            extra = " (outputs are returned, not passed)" if len(args) == len(self.inputs) + len(self.outputs) \
                else ""
            raise TypeError(f"{self.name} takes {len(self.inputs)} input(s) "
                            f"({', '.join(n for _, n in self.inputs)}), got {len(args)}{extra}")
        types: dict[str, str] = {}
        env = {}
        for (type_name, name), value in zip(self.inputs, args, strict=False):
            if isinstance(value, (list, tuple)):
                value = np.asarray(value)
            if not (isinstance(value, (bool, int, float)) or hasattr(value, "dtype") and hasattr(value, "shape")):
                raise TypeError(f"{self.name}: input '{name}' is a {type(value).__name__}; pass an array or a "
                                "number")
            if _dtype_of(value) is not None and np.dtype(_dtype_of(value)).name not in _DTYPES:
                raise TypeError(f"{self.name}: input '{name}' has dtype {_dtype_of(value)}, which kernels do not "
                                "support")
            if isinstance(value, np.ndarray) and self._xp is None:
                value = self.xp.asarray(value)
            dtype = _dtype_of(value)
            if not _is_concrete(type_name) and dtype is not None:
                if type_name in types and types[type_name] != dtype:
                    raise TypeError(f"{self.name}: type {type_name} is {types[type_name]} from an earlier "
                                    f"argument but {dtype} from '{name}'")
                types[type_name] = dtype
            env[name] = value
        for (type_name, name) in self.inputs:  # concrete types and scalar-only placeholders
            dtype = type_name if _is_concrete(type_name) else types.get(type_name)
            if dtype is None:
                v = env[name]
                dtype = "bool" if isinstance(v, bool) else "int32" if isinstance(v, int) else "float32"
                types[type_name] = dtype
            if isinstance(env[name], (bool, int, float)):  # refuse values the cast would change (2.5 -> int)
                env[name] = checked_values(env[name], dtype, f"{self.name}: input '{name}'")[0].item()
            env[name] = self.cast(env[name], dtype)
        shapes = [(n, tuple(env[n].shape)) for _, n in self.inputs if _dtype_of(env[n]) is not None]
        try:
            _broadcast_shape([s for _, s in shapes])
        except ValueError:
            raise ValueError(f"{self.name}: the inputs' shapes do not broadcast together: "
                             f"{', '.join(f'{n} {s}' for n, s in shapes)}") from None
        return env, types

    def cast(self, value, dtype: str):
        if isinstance(value, (bool, int, float)):
            return np.dtype(dtype).type(value).item() if dtype != "float32" else value
        if _dtype_of(value) != dtype:
            return value.astype(dtype)
        return value

    def out_dtype(self, type_name: str, types: dict[str, str]) -> str:
        if _is_concrete(type_name):
            return type_name
        if type_name not in types:
            bound = ", ".join(f"{t}={d}" for t, d in types.items()) or "none"
            raise TypeError(f"{self.name}: output type {type_name} is not bound by any input (bound: {bound}); "
                            "use it for an input too, or give a concrete type (float32)")
        return types[type_name]

    def casts(self, types: dict[str, str]) -> dict:
        """``float32(x)``, ``T(x)`` in bodies: casts by dtype name or placeholder."""
        def caster(dtype):
            return lambda v: self.cast(v, dtype)
        names = {"float32", "float64", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int16", "uint16",
                 "float16", "bool"}
        out = {n: caster(n) for n in names}
        out.update({"float": caster("float32"), "double": caster("float64"), "int": caster("int32")})
        out.update({t: caster(d) for t, d in types.items()})
        return out


def _run_statements(text: str, tree: Tree, env: dict, evaluator: Evaluator) -> dict:
    for stmt in tree.children:
        target, assign, body = stmt.children
        if target.data != "name_target":
            raise KdslError("assign whole names here (z = ...), without indices", text, *column_of(target))
        name = str(target.children[0])
        value = evaluator.eval(body)
        op = str(assign)
        if op != "=":
            if name not in env:
                raise KdslError(f"'{name}' is updated before it is assigned", text, *column_of(target))
            value = {"+=": lambda a, b: a + b, "-=": lambda a, b: a - b, "*=": lambda a, b: a * b,
                     "/=": lambda a, b: a / b}[op](env[name], value)
        env[name] = value
    return env


class ElementwiseKernel(_Factory):
    """Made by :func:`elementwise`; call it with the inputs, get the outputs (one array or a tuple)."""

    def __init__(self, in_params: str, out_params: str, body: str, name: str, xp=None):
        super().__init__(in_params, out_params, name, xp)
        self._args = (in_params, out_params, body, name)
        self.body = body
        self.tree = parse(body)
        assigned = {str(s.children[0].children[0]) for s in self.tree.children}
        missing = [n for _, n in self.outputs if n not in assigned]
        if missing:
            raise KdslError(f"the body never assigns the output(s) {', '.join(missing)}", body, 1)

    def __call__(self, *args):
        env, types = self.bind(args)
        env = dict(env)
        _run_statements(self.body, self.tree, env, Evaluator(self.body, env, self.xp, self.casts(types)))
        arrays = [env[n] for _, n in self.inputs if _dtype_of(env[n]) is not None]
        shape = _broadcast_shape([a.shape for a in arrays])
        results = []
        for type_name, name in self.outputs:
            value = self.xp.broadcast_to(self.xp.asarray(env[name]), shape)
            results.append(self.cast(value, self.out_dtype(type_name, types)))
        return results[0] if len(results) == 1 else tuple(results)


def _broadcast_shape(shapes) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(*[tuple(s) for s in shapes])) if shapes else ()


def _reduce_kind(text: str) -> str:
    """'sum' | 'prod' | 'max' | 'min' for the recognised ``reduce_expr`` forms."""
    body = _parse_expr(text, "reduce_expr")

    def is_ab(nodes) -> bool:
        names = sorted(str(n.children[0]) for n in nodes if isinstance(n, Tree) and n.data == "name")
        return names == ["a", "b"]

    if body.data == "binop" and str(body.children[1]) in ("+", "*") and is_ab([body.children[0], body.children[2]]):
        return _REDUCE_FORMS[str(body.children[1])]
    if body.data == "call" and str(body.children[0]) in ("max", "min") and is_ab(body.children[1:]):
        return str(body.children[0])
    raise KdslError("reduce_expr must be one of: a + b, a * b, max(a, b), min(a, b) (write an @kd.kernel for "
                    "other reductions)", text, 1)


class ReductionKernel(_Factory):
    """Made by :func:`reduction`; call ``k(*inputs, axis=None, keepdims=False)``."""

    def __init__(self, in_params, out_params, map_expr, reduce_expr, post_expr, identity, name, xp=None):
        super().__init__(in_params, out_params, name, xp)
        self._args = (in_params, out_params, map_expr, reduce_expr, post_expr, identity, name)
        if len(self.outputs) != 1:
            raise ValueError(f"{name}: a reduction has exactly one output, got {out_params!r}")
        self.map_expr, self.post_expr = map_expr, post_expr or f"{self.outputs[0][1]} = a"
        self.map_body = _parse_expr(map_expr, "map_expr")
        self.kind = _reduce_kind(reduce_expr)
        self.post_tree = parse(self.post_expr)
        self.identity = None if identity in (None, "") else \
            Evaluator(str(identity), {}, np, shift=len(_PREFIX)).eval(_parse_expr(str(identity), "identity"))

    def __call__(self, *args, axis=None, keepdims: bool = False):
        xp = self.xp
        env, types = self.bind(args)
        casts = self.casts(types)
        mapped = Evaluator(self.map_expr, env, xp, casts, shift=len(_PREFIX)).eval(self.map_body)
        arrays = [env[n] for _, n in self.inputs if _dtype_of(env[n]) is not None]
        mapped = xp.broadcast_to(xp.asarray(mapped), _broadcast_shape([a.shape for a in arrays]))
        reduced = getattr(mapped, self.kind)(axis=axis, keepdims=keepdims)
        reduced = self._with_identity(reduced)
        post_env = dict(env, a=reduced)
        out_type, out_name = self.outputs[0]
        post_env = _run_statements(self.post_expr, self.post_tree, post_env,
                                   Evaluator(self.post_expr, post_env, xp, casts))
        if out_name not in post_env:
            raise KdslError(f"post_map_expr must assign the output '{out_name}'", self.post_expr, 1)
        return self.cast(xp.asarray(post_env[out_name]), self.out_dtype(out_type, types))

    def _with_identity(self, reduced):
        """CuPy starts the accumulator at ``identity``: fold it in unless it is the operation's neutral value."""
        ident = self.identity
        if ident is None:
            return reduced
        neutral = {"sum": 0, "prod": 1, "max": -np.inf, "min": np.inf}[self.kind]
        if ident == neutral:
            return reduced
        if self.kind == "sum":
            return reduced + ident
        if self.kind == "prod":
            return reduced * ident
        fn = self.xp.maximum if self.kind == "max" else self.xp.minimum
        return fn(reduced, ident)


def _unpickle(cls: type, args: tuple, xp):
    """A pickled kd.elementwise / kd.reduction kernel, made again from its text."""
    return cls(*args, xp=importlib.import_module(xp) if isinstance(xp, str) else xp)


def elementwise(in_params: str, out_params: str, body: str, name: str = "elementwise", xp=None):
    """CuPy's ``ElementwiseKernel``: ``k = kd.elementwise("T x, T y", "T z", "z = x * y + 1", "fma1")``,
    then ``z = k(x, y)`` (a lazy array; inputs broadcast)."""
    return ElementwiseKernel(in_params, out_params, body, name, xp)


def reduction(in_params: str, out_params: str, map_expr: str, reduce_expr: str, post_expr: str = "",
              identity=None, name: str = "reduction", xp=None):
    """CuPy's ``ReductionKernel``: map each element, reduce with ``reduce_expr`` over ``axis``, then apply
    ``post_expr`` (where ``a`` is the reduced value)."""
    return ReductionKernel(in_params, out_params, map_expr, reduce_expr, post_expr, identity, name, xp)
