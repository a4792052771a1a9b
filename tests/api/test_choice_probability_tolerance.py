"""``rng.choice(n, p=probs)`` with ``probs`` a float32 array (kdsl's default: ``kd.array([0.1, 0.2, 0.3, 0.4])``
sums to 1.00000002) is accepted within float32's tolerance, as NumPy accepts a float32 ``p`` (sqrt of the dtype's
eps); float64 ``p`` and Python lists keep float64's tolerance (tests/porting, porting7a)."""

import numpy as np
import pytest

import kdsl as kd


def _numpy_accepts(p) -> bool:
    try:
        np.random.default_rng(0).choice(len(p), p=p)
    except ValueError:
        return False
    return True


def _kdsl_accepts(p, draw) -> bool:
    try:
        draw(len(p), p=kd.asarray(p) if isinstance(p, np.ndarray) else p)
    except ValueError:
        return False
    return True


_DRAWS = {"generator": lambda n, p: kd.random.default_rng(0).choice(n, p=p),
          "generator_size": lambda n, p: kd.random.default_rng(0).choice(n, size=(2, 3), p=p),
          "no_replace": lambda n, p: kd.random.default_rng(0).choice(n, 2, replace=False, p=p),
          "legacy": lambda n, p: kd.random.choice(n, p=p)}


@pytest.mark.parametrize("draw", sorted(_DRAWS))
@pytest.mark.parametrize("p", [np.array([0.1, 0.2, 0.3, 0.4], np.float32),  # sums to 1.00000002 in float64
                               np.array([0.1, 0.2, 0.3, 0.4001], np.float32),  # within float32's sqrt(eps)
                               np.array([0.1, 0.2, 0.3, 0.41], np.float32),  # beyond it
                               np.array([0.1, 0.2, 0.3, 0.4], np.float16),
                               np.array([0.1, 0.2, 0.3, 0.4001]),  # float64: refused
                               np.array([0.1, 0.2, 0.3, 0.4]),
                               [0.1, 0.2, 0.3, 0.4], [0.1, 0.2, 0.3, 0.4001], [1 / 3] * 3])
def test_sum_tolerance_follows_numpy(draw, p):
    assert _kdsl_accepts(p, _DRAWS[draw]) == _numpy_accepts(p)


def test_float32_probabilities_sample_their_distribution():
    p = kd.exp(kd.asarray([0.0, 1.0, 2.0, 3.0]))
    p = p / p.sum()  # a softmax policy in float32
    draws = kd.random.default_rng(1).choice(4, size=20000, p=p).numpy()
    freq = np.bincount(draws, minlength=4) / draws.size
    np.testing.assert_allclose(freq, p.numpy(), atol=0.02)


def test_refusals_keep_their_messages():
    rng = kd.random.default_rng(0)
    with pytest.raises(ValueError, match="sum to 1"):
        rng.choice(3, p=kd.asarray([0.2, 0.2, 0.2]))
    with pytest.raises(ValueError, match="non-negative"):
        rng.choice(2, p=kd.asarray([1.5, -0.5]))
