"""A histogram with atomic adds.  Run: python examples/kernels/histogram.py"""

import numpy as np

import kdsl as kd


@kd.kernel
def histogram(x: kd.f32[:], lo: kd.f32, hi: kd.f32, hist: kd.i32[:]):
    i = kd.global_id(0)
    bins = hist.shape[0]
    b = int((x[i] - lo) / (hi - lo) * bins)
    if 0 <= b < bins:
        kd.atomic_add(hist, b, 1)
    elif x[i] == hi:  # NumPy puts the right edge in the last bin
        kd.atomic_add(hist, bins - 1, 1)


def main() -> None:
    x = np.random.default_rng(0).standard_normal(100_000).astype(np.float32)
    hist = np.zeros(20, np.int32)
    histogram[x.size](x, -3.0, 3.0, hist)
    # The same float32 binning in NumPy (np.histogram bins in float64, so edge cases can land differently).
    b = ((x - np.float32(-3)) / np.float32(6) * np.float32(20)).astype(np.int64)
    b = np.where(x == 3, 19, b)
    expected = np.bincount(b[(b >= 0) & (b < 20)], minlength=20)
    assert (hist == expected).all(), (hist, expected)
    for count, edge in zip(hist, np.linspace(-3, 3, 21), strict=False):
        print(f"{edge:+.1f} {'#' * int(count // 250)}")


if __name__ == "__main__":
    main()
