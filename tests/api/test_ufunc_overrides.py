"""NEP 13 (``__array_ufunc__``) of foreign types in kdsl's ufuncs, methods, operators and reductions, against
NumPy's: the same class runs with NumPy arrays inside (NumPy's dispatch) and with kdsl arrays inside (kdsl's),
and both must record the same calls and give the same values (kdsl/frontend/array/ufunc_overrides.py)."""

import numpy as np
import pytest

import kdsl as kd


def quantity_class(xp):
    """A units-aware value in the style of NumPy's docs: every ufunc call is recorded and run on the values."""

    class Quantity:
        calls: list = []

        def __init__(self, value, unit="m"):
            self.value, self.unit = xp.asarray(value), unit

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            Quantity.calls.append((ufunc.__name__, method, len(inputs), sorted(kwargs)))
            values = [x.value if isinstance(x, Quantity) else x for x in inputs]
            if "out" in kwargs:
                kwargs["out"] = tuple(o.value if isinstance(o, Quantity) else o for o in kwargs["out"])
            result = getattr(ufunc, method)(*values, **kwargs)
            return None if result is None else Quantity(result, self.unit)

    return Quantity


def run(program):
    """``program(xp, Quantity)`` with NumPy and with kdsl: the recorded calls, which results are Quantities
    (the override's) and their values must agree. Returns kdsl's calls."""
    out = []
    for xp in (np, kd):
        Q = quantity_class(xp)
        result = program(xp, Q)
        kinds = ["none" if r is None else "Q" if isinstance(r, Q) else "array" for r in result]
        values = [None if r is None else np.asarray(r.value if isinstance(r, Q) else r) for r in result]
        out.append((Q.calls, kinds, values))
    (np_calls, np_kinds, np_values), (kd_calls, kd_kinds, kd_values) = out
    assert kd_calls == np_calls
    assert kd_kinds == np_kinds
    for g, e in zip(kd_values, np_values, strict=True):
        if e is not None:
            assert g.shape == e.shape and g.dtype.kind == e.dtype.kind
            np.testing.assert_allclose(g, e, rtol=1e-6)
    return kd_calls


@pytest.mark.parametrize("data", [[1.0, 4.0, 9.0], [[0.5, 2.0], [3.0, -1.0]], [2.5], [], np.arange(6.0)[::2]])
def test_ufunc_calls(data):
    calls = run(lambda xp, Q: [xp.sqrt(Q(np.abs(np.asarray(data)))), xp.add(Q(data), Q(data)),
                               xp.maximum(Q(data), 2.0), xp.add(xp.asarray(np.asarray(data, float)), Q(data)),
                               xp.arctan2(1.0, Q(data)), xp.negative(Q(data))])
    assert [c[:2] for c in calls] == [("sqrt", "__call__"), ("add", "__call__"), ("maximum", "__call__"),
                                      ("add", "__call__"), ("arctan2", "__call__"), ("negative", "__call__")]


def test_call_keywords_are_numpys():
    def program(xp, Q):
        a = xp.asarray([1.0, -2.0, 3.0])
        out = xp.zeros(3)
        return [xp.add(Q(a), 1.0, where=a > 0, out=out), xp.multiply(Q(a), 2, dtype=xp.float64),
                xp.subtract(Q(a), 1, casting="unsafe")]

    calls = run(program)
    assert calls[0][3] == ["out", "where"] and calls[1][3] == ["dtype"] and calls[2][3] == ["casting"]


def test_operators_of_kdsl_arrays():
    def program(xp, Q):
        a = xp.asarray([1.0, 2.0, 4.0])
        q = Q([2.0, 0.5, 4.0])
        m = xp.asarray([[1.0, 2.0], [3.0, 4.0]])
        return [a + q, a - q, a * q, a / q, a // q, a % q, a ** q, a < q, a == q, a >= q, m @ Q(m),
                xp.asarray([3, 5]) & Q(np.array([1, 4])), xp.asarray([1, 2]) << Q(np.array([1, 1]))]

    calls = run(program)
    assert [c[0] for c in calls] == ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
                                     "less", "equal", "greater_equal", "matmul", "bitwise_and", "left_shift"]


def test_reflected_operators_without_the_types_own():
    """``q + a`` where ``q``'s class has no ``__add__``: Python runs the array's ``__radd__``, which is NumPy's
    ``np.add(q, a)``: the override again."""
    def program(xp, Q):
        a = xp.asarray([1.0, 2.0])
        return [Q([3.0, 4.0]) + a, Q([3.0, 4.0]) * a, a.sum() * Q([1.0, 2.0]), divmod(a, Q([2.0, 3.0])),
                Q([[1.0, 0.0], [0.0, 2.0]]) @ a, 2.0 * Q([3.0, 4.0]).value]

    calls = run(program)
    assert [c[0] for c in calls] == ["add", "multiply", "multiply", "divmod", "matmul"]


def test_inplace_operator_writes_through_out():
    def program(xp, Q):
        a = xp.asarray([1.0, 2.0, 3.0])
        b = a
        b += Q([10.0, 20.0, 30.0])
        return [b, a]  # b is the override's Quantity; a was written through out=(a,)

    calls = run(program)
    assert calls == [("add", "__call__", 2, ["out"])]


