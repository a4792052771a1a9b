"""``a.dtype = t`` (NumPy's ``test_arrayobject``/``test_multiarray`` dtype assignment): the array itself becomes
its view as ``t``, with ``view``'s rules and errors; views of it and its base keep sharing the bytes. kdsl's
``dtype`` had no setter (AttributeError). Each case runs on NumPy and kdsl and compares."""

import numpy as np
import pytest

import kdsl as kd


def outcome(f, xp):
    try:
        return f(xp)
    except Exception as exc:  # noqa: BLE001 - the comparison is the test
        # NumPy's sentence; kdsl may add what to do after "; " or the sizes in " (...)"
        return type(exc).__name__, str(exc).split(";")[0].split(" (")[0].rstrip(".")


def retyped(xp, src, shape, target):  # (bool is left out: kdsl stores bools as 0 or 1, docs/numpy-api.md)
    a = xp.asarray(np.arange(np.prod(shape)).astype(src).reshape(shape))
    a.dtype = target
    return a.shape, a.dtype.name, np.asarray(a).tobytes(), a.strides


@pytest.mark.parametrize("src,target", [("int32", "float32"), ("float32", "uint32"), ("int32", "int16"),
                                        ("int16", "int32"), ("int32", "uint8"),
                                        ("float32", "int32")])
@pytest.mark.parametrize("shape", [(6,), (2, 4), (3, 2, 2), (0, 4)])
def test_dtype_assignment(src, target, shape):
    assert outcome(lambda xp: retyped(xp, src, shape, target), kd) == outcome(
        lambda xp: retyped(xp, src, shape, target), np)


@pytest.mark.parametrize("case", [
    lambda xp: xp.arange(6, dtype="int32").reshape(2, 3).T,  # last axis not contiguous
    lambda xp: xp.asarray(3, dtype="int32"),  # 0-d, another itemsize
    lambda xp: xp.arange(3, dtype="int32"),  # 12 bytes are no multiple of 8
])
def test_dtype_assignment_errors(case):
    def run(xp):
        a = case(xp)
        a.dtype = np.int16 if a.ndim != 1 else np.int64
        return np.asarray(a).tolist()

    assert outcome(run, kd) == outcome(run, np)


def test_views_of_the_array_keep_their_dtype():
    def run(xp):
        a = xp.arange(6, dtype="int32").reshape(2, 3)
        row = a[1]
        a.dtype = np.uint32
        a[1, 0] = 7
        return np.asarray(row).tolist(), row.dtype.name, np.asarray(a).tolist()

    assert run(kd) == run(np)


@pytest.mark.parametrize("target", ["int16", "float32", "uint8"])
def test_a_view_retyped_writes_its_base(target):
    def run(xp):
        b = xp.arange(8, dtype="int32")
        v = b[2:6]
        v.dtype = target
        v[0] = 1
        b[5] = 1065353216  # 1.0f's bits: the view reads them
        return np.asarray(b).tolist(), np.asarray(v).tolist()

    assert run(kd) == run(np)


def test_strides_assignment_names_as_strided():
    a = kd.arange(6, dtype="int32")
    with pytest.raises(AttributeError, match=r"kd\.lib\.stride_tricks\.as_strided"):
        a.strides = (8,)
    view = kd.lib.stride_tricks.as_strided(a, (3,), (8,))  # what the message says to do, as NumPy's
    np.testing.assert_array_equal(np.asarray(view), np.lib.stride_tricks.as_strided(np.arange(6, dtype="int32"),
                                                                                    (3,), (8,)))
    assert a.strides == (4,)


def test_ctypes_names_the_host_copy():
    a = kd.arange(3)
    with pytest.raises(AttributeError, match=r"np\.asarray\(a\)\.ctypes"):
        _ = a.ctypes
    assert not hasattr(a, "ctypes") and hasattr(np.asarray(a), "ctypes")
