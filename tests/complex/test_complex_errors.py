"""What complex numbers cannot do raises a TypeError naming the function and the dtype, never a wrong value."""

import numpy as np
import pytest

import kdsl as kd

Z = np.array([1 + 2j, 3 - 1j, -0.5j, 2.0], np.complex64)

CASES = {  # NumPy's order of complex numbers (<, max, argmax, searchsorted...): tests/complex/test_complex_order.py
    "floor": kd.floor, "ceil": kd.ceil, "trunc": kd.trunc,
    "floor_divide": lambda x: x // 2, "remainder": lambda x: x % 2, "bitwise_and": lambda x: x & x,
    "bitwise_or": lambda x: x | 1, "invert": lambda x: ~x, "left_shift": lambda x: x << 1,
    "topk": lambda x: kd.topk(x, 2)[0], "sort_descending": lambda x: kd.sort(x, descending=True),
    "arctan2": lambda x: kd.arctan2(x, x), "sigmoid": kd.sigmoid,
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("cd", ["complex64", "complex128"])
def test_unsupported_operations_raise(name, cd):
    x = kd.asarray(Z.astype(cd))
    with pytest.raises(TypeError, match=cd) as info:
        out = CASES[name](x)
        out.numpy()  # were it lazy, realising must raise too, not return numbers
    message = str(info.value)
    assert "not supported" in message or "not implemented" in message, message


@pytest.mark.parametrize("cd", ["complex64", "complex128"])
def test_rint_rounds_each_part_as_numpy(cd):
    """rint needs no order: NumPy rounds the real and imaginary parts (half to even); kdsl raised here."""
    z = np.array([1.5 + 2.5j, -0.5 - 1.5j, 3.2 + np.nan * 1j], cd)
    got = kd.rint(kd.asarray(z))
    assert got.dtype == cd
    np.testing.assert_array_equal(got.numpy(), np.rint(z))


def test_messages_say_why_and_what_to_use():
    x = kd.asarray(Z)
    with pytest.raises(TypeError, match=r"floor_divide \(//\) is not supported for complex64"):
        _ = x // 1
    with pytest.raises(TypeError, match=r"kd.real\(z\) or kd.abs\(z\)"):
        kd.topk(x, 2)
    with pytest.raises(TypeError, match="a Python complex"):
        _ = kd.asarray([1.0, 2.0]) // 1j
    with pytest.raises(TypeError, match="docs/complex.md"):
        kd.sigmoid(x)


def test_errors_are_raised_when_building_not_when_realising():
    x = kd.asarray(Z)
    for fn in (lambda: x // x, lambda: kd.floor(x), lambda: kd.sort(x, descending=True),
               lambda: kd.argsort(x, descending=True)):
        with pytest.raises(TypeError):
            fn()  # no .numpy(): the lazy graph is refused at once
