"""The atomic path of NumPy's unbuffered ``ufunc.at`` (``kd.add.at``, ``subtract.at``, ``maximum.at``,
``minimum.at``), ``bincount`` and ``histogram``: one kernel invocation per (index, value) pair combines its
value into the target with ``atomicAdd`` / ``atomicMax`` / ``atomicMin`` (a ``"scatter"`` graph node, see
:mod:`kdsl.engine.scatter` and :mod:`kdsl.codegen.atomic`). One pass over the pairs instead of a sort and two
binary searches.

Which dtypes take it (``work_dtype``; the others keep the sort path of :mod:`scatter_sorted`):

* int32 / uint32: every operation (core atomics); int64 / uint64 with the device feature ``int64_atomics``;
* int8 / int16 / uint8 / uint16 are widened to a 32-bit temporary and cast back (additions wrap as NumPy's,
  modulo the narrow width); bool takes ``atomicMax`` on 0/1 words for ``add`` / ``maximum`` (a logical or) and
  ``atomicMin`` for ``minimum`` (a logical and);
* float32 ``add`` / ``subtract`` with ``atomic_float32_add``, float64 with ``atomic_float64_add``; float16 adds
  in a float32 temporary (with ``atomic_float32_add``) and rounds once at the end, as the sort path does;
* float ``maximum`` / ``minimum``: integer ``atomicMax`` / ``atomicMin`` on order-preserving keys (the float's
  bits, with the magnitude bits flipped for negative values; NaN mapped to the winning extreme so it
  propagates as in NumPy), decoded back; float64 needs ``int64_atomics``. Exact and order-independent; the
  one difference from NumPy is the sign of a zero result when -0.0 and 0.0 meet (NumPy keeps the later one,
  the keys order -0.0 below 0.0);
* complex ``add`` / ``subtract`` are two float scatters (real and imaginary parts); complex ``maximum`` /
  ``minimum`` and dtypes without a native atomic take the sort path (no compare-and-swap loop: its retries are
  unbounded, which a device's loop budget cannot allow).

**Nondeterminism**: float atomic additions happen in an undefined order, so float results can differ from
NumPy's sequential sum (and from run to run) by rounding: about ``eps * duplicates * max|value|`` per element,
as PyTorch's ``index_add_`` on CUDA. ``deterministic=True`` (on ``ufunc.at``, ``bincount``, ``histogram``) takes
the sort path for float sums, whose result does not depend on timing. Integer results, and maxima and minima,
are exact either way.

Example:
    >>> import kdsl as kd
    >>> a = kd.zeros(3, dtype=kd.int32)
    >>> kd.add.at(a, kd.asarray([0, 2, 2]), 1)
    >>> a.tolist()
    [1, 0, 2]
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.engine.scatter import atomic_ok
from kdsl.frontend.array import math as km
from kdsl.frontend.array.array import Array
from kdsl.ir.graph import Node

OPS = {"add": "add", "subtract": "add", "maximum": "max", "minimum": "min"}
_WIDE = {"int8": dt.int32, "int16": dt.int32, "uint8": dt.uint32, "uint16": dt.uint32, "float16": dt.float32}
FORCE_SORTED = False  # tests set it to force the sort-based fallback everywhere


def work_dtype(name: str, d: dt.DType, device, deterministic: bool = False) -> dt.DType | None:
    """The dtype ``name.at`` on ``d`` accumulates in with atomics on ``device``; None: take the sort path.

    >>> import kdsl as kd
    >>> work_dtype("add", kd.int8, kd.device()).name, work_dtype("maximum", kd.float32, kd.device()).name
    ('int32', 'int32')
    >>> work_dtype("add", kd.float32, kd.device(), deterministic=True) is None
    True
    """
    op = OPS.get(name)
    if op is None or FORCE_SORTED or d.kind == "c" or (deterministic and d.is_float and op == "add"):
        return None
    if d is dt.bool_:
        return dt.uint32 if name != "subtract" else None  # NumPy refuses boolean subtract
    w = _WIDE.get(d.name, d)
    if w.is_float and op != "add":  # integer atomics on order-preserving keys (see _ordered)
        w = dt.int64 if w.itemsize == 8 else dt.int32
    return w if atomic_ok(op, w, device) else None


def scatter(name: str, x: Array, idx: Array, v: Array, work: dt.DType) -> Array:
    """The 1-D ``x`` after ``name.at(x, idx, v)`` with atomics in ``work`` (from :func:`work_dtype`); ``idx``
    holds checked indices (negative ones count from the end), ``v`` one value per index."""
    op = OPS[name]
    if x.dtype.is_float and op != "add":
        return _ordered_scatter(op, x, idx, v, work)
    vals = v.astype(work)
    if name == "subtract":  # x - a - b == x + (-a) + (-b): exact for floats, wrapping for integers
        vals = km.negative(vals)
    if x.dtype is dt.bool_:  # on 0/1 words: atomicMax is a logical or (add, maximum), atomicMin a logical and
        op = "min" if name == "minimum" else "max"
    node = Node("scatter", (x.astype(work)._n, idx._n, vals._n), work, (x.size,), op, device=x.device)
    out = Array(node)
    if x.dtype is dt.bool_:
        return out != 0
    return out.astype(x.dtype)


def _ordered(x: Array, key: dt.DType, op: str) -> Array:
    """Integer keys of the floats ``x`` (of ``key``'s width) whose signed order is the floats' order: the bits
    of a non-negative float, the magnitude bits flipped for a negative one (so -0.0 sorts just below 0.0).
    NaN becomes the largest key for ``max`` and the smallest for ``min``, so that it wins as in NumPy."""
    bits = x.view(key)
    flip = (1 << (8 * key.itemsize - 1)) - 1
    k = km.where(bits < 0, bits ^ flip, bits)
    return km.where(km.isnan(x), flip if op == "max" else -flip - 1, k)


def _ordered_scatter(op: str, x: Array, idx: Array, v: Array, key: dt.DType) -> Array:
    """Float ``maximum.at`` / ``minimum.at`` as integer atomics on order-preserving keys (:func:`_ordered`),
    decoded back: exact, and the same in any order. float16 goes through float32 (exactly)."""
    f = dt.float64 if key.itemsize == 8 else dt.float32
    kx, kv = _ordered(x.astype(f), key, op), _ordered(v.astype(f), key, op)
    out = Array(Node("scatter", (kx._n, idx._n, kv._n), key, (x.size,), op, device=x.device))
    flip = (1 << (8 * key.itemsize - 1)) - 1
    return km.where(out < 0, out ^ flip, out).view(f).astype(x.dtype)


def scatter_add(target: Array, idx: Array, v: Array) -> Array:
    """``target`` (1-D, of a dtype :func:`work_dtype` accepts as it is) with each ``v[j]`` added at ``idx[j]``
    (checked indices), with atomics: ``bincount`` and ``histogram`` count and sum through it.

    >>> import kdsl as kd
    >>> scatter_add(kd.zeros(3, dtype=kd.uint32), kd.asarray([2, 2]), kd.asarray([1, 1], dtype=kd.uint32)).tolist()
    [0, 0, 2]
    """
    return Array(Node("scatter", (target._n, idx._n, v.astype(target.dtype)._n), target.dtype, target.shape, "add",
                      device=target.device))
