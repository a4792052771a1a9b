"""kd.grad, value_and_grad, vjp, jvp and stop_gradient: pytrees, has_aux, higher order, errors, kd.jit."""

import numpy as np
import pytest
from autodiff_check import check_grad

import kdsl as kd

RNG = np.random.default_rng(3)


def _a(*shape):
    return kd.asarray(RNG.standard_normal(shape))


def test_pytree_arguments_and_gradients():
    params = {"w": _a(3, 2), "b": _a(2), "layers": [(_a(2),), None]}
    x = _a(4, 3)

    def loss(p, x):
        h = kd.tanh(x @ p["w"] + p["b"]) * p["layers"][0][0]
        return (h ** 2).sum()

    g = kd.grad(loss)(params, x)
    assert sorted(g) == ["b", "layers", "w"] and g["layers"][1] is None and isinstance(g["layers"][0], tuple)
    assert g["w"].shape == (3, 2) and g["layers"][0][0].shape == (2,)
    # each leaf agrees with the gradient taken on its own
    gw = kd.grad(lambda w: loss({"w": w, "b": params["b"], "layers": params["layers"]}, x))(params["w"])
    np.testing.assert_allclose(g["w"].numpy(), gw.numpy(), rtol=1e-12)


def test_has_aux_and_argnums():
    x, y = _a(3), _a(3)

    def f(x, y):
        d = x - y
        return (d * d).sum(), {"diff": d}

    (value, aux), (gx, gy) = kd.value_and_grad(f, argnums=(0, 1), has_aux=True)(x, y)
    d = x.numpy() - y.numpy()
    np.testing.assert_allclose(float(value), (d * d).sum())
    np.testing.assert_allclose(aux["diff"].numpy(), d)
    np.testing.assert_allclose(gx.numpy(), 2 * d)
    np.testing.assert_allclose(gy.numpy(), -2 * d)
    g, aux = kd.grad(f, argnums=1, has_aux=True)(x, y)
    np.testing.assert_allclose(g.numpy(), -2 * d)
    assert kd.grad(f, argnums=-1, has_aux=True)(x, y)[0].shape == (3,)


def test_higher_order():
    x = kd.asarray(np.array([0.3, -1.2, 2.0]))
    f = lambda x: (kd.sin(x) * x ** 2).sum()  # noqa: E731
    g2 = kd.grad(lambda x: kd.grad(f)(x).sum())(x).numpy()
    xs = x.numpy()
    want = -np.sin(xs) * xs ** 2 + 4 * xs * np.cos(xs) + 2 * np.sin(xs)
    np.testing.assert_allclose(g2, want, rtol=1e-10)
    third = kd.grad(kd.grad(kd.grad(lambda t: kd.exp(2 * t))))(kd.asarray(0.5, dtype=kd.float64))
    np.testing.assert_allclose(float(third), 8 * np.exp(1.0), rtol=1e-10)
    # a Hessian-vector product through matmul, max and a gather
    a = _a(3, 3)
    h = kd.grad(lambda v: (kd.grad(lambda w: (kd.tanh(a @ w) ** 2).max())(v) * v).sum())
    check_grad(lambda v: kd.grad(lambda w: (kd.tanh(a @ w) ** 2).sum())(v), RNG.standard_normal(3))
    assert h(_a(3)).shape == (3,)


def test_vjp_and_jvp_agree():
    def f(x, y):
        return kd.stack([kd.sin(x) * y.sum(), x[::-1] ** 2]), {"m": (x @ kd.ones((3, 2), dtype=kd.float64))}

    x, y = _a(3), _a(2)
    tx, ty = _a(3), _a(2)
    out, back = kd.vjp(f, x, y)
    out2, tout = kd.jvp(f, (x, y), (tx, ty))
    np.testing.assert_allclose(out2[0].numpy(), out[0].numpy())
    u = (_a(2, 3), {"m": _a(2)})
    gx, gy = back(u)
    lhs = (tout[0] * u[0]).sum() + (tout[1]["m"] * u[1]["m"]).sum()
    rhs = (gx * tx).sum() + (gy * ty).sum()
    np.testing.assert_allclose(float(lhs), float(rhs), rtol=1e-10)
    # and against finite differences
    eps = 1e-6
    fd = (f(x + eps * tx, y + eps * ty)[0] - f(x - eps * tx, y - eps * ty)[0]) / (2 * eps)
    np.testing.assert_allclose(tout[0].numpy(), fd.numpy(), rtol=1e-6, atol=1e-8)


def test_vjp_survives_realising_the_output_first():
    x = _a(4)
    out, back = kd.vjp(lambda x: kd.exp(x) * 2, x)
    out.numpy()  # realises the output (its node drops its sources)
    (g,) = back(kd.ones(4, dtype=kd.float64))
    np.testing.assert_allclose(g.numpy(), 2 * np.exp(x.numpy()))


