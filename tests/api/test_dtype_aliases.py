"""NumPy's alias dtype names (np.double, np.intc, np.int_ ...) and kd.ndarray, checked against NumPy 2."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.dtype import as_dtype

ALIASES = ["double", "single", "half", "intc", "uintc", "short", "ushort", "byte", "ubyte", "longlong",
           "ulonglong", "intp", "uintp", "int_", "uint", "long", "ulong", "csingle", "cdouble"]


@pytest.mark.parametrize("name", ALIASES)
def test_alias_is_numpys_width(name):
    alias = getattr(kd, name)
    assert isinstance(alias, kd.DType)
    assert alias.np == np.dtype(getattr(np, name))
    assert as_dtype(getattr(np, name)) is alias  # NumPy's spelling of the same type maps to it


@pytest.mark.parametrize("name", ALIASES)
def test_alias_works_as_a_dtype(name):
    alias = getattr(kd, name)
    z = kd.zeros((2, 3), dtype=alias)
    assert z.dtype is alias and z.numpy().dtype == np.dtype(getattr(np, name))
    host = np.arange(6).reshape(2, 3)[:, ::2]
    got = kd.asarray(host).astype(alias)
    np.testing.assert_array_equal(got.numpy(), host.astype(getattr(np, name)))
    assert kd.ones(0, dtype=alias).numpy().dtype == np.dtype(getattr(np, name))
    assert np.dtype(alias) == np.dtype(getattr(np, name))


def test_ndarray_is_the_array_type():
    a = kd.arange(6).reshape(2, 3)
    assert kd.ndarray is kd.Array
    assert isinstance(a, kd.ndarray) and isinstance(a.T, kd.ndarray) and isinstance(a[::2], kd.ndarray)
    assert not isinstance(np.zeros(2), kd.ndarray)


def test_scalar_constructor_of_an_alias():
    assert kd.double(1.5) == np.double(1.5)
    assert type(kd.intc(3)) is type(np.intc(3))


@pytest.mark.parametrize("name,hint", [("float_", "kd.float32"), ("matrix", "2-D arrays")])
def test_names_kdsl_still_lacks_keep_their_hints(name, hint):
    with pytest.raises(AttributeError, match=hint):
        getattr(kd, name)


@pytest.mark.parametrize("name", ALIASES)
def test_alias_in_dtype_questions(name):
    alias, ref = getattr(kd, name), np.dtype(getattr(np, name))
    info = kd.finfo(alias) if ref.kind in "fc" else kd.iinfo(alias)
    ref_info = np.finfo(ref) if ref.kind in "fc" else np.iinfo(ref)
    assert info.bits == ref_info.bits and info.max == ref_info.max
    for abstract in ("floating", "integer", "signedinteger", "unsignedinteger", "complexfloating"):
        assert kd.issubdtype(alias, getattr(kd, abstract)) == np.issubdtype(ref, getattr(np, abstract))
    assert kd.result_type(alias, kd.int8).np == np.result_type(ref, np.int8)
