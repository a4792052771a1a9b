"""``np.vectorize`` of a function that works on one element (builds an array from it, reduces over a fixed
array) as NumPy's per-element loop computes it: kdsl's call with whole arrays gave a shape error, or a silently
wrong broadcast sum (``vectorize_shape.py``), and now falls back to the host loop with a PerformanceWarning.
Elementwise and constant functions still run as one call."""

import warnings

import numpy as np
import pytest

import kdsl as kd

C = np.arange(5.0)

FUNCS = {
    "trapezoid_of_linspace": lambda xp: lambda b: xp.trapezoid(xp.exp(-xp.linspace(0, b, 50) ** 2),
                                                               xp.linspace(0, b, 50)),
    "sum_same_length": lambda xp: lambda b: xp.sum(xp.asarray(C) * b),  # (5,) args: broadcast sum, silently wrong
    "array_of_element": lambda xp: lambda x: xp.max(xp.array([x, 0.5])),
    "norm_of_element": lambda xp: lambda x: xp.linalg.norm(xp.array([x, 1.0])),
}


@pytest.mark.parametrize("name", sorted(FUNCS))
@pytest.mark.parametrize("n", [3, 5])
def test_one_element_functions_as_numpy(name, n):
    x = np.linspace(0.5, 2.0, n)
    want = np.vectorize(FUNCS[name](np))(x)
    with pytest.warns(kd.PerformanceWarning, match="element"):
        got = kd.vectorize(FUNCS[name](kd))(kd.asarray(x))
    np.testing.assert_allclose(got.numpy(), want, rtol=1e-6)


@pytest.mark.parametrize("func", [lambda a, b: a * b + 1, lambda a, b: a, lambda a, b: 1.0,
                                  lambda a, b: kd.where(a > 1.5, a, b)])
def test_elementwise_functions_stay_one_call(func):
    a, b = np.array([1.0, 2.0, 3.0]), np.array([[1.0], [2.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error", kd.PerformanceWarning)  # no host fallback
        got = kd.vectorize(func)(kd.asarray(a), kd.asarray(b))
    want = np.vectorize(lambda x, y: float(np.asarray(func(kd.asarray(x), kd.asarray(y)))))(a, b)
    np.testing.assert_allclose(got.numpy(), want)
