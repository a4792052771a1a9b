"""In-place operators that cannot cast their result back raise NumPy's exception (a subclass of NumPy's
``UFuncTypeError`` class, so ``except`` clauses written for NumPy catch it) whose message starts with NumPy's,
naming NumPy's ufunc (``'divide'``, not the operator); the dtype is checked before the shapes, as NumPy does."""

import operator

import numpy as np
import pytest

import kdsl as kd

OPS = ["iadd", "isub", "imul", "itruediv", "ifloordiv", "imod", "ipow", "iand", "ior", "ixor", "ilshift",
       "irshift", "imatmul"]

# (target, operand): operand arrays have explicit dtypes, so NumPy and kdsl agree on the result dtype
CASES = {
    "int64 by float64": (np.arange(1, 5, dtype=np.int64).reshape(2, 2), np.full((2, 2), 2.0)),
    "int64 by int64": (np.arange(1, 5, dtype=np.int64).reshape(2, 2), np.full((2, 2), 2, np.int64)),
    "int64 by python int": (np.arange(1, 5, dtype=np.int64).reshape(2, 2), 2),
    "bool by bool": (np.array([[True, False], [True, True]]), np.ones((2, 2), bool)),
    "bool by int8": (np.array([[True, False], [True, True]]), np.ones((2, 2), np.int8)),
    "uint8 by int16": (np.array([[1, 2], [3, 4]], np.uint8), np.ones((2, 2), np.int16)),
    "float32 by complex64": (np.ones((2, 2), np.float32), np.ones((2, 2), np.complex64)),
    "float64 by float64 strided": (np.ones((4, 2))[::2], np.full((4, 2), 2.0)[1::2]),
    "int32 transposed by float32": (np.arange(4, dtype=np.int32).reshape(2, 2).T, np.ones((2, 2), np.float32)),
    "int64 by broadcast float64": (np.arange(3, dtype=np.int64), np.ones((2, 3))),  # dtype before shape
    "int64 by broadcast int64": (np.arange(1, 4, dtype=np.int64), np.ones((2, 3), np.int64)),
    "empty int64 by float64": (np.zeros((0, 2), np.int64), np.ones((0, 2))),
}


def _run(m, name, target, operand):
    a = m.asarray(target.copy() if target.flags.owndata else target)
    b = m.asarray(operand) if isinstance(operand, np.ndarray) else operand
    try:
        getattr(operator, name)(a, b)
    except (TypeError, ValueError) as e:
        return e
    return None


@pytest.mark.parametrize("name", OPS)
@pytest.mark.parametrize("case", list(CASES))
def test_error_matches_numpy(name, case):
    target, operand = CASES[case]
    want, got = _run(np, name, target, operand), _run(kd, name, target, operand)
    if want is None:
        assert got is None
        return
    assert got is not None, f"NumPy raised {want!r}"
    if isinstance(want, TypeError) and str(want).startswith("Cannot cast"):
        assert isinstance(got, type(want)), (type(got).__mro__, type(want))
        assert str(got).startswith(str(want))
        assert "a = a" in str(got)  # kdsl's hint: the out-of-place form
    else:
        assert isinstance(got, ValueError if isinstance(want, ValueError) else TypeError)


@pytest.mark.parametrize("op, ufunc", [("itruediv", "divide"), ("isub", "subtract"), ("imod", "remainder"),
                                       ("ifloordiv", "floor_divide"), ("ipow", "power"), ("ilshift", "left_shift"),
                                       ("irshift", "right_shift"), ("ixor", "bitwise_xor"), ("imul", "multiply")])
def test_names_numpys_ufunc(op, ufunc):
    a = kd.asarray([True, False])  # every one of these ops makes an int from a bool and a Python int
    with pytest.raises(TypeError, match=f"Cannot cast ufunc '{ufunc}' output from dtype"):
        getattr(operator, op)(a, 2)


def test_numpy_except_clause_catches_it():
    a = kd.arange(3)
    numpy_class = type(_run(np, "itruediv", np.arange(3), 2))
    with pytest.raises(numpy_class):
        a /= 2
    assert a.tolist() == [0, 1, 2]  # nothing written


@pytest.mark.parametrize("kwargs, numpy_error", [({"out": "int"}, "output"), ({"dtype": "int8"}, "input")])
def test_ufunc_keywords_raise_numpys_classes(kwargs, numpy_error):
    def call(m):
        x = m.asarray(np.array([1.5, 2.5]))
        kw = {"out": m.zeros(2, dtype=m.int64)} if "out" in kwargs else {"dtype": m.int8, "casting": "same_kind"}
        try:
            m.add(x, x, **kw)
        except TypeError as e:
            return e
        return None

    want, got = call(np), call(kd)
    assert numpy_error in str(want)
    assert isinstance(got, type(want)) and str(got).startswith(str(want))
