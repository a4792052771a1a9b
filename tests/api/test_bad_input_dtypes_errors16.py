"""Functions given data of a kind they may not take (complex where reals are needed, bools where numbers are):
kdsl raises NumPy's exception or answers NumPy's values (tests/api/bad_input_testing.py)."""

import numpy as np
import pytest
from bad_input_testing import A, check_like_numpy

C5 = np.array([1 + 2j, 3 - 1j, 0j, -2 + 0.5j, 1j])
B5 = np.array([True, False, True, True, False])
X5 = np.array([0.5, 0.0, 1.0, 2.0, 0.25])

CASES = [
    ("interp-complex-x", lambda m, d: m.interp(A(m, C5.astype(d)), A(m, [0.0, 1.0]), A(m, [0.0, 1.0])), "cast"),
    ("interp-complex-xp", lambda m, d: m.interp(A(m, X5), A(m, np.array([0j, 1j], d)), A(m, [0.0, 1.0])), "cast"),
    ("interp-complex-fp", lambda m, d: m.interp(A(m, X5), A(m, [0.0, 1.0]), A(m, np.array([0j, 1j], d))), None),
    ("signbit-bool", lambda m, d: m.signbit(A(m, B5)), None),
    ("signbit-complex", lambda m, d: m.signbit(A(m, C5.astype(d))), "complex"),
    ("bitwise_and-float", lambda m, d: m.bitwise_and(A(m, X5), 1), None),
    ("invert-float", lambda m, d: m.invert(A(m, X5)), None),
    ("rint-complex", lambda m, d: m.rint(A(m, np.append(C5 * 1.5, np.nan + 0.5j).astype(d))), None),
    ("rint-complex-list", lambda m, d: m.rint([1.5 + 2.5j, -0.5j]), None),
    ("floor-complex", lambda m, d: m.floor(A(m, C5.astype(d))), None),
    ("remainder-complex", lambda m, d: m.remainder(A(m, C5.astype(d)), 2), None),
    ("gcd-float", lambda m, d: m.gcd(A(m, X5), 2), None),
    ("bincount-bool-weights-complex", lambda m, d: m.bincount(A(m, [0, 1]), weights=A(m, C5[:2].astype(d))), None),
    ("digitize-complex", lambda m, d: m.digitize(A(m, C5.astype(d)), A(m, [0.0, 1.0])), "complex"),
]


@pytest.mark.parametrize("d", [np.complex64, np.complex128])
@pytest.mark.parametrize(("call", "words"), [pytest.param(c, w, id=i) for i, c, w in CASES])
def test_kind_errors_match_numpy(call, words, d):
    check_like_numpy(call, words, d)
