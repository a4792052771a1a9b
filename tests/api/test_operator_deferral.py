"""Binary operators of kdsl arrays with a type they cannot take as an operand defer to its reflected operator by
NumPy's rule for ``ndarray``: ``__array_ufunc__ = None``, or ``__array_priority__`` above an ndarray's. DeZero
("Deep Learning from Scratch 3") sets ``Variable.__array_priority__ = 200`` so that ``np.array(2.0) * x`` is
``x.__rmul__`` (kdsl raised "unsupported operand of type Variable")."""

import numpy as np
import pytest

import kdsl as kd


class Variable:
    __array_priority__ = 200

    def __init__(self, data):
        self.data = data

    def _other(self, o):
        return o.data if isinstance(o, Variable) else o

    def __mul__(self, o):
        return Variable(self.data * self._other(o))

    __rmul__ = __mul__

    def __add__(self, o):
        return Variable(self.data + self._other(o))

    __radd__ = __add__

    def __rsub__(self, o):
        return Variable(o - self.data)

    def __rtruediv__(self, o):
        return Variable(o / self.data)

    def __rpow__(self, o):
        return Variable(o**self.data)

    def __rmatmul__(self, o):
        return Variable(o @ self.data)

    def __gt__(self, o):
        return "Variable.__gt__"

    def __eq__(self, o):
        return "Variable.__eq__"

    __hash__ = object.__hash__


class NoUfunc:
    __array_ufunc__ = None

    def __radd__(self, o):
        return "NoUfunc.__radd__"


def _program(xp):
    a = xp.array(2.0)
    v = Variable(xp.array(3.0))
    m = xp.asarray(np.arange(6.0).reshape(2, 3))
    w = Variable(xp.asarray(np.ones((3, 2))))
    results = [a * v, a + v, a - v, a / v, a**v, m @ w, m * v]
    assert all(isinstance(r, Variable) for r in results)
    return [np.asarray(r.data) for r in results] + [a < v, m == v, m + NoUfunc()]


def test_numpy_and_kdsl_defer_alike():
    got, expected = _program(kd), _program(np)
    for g, e in zip(got, expected, strict=True):
        if isinstance(e, str):
            assert g == e
        else:
            np.testing.assert_allclose(g, e, rtol=1e-6)


def test_types_without_the_protocol_still_raise_kdsls_error():
    class Plain:
        pass

    with pytest.raises(TypeError, match="unsupported operand of type Plain"):
        kd.asarray([1.0]) * Plain()
    with pytest.raises(TypeError, match="unsupported operand of type Plain"):
        kd.asarray([1.0]) + Plain()


def test_a_low_or_missing_priority_with_reflected_operators_is_python_s_error():
    class Low:
        __array_priority__ = 0.0

        def __radd__(self, o):
            return "never"

    with pytest.raises(TypeError):
        kd.asarray([1.0]) + Low()


@pytest.mark.parametrize("other", [None, "x", b"x"])
def test_equality_with_none_or_a_string_is_elementwise_false_as_numpy(other):
    # NumPy compares each element with the object (Python's ==): never equal (kdsl raised TypeError)
    host = np.arange(6.0).reshape(2, 3)
    a = kd.asarray(host)
    for got, expected in ((a == other, host == other), (a != other, host != other), (other == a, other == host),
                          (a[0, 0] == other, host[0, 0] == other)):
        assert got.dtype == kd.bool_
        np.testing.assert_array_equal(got.numpy(), expected)
    with pytest.raises(TypeError, match="unsupported operand of type NoneType"):
        a < None  # noqa: B015 - NumPy raises for orderings too
