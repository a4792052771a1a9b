"""kd.finfo/kd.iinfo answer NumPy's attributes: the array API's fields as Python floats (its rule), NumPy's
others (tiny, resolution, epsneg, nmant...) as NumPy's own values and types."""

import numpy as np
import pytest

import kdsl as kd
from kdsl.frontend.array.api_info import NUMPY_FINFO


@pytest.mark.parametrize("name", ["float16", "float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("attr", NUMPY_FINFO)
def test_numpy_finfo_attributes(name, attr):
    got, ref = getattr(kd.finfo(getattr(kd, name)), attr), getattr(np.finfo(name), attr)
    assert type(got) is type(ref) and got == ref


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_standard_fields_are_numpys_values(name):
    f, ref = kd.finfo(kd.ones(2, dtype=name)[::2]), np.finfo(name)
    for attr in ("eps", "max", "min", "smallest_normal"):
        assert isinstance(getattr(f, attr), float) and getattr(f, attr) == getattr(ref, attr)
    assert f.eps * 10 == pytest.approx(float(ref.eps * 10), rel=1e-6)


def test_unknown_attribute_raises():
    with pytest.raises(AttributeError, match="nope"):
        kd.finfo(kd.float32).nope  # noqa: B018 - the attribute access is the test


@pytest.mark.parametrize("name", ["int8", "uint8", "int32", "uint64"])
def test_iinfo_kind(name):
    i, ref = kd.iinfo(getattr(kd, name)), np.iinfo(name)
    assert (i.kind, i.bits, i.min, i.max) == (ref.kind, ref.bits, ref.min, ref.max)
