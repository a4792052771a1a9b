"""None where an array is needed, keepdims and order= oddities: kdsl raises NumPy's exception (class or
subclass, a message naming the problem), never answers silently (tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

import kdsl as kd

V5 = np.array([3, 1, 4, 1, 5])
M23 = np.arange(6).reshape(2, 3)

NONE = [
    ("sqrt-None", lambda m, d: m.sqrt(None), None),
    ("add-None", lambda m, d: m.add(A(m, V5, d), None), "NoneType"),
    ("operator-None", lambda m, d: A(m, V5, d) + None, "NoneType"),
    ("concatenate-None", lambda m, d: m.concatenate(None), None),
    ("stack-None", lambda m, d: m.stack(None), None),
    ("dot-None", lambda m, d: m.dot(A(m, V5, d), None), None),
    ("outer-None", lambda m, d: m.outer(A(m, V5, d), None), None),
    ("isclose-None", lambda m, d: m.isclose(A(m, V5, d), None), None),
    ("histogram-None", lambda m, d: m.histogram(None), None),
    ("searchsorted-None", lambda m, d: m.searchsorted(A(m, V5, d), None), "object"),
    ("searchsorted-method-None", lambda m, d: A(m, V5, d).searchsorted(None), "object"),
]

KEYWORDS = [
    (f"{fn}-keepdims-{k!r}", lambda m, d, fn=fn, k=k: getattr(m, fn)(A(m, M23, d), axis=0, keepdims=k),
     None if k in (0, 2, True) else "integer|str|None")
    for fn in ("sum", "mean", "std", "var", "max", "any", "prod")
    for k in (None, "yes", 1.5, 0, 2, True)
] + [
    ("copy-bad-order", lambda m, d: m.copy(A(m, V5, d), order="X"), "order"),
    ("copy-order-F", lambda m, d: m.copy(A(m, M23, d), order="F"), None),
    ("copy-host-bad-order", lambda m, d: m.copy([1, 2], order="Z"), "order"),
]


@pytest.mark.parametrize("d", [np.float32, np.float64, np.int32])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in NONE + KEYWORDS])
def test_bad_input_raises_numpys_error(call, words, d):
    check_like_numpy(call, words, d)


@pytest.mark.parametrize("call", [
    lambda: kd.cumsum(None), lambda: kd.argmax(None), lambda: kd.unique(None), lambda: kd.array([1, None]),
    lambda: kd.linalg.inv(None), lambda: kd.fft.fft(None), lambda: kd.matmul(kd.arange(2), None),
], ids=["cumsum", "argmax", "unique", "array", "inv", "fft", "matmul"])
def test_none_as_an_object_array_is_a_type_error(call):
    """NumPy makes an object array of None (and then answers or fails its own way); kdsl arrays hold numbers
    (docs/numpy-api.md: object arrays are not there), so None is a TypeError that says so."""
    with pytest.raises(TypeError, match="object|NoneType"):
        call()