def test_realising_inside_the_function_keeps_the_gradient():
    def f(x):
        h = kd.exp(x)
        kd.realize(h)          # h turns into a buffer inside the traced function
        print_me = float(h.sum())  # noqa: F841 - a read-back too
        return (h * h).sum()

    x = _a(5)
    np.testing.assert_allclose(kd.grad(f)(x).numpy(), 2 * np.exp(2 * x.numpy()))


def test_stop_gradient_and_constants():
    x = _a(3)
    g = kd.grad(lambda x: (x * kd.stop_gradient(x * 3)).sum())(x)
    np.testing.assert_allclose(g.numpy(), 3 * x.numpy())
    tree = kd.stop_gradient({"a": x, "n": 3})
    assert tree["n"] == 3 and tree["a"].tolist() == x.tolist()
    # an output that does not depend on the argument: zero gradient
    assert kd.grad(lambda x, y: (y * 2).sum())(x, _a(2)).tolist() == [0.0, 0.0, 0.0]
    # closed-over arrays are constants
    c = _a(3)
    np.testing.assert_allclose(kd.grad(lambda x: (x * c).sum())(x).numpy(), c.numpy())


def test_python_float_argument():
    assert float(kd.grad(lambda t: t * t * 3)(2.0)) == 12.0


def test_errors_name_the_fix():
    x = _a(3)
    with pytest.raises(ValueError, match=r"scalar \(shape \(\)\), got shape \(3,\).*sum\(\)"):
        kd.grad(lambda x: x * 2)(x)
    with pytest.raises(TypeError, match=r"argument 0 has dtype int32.*astype\(kd.float32\)"):
        kd.grad(lambda x: x.sum())(kd.arange(3))
    with pytest.raises(TypeError, match="float output"):
        kd.grad(lambda x: (x > 0).sum())(x)
    with pytest.raises(TypeError, match="kdsl float arrays"):
        kd.grad(lambda x: x)(np.ones(3))
    with pytest.raises(ValueError, match="pair"):
        kd.grad(lambda x: x.sum(), has_aux=True)(x)
    with pytest.raises(ValueError, match="argnums"):
        kd.grad(lambda x: x.sum(), argnums=2)(x)
    _, back = kd.vjp(lambda x: x * 2, x)
    with pytest.raises(ValueError, match="shape"):
        back(kd.ones(4, dtype=kd.float64))
    with pytest.raises(ValueError, match="1 primals but 2 tangents"):
        kd.jvp(lambda x: x, (x,), (x, x))


def test_integer_outputs_have_no_gradient():
    x = _a(4)
    out, back = kd.vjp(lambda x: (kd.argmax(x), x * 2), x)
    (g,) = back((kd.zeros((), dtype=out[0].dtype), kd.ones(4, dtype=kd.float64)))
    assert g.tolist() == [2.0] * 4


def test_jit_replays_a_training_step():
    rng = np.random.default_rng(0)
    xh = rng.standard_normal((32, 3)).astype(np.float32)
    yh = (xh @ np.array([1.0, -2.0, 0.5], np.float32) > 0).astype(np.float32)
    x, y = kd.asarray(xh), kd.asarray(yh)

    def loss(w, b):
        p = kd.sigmoid(x @ w + b)
        return -(y * kd.log(p + 1e-7) + (1 - y) * kd.log(1 - p + 1e-7)).mean()

    def step(w, b):
        value, (gw, gb) = kd.value_and_grad(loss, argnums=(0, 1))(w, b)
        return value, w - 0.5 * gw, b - 0.5 * gb

    jitted = kd.jit(step)
    w0, b0 = kd.zeros(3), kd.zeros(())
    we, be, wj, bj = w0, b0, w0, b0
    losses = []
    for _ in range(4):
        ve, we, be = step(we, be)
        vj, wj, bj = jitted(wj, bj)
        losses.append(float(vj))
        np.testing.assert_allclose(float(vj), float(ve), rtol=1e-5)
        np.testing.assert_allclose(wj.numpy(), we.numpy(), rtol=1e-5, atol=1e-6)
    trace = next(iter(jitted.traces.values()))
    assert trace.fast  # the whole step (forward, backward, update) replays as recorded kernels
    assert losses[-1] < losses[0]


def test_jitted_function_inside_grad_is_differentiated():
    @kd.jit
    def forward(w, x):
        return kd.tanh(x @ w)

    w, x = _a(3), _a(4, 3)
    forward(w, x)  # traced and replayable
    g = kd.grad(lambda w: forward(w, x).sum())(w)
    want = kd.grad(lambda w: kd.tanh(x @ w).sum())(w)
    np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-12)


