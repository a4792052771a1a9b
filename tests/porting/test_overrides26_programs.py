"""Array-like classes with their own `__array_ufunc__` (NEP 13) in plain NumPy: forward-mode dual numbers on
`np.lib.mixins.NDArrayOperatorsMixin` driving Newton's method, a units-aware quantity that converts on `add` and
checks units in `sqrt`/`np.sum`, interval arithmetic bounding a polynomial, first-order uncertainty propagation
through `exp`/`sin`/`multiply`, a call-logging wrapper with `np.add.reduce` and `np.maximum.accumulate`, and the
gradient of a logistic loss by seeding dual numbers along each weight (tests/porting)."""

import numpy as np
from harness import check


def dual_class(np):
    class Dual(np.lib.mixins.NDArrayOperatorsMixin):
        def __init__(self, v, d):
            self.v, self.d = np.asarray(v, dtype=float), np.asarray(d, dtype=float)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            if method != "__call__":
                return NotImplemented
            vs = [x.v if isinstance(x, Dual) else x for x in inputs]
            ds = [x.d if isinstance(x, Dual) else np.zeros_like(np.asarray(x, dtype=float)) for x in inputs]
            name = ufunc.__name__
            if name == "add":
                return Dual(vs[0] + vs[1], ds[0] + ds[1])
            if name == "subtract":
                return Dual(vs[0] - vs[1], ds[0] - ds[1])
            if name == "multiply":
                return Dual(vs[0] * vs[1], ds[0] * vs[1] + vs[0] * ds[1])
            if name in ("divide", "true_divide"):
                return Dual(vs[0] / vs[1], (ds[0] * vs[1] - vs[0] * ds[1]) / vs[1] ** 2)
            if name == "power" and not isinstance(inputs[1], Dual):
                return Dual(vs[0] ** vs[1], vs[1] * vs[0] ** (vs[1] - 1) * ds[0])
            if name == "negative":
                return Dual(-vs[0], -ds[0])
            if name == "exp":
                return Dual(np.exp(vs[0]), np.exp(vs[0]) * ds[0])
            if name == "log":
                return Dual(np.log(vs[0]), ds[0] / vs[0])
            if name == "sin":
                return Dual(np.sin(vs[0]), np.cos(vs[0]) * ds[0])
            if name == "cos":
                return Dual(np.cos(vs[0]), -np.sin(vs[0]) * ds[0])
            return NotImplemented

    return Dual


def newton_dual(np, x0, iters):
    Dual = dual_class(np)

    def f(x):
        return np.cos(x) - x**3 + 0.5 * x

    x = np.asarray(x0, dtype=float)
    hist = []
    for _ in range(iters):
        y = f(Dual(x, np.ones_like(x)))
        x = x - y.v / y.d
        hist.append(np.abs(y.v).max())
    final = f(Dual(x, np.ones_like(x)))
    return {"x": x, "hist": np.array(hist), "deriv": final.d, "residual": final.v}


def units(np, lengths_m, widths_cm):
    class Quantity(np.lib.mixins.NDArrayOperatorsMixin):
        scale = {"m": 1.0, "cm": 0.01, "m^2": 1.0}

        def __init__(self, value, unit):
            self.value, self.unit = np.asarray(value, dtype=float), unit

        def to(self, unit):
            return Quantity(self.value * self.scale[self.unit] / self.scale[unit], unit)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            qs = [x for x in inputs if isinstance(x, Quantity)]
            if ufunc.__name__ in ("add", "subtract", "maximum") and method == "__call__":
                unit = qs[0].unit
                vals = [x.to(unit).value if isinstance(x, Quantity) else x for x in inputs]
                return Quantity(getattr(ufunc, method)(*vals, **kwargs), unit)
            if ufunc.__name__ == "multiply":
                vals = [x.value if isinstance(x, Quantity) else x for x in inputs]
                unit = "m^2" if len(qs) == 2 else qs[0].unit
                if len(qs) == 2:
                    vals = [x.to("m").value for x in inputs]
                return Quantity(ufunc(*vals, **kwargs), unit)
            if ufunc.__name__ == "sqrt" and qs[0].unit == "m^2":
                return Quantity(np.sqrt(qs[0].value), "m")
            if ufunc.__name__ == "add" and method == "reduce":
                return Quantity(np.add.reduce(qs[0].value, **kwargs), qs[0].unit)
            return NotImplemented

    L = Quantity(lengths_m, "m")
    W = Quantity(widths_cm, "cm")
    perimeter = 2 * (L + W)
    area = L * W
    side = np.sqrt(area)
    total = np.sum(area)
    longest = np.maximum(L, W)
    return {"perimeter": perimeter.value, "p_unit": perimeter.unit, "area": area.value, "side": side.value,
            "total": total.value, "longest_cm": longest.to("cm").value, "units": [area.unit, side.unit]}


