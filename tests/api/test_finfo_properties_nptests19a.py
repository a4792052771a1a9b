"""NumPy's ``test_finfo.py`` and the parts of ``test_getlimits.py`` that tests/api/test_machine_limits_nptests14b.py
does not port: every machine-arithmetic property of kd.finfo (NumPy's values and types), type codes, kdsl
scalars standing for their dtype, the unsigned maxima, and float32's finfo differing from float64's."""

import numpy as np
import pytest

import kdsl as kd

PROPS = ("bits", "eps", "epsneg", "iexp", "machep", "max", "maxexp", "min", "minexp", "negep", "nexp", "nmant",
         "precision", "resolution", "tiny", "smallest_normal", "smallest_subnormal")
CODES = {"f2": "float16", "e": "float16", "f4": "float32", "f": "float32", "f8": "float64", "d": "float64",
         "c8": "float32", "F": "float32", "c16": "float64", "D": "float64"}


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_finfo_properties_are_numpys(name):
    f, ref = kd.finfo(getattr(kd, name)), np.finfo(name)
    for prop in PROPS:
        assert getattr(f, prop) == getattr(ref, prop), prop
    for prop in ("machep", "negep", "minexp", "maxexp", "nmant", "iexp", "precision", "bits"):
        assert type(getattr(f, prop)) is int, prop  # NumPy's ints, not scalars
    # NumPy's MachArLike relations (test_finfo.py): eps = 2**-nmant, epsneg = 2**negep, resolution = 10**-precision
    assert f.eps == 2.0 ** -f.nmant and f.epsneg == 2.0 ** f.negep and f.resolution == 10.0 ** -f.precision


@pytest.mark.parametrize("code", list(CODES))
def test_type_codes_give_the_component_dtype(code):
    f = kd.finfo(code)
    assert f is kd.finfo(getattr(kd, CODES[code])) and repr(f) == repr(np.finfo(code))
    for prop in PROPS:
        assert getattr(f, prop) == getattr(np.finfo(code), prop), prop


@pytest.mark.parametrize("name", ["float16", "float32", "float64"])
def test_kdsl_scalars_stand_for_their_dtype(name):
    x = getattr(kd, name)(1.2)
    assert kd.finfo(x) is kd.finfo(getattr(kd, name)) and kd.finfo(x).dtype is getattr(kd, name)
    assert kd.finfo(kd.asarray(x)) is kd.finfo(x)


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"])
def test_iinfo_of_scalars_and_unsigned_max(name):
    t = getattr(kd, name)
    assert kd.iinfo(t(12)) is kd.iinfo(t) and kd.iinfo(np.dtype(name).str) is kd.iinfo(t)
    if name.startswith("u"):  # NumPy's test_unsigned_max: 0 - 1 wraps to the maximum
        assert kd.iinfo(t).max == int((kd.zeros(1, dtype=t) - 1)[0]) == np.iinfo(name).max
    assert kd.iinfo(t).kind == np.iinfo(name).kind


def test_float32_and_float64_differ():  # gh-23108: 1.0 in float32 and float64 are equal, their finfos are not
    assert kd.finfo(kd.float32(1.0)) != kd.finfo(kd.float64(1.0))
    assert kd.finfo(np.float32(1.0)) != kd.finfo(np.float64(1.0))


def test_plausible_and_no_warnings(recwarn):
    for name in ("float16", "float32", "float64", "complex64", "complex128"):
        f = kd.finfo(name)
        assert f.nmant > 1 and f.minexp < -1 and f.maxexp > 1 and f.smallest_subnormal > 0
    assert len(recwarn) == 0
