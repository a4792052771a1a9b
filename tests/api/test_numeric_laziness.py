"""The NumPy functions of averages, calculus, polynomials, windows, bits, gufuncs, cross and histogramdd build
lazy graphs: calling them runs nothing and reads nothing back (where the result does not depend on the data)."""

import numpy as np
import pytest

import kdsl as kd

A = np.linspace(-1.0, 2.0, 24).reshape(4, 6)

CALLS = {
    "average": lambda a: kd.average(a, axis=1),
    "ptp": lambda a: kd.ptp(a, axis=0),
    "trapezoid": lambda a: kd.trapezoid(a, x=a[0]),
    "gradient": lambda a: kd.gradient(a, a[:, 0], 0.5, edge_order=2)[0],
    "polyval": lambda a: kd.polyval(a[0], a),
    "polyadd": lambda a: kd.polyadd(a[0], a[1, :3]),
    "polysub": lambda a: kd.polysub(a[0], a[1, :3]),
    "polyder": lambda a: kd.polyder(a[0], 2),
    "polyint": lambda a: kd.polyint(a[0], 2, k=a[1, :2]),
    "cross": lambda a: kd.cross(a[:, :3], a[:, 3:]),
    "matvec": lambda a: kd.matvec(a, a[0]),
    "vecmat": lambda a: kd.vecmat(a[:, 0], a),
    "kaiser": lambda a: kd.kaiser(9, 5.0),
    "hanning": lambda a: kd.hanning(9),
    "packbits": lambda a: kd.packbits(a > 0, axis=1),
    "unpackbits": lambda a: kd.unpackbits((a > 0).astype(kd.uint8), axis=0, count=3),
    "histogramdd": lambda a: kd.histogramdd(a[:, :2], bins=(3, [-1.0, 0.0, 2.0]), range=[(-1, 1), None])[0],
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_nothing_runs_until_asked(name):
    a = kd.asarray(A)
    kd.realize(a)
    kd.stats(reset=True)
    out = CALLS[name](a)
    counters = kd.stats()
    assert counters["realizes"] == 0 and counters["downloads"] == 0 and counters["kernels"] == 0, counters
    assert isinstance(out, kd.Array)
    out.numpy()  # and it runs
