"""kd.can_cast tells byte orders apart as np.can_cast does (NumPy's test_numeric.py TestTypes.test_can_cast):
``can_cast('<i8', '>i8', 'no')`` is False, 'equiv' True; kdsl's arrays are native. None and Python numbers
are TypeErrors, as NumPy's."""

import itertools
import sys

import numpy as np
import pytest

import kdsl as kd

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
CODES = ["i1", "u2", "i4", "u4", "i8", "f2", "f4", "f8", "c8", "c16"]
OTHER = ">" if sys.byteorder == "little" else "<"
NATIVE = "<" if OTHER == ">" else ">"


@pytest.mark.parametrize("casting", CASTINGS)
def test_spellings_with_byte_orders(casting):
    bad = []
    for a, b in itertools.product(CODES, repeat=2):
        for fa, fb in itertools.product((NATIVE, OTHER, "="), repeat=2):
            x, y = fa + a, fb + b
            if kd.can_cast(x, y, casting) != np.can_cast(x, y, casting):
                bad.append((x, y))
    assert bad == []


@pytest.mark.parametrize("casting", CASTINGS)
@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
def test_arrays_with_byte_orders(casting, shape):
    for code in ("i2", "f4", "f8", "c8"):
        foreign = np.zeros(shape, OTHER + code)
        assert kd.can_cast(foreign, code, casting) == np.can_cast(foreign, code, casting)
        assert kd.can_cast(foreign, OTHER + code, casting) == np.can_cast(foreign, OTHER + code, casting)
        dev = kd.zeros(shape, dtype=code)[..., ::2]  # a kdsl array (a view too) is native
        host = np.zeros(shape, code)[..., ::2]
        assert kd.can_cast(dev, OTHER + code, casting) == np.can_cast(host, OTHER + code, casting)
        assert kd.can_cast(dev, code, casting) == np.can_cast(host, code, casting)


def test_kdsl_dtypes_unchanged():
    assert kd.can_cast(kd.int8, kd.float32) and not kd.can_cast(kd.float32, kd.int32)
    assert kd.can_cast(kd.int64, kd.int64, "no") and kd.can_cast(np.float16(np.nan), kd.float32)


@pytest.mark.parametrize("args", [("i4", None), (None, "i4"), (None, None), (1, "i4"), (1.5, kd.float32),
                                  (True, "bool"), (1j, "c8")])
def test_none_and_python_numbers_are_type_errors(args):
    with pytest.raises(TypeError):
        np.can_cast(*args)
    with pytest.raises(TypeError):
        kd.can_cast(*args)


def test_numpy_scalars_and_keywords():
    for x in (np.int32(1), np.float64(np.nan), np.float16(-np.inf), np.uint8(0)):
        for to in ("i2", "f4", "f8", "c8"):
            assert kd.can_cast(x, to) == np.can_cast(x, to)
    assert kd.can_cast(from_=np.int32, to=np.int64)
