"""``kd.einsum``'s ``dtype=``, ``casting=``, ``order=`` and ``out=`` as NumPy's: the operands cast to one
computation dtype under ``casting`` (default ``'safe'``), that dtype cast into ``out`` under the same rule,
NumPy's ValueErrors for unknown ``casting``/``order`` and for no operands (NumPy's test_einsum.py:
test_einsum_errors, test_einsum_specific_errors, check_einsum_sums's ``dtype=``)."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


def _run(fn, spec, *ops, **kw):
    """NumPy's result or exception type, then kdsl's, of ``fn(spec, *ops, **kw)``."""
    try:
        want = getattr(np, fn)(spec, *ops, **kw)
    except (TypeError, ValueError) as e:
        want = type(e)
    kops = [kd.asarray(o) for o in ops]
    kkw = {k: (kd.asarray(v) if k == "out" else v) for k, v in kw.items()}
    try:
        got = getattr(kd, fn)(spec, *kops, **kkw)
    except (TypeError, ValueError) as e:
        got = type(e)
    return want, got


@pytest.mark.parametrize("dtype, casting", [("f4", "safe"), ("i4", "safe"), ("i8", "same_kind"), ("f4", "same_kind"),
                                            ("i4", "unsafe"), ("c16", "safe"), ("f8", "no"), ("f4", "equiv")])
@pytest.mark.parametrize("spec, shapes", [("i->", [(4,)]), ("ij,jk->ik", [(2, 3), (3, 2)]), ("ii->", [(3, 3)]),
                                          ("i,i", [(0,), (0,)]), ("ij->j", [(1, 3)])])
def test_dtype_under_casting(spec, shapes, dtype, casting):
    ops = [np.linspace(-2.5, 3.0, int(np.prod(s))).reshape(s) for s in shapes]
    want, got = _run("einsum", spec, *ops, dtype=dtype, casting=casting)
    if isinstance(want, type):
        assert got is want
    else:
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("casting", ["no", "equiv", "safe", "same_kind"])
def test_mixed_operands_under_casting(casting):
    a, b = np.arange(3, dtype=np.float32), np.arange(3.0)
    want, got = _run("einsum", "i,i", a, b, casting=casting)
    if isinstance(want, type):
        assert got is want
    else:
        assert got.dtype == want.dtype and got.item() == want


@pytest.mark.parametrize("op_dtype, out_dtype, casting", [
    ("f8", "i4", "safe"), ("f8", "f4", "safe"), ("f8", "f4", "same_kind"), ("i4", "i8", "safe"),
    ("i4", "f8", "safe"), ("i4", "f4", "safe"), ("f4", "f8", "safe"), ("f8", "i4", "unsafe")])
def test_out_dtype_under_casting(op_dtype, out_dtype, casting):
    x = np.array([[1.5, 2.0, np.inf], [0.0, -1.0, 2.0]]).astype(op_dtype) if op_dtype[0] == "f" else \
        np.arange(6, dtype=op_dtype).reshape(2, 3)
    out = np.zeros(2, out_dtype)
    want, got = _run("einsum", "ij->i", x, out=out, casting=casting)
    if isinstance(want, type):
        assert got is want
    else:
        with np.errstate(invalid="ignore"):
            assert got.dtype == want.dtype
        if out_dtype[0] == "f":  # an unsafe inf -> int cast is undefined in both
            np.testing.assert_array_equal(got.numpy(), want)


def test_out_of_a_strided_view_is_written():
    base = np.zeros((3, 4))
    x = np.arange(12.0).reshape(3, 4)[:, ::2]
    np.einsum("ij->i", x, out=base[:, 1])
    kbase = kd.asarray(np.zeros((3, 4)))
    kd.einsum("ij->i", kd.asarray(np.arange(12.0).reshape(3, 4))[:, ::2], out=kbase[:, 1])
    np.testing.assert_array_equal(kbase.numpy(), base)


@pytest.mark.parametrize("kw", [dict(casting="blah"), dict(casting="same_value"), dict(order="W"), dict(order="d")])
def test_unknown_keywords_raise_value_error(kw):
    want, got = _run("einsum", "i->i", np.arange(3.0), **kw)
    assert want is ValueError and got is ValueError


@pytest.mark.parametrize("fn", ["einsum", "einsum_path"])
def test_no_operands_raise_value_error(fn):
    with pytest.raises(ValueError):
        getattr(np, fn)()
    with pytest.raises(ValueError):
        getattr(kd, fn)()


def test_non_array_out_raises_type_error():
    with pytest.raises(TypeError):
        kd.einsum("i->", kd.arange(3.0), out="test")


def test_bools_into_out_and_nan():
    a = np.array([[True, False], [True, True]])
    want = np.einsum("ij,jk->ik", a, a)
    got = kd.einsum("ij,jk->ik", kd.asarray(a), kd.asarray(a))
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.numpy(), want)
    x = np.array([np.nan, 1.0, -np.inf])
    want = np.einsum("i,i->", x, x, dtype="f4", casting="same_kind")
    got = kd.einsum("i,i->", kd.asarray(x), kd.asarray(x), dtype="f4", casting="same_kind")
    assert got.dtype == want.dtype and np.isnan(got.item()) and np.isnan(want)


def test_float32_default_out_names_the_fix():
    # porting19: out = np.empty(shape) is float32 in kdsl; float64 operands then need NumPy's float64 out
    a = np.ones((2, 3))
    with pytest.raises(TypeError, match=r"rule 'safe' \(kdsl's default float32 .*dtype=np.float64"):
        kd.einsum("ij->i", a, out=kd.empty(2))
    out = kd.empty(2)
    kd.einsum("ij->i", a, out=out, casting="same_kind")
    assert out.tolist() == [3.0, 3.0]
