"""Matrix products: ``matmul`` / ``@`` (batched, broadcasting, NumPy's 1-d rules) and ``dot``.

Operands are brought to (batch, m, k) and (batch, k, n) views; elementwise producers of either operand fuse
into the tiled kernel's tile loads (see :mod:`kdsl.codegen.matmul`).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.arange(6, dtype=np.float32).reshape(2, 3))
    >>> (a @ a.T).tolist()
    [[5.0, 14.0], [14.0, 50.0]]
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from kdsl import dtype as dt
from kdsl.dtype import promotion
from kdsl.errors import shape_text
from kdsl.frontend.array import movement as mv
from kdsl.frontend.array import ops
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node


def _arr(x, device=None) -> Array:
    if isinstance(x, Array):
        return x
    from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

    return asarray(x, device=device)


def _arrs(a, b, device) -> list[Array]:
    """Both operands as arrays, converted together (``a64 @ [0.1, 0.2]`` keeps 0.1 in float64)."""
    from kdsl.frontend.array.creation import as_arrays  # cycle: that module imports this one

    return as_arrays(a, b, device=device)


# dtypes whose product with themselves is themselves, on every device that has them (matmul's fast path)
_SAME_DTYPE = ("float32", "float16", "float64")


def matmul(a, b, *, axes: Any = None, axis: Any = None, keepdims: Any = None) -> Array:
    """Matrix product with NumPy's ``matmul`` rules (1-d operands gain and lose a dimension); NumPy's gufunc
    ``axes=`` puts the core dimensions elsewhere (``gufunc_core_axes.py``).

    >>> import kdsl as kd
    >>> (kd.ones((2, 3)) @ kd.ones((3, 4))).shape, (kd.ones(3) @ kd.ones((3, 4))).shape
    ((2, 4), (4,))
    """
    if axes is not None or axis is not None or keepdims is not None:
        return _matmul_core_axes(a, b, axes, axis, keepdims)
    if a.__class__ is Array and b.__class__ is Array:  # the usual ``x @ w``: one build of few nodes
        an, bn = a._n, b._n
        sa, sb, dtype = an.shape, bn.shape, an.dtype
        if len(sa) == 2 and len(sb) == 2 and sa[1] == sb[0] and sa[1] and dtype is bn.dtype and \
                dtype.name in _SAME_DTYPE and an.device is bn.device and not _as_reduction(sa[0], sb[1], sa[1]):
            (m, k), n = sa, sb[1]
            node = Node("matmul", (mv.reshape_node(an, (1, m, k)), mv.reshape_node(bn, (1, k, n))), an.dtype,
                        (1, m, n))
            return Array(mv.reshape_node(node, (m, n)))
    return _matmul(a, b)


def _matmul_core_axes(a: Any, b: Any, axes: Any, axis: Any, keepdims: Any) -> Array:
    """``matmul`` under NumPy's gufunc keywords: each operand's core dimensions (two, one for a 1-d operand)."""
    from kdsl.frontend.array import gufunc_core_axes  # cycle: that module builds on this package's Array

    dev = ops.device_of((a, b))
    a, b = _arrs(a, b, dev)
    cores = (min(a.ndim, 2), min(b.ndim, 2))
    return gufunc_core_axes.call("matmul", "(n?,k),(k,m?)->(n?,m?)", matmul, (a, b), cores, 3, axes, axis,
                                 keepdims)


def _matmul(a, b) -> Array:
    """:func:`matmul` in general: any dtypes, batches, 1-d operands, devices to check."""
    dev = ops.device_of((a, b))
    a, b = _arrs(a, b, dev)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:  # NumPy's gufunc words (for 0-d operands, * is the product)
            raise ValueError(f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             "signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    out_dtype = promotion.result_dtype(np.matmul, a.dtype, b.dtype)
    if out_dtype is dt.bool_:  # logical matrix product: count matches, then test
        return matmul(a.astype(dt.int32), b.astype(dt.int32)) != 0
    if out_dtype.kind == "c":  # four real products (the real kernels' tiling and tuning serve complex too)
        from kdsl.frontend.array import complex_math  # cycle: complex_math builds on this module

        return complex_math.matmul(a, b, out_dtype, matmul)
    a2 = a.reshape(1, a.shape[0]) if a.ndim == 1 else a
    b2 = b.reshape(b.shape[0], 1) if b.ndim == 1 else b
    (m, k), (k2, n) = a2.shape[-2:], b2.shape[-2:]
    if k != k2:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n?,k),(k,m?)->(n?,m?) (size {k2} is different from {k})")
    batch = ops.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    nb = math.prod(batch)
    an = mv.reshape_node(mv.broadcast_node(ops.cast_node(a2._node, out_dtype), batch + (m, k)), (nb, m, k))
    bn = mv.reshape_node(mv.broadcast_node(ops.cast_node(b2._node, out_dtype), batch + (k, n)), (nb, k, n))
    if k == 0:  # empty sums: zeros (a constant, so that ``(a @ b) * inf`` is NaN as NumPy's; see reductions)
        node = mv.broadcast_node(ops.const_node(0, out_dtype, a.device), (nb, m, n))
    else:
        node = _product_sum(an, bn, out_dtype) if _as_reduction(m, n, k) else \
            Node("matmul", (an, bn), out_dtype, (nb, m, n))
    # 1-d operands lose their dimension again; a fresh result: no view links to keep (a 0-d ``x @ x`` is then a
    # NumPy scalar's stand-in, which ``+=`` rebinds: scalar_like.py)
    shape = batch + ((m,) if a.ndim > 1 else ()) + ((n,) if b.ndim > 1 else ())
    return Array(mv.reshape_node(node, shape))


def _as_reduction(m: int, n: int, k: int) -> bool:
    """Matrix-vector products and few outputs over a long K run better as a reduction kernel (every output gets
    a workgroup, long K is split) than as 64x64 tiles that would sit mostly empty."""
    return min(m, n) <= 8 or (m * n <= 16384 and k >= 4 * max(m, n)) or k > 500_000  # K loop under the cap


def _product_sum(an: Node, bn: Node, dtype: dt.DType) -> Node:
    """``sum_k a[b, m, k] * b[b, k, n]`` as broadcast views, a product and a sum over k: one fused kernel."""
    nb, m, k = an.shape
    n = bn.shape[2]
    a4 = mv.expand_node(mv.reshape_node(an, (nb, m, 1, k)), (nb, m, n, k))
    b4 = mv.expand_node(mv.reshape_node(mv.permute_node(bn, (0, 2, 1)), (nb, 1, n, k)), (nb, m, n, k))
    prod = Node("mul", (a4, b4), dtype, (nb, m, n, k))
    return Node("reduce", (prod,), dtype, (nb, m, n), ("sum", (3,)))


def dot(a, b, out=None) -> Array:
    """NumPy's ``dot``: products for scalars, inner product for 1-d, matmul for 2-d, and for n-d a sum over
    the last axis of ``a`` and the second-to-last of ``b``; ``out`` (a kdsl array) takes the result."""
    if out is not None:
        from kdsl.frontend.array.reduction_where import into  # cycle: that module builds on this one

        return into(dot(a, b), out)
    dev = ops.device_of((a, b))
    a, b = _arrs(a, b, dev)
    if a.ndim == 0 or b.ndim == 0:
        return a * b
    k_axis = max(b.ndim - 2, 0)  # the axis of b summed against a's last
    k = b.shape[k_axis]
    if a.shape[-1] != k:  # NumPy's words, whatever the dimensions
        raise ValueError(f"shapes {shape_text(a.shape)} and {shape_text(b.shape)} not aligned: {a.shape[-1]} "
                         f"(dim {a.ndim - 1}) != {k} (dim {k_axis})")
    if b.ndim <= 2:
        return matmul(a, b)
    axes = (b.ndim - 2,) + tuple(i for i in range(b.ndim) if i != b.ndim - 2)
    b2 = b.transpose(axes).reshape(k, -1)
    out = matmul(a.reshape(-1, k), b2)
    return out.reshape(a.shape[:-1] + b.shape[:-2] + b.shape[-1:])


def outer(a, b, out=None) -> Array:
    """Outer product of the flattened inputs; ``out`` (a kdsl array) takes the result."""
    if out is not None:
        from kdsl.frontend.array.reduction_where import into  # cycle: that module builds on this one

        return into(outer(a, b), out)
    dev = ops.device_of((a, b))
    a, b = (x.reshape(-1) for x in _arrs(a, b, dev))  # together: outer(a64, [0.1]) keeps 0.1 in float64
    return a.reshape(-1, 1) * b.reshape(1, -1)
