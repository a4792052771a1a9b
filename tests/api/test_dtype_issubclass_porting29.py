"""``issubclass`` with a kdsl dtype as its first argument, as ported NumPy code writes it with NumPy's scalar types.

``def quantise(x, dtype=np.int16): if issubclass(dtype, np.integer): ...`` ported to kdsl passes ``kd.int16``, a
dtype object rather than a class: ``issubclass(kd.int16, kd.integer)`` raised "TypeError: issubclass() arg 1
must be a class", and ``issubclass(kd.float32, kd.float32)`` was False. A kdsl dtype now stands for its scalar type
on either side (``DType.__bases__``, ``DType.__subclasscheck__``).
"""

import numpy as np
import pytest

import kdsl as kd

_NAMES = ["bool_", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64", "complex64", "complex128"]
_BASES = ["generic", "number", "integer", "signedinteger", "unsignedinteger", "inexact", "floating",
          "complexfloating", "bool_"]


@pytest.mark.parametrize("name", _NAMES)
@pytest.mark.parametrize("base", _BASES)
def test_abstract_bases_as_numpy(name, base):
    assert issubclass(getattr(kd, name), getattr(kd, base)) is issubclass(getattr(np, name), getattr(np, base))
    assert issubclass(getattr(kd, name), getattr(np, base)) is issubclass(getattr(np, name), getattr(np, base))


@pytest.mark.parametrize("name", _NAMES)
@pytest.mark.parametrize("other", ["float32", "float64", "int64", "bool_"])
def test_dtype_on_both_sides(name, other):
    expected = issubclass(getattr(np, name), getattr(np, other))
    assert issubclass(getattr(kd, name), getattr(kd, other)) is expected
    assert issubclass(getattr(np, name), getattr(kd, other)) is expected
    assert issubclass(getattr(kd, name), getattr(np, other)) is expected


@pytest.mark.parametrize("name", _NAMES)
def test_python_types_and_tuples(name):
    k, n = getattr(kd, name), getattr(np, name)
    for py in (int, float, complex, bool, object):
        assert issubclass(k, py) is issubclass(n, py)
    assert issubclass(k, (kd.integer, kd.floating)) is issubclass(n, (np.integer, np.floating))
    assert issubclass(k, (np.bool_, kd.complexfloating)) is issubclass(n, (np.bool_, np.complexfloating))


def test_ported_dtype_dispatch():
    def limits(np, dtype):
        if issubclass(dtype, np.integer):
            info = np.iinfo(dtype)
            return "int", int(info.min), int(info.max)
        if issubclass(dtype, np.floating):
            return "float", float(np.finfo(dtype).eps), float(np.finfo(dtype).max)
        return "other", 0, 0

    for name in ("int8", "uint16", "float32", "float64", "complex64"):
        assert limits(kd, getattr(kd, name)) == limits(np, getattr(np, name))


def test_still_not_a_class():
    # the dtype only answers issubclass; it is not a type (isinstance(kd.float64, type) is False: documented)
    assert not isinstance(kd.float64, type)
    assert kd.float64.__bases__ == (np.float64,)
    with pytest.raises(TypeError, match="must be a class"):
        issubclass(3, kd.floating)