def interval_bounds(np, lo, hi, coeffs):
    class Interval:
        def __init__(self, lo, hi):
            self.lo, self.hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            ivs = [x if isinstance(x, Interval) else Interval(x, x) for x in inputs]
            if ufunc.__name__ == "add":
                return Interval(ivs[0].lo + ivs[1].lo, ivs[0].hi + ivs[1].hi)
            if ufunc.__name__ == "multiply":
                a, b = ivs
                p = np.stack([a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi])
                return Interval(p.min(axis=0), p.max(axis=0))
            return NotImplemented

        __add__ = __radd__ = lambda self, o: np.add(self, o)  # noqa: E731
        __mul__ = __rmul__ = lambda self, o: np.multiply(self, o)  # noqa: E731

    X = Interval(lo, hi)
    acc = Interval(np.full(len(lo), coeffs[0]), np.full(len(lo), coeffs[0]))
    for c in coeffs[1:]:
        acc = np.add(np.multiply(acc, X), c)
    grid = np.linspace(np.asarray(lo), np.asarray(hi), 50)
    vals = np.polyval(coeffs, grid)
    return {"lo": acc.lo, "hi": acc.hi, "true_min": vals.min(axis=0), "true_max": vals.max(axis=0),
            "encloses": bool(np.all((acc.lo <= vals.min(axis=0) + 1e-9) & (acc.hi >= vals.max(axis=0) - 1e-9))),
            "width": acc.hi - acc.lo}


def uncertainty(np, x, sx, y, sy):
    class U(np.lib.mixins.NDArrayOperatorsMixin):
        def __init__(self, v, s):
            self.v, self.s = np.asarray(v, dtype=float), np.asarray(s, dtype=float)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            us = [x if isinstance(x, U) else U(x, 0.0) for x in inputs]
            n = ufunc.__name__
            if n == "add":
                return U(us[0].v + us[1].v, np.hypot(us[0].s, us[1].s))
            if n == "multiply":
                v = us[0].v * us[1].v
                return U(v, np.abs(v) * np.hypot(us[0].s / us[0].v, us[1].s / us[1].v))
            if n == "exp":
                return U(np.exp(us[0].v), np.exp(us[0].v) * us[0].s)
            if n == "sin":
                return U(np.sin(us[0].v), np.abs(np.cos(us[0].v)) * us[0].s)
            return NotImplemented

    X, Y = U(x, sx), U(y, sy)
    Z = np.exp(X) * np.sin(Y) + 2.0 * X
    rel = Z.s / np.abs(Z.v)
    return {"v": Z.v, "s": Z.s, "rel": rel, "worst": int(np.argmax(rel))}


def logged(np, data):
    class Logged:
        calls = []

        def __init__(self, a):
            self.a = np.asarray(a)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            Logged.calls.append(f"{ufunc.__name__}.{method}")
            vals = [x.a if isinstance(x, Logged) else x for x in inputs]
            return Logged(getattr(ufunc, method)(*vals, **kwargs))

    x = Logged(data)
    y = np.sqrt(np.abs(x))
    s = np.add.reduce(y, axis=1)
    run = np.maximum.accumulate(y, axis=1)
    tot = np.sum(y)
    big = np.max(y, axis=0)
    return {"s": s.a, "run": run.a, "tot": tot.a, "big": big.a, "calls": Logged.calls}


def logistic_grad(np, X, y, w):
    Dual = dual_class(np)
    X, y, w = np.asarray(X), np.asarray(y), np.asarray(w, dtype=float)
    grads = []
    for j in range(w.size):
        seed = np.zeros_like(w)
        seed[j] = 1.0
        wd = Dual(w, seed)
        z = Dual(X @ wd.v, X @ wd.d)
        p = 1.0 / (1.0 + np.exp(-z))
        loss = -(y * np.log(p) + (1 - y) * np.log(1 - p))
        grads.append(loss.d.mean())
        value = loss.v.mean()
    pz = 1 / (1 + np.exp(-(X @ w)))
    return {"grad": np.array(grads), "loss": value, "analytic": X.T @ (pz - y) / len(y)}


def test_newton_dual():
    check(newton_dual, np.array([0.5, 1.0, -0.3]), 6)


def test_units():
    check(units, np.array([1.0, 2.5, 0.3]), np.array([50.0, 120.0, 30.0]))


def test_interval_bounds():
    check(interval_bounds, np.array([-1.0, 0.0, 0.5]), np.array([1.0, 0.5, 2.0]), [1.0, -2.0, 0.5, 3.0])


def test_uncertainty():
    check(uncertainty, np.array([0.1, 0.5, 1.0]), np.array([0.01, 0.02, 0.05]), np.array([1.0, 2.0, 3.0]),
          np.array([0.1, 0.1, 0.2]))


def test_logged():
    check(logged, np.array([[1.0, -4.0, 9.0], [16.0, 0.25, -1.0]]))


def test_logistic_grad():
    rng = np.random.default_rng(2699)
    X = rng.normal(size=(20, 3))
    y = (X @ np.array([1.0, -2.0, 0.5]) + rng.normal(0, 0.5, 20) > 0).astype(float)
    check(logistic_grad, X, y, np.array([0.1, -0.2, 0.3]), rtol=1e-4, atol=1e-6)
