"""``kd.vectorize(f, signature=...)`` whose ``f`` returns the wrong number of core dimensions raises NumPy's
ValueError word for word (kdsl said ``wrong number of dimensions: expected 2, got 1``)."""

import numpy as np
import pytest

import kdsl as kd

CASES = [
    ("(n)->(n,n)", lambda u: u, (2, 3)),
    ("(n)->()", lambda u: u, (2, 3)),
    ("(n)->(n)", lambda u: u.sum(), (2, 3)),
    ("(n)->(m,k)", lambda u: u, (4, 3)),
    ("()->(n)", lambda u: u, (3,)),
    ("(n)->(m)", lambda u: u[:, None] * u, (2, 3)),
    ("(n),(n)->()", lambda u, v: u * v, (2, 3)),
    ("(n,n)->()", lambda u: u, (3, 3)),
    ("(n,n)->()", lambda u: u.sum(), (3,)),
]


@pytest.mark.parametrize(("signature", "func", "shape"), CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_wrong_core_dimensions_raise_numpys_message(signature, func, shape):
    nin = signature.split("->")[0].count("(")
    with pytest.raises(ValueError) as expected:
        np.vectorize(func, signature=signature)(*[np.ones(shape)] * nin)
    with pytest.raises(ValueError) as got:
        kd.vectorize(func, signature=signature)(*[kd.ones(shape)] * nin)
    assert str(got.value) == str(expected.value)


def test_right_core_dimensions_still_compute():
    x = np.arange(6.0).reshape(2, 3)
    f = lambda u: np.outer(u, u)  # noqa: E731
    np.testing.assert_allclose(kd.vectorize(f, signature="(n)->(n,n)")(kd.asarray(x)).numpy(),
                               np.vectorize(f, signature="(n)->(n,n)")(x))
