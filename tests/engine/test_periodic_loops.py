"""Long lazy loops (no kd.realize inside) are cut where their steps repeat (kdsl.engine.periodic): the number
of distinct kernels a loop compiles stays the same however many steps it runs, and the results are NumPy's."""

import numpy as np

import kdsl as kd
from kdsl.engine.schedule import schedule


def distinct_kernels(*arrays) -> tuple[int, int]:
    """(kernels launched, distinct kernels among them) of the plan that computes ``arrays``; nothing runs."""
    steps = schedule([a._node for a in arrays])
    return len(steps), len({s.kernel for s in steps})


def logistic(xp, steps):
    r = xp.asarray(np.linspace(2.5, 3.2, 6, dtype=np.float32))
    x = xp.asarray(np.full(6, 0.3, np.float32))
    for _ in range(steps):
        x = r * x * (1 - x)  # one scalar per step: the push space fills every few dozen steps
    return x


def rk4(xp, steps):
    def f(s):
        return xp.stack([s[1], -0.2 * s[1] - xp.sin(s[0])])  # a pendulum: slices of the state, restacked

    s = xp.asarray(np.array([[0.5, 1.0, 2.0], [0.0, 0.0, 0.0]], np.float32))
    dt = np.float32(0.05)
    for _ in range(steps):
        k1 = f(s)
        k2 = f(s + dt / 2 * k1)
        k3 = f(s + dt / 2 * k2)
        k4 = f(s + dt * k3)
        s = s + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
    return s


def bisection(xp, steps):
    k = xp.asarray(np.linspace(0.2, 3.0, 5, dtype=np.float32))
    lo, hi = xp.zeros_like(k), xp.full_like(k, np.float32(np.pi / 2))
    flo = xp.cos(lo) - k * lo
    for _ in range(steps):  # three values carried from step to step
        mid = np.float32(0.5) * (lo + hi)
        fm = xp.cos(mid) - k * mid
        left = xp.sign(fm) == xp.sign(flo)
        lo, flo, hi = xp.where(left, mid, lo), xp.where(left, fm, flo), xp.where(left, hi, mid)
    return hi - lo


def test_a_loop_compiles_a_few_kernels_however_long():
    # (cut where the fusion limits filled a kernel, the cuts drifted through the loop body: 7 and 48 kernels)
    for program, steps in ((logistic, 200), (logistic, 800), (rk4, 12), (rk4, 48)):
        launched, distinct = distinct_kernels(program(kd, steps))
        assert distinct <= 3, (program.__name__, steps, distinct)
        assert launched <= 3 * steps, (program.__name__, steps, launched)  # (still fused: many ops a kernel)
    assert distinct_kernels(logistic(kd, 800))[0] <= 800 // 16  # (many steps in each kernel)


def test_a_loop_carrying_several_values_compiles_as_many_kernels_however_long():
    assert distinct_kernels(bisection(kd, 240))[1] <= distinct_kernels(bisection(kd, 60))[1] + 1


def test_loop_results_are_numpys():
    for program, steps in ((logistic, 100), (rk4, 12), (bisection, 24)):
        np.testing.assert_allclose(program(kd, steps).numpy(), program(np, steps), rtol=2e-5, atol=1e-6,
                                   err_msg=program.__name__)
