"""A ufunc call's ``signature=`` (and ``sig=``) is checked as NumPy checks it: a type string with the ufunc's
operand counts around ``->``, a tuple of ``nin + nout`` entries, NumPy's errors otherwise (kdsl read a short
string or tuple as its one dtype). NumPy's test_ufunc.py: test_signature_errors."""

from __future__ import annotations

import numpy as np
import pytest

import kdsl as kd


@pytest.mark.parametrize("signature, error", [
    (123.0, TypeError), (["i", "i", "i"], TypeError), ("%^->#", ValueError), (b"ii-i", ValueError),
    ("ii>i", ValueError), ("i->i", ValueError), ("iii->i", ValueError), ((None, "f8"), ValueError),
    ((None, None, None, "f8"), ValueError), (b"\xff\xff->i", UnicodeDecodeError)])
def test_bad_signatures_raise_numpys_error(signature, error):
    with pytest.raises(error):
        np.add(3, 4, signature=signature)
    with pytest.raises(error):
        kd.add(3, 4, signature=signature)
    with pytest.raises(error):
        kd.add(kd.arange(3), 4, sig=signature)


@pytest.mark.parametrize("name, signature", [("sqrt", "d->d"), ("negative", "f->f"), ("divmod", "dd->dd"),
                                             ("add", (None, None, "f8")), ("add", b"ff->f")])
@pytest.mark.parametrize("shape", [(0,), (1,), (2, 3)])
def test_good_signatures(name, signature, shape):
    f_np, f_kd = getattr(np, name), getattr(kd, name)
    a = np.linspace(0.5, 4, max(1, int(np.prod(shape))))[: int(np.prod(shape))].reshape(shape).astype(np.float32)
    args_np = (a,) * f_np.nin
    want = f_np(*args_np, signature=signature)
    got = f_kd(*(kd.asarray(x) for x in args_np), signature=signature)
    for w, g in zip(want if isinstance(want, tuple) else (want,), got if isinstance(got, tuple) else (got,),
                    strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.numpy(), w)


def test_unary_signature_counts():
    with pytest.raises(ValueError):
        np.sqrt(np.ones(2), signature="dd->d")
    with pytest.raises(ValueError):
        kd.sqrt(kd.ones(2), signature="dd->d")