def test_jvp_of_integer_and_pytree_outputs():
    x = _a(4)
    out, t = kd.jvp(lambda x: {"i": kd.argmax(x), "y": x * 3}, (x,), (kd.ones(4, dtype=kd.float64),))
    assert t["y"].tolist() == [3.0] * 4 and t["i"].dtype == out["i"].dtype and int(t["i"]) == 0


def test_index_notation_and_elementwise_factories_are_differentiated():
    x = _a(2, 2)
    g = kd.grad(lambda x: kd.compute("c[i, j] = sum(k, a[i, k] * a[k, j])", a=x).sum())(x)
    a = x.numpy()
    np.testing.assert_allclose(g.numpy(), np.ones((2, 2)) @ a.T + a.T @ np.ones((2, 2)), rtol=1e-12)
    leaky = kd.elementwise("T x, T slope", "T y", "y = x > 0 ? x : slope * x", "leaky_relu")
    g = kd.grad(lambda x: leaky(x, 0.1).sum())(x)
    np.testing.assert_allclose(g.numpy(), np.where(a > 0, 1.0, 0.1))


def test_edge_cases():
    base = kd.asarray(np.arange(12.0).reshape(3, 4))
    x = base[:, ::2].T  # a non-contiguous view as the argument
    np.testing.assert_array_equal(kd.grad(lambda x: (x * x).sum())(x).numpy(), 2 * x.numpy())
    empty = kd.zeros((0, 3), dtype=kd.float64)
    assert kd.grad(lambda x: kd.exp(x).mean(axis=0).sum())(empty).shape == (0, 3)
    ones = kd.ones(3, dtype=kd.float64)
    assert kd.grad(lambda x: kd.concatenate([x, x[:0]]).sum() + kd.sort(x[:0]).sum())(ones).tolist() == [1.0] * 3
    no_rows = kd.asarray(np.zeros(0, np.int32))
    assert kd.grad(lambda x: x[no_rows].sum() + x.sum())(ones).tolist() == [1.0] * 3
    # NaN is the maximum: it takes the gradient (as in PyTorch)
    assert kd.grad(lambda x: x.max())(kd.asarray([1.0, float("nan"), 2.0])).tolist() == [0.0, 1.0, 0.0]


def test_the_same_array_twice_gets_a_gradient_per_argument():
    w = _a(3)
    gx, gy = kd.grad(lambda x, y: (x * y * y).sum(), argnums=(0, 1))(w, w)
    np.testing.assert_allclose(gx.numpy(), w.numpy() ** 2)
    np.testing.assert_allclose(gy.numpy(), 2 * w.numpy() ** 2)
    g = kd.grad(lambda p: (p["a"] * 2 + p["b"] * 3).sum())({"a": w, "b": w})
    assert g["a"].tolist() == [2.0] * 3 and g["b"].tolist() == [3.0] * 3
    # lazy, view and constant arguments (each stands in through its own node)
    for arg in (w * 1.0, w[::-1], kd.zeros(3, dtype=kd.float64), kd.asarray(np.array([[1.0, 2.0, 3.0]])).T[:, 0]):
        np.testing.assert_allclose(kd.grad(lambda x: (x.T * x).astype(kd.float32).sum())(arg).numpy(),
                                   2 * arg.numpy(), rtol=1e-6)


def test_jit_placeholder_arguments_are_differentiated_in_place():
    """The traced placeholders themselves are the inputs: no copy kernel per parameter, and replays bind the
    new arguments (a stand-in node would be captured as a constant buffer)."""
    from kdsl.engine.schedule import schedule

    x = _a(8, 4)
    w = _a(4, 3)
    kd.realize(w)
    g = kd.grad(lambda w: ((x @ w) ** 2).sum() + (kd.tanh(x @ w) @ w.T).sum())(w)
    assert not [s for s in schedule([g._node]) if s.out.op == "copy"]


def test_gradients_are_independent_arrays():
    gx, gy = kd.grad(lambda x, y: (x + y).sum(), argnums=(0, 1))(_a(2), _a(2))
    gx += 1
    assert gy.tolist() == [1.0, 1.0] and gx.tolist() == [2.0, 2.0]


def test_a_plain_training_loop_compiles_once_and_stays_flat():
    rng = np.random.default_rng(1)
    x = kd.asarray(rng.standard_normal((64, 5)).astype(np.float32))
    y = kd.asarray((rng.standard_normal(64) > 0).astype(np.float32))
    vg = kd.value_and_grad(lambda w: ((kd.tanh(x @ w) - y) ** 2).mean())
    w = kd.zeros(5)
    kernels = []
    for _ in range(4):
        before = dict(kd.stats())
        v, g = vg(w)
        w = w - 0.1 * g
        kd.realize(v, w)
        after = kd.stats()
        kernels.append(after["kernels"] - before["kernels"])
        programs = after["programs"] - before["programs"]
    assert programs == 0 and len(set(kernels[1:])) == 1  # same kernels every step, nothing new to compile
