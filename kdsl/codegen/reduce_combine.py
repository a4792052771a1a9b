"""What a reduction folds, as GLSL: the identity of each operation, the combine step, and argmax/argmin's
rule for a better candidate (NaN wins, ties go to the lower index). Used by the reduction kernels and rownorm.

Example:
    >>> from kdsl import dtype as dt
    >>> combine("sum", dt.float32, "acc", "v"), identity("max", dt.int32)
    ('(acc + v)', '(-2147483647 - 1)')
"""

from __future__ import annotations

from kdsl import dtype as dt
from kdsl.codegen import glsl
from kdsl.codegen.helpers import SUFFIX
from kdsl.codegen.ops import render_op

INT_MIN = {"int": "(-2147483647 - 1)", "uint": "0u", "int64_t": "(-9223372036854775807l - 1l)", "uint64_t": "0ul"}
INT_MAX = {"int": "2147483647", "uint": "4294967295u", "int64_t": "9223372036854775807l",
           "uint64_t": "18446744073709551615ul"}


def identity(op: str, t: dt.DType) -> str:
    c = t.glsl_compute
    if op == "sum":
        return glsl.zero(t)
    if op == "prod":
        return glsl.literal(1, t)
    high = op in ("max", "argmax")  # the identity of max is the lowest value
    if t.kind == "c":  # NumPy's lexicographic order (kdsl.codegen.complex_order): -inf - inf j is the lowest
        part = glsl.literal(float("-inf") if high else float("inf"), dt.float32 if c == "vec2" else dt.float64)
        return f"{c}({part}, {part})"
    if c == "bool":
        return "false" if high else "true"
    if t.is_float:
        return glsl.literal(float("-inf") if high else float("inf"), t)
    return INT_MIN[c] if high else INT_MAX[c]


def combine(op: str, t: dt.DType, a: str, b: str) -> str:
    """GLSL folding value ``b`` into accumulator ``a``."""
    c = t.glsl_compute
    if op == "sum":
        return f"({a} || {b})" if c == "bool" else f"({a} + {b})"
    if op == "prod":
        return f"({a} && {b})" if c == "bool" else render_op("mul", t, [t, t], [a, b]) if t.kind == "c" else \
            f"({a} * {b})"
    if c == "bool":
        return f"({a} || {b})" if op == "max" else f"({a} && {b})"
    if t.kind == "c":
        return render_op("maximum" if op == "max" else "minimum", t, [t, t], [a, b])
    if t.is_float:
        return f"kd_{op}_{SUFFIX[c]}({a}, {b})"
    return f"{op}({a}, {b})"


def better(op: str, t: dt.DType, v: str, i: str, w: str, j: str) -> str:
    """Whether candidate (w, j) replaces (v, i) in argmax/argmin: NaN wins, ties go to the lower index."""
    cmp = ">" if op == "argmax" else "<"
    if t.kind == "c":  # the float rule with NumPy's complex order and complex NaNs (either part)
        s = "f" if t.glsl_compute == "vec2" else "d"
        later = f"kd_c{'gt' if op == 'argmax' else 'lt'}_{s}({w}, {v})"
        nan_v, nan_w = f"any(isnan({v}))", f"any(isnan({w}))"
        return (f"(({nan_w} && !{nan_v}) || (!{nan_v} && {later}) || "
                f"((all(equal({w}, {v})) || ({nan_v} && {nan_w})) && {j} < {i}))")
    if t.glsl_compute == "bool":
        v, w = f"int({v})", f"int({w})"
    if t.is_float:
        return (f"((isnan({w}) && !isnan({v})) || (!isnan({v}) && {w} {cmp} {v}) || "
                f"(({w} == {v} || (isnan({v}) && isnan({w}))) && {j} < {i}))")
    return f"({w} {cmp} {v} || ({w} == {v} && {j} < {i}))"
