"""The elementwise op table and the node builders every public math function goes through.

``apply(name, *operands)`` takes Arrays, NumPy arrays and Python scalars, finds NumPy's result dtype (Python
scalars are weak, NEP 50), broadcasts, inserts the casts NumPy's loop would make, and returns a lazy Array.

Example:
    >>> import kdsl as kd, numpy as np
    >>> x = kd.asarray(np.array([1, 2, 3], np.int8))
    >>> apply("add", x, 1).dtype.name, apply("sqrt", x).dtype.name
    ('int8', 'float16')
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from kdsl import dtype as dt
from kdsl.device import device
from kdsl.dtype import promotion
from kdsl.errors import shape_text
from kdsl.frontend.array import exact_compare, integer_powers, movement
from kdsl.frontend.array.host_dtypes import python_int_dtype, typed
from kdsl.frontend.array.operator_deferral import defers
from kdsl.frontend.array.ufunc_errors import string_operand_error
from kdsl.ir.graph import Node

# op name -> (NumPy ufunc giving the result dtype, how operands are converted): kdsl.dtype's table, which
# @kd.kernel uses too (one promotion rule for both faces).
_TABLE = promotion.OP_SIGNATURES


_ARRAY: list = []  # the Array class, imported on first use (array.py imports this module)
_SIGNATURES: dict = {}  # (op, device, operand dtypes / weak kinds) -> (result dtype, operand dtypes)
_CONSTS: dict = {}  # (type, value, dtype name) -> the value converted to dtype


def array_class():
    """kdsl's Array class (array.py imports this module, so it is looked up on first use).

    >>> array_class().__name__
    'Array'
    """
    if not _ARRAY:  # hot paths read _ARRAY[0] directly once it is filled
        from kdsl.frontend.array.array import Array  # cycle: that module imports this one

        _ARRAY.append(Array)
    return _ARRAY[0]


def as_operand(x, device=None):
    """An Array for arrays and array-likes; Python scalars stay Python scalars (weak)."""
    Array = array_class()
    if isinstance(x, Array):
        return x
    if isinstance(x, np.generic):  # before Python's types: np.float64 is a float, but strong (NEP 50)
        return _numpy_scalar(x, device)
    if isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, (np.ndarray, list, tuple, range)):
        from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

        return asarray(x, device=device)  # text (a * ["a"]): NumPy's UFuncTypeError (host_dtypes.py)
    wrapped = getattr(type(x), "__kdsl_array__", None)
    if wrapped is not None:  # an object wrapping a kdsl array (kd.poly1d: np.square(p) squares its coefficients)
        return wrapped(x)
    if typed(x) and not defers(x):  # an array-like with its own dtype (np.log(pandas_series), a typed buffer)
        from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

        return asarray(x, device=device)
    if isinstance(x, Sequence) and not isinstance(x, (str, bytes)):  # a deque, a user's Sequence: NumPy's items
        from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

        return asarray(list(x), device=device)
    if isinstance(x, (str, bytes)):
        raise string_operand_error(x)
    raise TypeError(f"unsupported operand of type {type(x).__name__}; use a kdsl Array, NumPy array or scalar")


def _numpy_scalar(x: np.generic, device=None):
    """A NumPy scalar as a 0-d array of its dtype (strong, NEP 50: ``float32_array * np.float64(2)`` is
    float64); a float64/complex128 scalar stays a weak Python number on a device without that dtype (the
    result keeps the array's precision instead of failing)."""
    from kdsl.frontend.array.creation import asarray  # cycle: that module imports this one

    if isinstance(x, (float, complex)) and not (device or device_of(())).supports(x.dtype):
        return x.item()
    return asarray(np.asarray(x), device=device)


def broadcast_shapes(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """NumPy's broadcasting of shapes; ValueError naming the shapes when they do not broadcast."""
    if len(shapes) == 1 or all(s == shapes[0] for s in shapes):
        return tuple(shapes[0]) if shapes else ()
    nd = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(nd):
        dims = {s[len(s) - nd + k] for s in shapes if len(s) - nd + k >= 0} - {1}
        if len(dims) > 1:
            raise ValueError("operands could not be broadcast together with shapes "  # NumPy's spelling
                             + "".join(f"{shape_text(tuple(s))} " for s in shapes))
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def const_node(value, dtype: dt.DType, device) -> Node:
    """A scalar constant node (shape ()), its value converted as NumPy converts it to ``dtype``."""
    key = (value.__class__, value, dtype.name)  # a name hashes in C, a DType in Python
    v = _CONSTS.get(key)
    if v is None or (v == 0 and not isinstance(value, int)):  # 0.0 and -0.0 are equal keys: keep the sign
        if isinstance(value, int) and not isinstance(value, bool) and dtype.is_int and \
                not promotion.can_hold(dtype, value):
            raise OverflowError(f"Python integer {value} out of bounds for {dtype.name}")
        v = _converted(value, dtype)
        if len(_CONSTS) > 4096:
            _CONSTS.clear()
        _CONSTS[key] = v
    return Node("const", (), dtype, (), v, None, device)  # positional: keywords cost a hot path ~0.1 us


def _converted(value, dtype: dt.DType):
    """``value`` converted as NumPy converts it to ``dtype`` (overflow to inf, NaN to an integer: quietly).

    ``np.errstate`` only where the conversion can warn: it sets a context variable, and a garbage collection
    that ran a finaliser computing with kdsl inside that set crashed CPython 3.11 (a segfault in
    ``ContextVar.set``, with ``gc.set_threshold(61)`` and objects whose ``__del__`` used kdsl arrays)."""
    a = np.array(value)
    if a.dtype.kind in "biu" and dtype.kind in "biu":  # (an out-of-range Python int was refused above)
        return a.astype(dtype.np)[()].item()
    if a.dtype.kind in "biuf" and dtype.kind in "fc":
        x = float(a)
        if not math.isfinite(x) or abs(x) <= _FLOAT_MAX[dtype.np.itemsize // (2 if dtype.kind == "c" else 1)]:
            return a.astype(dtype.np)[()].item()
    with np.errstate(all="ignore"):
        return a.astype(dtype.np)[()].item()


_FLOAT_MAX = {2: float(np.finfo(np.float16).max), 4: float(np.finfo(np.float32).max), 8: math.inf}


def cast_node(node: Node, dtype: dt.DType) -> Node:
    if node.dtype is dtype:
        return node
    if node.op == "const":
        return const_node(node.arg, dtype, node.device)
    if dtype.kind == "c" and node.dtype.kind != "c":
        # real -> complex as (x, 0) with the zero a constant operand, not a literal in the shader: a driver
        # that sees a literal 0 imaginary part folds inf * 0 to 0 in the complex product and quotient that
        # follow (lavapipe does, despite SignedZeroInfNanPreserve), where NumPy gives NaN (inf+1j)*2.0 = inf+nanj
        part = dt.float64 if dtype is dt.complex128 else dt.float32
        return Node("complex", (cast_node(node, part), const_node(0.0, part, node.device)), dtype, node.shape,
                    device=node.device)
    return Node("cast", (node,), dtype, node.shape)


def operand_node(x, dtype: dt.DType, shape: tuple[int, ...], device) -> Node:
    """The node of one operand converted to ``dtype`` and broadcast to ``shape``."""
    if isinstance(x, array_class()):
        node = x._n
        if node.dtype is not dtype:
            node = cast_node(node, dtype)
    else:  # a scalar constant stays 0-d: elementwise kernels read it at every index, no view needed
        return const_node(x, dtype, device)
    return node if node.shape == shape else movement.broadcast_node(node, shape)


def result_of(name: str, operands: list) -> tuple[dt.DType, list[dt.DType]]:
    """(result dtype, the dtype each operand is converted to) for op ``name``."""
    return promotion.op_signature(name, [x.dtype if isinstance(x, array_class()) else x for x in operands])


def device_of(operands):
    Array = array_class()
    first = None
    for x in operands:
        if isinstance(x, Array):
            if first is None:
                first = x._n.device
            elif x._n.device is not first:
                break
    else:
        if first is not None:
            return first
    devs = {id(x.device): x.device for x in operands if isinstance(x, Array)}
    if len(devs) > 1:
        names = " and ".join(map(repr, devs.values()))
        raise ValueError(f"arrays live on different devices, {names}; move them to one device first, e.g. "
                         "x = x.to_device(y.device) (a copy through host memory)")
    return next(iter(devs.values())) if devs else device()


_WEAK_KIND = {bool: "weak-bool", int: "weak-int", float: "weak-float", complex: "weak-complex"}
# operand types apply takes as they are (others may be sequences NumPy reads item by item: a deque)
_KNOWN = (np.ndarray, np.generic, bool, int, float, complex, list, tuple, range, str, bytes)


def _fast_key(name: str, operands, Array):
    """(signature key, device, shape) when every operand is an Array of one device or a Python scalar, else None.

    Dtypes enter the key by name: a str hashes in C (DType.__hash__ is a Python call), and this runs per op."""
    key, dev, shape = [name], None, None
    for x in operands:
        cls = x.__class__
        if cls is Array:
            node = x._n
            if dev is None:
                dev, shape = node.device, node.shape
            elif node.device is not dev:
                return None
            elif node.shape != shape:
                shape = False  # several shapes: broadcast below
            key.append(node.dtype.name)
        elif cls in _WEAK_KIND:
            key.append(_WEAK_KIND[cls])
        else:
            return None
    if dev is None:
        return None
    key.append(dev.index)
    if shape is False:
        shape = broadcast_shapes(*[x._n.shape for x in operands if x.__class__ is Array])
    return tuple(key), dev, shape


def apply(name: str, *operands):
    """Build the lazy elementwise op ``name`` on ``operands`` (see the module docstring)."""
    Array = _ARRAY[0] if _ARRAY else array_class()
    fast = _fast_key(name, operands, Array)
    if fast is not None:
        key, dev, shape = fast
        sig = _SIGNATURES.get(key)
        if sig is not None:  # the common case: only Arrays and Python scalars, dtypes seen before
            return build(name, operands, sig[0], sig[1], shape, dev)
    if name not in _TABLE:
        raise ValueError(f"unknown elementwise op {name!r}")
    dev = device_of(operands)
    if not all(isinstance(x, Array) or isinstance(x, _KNOWN) for x in operands):
        # a deque, a user's Sequence: the list of its items (so a64 - deque([0.1]) is float64 as with a list)
        operands = tuple(list(x) if isinstance(x, Sequence) and not isinstance(x, (str, bytes)) else x
                         for x in operands)
    args = [x if isinstance(x, Array) else as_operand(x, dev) for x in operands]
    if any(x.__class__ in (list, tuple, range) for x in operands):  # ``a64 == [0.1]``: 0.1 in float64
        from kdsl.frontend.array.creation import at_array_precision  # creation imports this module

        args = at_array_precision(operands, args, dev)
    if not any(isinstance(x, Array) for x in args):
        args = _wide_ints(args, dev)
    key = (name, *(x._n.dtype.name if isinstance(x, Array) else promotion.weak_token(x) for x in args), dev.index)
    sig = _SIGNATURES.get(key)
    if sig is None:
        out_dtype, in_dtypes = result_of(name, args)
        dev.check(out_dtype)
        sig = _SIGNATURES[key] = (out_dtype, in_dtypes)
    out_dtype, in_dtypes = sig
    shape = broadcast_shapes(*[x._n.shape for x in args if isinstance(x, Array)])
    return build(name, args, out_dtype, in_dtypes, shape, dev)


def _wide_ints(operands: list, dev) -> list:
    """Only Python scalars: when an int among them does not fit int32, the first int becomes an array of the
    dtype NumPy 2 gives them all (``kd.add(2**40, 1)`` is int64 as ``np.add`` is), the others stay weak."""
    ints = [x for x in operands if isinstance(x, int) and not isinstance(x, bool)]
    if not ints or all(-(1 << 31) <= v < 1 << 31 for v in ints):
        return operands
    from kdsl.frontend.array.creation import asarray  # creation imports this module

    d = python_int_dtype(min(ints), max(ints))
    k = next(i for i, x in enumerate(operands) if x is ints[0])  # by identity: 2.0**40 == 2**40
    return operands[:k] + [asarray(ints[0], dtype=d, device=dev)] + operands[k + 1:]


_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")
_LOGICAL = ("land", "lor", "lxor")


def _long_ints_only(operands) -> None:
    """NumPy's OverflowError for a Python int beyond int64 in a logical ufunc (it converts it to a C long)."""
    for x in operands:
        if x.__class__ is int and not -(1 << 63) <= x < 1 << 63:
            raise OverflowError(f"Python int {x} too large to convert to C long (NumPy's logical ufuncs take "
                                "Python ints as int64; pass x != 0 or a bool)")


SCALAR_POWERS = {0.5: "sqrt", 2: "square", -1: "reciprocal"}
"""NumPy's float32/float64 ``power`` loops with a scalar exponent: 0.5 is ``sqrt`` (``(-0.0) ** 0.5`` is -0.0,
``(-inf) ** 0.5`` NaN), and 2 and -1 are the correctly rounded ``x * x`` and ``1 / x``, which a ``pow`` built
from ``exp`` and ``log`` misses by an ulp."""


def build(name: str, operands, out_dtype, in_dtypes, shape, dev):
    """The lazy Array of op ``name`` on ``operands`` (Arrays and Python scalars) whose result and loop dtypes
    are already known: casts, broadcasts and constants inserted; NumPy's exact paths for powers and comparisons
    that a plain loop would get wrong."""
    if name in _LOGICAL:
        _long_ints_only(operands)
    if name == "pow":
        exponent = operands[1]
        if out_dtype.kind == "i":  # unsigned results: a negative Python int overflows first, as in NumPy
            try:
                integer_powers.check(operands, in_dtypes, shape)
            except OverflowError:
                wide = bool_with_long(operands, dev, _ARRAY[0])  # bool_array ** 2**40 is int64, as NumPy's
                if wide is None:
                    raise
                return build(name, wide, *result_of(name, wide), shape, dev)
        if out_dtype in (dt.float32, dt.float64) and isinstance(exponent, (int, float)) and \
                not isinstance(exponent, bool) and exponent in SCALAR_POWERS:
            return build(SCALAR_POWERS[exponent], operands[:1], out_dtype, in_dtypes[:1], shape, dev)
    Array = _ARRAY[0]
    if name in _COMPARE and in_dtypes[0] is dt.float64 and exact_compare.mixed_sign_64(operands, Array):
        return exact_compare.mixed_sign(name, operands, shape, dev, Array)
    srcs = []
    try:  # operand_node of each operand, inlined: this runs for every op of every expression
        for x, d in zip(operands, in_dtypes, strict=True):
            if x.__class__ is Array or isinstance(x, Array):
                node = x._n
                if node.dtype is not d:
                    node = cast_node(node, d)
                if node.shape != shape:
                    node = movement.broadcast_node(node, shape)
                srcs.append(node)
            else:  # a scalar constant stays 0-d: elementwise kernels read it at every index, no view needed
                srcs.append(const_node(x, d, dev))
    except OverflowError:
        if name not in _COMPARE:
            wide = bool_with_long(operands, dev, Array)
            if wide is None:
                raise
            out_dtype, in_dtypes = result_of(name, wide)
            return build(name, wide, out_dtype, in_dtypes, shape, dev)
        return exact_compare.with_long_int(name, operands, in_dtypes, out_dtype, shape, dev, Array)
    return Array(Node(name, tuple(srcs), out_dtype, shape, None, None, dev))  # positional: as in const_node


def bool_with_long(operands, dev, Array):
    """Bool arrays meeting a Python int beyond kdsl's int32: the operands with that int as an int64 0-d array,
    the int64 result NumPy gives (``bool_array + 2**40``); None where NumPy also overflows (beyond int64)."""
    ints = [x for x in operands if isinstance(x, int) and not isinstance(x, bool)]
    if not ints or not dev.supports(dt.int64) or not all(-(1 << 63) <= v < 1 << 63 for v in ints) or \
            not all(x.dtype is dt.bool_ for x in operands if isinstance(x, Array)):
        return None
    from kdsl.frontend.array.creation import asarray  # creation imports this module

    return [asarray(x, dtype=dt.int64, device=dev) if isinstance(x, int) and not isinstance(x, bool) else x
            for x in operands]


def forced_int(x, d):
    """A Python int ``x`` cast into integer dtype ``d`` as NumPy's ``where``/``select`` cast it: wrapped modulo
    2**bits (``where(m, uint8_img, -1)`` fills 255), where the arithmetic ufuncs raise OverflowError.

    >>> from kdsl import dtype as dt
    >>> forced_int(-1, dt.uint8), forced_int(300, dt.uint8), forced_int(200, dt.int8), forced_int(2.5, dt.uint8)
    (255, 44, -56, 2.5)
    """
    if not isinstance(x, int) or isinstance(x, bool) or d.kind not in "iu":
        return x
    if not -(1 << 63) <= x < 1 << 64:  # NumPy converts through a C integer first
        raise OverflowError(f"Python int {x} too large to convert to C long (NumPy's where/select)")
    bits = np.dtype(d.name).itemsize * 8
    x %= 1 << bits
    return x - (1 << bits) if d.kind == "i" and x >= 1 << (bits - 1) else x


def where(cond, a=None, b=None):
    """``a`` where ``cond`` is true, else ``b``; with ``cond`` alone, ``kd.nonzero(cond)`` (NumPy's ``where``)."""
    if a is None or b is None:
        if a is not None or b is not None:
            raise ValueError("either both or neither of x and y should be given to where(cond, x, y)")
        from kdsl.frontend.array.masks import nonzero  # cycle: masks builds on this module

        return nonzero(cond)  # NumPy: where(cond) is nonzero(cond) (synchronises once)
    dev = device_of((cond, a, b))
    from kdsl.frontend.array.creation import at_array_precision  # creation imports this module

    a, b = at_array_precision((a, b), [as_operand(a, dev), as_operand(b, dev)], dev)
    cond = as_operand(cond, dev)
    if not isinstance(a, array_class()) and not isinstance(b, array_class()):
        a, b = _wide_ints([a, b], dev)  # where(c, 2**40, 0) is int64, as in NumPy
    keys = [x.dtype if isinstance(x, array_class()) else x for x in (a, b)]
    out = promotion.result_dtype(np.maximum, *keys) if any(isinstance(k, dt.DType) for k in keys) else \
        promotion.result_dtype(np.add, *keys)
    shape = broadcast_shapes(*(x.shape for x in (cond, a, b) if isinstance(x, array_class())))
    a, b = forced_int(a, out), forced_int(b, out)  # NumPy force-casts: no OverflowError here
    srcs = (operand_node(cond, dt.bool_, shape, dev), operand_node(a, out, shape, dev),
            operand_node(b, out, shape, dev))
    return array_class()(Node("where", srcs, out, shape, device=dev))


def astype(x, dtype):  # -> Array (the class is defined in array.py, which imports this module)
    """``x`` converted to ``dtype`` (NumPy's ``astype``: floats truncate to ints, ints wrap)."""
    d = dt.as_dtype(dtype)
    x.device.check(d)
    if x.dtype.kind == "c" and d.kind not in "cb":
        from kdsl.frontend.array.complex_math import warn_discarded_imag  # cycle: it imports this module

        warn_discarded_imag(x.dtype, d)
    return array_class()(cast_node(x._n, d))
