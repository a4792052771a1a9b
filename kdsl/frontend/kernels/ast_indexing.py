"""Python AST -> kernel IR, arrays: indexing (``x[i, j]``, linearised row-major from the array's shape; a
negative index counts from the end, as in Python) and the array attributes ``.shape[k]``, ``.ndim``, ``.size``
(the extents travel as push constants).

Example:
    >>> import kdsl as kd, numpy as np
    >>> @kd.kernel
    ... def last(x, out):
    ...     out[0] = x[-1, x.shape[1] - 1] + x.size
    >>> x, out = kd.asarray(np.arange(6.0, dtype=np.float32).reshape(2, 3)), kd.zeros(1)
    >>> last[1](x, out)
    >>> out.tolist()
    [11.0]
"""

from __future__ import annotations

import ast

from kdsl import dtype as dt
from kdsl.frontend.kernels.ast_expr import ExpressionLowerer
from kdsl.frontend.kernels.glsl import cast, literal, load
from kdsl.frontend.kernels.ir import ArrayRef, Expr, PushField


class IndexingLowerer(ExpressionLowerer):
    """The array methods of :class:`~kdsl.frontend.kernels.ast.Lowerer`: element loads, shapes, indices."""

    def expr_Attribute(self, node: ast.Attribute) -> Expr:
        array = self.array_of(node.value) if isinstance(node.value, ast.Name) else None
        if array is not None:
            if node.attr == "ndim":
                return Expr(str(array.ndim), dt.int32, True, array.ndim, nonneg=True)
            if node.attr == "size":
                dims = [self.dim(array, k) for k in range(array.ndim)] or ["1"]
                return Expr("(" + " * ".join(dims) + ")", dt.int32, nonneg=True)
            if node.attr == "shape":
                raise self.syntax_error(node, f"index the shape: {ast.unparse(node)}[0]")
            raise self.syntax_error(node, f"arrays in kernels have .shape, .ndim and .size, not .{node.attr}")
        return self.constant(self.py_value(node), node)

    def expr_Subscript(self, node: ast.Subscript) -> Expr:
        value = node.value
        if isinstance(value, ast.Attribute) and value.attr == "shape":
            array = self.array_of(value.value)
            if array is not None:
                axis = self.const_int(node.slice)
                if not -array.ndim <= axis < array.ndim:
                    raise self.type_error(node.slice, f"'{ast.unparse(value.value)}' has {array.ndim} "
                                                      f"dimension(s); shape[{axis}] does not exist")
                return Expr(self.dim(array, axis % array.ndim), dt.int32, nonneg=True)
        array = self.array_of(value)
        if array is None:
            raise self.type_error(value, f"'{ast.unparse(value)}' is not an array; only arrays can be indexed")
        index = self.index(array, node.slice)
        array.read = True
        return load(array, index)

    def array_of(self, node: ast.expr) -> ArrayRef | None:
        if isinstance(node, ast.Name):
            symbol = self.env.get(node.id)
            if symbol is not None and symbol[0] == "array":
                return symbol[1]
        return None

    def dim(self, array: ArrayRef, axis: int) -> str:
        """The extent of ``axis``; registers the push-constant field that carries it."""
        if array.kind == "buffer":
            field = PushField(f"{array.name}_shape{axis}", dt.int32, ("shape", array.name, axis))
            if field not in self.program.push:
                self.program.push.append(field)
        return array.dim(axis)

    def const_int(self, node: ast.expr) -> int:
        e = self.expr(node)
        if e.const is None or not isinstance(e.const, int) or isinstance(e.const, bool):
            raise self.type_error(node, f"'{ast.unparse(node)}' must be a constant integer here")
        return e.const

    def wrapped(self, e: Expr, dim: str) -> str:
        """An index as int: a negative one counts from the end, as in Python and NumPy. Literals and values
        known to be >= 0 (thread ids, ``range`` counters) cost nothing; other signed values one compare and
        select (``kd_wrap_i``). Out-of-range indices stay the caller's responsibility."""
        if e.const is not None:
            return f"({dim} - {-e.const})" if e.const < 0 else literal(e.const, dt.int32)
        code = cast(e, dt.int32).code
        if e.nonneg or e.dtype.kind == "u":
            return code
        return f"kd_wrap_i({code}, {dim})"

    def index(self, array: ArrayRef, slice_node: ast.expr) -> str:
        items = slice_node.elts if isinstance(slice_node, ast.Tuple) else [slice_node]
        if len(items) != array.ndim:
            raise self.type_error(slice_node, f"'{array.name}' has {array.ndim} dimension(s) but "
                                              f"{len(items)} index(es) were given")
        parts = []
        for axis, item in enumerate(items):
            if isinstance(item, ast.Slice):
                raise self.syntax_error(item, "slices are not supported in kernels (index one element at a time)")
            e = self.expr(item)
            if not e.dtype.is_int:
                raise self.type_error(item, f"array indices must be integers, got {e.dtype.name}")
            parts.append(self.wrapped(e, self.dim(array, axis)))
        linear = parts[0] if parts else "0"
        for axis in range(1, len(parts)):
            linear = f"({linear} * {self.dim(array, axis)} + {parts[axis]})"
        return linear
