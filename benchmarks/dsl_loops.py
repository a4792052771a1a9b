"""Step-by-step NumPy programs (many small steps in a Python loop) in kdsl and in NumPy, in the same run.

Each program is written once against a module ``np`` (NumPy or kdsl) and timed warm: one untimed run, then the
median of ``--repeat`` runs, each ending with the result on the host. The ratio is kdsl's time over NumPy's;
the same for the process's CPU time (lavapipe's worker threads included: steadier on a loaded machine).

Run: python benchmarks/dsl_loops.py [--only rk4,heat] [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy
from dsl_common import table

import kdsl as kd


def rk4(np, n=200, h=0.01):
    """Classical Runge-Kutta on the harmonic oscillator, the trajectory stored row by row."""
    def f(t, y):
        return np.array([y[1], -y[0]])
    y = np.array([1.0, 0.0])
    traj = np.zeros((n + 1, 2))
    traj[0] = y
    for i in range(n):
        k1 = f(0, y)
        k2 = f(0, y + h / 2 * k1)
        k3 = f(0, y + h / 2 * k2)
        k4 = f(0, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        traj[i + 1] = y
    return traj


def heat(np, steps=500, n=1000):
    """Explicit Euler on the 1-D heat equation (a three-point stencil written in place)."""
    u = np.sin(np.linspace(0.0, numpy.pi, n))
    r = 0.25
    for _ in range(steps):
        u[1:-1] = u[1:-1] + r * (u[2:] - 2 * u[1:-1] + u[:-2])
    return u


def jacobi(np, steps=200, n=64):
    """Jacobi iteration for Laplace's equation on an n x n grid with a hot top edge."""
    u = np.zeros((n, n))
    u[0, :] = 1.0
    for _ in range(steps):
        u[1:-1, 1:-1] = 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])
    return u


def linreg(np, steps=500, n=1000, d=10):
    """Gradient descent on least squares."""
    x = np.asarray(numpy.random.default_rng(0).standard_normal((n, d)))
    y = x @ np.arange(d, dtype=x.dtype)
    w = np.zeros(d)
    for _ in range(steps):
        grad = x.T @ (x @ w - y) / n
        w = w - 0.1 * grad
    return w


def power(np, steps=100, n=256):
    """Power iteration for the dominant eigenvector."""
    a = np.asarray(numpy.random.default_rng(1).standard_normal((n, n)))
    a = a @ a.T
    v = np.ones(n)
    for _ in range(steps):
        v = a @ v
        v = v / np.linalg.norm(v)
    return v


def life(np, steps=100, n=64):
    """Conway's game of life on a torus (np.roll neighbours)."""
    g = np.asarray(numpy.random.default_rng(2).random((n, n)) < 0.3).astype(np.int32)
    for _ in range(steps):
        nb = sum(np.roll(np.roll(g, i, 0), j, 1) for i in (-1, 0, 1) for j in (-1, 0, 1) if (i, j) != (0, 0))
        g = ((nb == 3) | ((g == 1) & (nb == 2))).astype(np.int32)
    return g


def scalar_sum(np, n=1000):
    """A Python loop adding elements one at a time."""
    a = np.arange(n, dtype=np.float64)
    s = 0.0
    for i in range(n):
        s += a[i]
    return np.asarray(s)


def row_iter(np, n=200, d=8):
    """``for row in A:`` accumulating row norms."""
    a = np.asarray(numpy.arange(n * d, dtype=numpy.float64).reshape(n, d) / (n * d))
    total = np.zeros(d)
    for row in a:
        total = total + row * row
    return total


PROGRAMS = {"rk4": rk4, "heat": heat, "jacobi": jacobi, "linreg": linreg, "power": power, "life": life,
            "scalar_sum": scalar_sum, "row_iter": row_iter}


def host(value):
    return value.numpy() if isinstance(value, kd.ndarray) else numpy.asarray(value)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", default="", help="comma-separated program names")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    only = [s for s in args.only.split(",") if s]
    rows = []
    for name, prog in PROGRAMS.items():
        if only and not any(o in name for o in only):
            continue
        want, got = host(prog(numpy)), host(prog(kd))  # also the warm-up runs
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6, err_msg=name)
        ms_np, cpu_np = timed(lambda p=prog: host(p(numpy)), args.repeat)
        before = kd.stats()["programs"]
        ms_kd, cpu_kd = timed(lambda p=prog: host(p(kd)), args.repeat)
        compiled = kd.stats()["programs"] - before
        rows.append([name, ms_kd, ms_np, ms_kd / ms_np, cpu_kd, cpu_np, cpu_kd / cpu_np, compiled])
    table("step-by-step programs, warm (median ms; cpu: the process's CPU time, lavapipe's threads included, "
          "steadier than wall time on a shared machine)",
          ["program", "kdsl ms", "numpy ms", "ratio", "kdsl cpu", "numpy cpu", "cpu ratio", "new programs"], rows)


def timed(fn, repeat: int) -> tuple[float, float]:
    """(median wall ms, median process CPU ms) of ``repeat`` calls of ``fn`` (warmed up by the caller)."""
    walls, cpus = [], []
    for _ in range(repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return statistics.median(walls) * 1e3, statistics.median(cpus) * 1e3


if __name__ == "__main__":
    main()
