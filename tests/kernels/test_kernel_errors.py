"""Unsupported Python and ill-typed kernels raise errors that point at the user's own line and column."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.kernels.errors import KernelSyntaxError, KernelTypeError
from kdsl.frontend.kernels.kernel import kernel

X = np.zeros(4, np.float32)


def located(exc_info, fragment: str):
    """The error's line in this file holds ``fragment`` and the caret sits at its column."""
    err = exc_info.value
    assert err.filename == __file__
    with open(__file__) as f:
        line = f.read().splitlines()[err.lineno - 1]
    assert err.line == line
    assert line.index(fragment) == err.col, (line, err.col)
    text = str(err)
    assert text.splitlines()[-1] == " " * err.col + "^"
    return err


@kernel
def k_lambda(x):
    f = lambda t: t  # noqa: E731
    x[0] = f(1)


@kernel
def k_class(x):
    class A:
        pass


@kernel
def k_try(x):
    try:
        x[0] = 1
    except Exception:
        pass


@kernel
def k_with(x):
    with open("f"):
        pass


@kernel
def k_listcomp(x):
    y = [i for i in range(3)]
    x[0] = y


@kernel
def k_string(x):
    s = "hello"
    x[0] = s


@kernel
def k_unknown_call(x):
    x[0] = print(1)


@kernel
def k_return_value(x):
    return x[0]


@kernel
def k_slice(x):
    x[0] = x[1:2]


@kernel
def k_for_array(x):
    for v in x:
        x[0] = v


@kernel
def k_nested_def(x):
    def inner():
        return 1


CASES = [
    (k_lambda, "lambda t", "lambda expressions are not supported"),
    (k_class, "class A", "class definitions are not supported"),
    (k_try, "try:", "try statements are not supported"),
    (k_with, "with open", "with statements are not supported"),
    (k_listcomp, "[i for", "list comprehensions are not supported"),
    (k_string, '"hello"', "strings are not supported"),
    (k_unknown_call, "print(1)", "calling 'print' is not supported"),
    (k_return_value, "return x[0]", "kernels return nothing"),
    (k_slice, "1:2", "slices are not supported"),
    (k_for_array, "x:", "range(...) only"),
    (k_nested_def, "def inner", "nested function definitions"),
]


@pytest.mark.parametrize(("k", "fragment", "message"), CASES, ids=[c[0].fn.__name__ for c in CASES])
def test_unsupported_python(k, fragment, message):
    with pytest.raises(KernelSyntaxError) as info:
        k.glsl(X)
    err = located(info, fragment)
    assert message in err.msg
    assert isinstance(err, SyntaxError)


@kernel
def k_float_index(x):
    x[1.5] = 0


@kernel
def k_wrong_rank(x):
    x[0, 1] = 0


@kernel
def k_undefined(x):
    x[0] = undefined_name  # noqa: F821


@kernel
def k_rebind_array(x):
    x = 3  # noqa: F841


@kernel
def k_bad_axis(x):
    x[0] = kd.global_id(5)


TYPE_CASES = [
    (k_float_index, "1.5", "array indices must be integers"),
    (k_wrong_rank, "0, 1", "has 1 dimension(s) but 2 index(es)"),
    (k_undefined, "undefined_name", "name 'undefined_name' is not defined"),
    (k_rebind_array, "x = 3", "'x' is an array"),
    (k_bad_axis, "5)", "axis must be 0, 1 or 2"),
]


@pytest.mark.parametrize(("k", "fragment", "message"), TYPE_CASES, ids=[c[0].fn.__name__ for c in TYPE_CASES])
def test_type_errors(k, fragment, message):
    with pytest.raises(KernelTypeError) as info:
        k.glsl(X)
    assert message in located(info, fragment).msg


@kernel
def annotated(x: kd.f32[:], n: kd.i32):
    x[0] = n


def test_argument_errors():
    with pytest.raises(TypeError, match=r"annotated kdsl.float32\[:\] but got a 1-d int32 array"):
        annotated[1](np.zeros(2, np.int32), 1)
    with pytest.raises(TypeError, match="scalar kdsl.int32 but got an array"):
        annotated[1](X, X)
    with pytest.raises(TypeError, match="is a list"):
        annotated[1]([1.0], 2)
    with pytest.raises(TypeError, match="give the launch grid"):
        annotated(X, 1)
    with pytest.raises(TypeError, match="missing a required argument"):
        annotated[1](X)
    with pytest.raises(TypeError, match="non-negative integers"):
        annotated[-1](X, 1)


def test_intrinsics_outside_kernels_raise():
    with pytest.raises(RuntimeError, match="only be called inside a @kd.kernel"):
        kd.global_id(0)


def test_error_message_format():
    with pytest.raises(KernelSyntaxError) as info:
        k_lambda.glsl(X)
    first = str(info.value).splitlines()[0]
    assert first.startswith(f"{__file__}:{info.value.lineno}:{info.value.col + 1}: lambda")
