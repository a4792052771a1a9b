"""Hypothesis: random expression trees (elementwise ops, broadcasting, views, reductions) give NumPy's values."""

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kdsl as kd

UNARY = {
    "neg": lambda xp, a: -a,
    "abs": lambda xp, a: xp.abs(a),
    "sin": lambda xp, a: xp.sin(a),
    "tanh": lambda xp, a: xp.tanh(a),
    "exp_tanh": lambda xp, a: xp.exp(xp.tanh(a)),
    "sqrt_abs": lambda xp, a: xp.sqrt(xp.abs(a)),
    "square": lambda xp, a: a * a * 0.25,
    "flip": lambda xp, a: a[::-1],
    "transpose2": lambda xp, a: a.T.T,
    "rowsum": lambda xp, a: xp.sum(a, axis=-1, keepdims=True) * 0.1,
    "colmax": lambda xp, a: xp.max(a, axis=0, keepdims=True) if a.ndim else a,
    "mean_last": lambda xp, a: xp.mean(a, axis=-1, keepdims=True),
}
BINARY = {
    "add": lambda xp, a, b: a + b,
    "sub": lambda xp, a, b: a - b,
    "mul": lambda xp, a, b: a * b,
    "max": lambda xp, a, b: xp.maximum(a, b),
    "min": lambda xp, a, b: xp.minimum(a, b),
    "where": lambda xp, a, b: xp.where(a > b, a, b * 0.5),
}
LEAVES = ["x", "y", "z", "c"]

trees = st.recursive(
    st.sampled_from(LEAVES),
    lambda sub: st.one_of(st.tuples(st.sampled_from(sorted(UNARY)), sub),
                          st.tuples(st.sampled_from(sorted(BINARY)), sub, sub)),
    max_leaves=8,
)


def evaluate(tree, xp, env):
    if isinstance(tree, str):
        return env[tree]
    if len(tree) == 2:
        return UNARY[tree[0]](xp, evaluate(tree[1], xp, env))
    return BINARY[tree[0]](xp, evaluate(tree[1], xp, env), evaluate(tree[2], xp, env))


RNG = np.random.default_rng(0)
HOST = {"x": RNG.uniform(-2, 2, (4, 6)).astype(np.float32), "y": RNG.uniform(-2, 2, (6,)).astype(np.float32),
        "z": RNG.uniform(-2, 2, (4, 1)).astype(np.float32), "c": np.full((1,), 1.5, np.float32)}
DEVICE = {k: kd.asarray(v) for k, v in HOST.items()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_random_expression_trees(tree):
    expected = evaluate(tree, np, HOST)
    got = evaluate(tree, kd, DEVICE)
    got = got.numpy()
    assert np.shape(got) == np.shape(expected)
    assert np.asarray(got).dtype == np.asarray(expected).dtype
    np.testing.assert_allclose(got, expected, rtol=2e-4, atol=2e-5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=4).flatmap(
    lambda shape: st.tuples(st.just(tuple(shape)), st.permutations(range(len(shape))),
                            st.lists(st.tuples(st.integers(-5, 5), st.integers(-5, 5),
                                               st.sampled_from([1, 2, -1, -2])),
                                     min_size=len(shape), max_size=len(shape)))))
def test_random_views(case):
    shape, perm, slices = case
    host = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    dev = kd.asarray(host)
    key = tuple(slice(a, b, s) for a, b, s in slices)
    expected = host.transpose(perm)[key]
    got = dev.transpose(perm)[key]
    np.testing.assert_array_equal(got.numpy(), expected)
    np.testing.assert_array_equal((got * 2).reshape(-1).numpy(), expected.reshape(-1) * 2)


DTYPES = ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32",
          "float64"]
BINARY_UFUNCS = {"add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
                 "floor_divide": np.floor_divide, "maximum": np.maximum, "power": np.power,
                 "bitwise_and": np.bitwise_and, "less": np.less, "arctan2": np.arctan2}


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.sampled_from(sorted(BINARY_UFUNCS)))
def test_promotion_matches_numpy(d1, d2, name):
    """Result dtypes (and TypeErrors) of array-array ops are NumPy's, without running anything."""
    try:
        expected = BINARY_UFUNCS[name](np.ones(2, d1), np.ones(2, d2)).dtype
    except TypeError:
        with np.testing.assert_raises(TypeError):
            getattr(kd, name)(kd.zeros(2, dtype=d1), kd.zeros(2, dtype=d2))
        return
    got = getattr(kd, name)(kd.zeros(2, dtype=d1), kd.zeros(2, dtype=d2)).dtype
    assert got.np == expected