@pytest.mark.parametrize("xp_data", [np.arange(1.0, 7.0).reshape(2, 3), np.arange(1.0, 5.0)])
def test_methods(xp_data):
    def program(xp, Q):
        q = Q(xp_data)
        return [xp.add.reduce(q), xp.add.reduce(q, 0, None, None, True), xp.maximum.reduce(q, axis=None),
                xp.multiply.accumulate(q, 0), xp.add.reduceat(q, [0, 1]), xp.subtract.outer(Q([1.0, 2.0]), q),
                xp.add.reduce(q, axis=0, initial=10.0)]

    calls = run(program)
    assert [c[1] for c in calls] == ["reduce", "reduce", "reduce", "accumulate", "reduceat", "outer", "reduce"]
    assert calls[1][3] == ["axis", "dtype", "keepdims"] and calls[4][2] == 2


def test_ufunc_at_hands_over():
    def program(xp, Q):
        q = Q(xp.zeros(4))
        r = xp.add.at(q, [0, 0, 3], 1.0)
        return [r, q]

    calls = run(program)
    assert calls == [("add", "at", 3, [])]


@pytest.mark.parametrize("name, kwargs", [("sum", {}), ("sum", {"axis": 0, "keepdims": True}), ("prod", {}),
                                          ("max", {"axis": 1}), ("min", {}), ("amax", {}), ("any", {}),
                                          ("all", {"axis": 0})])
def test_reductions_fold_through_the_override(name, kwargs):
    data = np.array([[1.0, 0.0, 3.0], [4.0, 5.0, 6.0]])
    calls = run(lambda xp, Q: [getattr(xp, name)(Q(data), **kwargs)])
    assert calls[0][1] == "reduce"


def test_reductions_call_the_types_method():
    """NumPy's ``np.sum(obj)`` of a non-ndarray calls ``obj.sum(axis=None, out=None)`` where it exists."""
    seen = []
    for xp in (np, kd):
        class Total:
            def __array_ufunc__(self, *args, **kwargs):
                return NotImplemented

            def sum(self, axis=None, out=None, **kwargs):
                return ("sum", axis, out, kwargs)

            def max(self, axis=None, out=None, **kwargs):
                return ("max", axis, out, kwargs)

        seen.append([xp.sum(Total()), xp.sum(Total(), 1, keepdims=True), xp.max(Total(), axis=0),
                     xp.sum(Total(), dtype=xp.float32)[:3]])
    assert seen[0] == seen[1]


def test_subclass_first_then_left_to_right():
    order = []

    class Base:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            order.append("Base")
            return NotImplemented

    class Child(Base):
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            order.append("Child")
            return "child"

    class Other:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            order.append("Other")
            return "other"

    expected = []
    for xp in (np, kd):
        order.clear()
        got = (xp.add(Base(), Child()), xp.add(Other(), Base()), xp.add(Base(), Other()))
        expected.append((got, list(order)))
    assert expected[1] == expected[0] == (("child", "other", "other"), ["Child", "Other", "Base", "Other"])


def test_every_override_declines():
    class Declines:
        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            return NotImplemented

    for xp in (np, kd):
        with pytest.raises(TypeError, match="operand type.s. all returned NotImplemented from __array_ufunc__"):
            xp.sqrt(Declines())
        with pytest.raises(TypeError):
            xp.asarray([1.0]) + Declines()


def dual_class(xp):
    """Forward-mode derivatives on NumPy's NDArrayOperatorsMixin: value and derivative through every ufunc."""

    class Dual(xp.lib.mixins.NDArrayOperatorsMixin):
        def __init__(self, v, d):
            self.v, self.d = xp.asarray(v), xp.asarray(d)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            vs = [x.v if isinstance(x, Dual) else x for x in inputs]
            ds = [x.d if isinstance(x, Dual) else 0.0 for x in inputs]
            name = ufunc.__name__
            if name == "multiply":
                return Dual(vs[0] * vs[1], ds[0] * vs[1] + vs[0] * ds[1])
            if name == "add":
                return Dual(vs[0] + vs[1], ds[0] + ds[1])
            if name == "sin":
                return Dual(xp.sin(vs[0]), xp.cos(vs[0]) * ds[0])
            if name == "negative":
                return Dual(-vs[0], -ds[0])
            return NotImplemented

    return Dual


def test_ndarray_operators_mixin():
    assert kd.lib.mixins is np.lib.mixins
    results = []
    for xp in (np, kd):
        Dual = dual_class(xp)
        x = Dual(xp.asarray([0.5, 1.0, 2.0]), xp.ones(3))
        y = xp.sin(x * x) + 3.0 * x + (-x)
        z = xp.asarray([1.0, 1.0, 1.0]) * x
        results.append([np.asarray(t) for t in (y.v, y.d, z.v, z.d)])
    for g, e in zip(results[1], results[0], strict=True):
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_array_likes_and_kdsl_types_keep_their_paths():
    """No override for what kdsl reads as an array (``__array__``) or for its own arrays: plain kdsl results."""
    class Wrapped:
        def __array__(self, dtype=None, copy=None):
            return np.array([1.0, 4.0])

    assert isinstance(kd.sqrt(Wrapped()), kd.Array)
    assert isinstance(kd.sum(kd.asarray([1.0, 2.0])), kd.Array)
    assert float(kd.sum(kd.ma.array([1.0, 2.0], mask=[True, False]))) == 2.0
