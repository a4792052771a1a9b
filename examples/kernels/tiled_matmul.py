"""Matrix multiplication with shared-memory tiles and barriers.  Run: python examples/kernels/tiled_matmul.py"""

import numpy as np

import kdsl as kd

TILE = 16


@kd.kernel(block=(TILE, TILE))
def matmul(a: kd.f32[:, :], b: kd.f32[:, :], c: kd.f32[:, :]):
    ta = kd.shared((TILE, TILE), kd.f32)
    tb = kd.shared((TILE, TILE), kd.f32)
    row, col = kd.global_id(0), kd.global_id(1)
    ly, lx = kd.local_id(0), kd.local_id(1)
    n, k_total, m = a.shape[0], a.shape[1], b.shape[1]
    acc = 0.0
    for t in range(0, k_total, TILE):
        # Every invocation loads (zero outside the matrices) and reaches both barriers: no early return.
        ta[ly, lx] = a[row, t + lx] if row < n and t + lx < k_total else 0.0
        tb[ly, lx] = b[t + ly, col] if t + ly < k_total and col < m else 0.0
        kd.barrier()
        for k in range(TILE):
            acc += ta[ly, k] * tb[k, lx]
        kd.barrier()
    if row < n and col < m:
        c[row, col] = acc


def main() -> None:
    rng = np.random.default_rng(0)
    a, b = rng.random((100, 70), np.float32), rng.random((70, 50), np.float32)
    c = np.zeros((100, 50), np.float32)
    matmul[(100, 50)](a, b, c)
    assert np.allclose(c, a @ b, rtol=1e-4)
    print("tiled matmul ok, max error", float(np.abs(c - a @ b).max()))


if __name__ == "__main__":
    main()
