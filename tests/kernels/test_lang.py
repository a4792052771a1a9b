"""The kdsl language and kd.compute, lowered with NumPy as the array library (the same lowering builds lazy
kdsl arrays by default)."""

import numpy as np
import pytest

from kdsl.frontend.lang.compute import KdslError, KdslSyntaxError, compute, parse

rng = np.random.default_rng(0)
A, B = rng.random((3, 4)), rng.random((4, 5))
X, BIAS = rng.random((2, 3, 3)), rng.random(3)


@pytest.mark.parametrize(("expr", "operands", "expected"), [
    ("c[i, j] = sum(k, a[i, k] * b[k, j])", {"a": A, "b": B}, A @ B),
    ("y[i] = max(j, x[i, j])", {"x": A}, A.max(1)),
    ("y[j] = min(i, x[i, j])", {"x": A}, A.min(0)),
    ("y[i] = prod(j, x[i, j])", {"x": A}, A.prod(1)),
    ("y[i] = mean(j, x[i, j])", {"x": A}, A.mean(1)),
    ("out[b, i, j] = x[b, j, i] + bias[i]", {"x": X, "bias": BIAS}, X.transpose(0, 2, 1) + BIAS[:, None]),
    ("t[j, i] = a[i, j]", {"a": A}, A.T),
    ("s = sum(i, j, a[i, j])", {"a": A}, A.sum()),
    ("y[i, j] = s * exp(a[i, j]) + i", {"a": A, "s": 2.0}, 2 * np.exp(A) + np.arange(3)[:, None]),
    ("y[i] = sum(j, a[i, j] > 0.5 ? a[i, j] : 0)", {"a": A}, np.where(A > 0.5, A, 0).sum(1)),
    ("y[i] = a[i, 0] - max(a[i, 1], a[i, 2])", {"a": A}, A[:, 0] - np.maximum(A[:, 1], A[:, 2])),
    ("o[i, j] = a[i] * b[j]", {"a": BIAS, "b": BIAS[:2]}, np.outer(BIAS, BIAS[:2])),
    ("y[i] = sqrt(sum(j, a[i, j] ** 2))", {"a": A}, np.sqrt((A ** 2).sum(1))),
])
def test_compute_matches_numpy(expr, operands, expected):
    np.testing.assert_allclose(compute(expr, xp=np, **operands), expected)


def caret_column(err: KdslError) -> int:
    last = str(err).splitlines()[-1]
    return len(last) - len(last.lstrip()) - 4 + 1


@pytest.mark.parametrize(("expr", "column", "message"), [
    ("y[i] = a[i, j", 14, "unexpected end of text"),
    ("y[i] = a[i, j] +* 2", 17, "unexpected '*'"),
    ("y[i] = $", 8, "unexpected character '$'"),
    ("y[i] a[i]", 6, "expected '='"),
])
def test_syntax_errors_point_at_the_column(expr, column, message):
    with pytest.raises(KdslSyntaxError) as info:
        compute(expr, a=A, xp=np)
    assert info.value.column == column and message in info.value.msg
    assert caret_column(info.value) == column


@pytest.mark.parametrize(("expr", "fragment", "message"), [
    ("y[i] = sum(j, a[i, j] * c[j])", "c[j]", "unknown operand 'c'"),
    ("y[i] = sum(j, a[i, j] * b[i, j])", "i, j])", "bound to size 3 by a[i, j] and to size 4 by b[i, j]"),
    ("y[i] = a[i]", "a[i]", "'a' has 2 dimension(s) but 1 index(es)"),
    ("y[i] = a[i, j]", "j]", "index 'j' is not an output index"),
    ("y[q] = sum(j, a[i, j])", "q]", "cannot infer the range of index 'q'"),
    ("y[i] = a[i, i]", "i]", "appears twice"),
    ("y[i] = a[i, 9]", "9]", "out of range"),
    ("y[i] = foo(a[i, 0])", "foo", "unknown function 'foo'"),
    ("y[i] = a[i, 0] + w", "w", "unknown name 'w'"),
    ("y[i, i] = a[i, 0]", "i]", "output index 'i' appears twice"),
    ("y[i] = sum(j, a[i, j]) + a[i, j]", "j]", "index 'j' is used outside the reduction"),
])
def test_shape_and_name_errors_point_at_the_column(expr, fragment, message):
    operands = {"a": A, "b": B}
    with pytest.raises(KdslError) as info:
        compute(expr, xp=np, **operands)
    assert message in info.value.msg
    expected = expr.rindex(fragment) if fragment == "i]" and "i, i" in expr else expr.index(fragment)
    if "outside the reduction" in message:
        expected = expr.rindex(fragment)
    assert info.value.column == expected + 1
    assert caret_column(info.value) == info.value.column


def test_parse_accepts_statements_and_comments():
    tree = parse("z = x * 2  # double\nw = z + 1; v = -w")
    assert len(tree.children) == 3


def test_non_string_rejected():
    with pytest.raises(TypeError, match="strings"):
        parse(3)
