"""NumPy 2's exact comparisons of integers that no common loop type holds: an integer array against a Python int
beyond its dtype (or beyond int64), and int64 against uint64 (their common type, float64, rounds past 2**53).

Example:
    >>> import kdsl as kd, numpy as np
    >>> a = kd.asarray(np.array([2**60, 5], np.int64))
    >>> (a == kd.asarray(np.array([2**60 + 1, 5], np.uint64))).numpy(), (a < 2**70).numpy()
    (array([False,  True]), array([ True,  True]))
"""

from __future__ import annotations

import numpy as np

from kdsl import dtype as dt
from kdsl.frontend.array import ops  # (ops imports this module: its names are read at call time)
from kdsl.ir.graph import Node


def with_long_int(name: str, operands, in_dtypes, out_dtype, shape, dev, Array):
    """Comparison ``name`` of ``operands`` where a Python int does not fit the loop's type: compared exactly in
    a type holding both (int64, else float64), or answered outright where it is beyond the array's dtype."""
    ints = [x for x in operands if isinstance(x, int) and not isinstance(x, bool)]
    in_long = all(-(1 << 63) <= v < (1 << 63) for v in ints)
    if not in_long and all(x.dtype is dt.bool_ for x in operands if isinstance(x, Array)):
        # NumPy's exact comparison is for integer arrays: a bool array meets the int as a C long
        raise OverflowError(f"Python int {max(ints, key=abs)} too large to convert to C long (NumPy compares "
                            "a bool array with a Python int as int64; compare x.astype(kd.uint64) or "
                            "a float instead)") from None
    beyond = _beyond_range(name, operands, Array)
    if beyond is not None:
        return beyond
    fits = in_long and dt.uint64 not in in_dtypes
    wide = dt.int64 if fits and dev.supports(dt.int64) and all(d.kind in "biu" for d in in_dtypes) \
        else dt.float64 if dev.supports(dt.float64) else dt.float32
    srcs = [ops.operand_node(x, wide, shape, dev) for x in operands]
    return Array(Node(name, tuple(srcs), out_dtype, shape, None, None, dev))


# ``array OP v`` for a Python int ``v`` above the array's integer dtype (below it: the negation of these)
_ABOVE_RANGE = {"eq": False, "ne": True, "lt": True, "le": True, "gt": False, "ge": False}
_MIRRORED = {"lt": "gt", "le": "ge", "gt": "lt", "ge": "le", "eq": "eq", "ne": "ne"}


def _beyond_range(name: str, operands, Array):
    """An integer array compared with a Python int outside its dtype's range: every element answers alike, as
    NumPy 2's exact comparison (a float64 compare rounded int64 2**63 - 1 up to 2**63 and called them equal);
    None for other operands."""
    if len(operands) != 2:
        return None
    left = isinstance(operands[0], Array)
    x, v = operands if left else operands[::-1]
    if not isinstance(x, Array) or x.dtype.kind not in "iu" or not isinstance(v, int) or isinstance(v, bool):
        return None
    info = np.iinfo(x.dtype.np)
    if info.min <= v <= info.max:
        return None
    op = name if left else _MIRRORED[name]
    answer = _ABOVE_RANGE[op] if v > info.max or op in ("eq", "ne") else not _ABOVE_RANGE[op]
    # x == x / x != x: a computed array of x's shape holding the answer (integers are never NaN)
    return ops.build("eq" if answer else "ne", [x, x], dt.bool_, [x.dtype, x.dtype], x.shape, x.device)


def mixed_sign_64(operands, Array) -> bool:
    """Whether the operands are an int64 and a uint64 array (their common type is float64)."""
    return len(operands) == 2 and all(isinstance(x, Array) for x in operands) and \
        {operands[0]._n.dtype, operands[1]._n.dtype} == {dt.int64, dt.uint64}


# what an int64 operand below zero makes of each comparison with a uint64: as the left operand, then the right
_NEGATIVE_SIGNED = {"lt": (True, False), "le": (True, False), "gt": (False, True), "ge": (False, True),
                    "eq": (False, False), "ne": (True, True)}


def mixed_sign(name: str, operands, shape, dev, Array):
    """An int64 against a uint64 exactly, as NumPy 2 (float64, their common type, rounds past 2**53: 2**60 and
    2**60 + 1 compared equal): a negative int64 is below every uint64, the others compare as uint64."""
    left_signed = operands[0]._n.dtype is dt.int64
    signed = operands[0] if left_signed else operands[1]
    negative = ops.build("lt", [signed, 0], dt.bool_, [dt.int64, dt.int64], signed._n.shape, dev)
    as_unsigned = [Array(ops.cast_node(x._n, dt.uint64)) for x in operands]
    unsigned = ops.build(name, as_unsigned, dt.bool_, [dt.uint64, dt.uint64], shape, dev)
    return ops.where(negative, _NEGATIVE_SIGNED[name][0 if left_signed else 1], unsigned)
