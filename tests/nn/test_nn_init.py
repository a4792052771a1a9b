"""kd.nn.init: PyTorch's formulas (bounds and standard deviations), keyed reproducibility, dtypes, errors."""

import math

import numpy as np
import pytest

import kdsl as kd
from kdsl.nn import init


def test_fans_and_gains():
    assert init.fans((64, 32)) == (32, 64)
    assert init.fans((16, 8, 3, 3)) == (72, 144)
    assert init.calculate_gain("relu") == math.sqrt(2)
    assert init.calculate_gain("tanh") == 5 / 3
    assert init.calculate_gain("leaky_relu", math.sqrt(5)) == math.sqrt(2 / 6)
    with pytest.raises(ValueError, match="at least 2"):
        init.fans((3,))
    with pytest.raises(ValueError, match="unsupported nonlinearity"):
        init.calculate_gain("swishy")


@pytest.mark.parametrize("fn,bound", [
    (lambda s, k: init.kaiming_uniform(s, key=k), math.sqrt(3) * math.sqrt(2) / math.sqrt(200)),  # a=0: gain sqrt(2)
    (lambda s, k: init.kaiming_uniform(s, a=math.sqrt(5), key=k), 1 / math.sqrt(200)),
    (lambda s, k: init.kaiming_uniform(s, mode="fan_out", nonlinearity="relu", key=k),
     math.sqrt(3) * math.sqrt(2) / math.sqrt(300)),
    (lambda s, k: init.xavier_uniform(s, gain=2.0, key=k), 2.0 * math.sqrt(6 / 500)),
])
def test_uniform_initialisers_fill_their_bound(fn, bound):
    w = fn((300, 200), 3).numpy()
    assert w.shape == (300, 200) and w.dtype == np.float32
    assert np.abs(w).max() <= bound * (1 + 1e-6)
    assert np.abs(w).max() > 0.99 * bound  # 60 000 draws reach the edge
    assert abs(w.std() - bound / math.sqrt(3)) < 0.02 * bound
    np.testing.assert_array_equal(w, fn((300, 200), 3).numpy())
    assert not np.array_equal(w, fn((300, 200), 4).numpy())


def test_normal_initialisers_have_their_std():
    w = init.kaiming_normal((400, 100), nonlinearity="relu", key=1).numpy()
    assert abs(w.std() - math.sqrt(2 / 100)) < 0.01 * math.sqrt(2 / 100) * 3
    x = init.xavier_normal((100, 300), key=2).numpy()
    assert abs(x.std() - math.sqrt(2 / 400)) < 0.03 * math.sqrt(2 / 400)
    n = init.normal((50_000,), mean=3.0, std=0.5, key=0, dtype=kd.float64)
    assert n.dtype == kd.float64 and abs(float(n.mean()) - 3.0) < 0.01 and abs(float(n.std()) - 0.5) < 0.01


def test_constant_initialisers_and_generator_keys():
    assert init.zeros((2, 3)).tolist() == [[0.0] * 3] * 2
    assert init.ones(2, dtype=kd.float16).dtype == kd.float16
    assert init.constant((2,), 0.5).tolist() == [0.5, 0.5]
    rng = kd.random.default_rng(0)
    a, b = init.uniform((100,), key=rng).numpy(), init.uniform((100,), key=rng).numpy()
    assert not np.array_equal(a, b) and (a >= 0).all() and (a < 1).all()
    assert init.uniform(5, -1, 1).shape == (5,)  # the global stream
    with pytest.raises(ValueError, match="mode"):
        init.kaiming_uniform((3, 3), mode="fan_avg")
