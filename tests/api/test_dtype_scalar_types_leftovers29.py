"""The dtype questions a port asks, answered with NumPy's kinds of objects: ``common_type`` is NumPy's scalar
type (**kdsl returned its DType, so `kd.common_type(a) is np.float64` and `np.common_type(kd_a) is np.float64`
were silently False**); the others give kdsl DTypes that compare equal to NumPy's dtypes and scalar types and
convert with ``np.dtype``."""

import numpy as np
import pytest
from api_testing import sample

import kdsl as kd

COMBOS = [["float32"], ["float64"], ["float16"], ["int8"], ["int64", "float32"], ["uint8", "float16"],
          ["complex64"], ["complex64", "float64"], ["int32", "complex128"], ["float16", "float32"]]


def _arrays(dtypes, shape, layout):
    hosts = [sample(shape, d, seed=i) for i, d in enumerate(dtypes)]
    arrays = [kd.asarray(h) for h in hosts]
    if layout == "strided":
        arrays = [a[::2] for a in arrays]
        hosts = [h[::2] for h in hosts]
    return hosts, arrays


@pytest.mark.parametrize("shape", [(0,), (1,), (5,), (2, 3)], ids=str)
@pytest.mark.parametrize("layout", ["contiguous", "strided"])
@pytest.mark.parametrize("dtypes", COMBOS, ids="-".join)
def test_common_type_is_numpys_scalar_type(dtypes, shape, layout):
    hosts, arrays = _arrays(dtypes, shape, layout)
    want = np.common_type(*hosts)
    assert kd.common_type(*arrays) is want
    assert np.common_type(*arrays) is want  # NumPy's function dispatches to kdsl's
    converted = arrays[0].astype(kd.common_type(*arrays))
    assert converted.dtype == want and converted.dtype == hosts[0].astype(want).dtype


def test_common_type_of_a_zero_d_array_and_bool_error():
    assert kd.common_type(kd.asarray(3)) is np.common_type(np.asarray(3)) is np.float64
    with pytest.raises(TypeError, match="can't get common type for non-numeric array"):
        kd.common_type(kd.zeros(2, dtype=kd.bool))


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64", "int8", "uint16", "int32", "int64",
                                   "complex64", "complex128", "bool"])
def test_dtype_answers_compare_equal_to_numpys(dtype):
    host = sample((3,), dtype, seed=1)
    a = kd.asarray(host)
    assert a.dtype.type is host.dtype.type
    assert a.dtype == host.dtype and a.dtype == host.dtype.type and np.dtype(a.dtype) is host.dtype
    for attr in ("kind", "char", "itemsize", "name", "str", "num", "byteorder"):
        assert getattr(a.dtype, attr) == getattr(host.dtype, attr), attr
    assert kd.result_type(a, np.int8) == np.result_type(host, np.int8)
    assert np.result_type(a, np.float32) == np.result_type(host, np.float32)  # (a Python float: kdsl's float32)
    assert kd.promote_types(a.dtype, np.float32) == np.promote_types(host.dtype, np.float32)
    assert kd.min_scalar_type(a) == np.min_scalar_type(host)
    for target in (np.int32, np.float32, np.complex64):
        for casting in ("safe", "same_kind", "unsafe"):
            assert kd.can_cast(a, target, casting) == np.can_cast(host.dtype, target, casting)
    scalar = getattr(kd, dtype)(3) if dtype != "bool" else kd.bool_(3)
    assert type(scalar) is host.dtype.type


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_finfo_fields_match_numpy(dtype):
    got, want = kd.finfo(getattr(kd, dtype)), np.finfo(getattr(np, dtype))
    for field in ("eps", "max", "min", "tiny", "smallest_normal", "resolution", "epsneg", "bits", "nmant",
                  "nexp", "precision", "maxexp", "minexp"):
        assert getattr(got, field) == getattr(want, field), field
    assert got.dtype == want.dtype and np.dtype(got.dtype) is want.dtype


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "uint64", "int64"])
def test_iinfo_fields_match_numpy(dtype):
    got, want = kd.iinfo(getattr(kd, dtype)), np.iinfo(getattr(np, dtype))
    assert (got.min, got.max, got.bits, got.kind) == (want.min, want.max, want.bits, want.kind)
    assert got.dtype == want.dtype and np.dtype(got.dtype) is want.dtype
