"""A ufunc called with ``where=`` but no ``out`` warns as NumPy 2.4's ("'where' used without 'out', expect
uninitialized memory in output..."): any ``where`` but ``True`` itself, unless ``out=None`` is given (kdsl was
silent). kdsl fills the unselected elements with zeros where NumPy leaves them uninitialised."""

import warnings

import numpy as np
import pytest

import kdsl as kd


def _warned(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [str(w.message) for w in caught if w.category is UserWarning]


MASK = [True, False, True]
KEYWORDS = [dict(where=True), dict(where=np.True_), dict(where=False), dict(where=MASK),
            dict(where=MASK, out=None), dict(where=MASK, out=(None,)), dict(where=np.array(True)),
            dict(where=MASK, out=...)]


@pytest.mark.parametrize("kw", range(len(KEYWORDS)))
@pytest.mark.parametrize("name", ["add", "negative", "sqrt", "divmod"])
def test_warns_as_numpy(name, kw):
    keywords = dict(KEYWORDS[kw])
    if name == "divmod" and keywords.get("out", ...) is not ...:
        keywords["out"] = (None, None)
    args = (np.array([1.0, 4.0, 9.0], np.float32),) * getattr(np, name).nin
    want = _warned(lambda: getattr(np, name)(*args, **keywords))
    kd_keywords = {k: kd.asarray(v) if isinstance(v, list) else v for k, v in keywords.items()}
    got = _warned(lambda: getattr(kd, name)(*[kd.asarray(a) for a in args], **kd_keywords))
    # NumPy 2.4 spells it "unitialized", 2.5 "uninitialized" (kdsl's)
    assert got == [w.replace("unitialized", "uninitialized") for w in want]


def test_positional_none_out_warns_array_does_not():
    a = kd.asarray(np.ones(3, np.float32))
    assert len(_warned(lambda: kd.add(a, 1, None, where=kd.asarray(MASK)))) == 1
    out = kd.zeros(3)
    assert _warned(lambda: kd.add(a, 1, out, where=kd.asarray(MASK))) == []
    np.testing.assert_array_equal(out.numpy(), [2, 0, 2])


def test_selected_values_and_empty():
    x = np.array([[1.0, -np.inf], [np.nan, 4.0]], np.float32)[:, ::-1]
    mask = np.array([[True, False], [True, True]])
    with pytest.warns(UserWarning, match="'where' used without 'out'"):
        got = kd.sqrt(kd.asarray(np.array([[1.0, -np.inf], [np.nan, 4.0]], np.float32))[:, ::-1],
                      where=kd.asarray(mask))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = np.sqrt(x, where=mask, out=np.zeros_like(x))
    np.testing.assert_array_equal(got.numpy()[mask], want[mask])
    with pytest.warns(UserWarning):
        assert kd.add(kd.zeros((0, 1)), 1, where=kd.zeros((0, 1), dtype=bool)).shape == (0, 1)


def test_through_numpy_ufunc_protocol():
    a = kd.asarray(np.ones(3, np.float32))
    assert len(_warned(lambda: np.add(a, 1, where=kd.asarray(MASK)))) == 1
    assert _warned(lambda: np.add(a, 1, out=kd.zeros(3), where=kd.asarray(MASK))) == []


@pytest.mark.parametrize("out", [None, "array", "short", "long"])
def test_out_count_checked_as_numpy(out):
    def outs(m, n):
        return {"array": m.zeros(2), "short": (m.zeros(2),), "long": (m.zeros(2),) * 3, None: None}[out]
    for name, n in [("divmod", 2), ("add", 1), ("modf", 2)]:
        args = (np.ones(2),) * getattr(np, name).nin
        if name == "add" and out in (None, "array", "short"):
            continue  # valid for one output
        with pytest.raises((TypeError, ValueError)) as want:
            getattr(np, name)(*args, out=outs(np, n))
        with pytest.raises(want.type) as got:
            getattr(kd, name)(*[kd.asarray(a) for a in args], out=outs(kd, n))
        assert str(got.value) == str(want.value)
