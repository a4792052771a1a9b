"""Three or more dtypes promote as NumPy's result_type, in any order (NumPy's test_dtype.py
test_permutations_do_not_influence_result): (uint16, int16, float16) is float32, not the float64 a pairwise fold
gives. np.array's own discovery is that fold, and kd.array of a list of arrays keeps it."""

import itertools

import numpy as np
import pytest

import kdsl as kd

NAMES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
         "float64", "complex64", "complex128"]


def test_result_type_of_every_dtype_triple():
    bad = [t for t in itertools.product(NAMES, repeat=3)
           if kd.result_type(*(getattr(kd, n) for n in t)).name != np.result_type(*t).name]
    assert bad == []


@pytest.mark.parametrize("dtypes", [("uint16", "int16", "float16"), ("uint8", "int16", "float16"),
                                    ("uint32", "int8", "float32"), ("uint64", "int8", "float16", "bool")])
def test_result_type_ignores_order(dtypes):
    for perm in itertools.permutations(dtypes):
        assert kd.result_type(*perm).name == np.result_type(*perm).name
        arrays = [np.zeros((2, 1), d) for d in perm]
        assert kd.result_type(*arrays).name == np.result_type(*perm).name


def _pieces(dtypes, shape):
    host = [(np.arange(np.prod(shape, dtype=int)).reshape(shape) % 3).astype(d) for d in dtypes]
    return host, [kd.asarray(h) for h in host]


@pytest.mark.parametrize("dtypes", [("uint16", "int16", "float16"), ("float16", "uint16", "int16"),
                                    ("uint8", "int16", "float16"), ("uint32", "int8", "float32")])
@pytest.mark.parametrize("shape", [(0,), (1,), (4,), (3, 2)])
def test_joins_take_result_type(dtypes, shape):
    host, dev = _pieces(dtypes, shape)
    for name in ("concatenate", "stack", "vstack", "hstack"):
        got, ref = getattr(kd, name)(dev), getattr(np, name)(host)
        assert got.dtype.name == ref.dtype.name
        np.testing.assert_array_equal(got.numpy(), ref)


def test_joins_of_views_and_specials():
    # NaN/inf survive the promotion; strided views (every other element, a column) join as NumPy's
    host = [np.array([np.nan, np.inf, -1.0], "float16"), np.arange(6, dtype="uint16")[::2],
            np.arange(6, dtype="int16").reshape(3, 2)[:, 1]]
    dev = [kd.asarray(host[0]), kd.arange(6, dtype="uint16")[::2], kd.arange(6, dtype="int16").reshape(3, 2)[:, 1]]
    got, ref = kd.concatenate(dev), np.concatenate(host)
    assert got.dtype.name == ref.dtype.name == "float32"
    np.testing.assert_array_equal(got.numpy(), ref)


@pytest.mark.parametrize("dtypes", [("uint16", "int16", "float16"), ("float16", "uint16", "int16"),
                                    ("int8", "uint8", "float16")])
def test_array_of_arrays_keeps_numpys_fold(dtypes):
    host, dev = _pieces(dtypes, (2,))
    got, ref = kd.array(dev), np.array(host)
    assert got.dtype.name == ref.dtype.name
    np.testing.assert_array_equal(got.numpy(), ref)
