"""Derivative rules of data-dependent reads: integer-array indexing (``"rows"``: ``a[idx]``, ``a[rows, cols]``),
``take`` / ``take_along_axis`` / boolean masks (``"gather"``) and ``sort`` (through its permutation).

The cotangent of a read is a sum of the read's cotangents into the positions read (a scatter-add, repeated
indices accumulating). Three ways, all synchronisation-free (so ``kd.jit`` replays them):

* **dense** when the target axis is short (``DENSE_AXIS``, ``DENSE_LIMIT``): a one-hot comparison summed by a
  matrix product or a reduction - one fused kernel, the usual case for embeddings of a small vocabulary and
  for class labels;
* **atomic** otherwise, where the device has an atomic add for the values' dtype (float32 with
  ``atomic_float32_add``, float64 with ``atomic_float64_add``; :mod:`kdsl.frontend.array.scatter_atomic`): one
  pass, float sums in an undefined order (rounding may differ between runs, as PyTorch's on CUDA);
* **sorted** otherwise (deterministic): the indices are sorted once, each target position finds its run with two
  ``searchsorted`` calls, and run totals are differences of a ``cumsum`` accumulated in float64 where the
  device has it (as :mod:`kdsl.frontend.array.scatter` does for ``kd.add.at``).

Example:
    >>> import kdsl as kd
    >>> kd.grad(lambda x: x[kd.asarray([0, 2, 2])].sum())(kd.asarray([1.0, 2.0, 3.0])).tolist()
    [1.0, 0.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kdsl import dtype as dt
from kdsl.autodiff.registry import arr, rule, zeros
from kdsl.frontend.array import complex_math as cm
from kdsl.frontend.array import math as km
from kdsl.frontend.array import ops, scatter_atomic
from kdsl.frontend.array.array import Array
from kdsl.frontend.array.clip_modes import index_dtype
from kdsl.frontend.array.creation import arange, iota
from kdsl.frontend.array.cumulative import cumsum
from kdsl.frontend.array.linalg import matmul
from kdsl.frontend.array.shape_ops import concatenate
from kdsl.frontend.array.sorting import argsort, searchsorted
from kdsl.frontend.array.take import take
from kdsl.ir.graph import Node

# The dense form costs n * reads multiply-adds (one matrix product), the sorted form a sort of the reads plus a
# few passes over them: dense wins for short targets (a vocabulary, class labels) on GPUs and CPUs alike.
DENSE_LIMIT = 1 << 26  # one-hot elements (target length x values) up to which the dense form is used
DENSE_AXIS = 256  # and target lengths up to which it is used whatever the number of reads


def _wrapped(idx: Array, n: int, mode: str) -> Array:
    """The position each index reads in an axis of ``n``, as the reading kernel computes it."""
    if mode == "wrap":
        return idx % n
    if mode == "raise":  # negatives wrapped once (checked beforehand), then clamped like the kernel
        idx = km.where(idx < 0, idx + n, idx)
    return km.clip(idx, 0, n - 1)


def segment_sum(values: Array, idx: Array, n: int) -> Array:
    """``out[k] = sum(values[j] for j where idx[j] == k)`` for ``values`` of shape (J, ...), 1-D ``idx`` of
    wrapped positions in ``[0, n)``: shape (n, ...).

    >>> import kdsl as kd
    >>> segment_sum(kd.asarray([[1.0], [2.0], [4.0]]), kd.asarray([2, 0, 2]), 3).tolist()
    [[2.0], [0.0], [5.0]]
    """
    if values.dtype.is_complex:  # the real and imaginary parts summed apart (no complex atomics or float64 sums)
        return cm.complex_from_parts(segment_sum(cm.real(values), idx, n), segment_sum(cm.imag(values), idx, n))
    rest = values.shape[1:]
    j = values.shape[0]
    if j == 0 or n == 0 or values.size == 0:
        return zeros((n,) + rest, values._node)
    if n <= DENSE_AXIS or n * values.size <= DENSE_LIMIT:
        onehot = (iota((n, j), 0, values.device) == idx.reshape(1, j)).astype(values.dtype)
        return matmul(onehot, values.reshape(j, -1)).reshape((n,) + rest)
    if scatter_atomic.work_dtype("add", values.dtype, values.device) is values.dtype:
        return _atomic_segment_sum(values, idx, n)
    order = argsort(idx, kind="stable")
    s = take(idx, order, mode="clip")
    p = arange(n, dtype=s.dtype, device=s.device)
    lo, hi = searchsorted(s, p, "left"), searchsorted(s, p, "right")
    acc = dt.float64 if values.device.supports(dt.float64) else dt.float32
    v = take(values, order, axis=0, mode="clip").astype(acc)
    c = concatenate([zeros((1,) + rest, v._node), cumsum(v, axis=0, dtype=acc)], axis=0)
    return (take(c, hi, axis=0, mode="clip") - take(c, lo, axis=0, mode="clip")).astype(values.dtype)


def _atomic_segment_sum(values: Array, idx: Array, n: int) -> Array:
    """:func:`segment_sum` with atomic adds (the device has them for ``values``' dtype): one pass over the
    values, summed in an undefined order (float rounding may differ between runs, as PyTorch's backward of
    indexing on CUDA)."""
    rest = values.shape[1:]
    block = _prod(rest)
    wide = idx.astype(index_dtype(values.device))
    flat = (wide.reshape(-1, 1) * block + arange(block, dtype=wide.dtype, device=values.device)).reshape(-1)
    out = scatter_atomic.scatter_add(zeros((n * block,), values._node), flat, values.reshape(-1))
    return out.reshape((n,) + rest)


@rule("rows", complex_ok=True)
def _rows(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    src, index = srcs
    n = src.shape[0]
    idx = _wrapped(arr(index), n, "raise").reshape(-1)
    rest = src.shape[1:]
    return [segment_sum(g.reshape((idx.shape[0],) + rest), idx, n), None]


def _take_vjp(g: Array, data: Node, index: Node, axis: int, mode: str) -> Array:
    shape = data.shape
    n = shape[axis]
    pre, post = shape[:axis], shape[axis + 1:]
    j = index.size
    g3 = g.reshape((_prod(pre), j, _prod(post))).transpose(1, 0, 2)
    idx = _wrapped(arr(index), n, mode).reshape(-1)
    out = segment_sum(g3, idx, n)  # (n, pre, post)
    return out.transpose(1, 0, 2).reshape(shape)


def _prod(shape: tuple[int, ...]) -> int:
    out = 1
    for k in shape:
        out *= k
    return out


def _along_vjp(g: Array, data: Node, index: Node, axis: int, mode: str) -> Array:
    """Cotangent of ``take_along_axis``: per line of the other axes, a scatter-add along ``axis``."""
    shape = data.shape
    n = shape[axis]
    nd = len(shape)
    gl = g if axis == nd - 1 else g.swapaxes(axis, -1)
    il = _wrapped(arr(index), n, mode)
    il = il if axis == nd - 1 else il.swapaxes(axis, -1)
    lines, j = gl.shape[:-1], gl.shape[-1]
    if j == 1:  # one read per line (class labels): a one-hot select, no sum
        out = km.where(iota(lines + (n,), nd - 1, g.device) == il, gl, 0)
    elif n <= DENSE_AXIS or n * g.size <= DENSE_LIMIT:  # (lines, n, j) one-hot summed over j
        hit = iota(lines + (n, 1), nd - 1, g.device) == il.reshape(lines + (1, j))
        out = km.where(hit, gl.reshape(lines + (1, j)), 0).sum(axis=-1, dtype=g.dtype)
    else:
        m = _prod(lines)
        base = (iota((m, j), 0, g.device) * n).astype(il.dtype)
        flat = (il.reshape(m, j) + base).reshape(-1)
        out = segment_sum(gl.reshape(-1), flat, m * n).reshape(lines + (n,))
    return out if axis == nd - 1 else out.swapaxes(axis, -1)


@rule("scatter")
def _scatter(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``ufunc.at`` with atomics (:mod:`kdsl.frontend.array.scatter_atomic`): an ``add`` passes the cotangent
    to the target unchanged and reads it back at each index for the values; ``max`` / ``min`` nodes hold
    integers only (float maximum.at takes the sort-based path), which carry no gradient."""
    target, index, _ = srcs
    if arg != "add" or not node.dtype.is_float:
        return [None, None, None]
    idx = _wrapped(arr(index), target.shape[0], "raise").reshape(-1)
    return [g, None, take(g, idx, mode="clip")]


@rule("gather", complex_ok=True)
def _gather(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    axis, along, mode = arg
    data, index = srcs
    if data.size == 0 or node.size == 0:
        return [zeros(data.shape, data), None]
    if along:
        return [_along_vjp(g, data, index, axis, mode), None]
    return [_take_vjp(g, data, index, axis, mode), None]


@rule("compact", complex_ok=True)
def _compact(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    """``a[mask]`` fused into the mask's scan (``srcs`` = 0/1 flags, values, and with ``arg`` "flags+tiles" the
    flags' tile counts last; kdsl.frontend.array.masks): the selected element ``i`` went to slot
    ``cumsum(flags)[i] - 1``. Positions (no values) and the counts carry no gradient."""
    if len(srcs) - (arg == "flags+tiles") < 2:
        return [None] * len(srcs)
    flags = arr(srcs[0])
    csum = cumsum(flags)
    picked = take(g, ops.where(csum > 0, csum - 1, 0), axis=0, mode="clip")
    grads: list[Array | None] = [None, ops.where(flags != 0, picked, zeros(picked.shape, srcs[1])).astype(
        srcs[1].dtype)]
    return grads + [None] * (len(srcs) - 2)


@rule("sort", complex_ok=True)
def _sort(node: Node, srcs: tuple[Node, ...], arg: Any, g: Array, need: Sequence[bool]) -> list[Array | None]:
    axis, descending, want = arg
    if want != "values":
        return [None]
    src = srcs[0]
    order = Node("sort", (src,), dt.int64 if src.device.supports(dt.int64) else dt.int32, src.shape,
                 (axis, descending, "indices"))
    inverse = argsort(Array(order), axis=axis, kind="stable")  # where each input element went
    return [Array(Node("gather", (g._node, inverse._node), g.dtype, src.shape, (axis, True, "clip")))]
