"""Row softmax written with kd.compute (index notation); fuses with the array code around it.
Run: python examples/kernels/softmax.py"""

import numpy as np

import kdsl as kd


def softmax(x):
    shifted = kd.compute("s[i, j] = x[i, j] - max(k, x[i, k])", x=x)  # max over the row, for stability
    e = kd.exp(shifted)
    return kd.compute("p[i, j] = e[i, j] / sum(k, e[i, k])", e=e)


def main() -> None:
    x = np.random.default_rng(0).standard_normal((8, 10)).astype(np.float32)
    p = softmax(kd.asarray(x)).numpy()
    expected = np.exp(x - x.max(1, keepdims=True))
    expected /= expected.sum(1, keepdims=True)
    assert np.allclose(p, expected, atol=1e-6)
    print("softmax ok; row sums:", p.sum(1).round(6))


if __name__ == "__main__":
    main()
