"""``reduceat`` of the ufuncs that fold from the left (``subtract``, ``divide``, ``power``, ``floor_divide``... :
:data:`left_folds.FOLDS`) over many slices at once, instead of one lazy fold per slice (2 000 slices: seconds).

* **Stepped** (every such ufunc, slices up to ``STEPPED`` long): step ``k`` gathers each slice's ``k``-th
  element and folds it into every slice still that long: ``acc = where(k < length, fn(acc, a[start + k]), acc)``.
  NumPy's operations in NumPy's order: the same bits, integer wrap-around and all, in ``longest`` lazy steps
  whatever the number of slices.
* **Scanned** (``subtract`` and ``divide``, longer slices): one segmented scan over the slices laid end to end.
  ``subtract``: each slice's first element plus the negated rest (``a - b`` is ``a + (-b)`` exactly in IEEE
  arithmetic and modulo ``2**bits``), summed by a doubling scan: integers are exact, wrap-around included; floats
  differ from NumPy's left fold ``a[i] - a[i+1] - ...`` by rounding only (the sum is grouped as a tree).
  ``divide``: the first element over the product of the rest (as ``kd.divide.reduce`` of a long axis): rounding
  differs, and the product can over- or underflow where the running quotients would not.

Example:
    >>> import numpy as np, kdsl as kd
    >>> stepped(kd.subtract, kd.asarray([10, 1, 2, 7, 3]), np.array([0, 3, 2]), 0, kd.int64).tolist()
    [7, 7, -8]
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

from kdsl.frontend.array.array import Array, realize
from kdsl.frontend.array.creation import asarray
from kdsl.frontend.array.segmented_scan import segmented_scan

STEPPED = 64  # slices up to this long fold column by column (NumPy's exact order)
CHUNK = 16  # the stepped fold is computed every CHUNK steps (keeps each fused kernel small)
SCANNED = ("subtract", "divide")  # folds with a regrouped form for long slices


def lengths(starts: np.ndarray, n: int) -> np.ndarray:
    """Each slice's length as NumPy's reduceat takes it (``a[i]`` alone where the next index is not larger).

    >>> lengths(np.array([0, 4, 1, 5]), 8).tolist()
    [4, 1, 4, 3]
    """
    ends = np.append(starts[1:], n)
    return np.where(ends > starts, ends - starts, 1)


def stepped(fn: Any, x: Array, starts: np.ndarray, ax: int, loop: Any) -> Array:
    """Every slice's left fold by ``fn`` along ``ax`` in the dtype ``loop``, column by column (see the module
    docstring)."""
    kd = sys.modules["kdsl"]  # the namespace's moveaxis and where (this module sits below it in the layers)
    length = lengths(starts, x.shape[ax])
    longest = int(length.max())
    columns = np.arange(longest)
    pos = np.minimum(starts[:, None] + columns, x.shape[ax] - 1)  # past a slice's end: any valid position
    y = kd.moveaxis(x, ax, 0)
    index = asarray(pos.astype(_index(x.shape[ax])), device=x.device)
    live = (columns < length[:, None]).reshape(pos.shape + (1,) * (x.ndim - 1))
    mask = asarray(live, device=x.device)
    acc = y[index[:, 0]].astype(loop)
    for k in range(1, longest):  # one column gathered per step: memory of the result's size, not longest times it
        acc = kd.where(mask[:, k], fn(acc, y[index[:, k]].astype(loop)).astype(loop), acc)
        if k % CHUNK == 0:
            realize(acc)
    return kd.moveaxis(acc, 0, ax)


def scanned(name: str, ufunc: Any, x: Array, starts: np.ndarray, ax: int, loop: Any) -> Array:
    """``subtract``'s or ``divide``'s fold of every slice through one segmented scan (see the module
    docstring)."""
    kd = sys.modules["kdsl"]
    length = lengths(starts, x.shape[ax])
    ends = np.cumsum(length)
    first = ends - length  # each slice's first position in the laid-out line
    pos = np.arange(ends[-1]) - np.repeat(first - starts, length)
    index = _index(max(int(ends[-1]), x.shape[ax]))
    values = kd.moveaxis(x, ax, 0)[asarray(pos.astype(index), device=x.device)].astype(loop)
    head = np.zeros(int(ends[-1]), bool)
    head[first] = True
    heads = asarray(head.reshape((-1,) + (1,) * (x.ndim - 1)), device=x.device)
    keys = asarray(np.repeat(np.arange(len(starts)), length).astype(index).reshape(heads.shape), device=x.device)
    last = asarray((ends - 1).astype(index), device=x.device)
    if name == "subtract":
        folded = segmented_scan(kd.add, kd.where(heads, values, -values), keys)
        return kd.moveaxis(folded[last], 0, ax)
    products = segmented_scan(kd.multiply, kd.where(heads, kd.asarray(1, dtype=loop), values), keys)
    firsts = values[asarray(first.astype(index), device=x.device)]
    return kd.moveaxis(ufunc(firsts, products[last]).astype(loop), 0, ax)


def _index(limit: int) -> Any:
    return np.int32 if limit < 2 ** 31 else np.int64


__all__ = ["SCANNED", "STEPPED", "lengths", "scanned", "stepped"]
