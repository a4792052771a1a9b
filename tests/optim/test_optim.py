"""kd.optim against NumPy implementations of the same update rules over several steps, on nested pytrees."""

import math

import numpy as np
import optim_reference as ref
import pytest

import kdsl as kd

RNG = np.random.default_rng(0)
STEPS = 5


def run(opt, refs, shapes, steps=STEPS, dtype=np.float64):
    """Drive ``opt`` and one reference optimiser per leaf with the same gradients; compare every step."""
    p0 = [RNG.standard_normal(s).astype(dtype) for s in shapes]
    params = {"layer": [kd.asarray(p0[0]), None, (kd.asarray(p0[1]),)], "bias": kd.asarray(p0[2])}
    want = list(p0)
    state = opt.init(params)
    for _ in range(steps):
        g = [RNG.standard_normal(s).astype(dtype) for s in shapes]
        grads = {"layer": [kd.asarray(g[0]), None, (kd.asarray(g[1]),)], "bias": kd.asarray(g[2])}
        params, state = opt.update(grads, state, params)
        kd.optim.realize(params, state)
        want = [r.step(w, gi) for r, w, gi in zip(refs, want, g, strict=True)]
        got = [params["layer"][0], params["layer"][2][0], params["bias"]]
        for a, b in zip(got, want, strict=True):
            np.testing.assert_allclose(a.numpy(), b, rtol=1e-6 if dtype == np.float64 else 2e-5, atol=1e-6)
    assert params["layer"][1] is None and isinstance(params["layer"][2], tuple)
    assert int(state["step"]) == steps


SHAPES = [(3, 4), (5,), ()]


@pytest.mark.parametrize("kw", [{}, {"momentum": 0.9}, {"momentum": 0.9, "nesterov": True, "weight_decay": 0.1},
                                {"momentum": 0.5, "dampening": 0.3},
                                {"momentum": 0.9, "weight_decay": 0.1, "maximize": True}])
def test_sgd(kw):
    run(kd.optim.sgd(0.1, **kw), [ref.SGD(0.1, **kw) for _ in SHAPES], SHAPES)


@pytest.mark.parametrize("kw", [{}, {"betas": (0.8, 0.99), "eps": 1e-6, "weight_decay": 0.05},
                                {"amsgrad": True}, {"amsgrad": True, "weight_decay": 0.05, "maximize": True}])
def test_adam(kw):
    run(kd.optim.adam(0.01, **kw), [ref.Adam(0.01, **kw) for _ in SHAPES], SHAPES)


def test_amsgrad_keeps_the_largest_second_moment():
    """A large gradient then small ones: plain Adam's v decays, AMSGrad's denominator keeps the peak."""
    opt = kd.optim.adamw(0.1, amsgrad=True, weight_decay=0.0)
    params = [kd.zeros(1)]
    state = opt.init(params)
    for g in (10.0, 0.1, 0.1):
        params, state = opt.update([kd.asarray([g])], state, params)
        kd.optim.realize(params, state)
    peak = (1 - 0.999) * 100.0  # v after the first step
    assert float(state["max_exp_avg_sq"][0][0]) == pytest.approx(peak, rel=1e-5)
    assert float(state["exp_avg_sq"][0][0]) < peak
    want = ref.Adam(0.1, amsgrad=True, decoupled=True)
    p = np.zeros(1)
    for g in (10.0, 0.1, 0.1):
        p = want.step(p, np.array([g]))
    np.testing.assert_allclose(params[0].numpy(), p, rtol=1e-5)


def test_maximize_ascends():
    opt = kd.optim.adamw(0.5, maximize=True)
    params = {"x": kd.asarray([0.0])}
    state = opt.init(params)
    for _ in range(20):  # maximise -(x - 3)^2
        grads = kd.grad(lambda p: -((p["x"] - 3.0) ** 2).sum())(params)
        params, state = opt.update(grads, state, params)
    assert float(params["x"][0]) == pytest.approx(3.0, abs=0.6)


def test_adamw_float32():
    run(kd.optim.adamw(0.01, weight_decay=0.1), [ref.Adam(0.01, weight_decay=0.1, decoupled=True) for _ in SHAPES],
        SHAPES, dtype=np.float32)


def test_schedules_drive_the_rate_on_the_device():
    sched = kd.optim.linear_warmup(kd.optim.cosine_decay(0.1, 10), warmup_steps=3)
    run(kd.optim.sgd(sched, momentum=0.9), [ref.SGD(sched, momentum=0.9) for _ in SHAPES], SHAPES, steps=6)
    step = kd.optim.step_decay(0.01, 2, gamma=0.5)
    run(kd.optim.adam(step), [ref.Adam(step) for _ in SHAPES], SHAPES)


def test_schedule_values():
    cos = kd.optim.cosine_decay(2.0, 4, alpha=0.5)
    assert [cos(i) for i in range(6)] == pytest.approx([2.0, 1.0 + 0.5 * (1 + math.cos(math.pi / 4)),
                                                        1.5, 1.0 + 0.5 * (1 + math.cos(3 * math.pi / 4)), 1.0, 1.0])
    warm = kd.optim.linear_warmup(1.0, 4, start_factor=0.5)
    assert [warm(i) for i in (0, 2, 4, 9)] == [0.5, 0.75, 1.0, 1.0]
    on_device = [float(cos(kd.asarray(i, dtype=kd.int32))) for i in range(6)]
    assert on_device == pytest.approx([cos(i) for i in range(6)], rel=1e-6)
    with pytest.raises(ValueError, match="decay_steps"):
        kd.optim.cosine_decay(1.0, 0)


def test_one_update_step_is_a_few_cached_kernels():
    """The update is lazy: applying it a second time compiles nothing new (the step count lives on the device)."""
    opt = kd.optim.adam(kd.optim.cosine_decay(1e-2, 100))
    params = [kd.ones((8, 8)), kd.zeros(8)]
    state = opt.init(params)
    for _ in range(2):
        params, state = opt.update([kd.ones((8, 8)), kd.ones(8)], state, params)
        kd.optim.realize(params, state)
    before = kd.stats()["programs"]
    params, state = opt.update([kd.ones((8, 8)), kd.ones(8)], state, params)
    kd.optim.realize(params, state)
    assert kd.stats()["programs"] == before


def test_bad_arguments_and_mismatched_trees():
    with pytest.raises(ValueError, match="Nesterov"):
        kd.optim.sgd(0.1, nesterov=True)
    with pytest.raises(ValueError, match="learning rate"):
        kd.optim.adam(-1.0)
    with pytest.raises(ValueError, match="betas"):
        kd.optim.adam(betas=(0.9, 1.0))
    opt = kd.optim.sgd(0.1)
    params = {"w": kd.ones(2)}
    with pytest.raises(ValueError, match="differ in structure"):
        opt.update({"v": kd.ones(2)}, opt.init(params), params)
    with pytest.raises(ValueError, match="grads must mirror params"):
        opt.update({"w": kd.ones(3)}, opt.init(params), params)
