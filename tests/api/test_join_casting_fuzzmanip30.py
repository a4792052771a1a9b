"""Joins' ``casting=`` without ``dtype=`` and ``reshape(copy=False, order='F')`` as NumPy's (found by differential
fuzzing): ``concatenate``/``stack``/``hstack``/``vstack`` with ``casting='no'``/``'equiv'`` refuse inputs of
another dtype than the result's (they joined them); a dtype that an input may not cast to is refused only after
the shapes are checked (NumPy's ValueError for mismatched shapes comes first); ``reshape(..., order='F',
copy=False)`` raises where NumPy's would copy (it copied silently)."""

import numpy as np
import pytest

import kdsl as kd

JOINS = [("concatenate", {"axis": 0}), ("concatenate", {"axis": None}), ("stack", {}), ("stack", {"axis": -1}),
         ("hstack", {}), ("vstack", {})]


def _both(name, arrays, **kw):
    """(NumPy's outcome, kdsl's): the result, or the exception class."""
    out = []
    for xp, conv in ((np, np.asarray), (kd, kd.asarray)):
        try:
            out.append(np.asarray(getattr(xp, name)([conv(a) for a in arrays], **kw)))
        except (TypeError, ValueError) as e:
            out.append(type(e))
    return out


@pytest.mark.parametrize(("name", "kw"), JOINS)
@pytest.mark.parametrize("casting", ["no", "equiv"])
@pytest.mark.parametrize(("dt1", "dt2"), [("int8", "int32"), ("uint8", "float64"), ("float32", "float32"),
                                          ("bool", "bool"), ("complex64", "float16")])
def test_strict_casting_without_dtype_refuses_other_dtypes(name, kw, casting, dt1, dt2):
    a, b = (np.arange(6) % 3).astype(dt1).reshape(2, 3), np.ones((2, 3), dt2)
    want, got = _both(name, [a, b, a.T.T[:, ::-1]], casting=casting, **kw)
    if isinstance(want, type):
        assert got is want
    else:
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)


def test_strict_casting_message_names_the_rule():
    with pytest.raises(TypeError, match="dtype\\('int8'\\) to dtype\\('int32'\\) according to the rule 'no'"):
        kd.concatenate([kd.ones(2, kd.int8), kd.ones(2, kd.int32)], casting="no")


@pytest.mark.parametrize("name", ["concatenate", "vstack"])
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int64"])
def test_shape_mismatch_is_reported_before_an_unsafe_dtype(name, dtype):
    arrays = [np.ones((2, 3), np.complex64), np.ones((2, 4), np.float32)] if name == "concatenate" else \
        [np.ones(3, np.complex64), np.ones(4, np.float32)]
    want, got = _both(name, arrays, dtype=dtype)
    assert want is ValueError and got is ValueError


def test_unsafe_dtype_is_still_refused_after_the_shapes():
    with pytest.raises(TypeError, match="same_kind"):
        kd.concatenate([kd.ones((2, 3), kd.complex64), kd.ones((1, 3))], dtype=kd.int32)


def _fortran(xp):
    data = np.arange(12.0).reshape(3, 4)
    return kd.asarray(data.T.copy()).T if xp is kd else np.asfortranarray(data)


def _cases():
    c = np.arange(24, dtype=np.int16).reshape(2, 3, 4)
    return [("c-contiguous", lambda xp: xp.asarray(c)), ("bool(1,3,3)", lambda xp: xp.ones((1, 3, 3), bool)),
            ("strided", lambda xp: xp.asarray(c)[:, :, ::2]), ("reversed", lambda xp: xp.asarray(c)[::-1]),
            ("transposed", lambda xp: xp.asarray(c).T), ("fortran", _fortran), ("empty", lambda xp: xp.ones((0, 3)))]


@pytest.mark.parametrize(("label", "make"), _cases(), ids=[c[0] for c in _cases()])
@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("shape", [(-1,), (2, -1), (-1, 2), (1, -1, 1)])
def test_reshape_copy_false_raises_exactly_where_numpy_copies(label, make, order, shape):
    a = make(np)
    try:
        want = np.reshape(a, shape, order=order, copy=False)
    except ValueError as e:
        match = "without a copy" if "copy" in str(e) else "cannot reshape"
        with pytest.raises(ValueError, match=match):
            kd.reshape(make(kd), shape, order=order, copy=False)
        with pytest.raises(ValueError, match=match):
            make(kd).reshape(shape, order=order, copy=False)
        return
    got = kd.reshape(make(kd), shape, order=order, copy=False)
    np.testing.assert_array_equal(got.numpy(), want)
    assert got.shape == want.shape
