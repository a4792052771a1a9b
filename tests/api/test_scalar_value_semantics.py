"""``t += dt`` on a 0-d result keeps a NumPy scalar's value semantics: names and list entries bound to the old
value keep it (``kdsl/frontend/array/scalar_like.py``), while 0-d arrays made as arrays, and 0-d views, are
updated in place as NumPy's 0-d arrays are. Each idiom runs with NumPy and with kdsl."""

import numpy as np
import pytest

import kdsl as kd


def time_stepping(xp):
    t, ts = 0.0, []
    h = xp.sqrt(xp.asarray([0.01, 0.04]).sum() / 5)  # a 0-d result, as an adaptive step is
    for _ in range(3):
        t += h
        ts.append(t)
    return [float(v) for v in ts]


def aliased_results(xp):
    x = xp.asarray([3.0, 4.0, 1.0])
    n = xp.linalg.norm(x)
    n0 = n
    n /= 5
    best = x.max()
    cur = best
    cur -= 1
    k = x.argmax()
    k0 = k
    k += 1
    s = x.sum()
    s0 = s
    s **= 2
    e = x[0]
    e0 = e
    e *= 10
    return [float(n0), float(n), float(best), float(cur), int(k0), int(k), float(s0), float(s), float(e0),
            float(e), *x.tolist()]


def products_and_elements(xp):
    x = xp.asarray([1.0, 2.0, 2.0])
    A = xp.asarray([[2.0, 1.0], [1.0, 3.0]])
    values = [x @ x, xp.dot(x, x), xp.inner(x, x), xp.tensordot(x, x, 1), xp.linalg.det(A),
              xp.linalg.slogdet(A)[1], xp.ones((2, 2))[0, 0], xp.zeros(3).sum()]
    kept = list(values)
    for v in values:
        v += 10  # each name rebinds, as a NumPy scalar's: the list keeps the old values
    return [float(v) for v in kept]


def made_as_arrays(xp):
    z = xp.zeros(())
    z_alias = z
    z += 2
    a = xp.array(1.5)
    a_alias = a
    a *= 2
    c = xp.asarray(np.float64(1.0)).copy()
    c_alias = c
    c -= 3
    f = xp.full((), 2, dtype=xp.int64)
    f_alias = f
    f *= 4
    return [float(z_alias), float(a_alias), float(c_alias), float(f_alias)]


def zero_d_views(xp):
    a = xp.asarray([1.0, 2.0, 3.0])
    v = a[1, ...]  # a 0-d view of a: writes reach a
    v += 5
    z = xp.zeros(())
    r = z.reshape(1)  # a view of a 0-d array sees its later writes
    z += 4
    return [*a.tolist(), float(v), *r.tolist()]


@pytest.mark.parametrize("idiom", [time_stepping, aliased_results, products_and_elements, made_as_arrays,
                                   zero_d_views])
def test_in_place_operators_on_zero_d_as_numpy(idiom):
    assert idiom(kd) == pytest.approx(idiom(np))


def test_time_stepping_list_keeps_each_value():
    assert time_stepping(kd) == pytest.approx([0.1, 0.2, 0.3])
