"""SAXPY (y = a*x + y) as a @kd.kernel, on NumPy arrays and on kdsl arrays.  Run: python examples/kernels/saxpy.py"""

import numpy as np

import kdsl as kd


@kd.kernel
def saxpy(a: kd.f32, x: kd.f32[:], y: kd.f32[:]):
    i = kd.global_id(0)
    y[i] = a * x[i] + y[i]


def main() -> None:
    n = 10_000
    x = np.random.default_rng(0).random(n, dtype=np.float32)
    y = np.ones(n, np.float32)
    saxpy[n](2.0, x, y)  # NumPy arrays are uploaded, and y is copied back since the kernel writes it
    assert np.allclose(y, 2 * x + 1)
    yd = kd.asarray(np.ones(n, np.float32))  # a kdsl array is written in place, on the device
    saxpy(2.0, x, yd, grid=n, block=128)
    assert np.allclose(yd.numpy(), 2 * x + 1)
    print("saxpy ok:", y[:4])


if __name__ == "__main__":
    main()
