"""Result dtypes, as NumPy 2 computes them (NEP 50: Python scalars are *weak*), with kdsl's GPU-friendly defaults
where NumPy would pick its own default types; each elementwise op's signature (the result dtype and what its
operands are converted to), the ops complex operands allow, and the error for the others.

Example:
    >>> from kdsl.dtype import int8, int16, int32
    >>> result_dtype(np.add, int8, int16).name, result_dtype(np.add, int32, 1.5).name
    ('int16', 'float32')
    >>> op_signature("lt", [int32, 2.5])
    (kdsl.bool, [kdsl.float32, kdsl.float32])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from kdsl.dtype import DType, as_dtype, bool_, default_complex, default_float, default_int, scalar_dtype

_WEAK = {"weak-bool": True, "weak-int": 1, "weak-float": 1.0, "weak-complex": 1j}


def _placeholder(x: Any) -> Any:
    """A NumPy stand-in for an operand: a 0-size array for a dtype, a Python scalar for a weak token."""
    if isinstance(x, DType):
        return np.empty(0, x.np)
    return _WEAK[x]


@functools.lru_cache(maxsize=4096)
def _numpy_result(ufunc: np.ufunc, operands: tuple) -> np.dtype:
    with np.errstate(all="ignore"):
        out = ufunc(*(_placeholder(x) for x in operands))
    if isinstance(out, tuple):
        out = out[0]
    return out.dtype


def result_dtype(ufunc: np.ufunc, *operands: Any) -> DType:
    """The dtype of ``ufunc(*operands)``; operands are DTypes (arrays) or Python scalars (weak).

    >>> from kdsl.dtype import float32, int8, int16, int32
    >>> result_dtype(np.add, int8, int16).name, result_dtype(np.multiply, float32, 2.0).name
    ('int16', 'float32')
    >>> result_dtype(np.add, int32, 1.5).name   # NumPy says float64; kdsl's default float is float32
    'float32'
    """
    key = tuple(x if isinstance(x, DType) else weak_token(x) for x in operands)
    npd = _numpy_result(ufunc, key)
    arrays = [x for x in operands if isinstance(x, DType)]
    if not arrays:  # only Python scalars: kdsl's defaults
        return as_dtype(npd) if npd.kind == "b" else _SCALAR_DEFAULT.get(npd.kind, default_int)
    if npd == np.float64 and all(a.kind != "f" for a in arrays) and any(isinstance(x, float) for x in operands):
        return default_float  # weak Python float meeting int/bool arrays: float32, not NumPy's float64
    if npd == np.complex128 and all(a.kind not in "fc" for a in arrays) and \
            any(isinstance(x, complex) for x in operands):
        return default_complex  # weak Python complex meeting int/bool arrays: complex64, as floats go float32
    if npd == np.int64 and all(a.kind == "b" for a in arrays) and any(_is_pyint(x) for x in operands):
        return default_int  # weak Python int meeting bool arrays: int32, not NumPy's int64
    return as_dtype(npd)

_SCALAR_DEFAULT = {"f": default_float, "c": default_complex}


def _is_pyint(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def weak_token(x: Any) -> str:
    """A hashable stand-in for the Python scalar ``x`` (a string: 1, 1.0 and True are equal dict keys)."""
    if isinstance(x, bool):
        return "weak-bool"
    if isinstance(x, int):
        return "weak-int"
    if isinstance(x, float):
        return "weak-float"
    if isinstance(x, complex):
        return "weak-complex"
    raise TypeError(f"unsupported operand {x!r} of type {type(x).__name__}")


# Elementwise op name -> (NumPy ufunc giving the result dtype, how operands are converted), for the arrays and
# for @kd.kernel alike:
#   "result": operands are cast to the result dtype      "common": to their common dtype (comparisons)
#   "bool": to bool (logical ops)                         "same": left as they are (isnan and friends)
OP_SIGNATURES: dict[str, tuple[np.ufunc, str]] = {
    "add": (np.add, "result"), "sub": (np.subtract, "result"), "mul": (np.multiply, "result"),
    "div": (np.true_divide, "result"), "floordiv": (np.floor_divide, "result"), "mod": (np.remainder, "result"),
    "pow": (np.power, "result"), "maximum": (np.maximum, "result"), "minimum": (np.minimum, "result"),
    "arctan2": (np.arctan2, "result"), "and": (np.bitwise_and, "result"), "or": (np.bitwise_or, "result"),
    "xor": (np.bitwise_xor, "result"), "shl": (np.left_shift, "result"), "shr": (np.right_shift, "result"),
    "eq": (np.equal, "common"), "ne": (np.not_equal, "common"), "lt": (np.less, "common"),
    "le": (np.less_equal, "common"), "gt": (np.greater, "common"), "ge": (np.greater_equal, "common"),
    "land": (np.logical_and, "bool"), "lor": (np.logical_or, "bool"), "lxor": (np.logical_xor, "bool"),
    "not": (np.logical_not, "bool"), "neg": (np.negative, "result"), "abs": (np.absolute, "result"),
    "sign": (np.sign, "result"), "square": (np.square, "result"), "reciprocal": (np.reciprocal, "result"),
    "invert": (np.invert, "result"), "isnan": (np.isnan, "same"), "isinf": (np.isinf, "same"),
    "isfinite": (np.isfinite, "same"), "rsqrt": (np.sqrt, "result"), "sigmoid": (np.exp, "result"),
    "erf": (np.exp, "result"),
    "rint": (np.rint, "result"),
}
# Complex-only ops: conj keeps the dtype; real, imag and angle give the component float (np.absolute's result).
OP_SIGNATURES.update({"conj": (np.conjugate, "result"), "real": (np.absolute, "same"),
                      "imag": (np.absolute, "same"), "angle": (np.absolute, "same")})


# The ops kdsl computes on complex operands (kdsl.codegen.complex); the others raise TypeError for them.
COMPLEX_OPS = frozenset(("add", "sub", "mul", "div", "pow", "eq", "ne", "neg", "abs", "sign", "square",
                         "reciprocal", "isnan", "isinf", "isfinite", "exp", "log", "sqrt", "sin", "cos", "tanh",
                         "tan", "sinh", "cosh", "arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh",
                         "log1p", "expm1", "exp2", "log2", "log10", "conj", "real", "imag", "angle", "land", "lor",
                         "lxor", "not", "lt", "le", "gt", "ge", "maximum", "minimum"))

# ordered ops complex operands never take: NumPy defines no floor, trunc, // or % of complex numbers either, and
# kdsl's descending sort and topk do not take NumPy's lexicographic order (sort, <, max... do: complex_order.py)
_NUMPY_HAS_NONE = ("floor", "ceil", "trunc", "floordiv", "mod")
DESCENDING = "a descending sort (sort/argsort with descending=True, topk)"
_ORDERED = ("sort", DESCENDING)
for _name in ("exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "arcsin",
              "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc"):
    OP_SIGNATURES[_name] = (getattr(np, _name), "result")


def op_signature(name: str, operands: list[Any]) -> tuple[DType, list[DType]]:
    """(result dtype, the dtype each operand is converted to) of op ``name``; operands are DTypes or Python
    scalars (weak, NEP 50). The one promotion rule of both faces.

    >>> from kdsl.dtype import float32, int32
    >>> op_signature("lt", [int32, 2.5])
    (kdsl.bool, [kdsl.float32, kdsl.float32])
    >>> op_signature("div", [int32, int32])[0], op_signature("add", [float32, int32])[0]
    (kdsl.float64, kdsl.float64)
    """
    ufunc, rule = OP_SIGNATURES[name]
    if name not in COMPLEX_OPS and any(_complex_operand(x) for x in operands):
        raise complex_error(name, next(x for x in operands if _complex_operand(x)))
    out = result_dtype(ufunc, *operands)
    if rule == "result" and out.kind != "c" and any(_complex_operand(x) for x in operands):
        rule = "same"  # abs(complex) is real: the operand stays complex
    if rule == "result":
        return out, [out] * len(operands)
    if rule == "common":
        return out, [result_dtype(np.maximum, *operands)] * len(operands)
    if rule == "bool":
        return out, [bool_] * len(operands)
    return out, [k if isinstance(k, DType) else scalar_dtype(k) for k in operands]


def _complex_operand(x: Any) -> bool:
    return isinstance(x, complex) or (isinstance(x, DType) and x.kind == "c")

_NUMPY_NAME = {"lt": "less (<)", "le": "less_equal (<=)", "gt": "greater (>)", "ge": "greater_equal (>=)",
               "floordiv": "floor_divide (//)", "mod": "remainder (%)", "and": "bitwise_and (&)",
               "or": "bitwise_or (|)", "xor": "bitwise_xor (^)", "invert": "invert (~)", "shl": "left_shift (<<)",
               "shr": "right_shift (>>)", "max": "max", "min": "min", "argmax": "argmax", "argmin": "argmin"}


def complex_error(name: str, operand: Any) -> TypeError:
    """The TypeError for op ``name`` on a complex operand it does not take (ordered ones: no order exists)."""
    what = operand.name if isinstance(operand, DType) else "a Python complex"
    if name in _NUMPY_HAS_NONE:
        why = "NumPy defines it for real numbers only: apply it to kd.real(z) and kd.imag(z)"
    elif name in _ORDERED:
        why = ("it does not take NumPy's lexicographic order of complex numbers (kd.sort, <, max, argmax and "
               "searchsorted do): sort ascending and reverse with kd.flip, or compare kd.real(z) or kd.abs(z)")
    else:
        why = "it is not implemented for complex dtypes in kdsl (docs/complex.md lists what is)"
    return TypeError(f"{_NUMPY_NAME.get(name, name)} is not supported for {what}: {why}")


def promote(*dtypes: DType) -> DType:
    """NumPy's promotion of array dtypes. ``promote(int8, uint8) -> int16``.

    Three or more dtypes promote as ``np.result_type`` does, in any order: ``(uint16, int16, float16)`` is
    float32 (a pairwise fold would pass through int32 and give float64).
    """
    distinct = dict.fromkeys(d.np for d in dtypes)  # repeats change nothing, and keep within NumPy's 64 operands
    return as_dtype(np.result_type(*distinct))


def promote_in_order(*dtypes: DType) -> DType:
    """The dtype ``np.array`` finds for items of these dtypes: a pairwise fold from the left, so it depends on
    their order (``[uint16, int16, float16]`` items: float64; ``[float16, uint16, int16]``: float32)."""
    return as_dtype(functools.reduce(np.promote_types, (d.np for d in dtypes)))


def can_hold(dtype: DType, value: Any) -> bool:
    """Whether a Python int fits ``dtype`` (NumPy 2 raises OverflowError otherwise)."""
    if not dtype.is_int or not _is_pyint(value):
        return True
    info = np.iinfo(dtype.np)
    return info.min <= value <= info.max
