"""The kernel IR is a hash-consed DAG: an expression that uses a value twice costs one node, one hash and one
GLSL temporary, so iterative formulas compile in time linear in their number of steps (issue 8, point 3)."""

import time

import numpy as np

import kdsl as kd
from kdsl import dtype as dt
from kdsl.codegen import elementwise
from kdsl.engine.schedule import schedule
from kdsl.ir import expr as ir
from kdsl.ir.expr import Expr
from kdsl.ir.kernels import Elementwise
from kdsl.ir.view import View


def test_equal_expressions_are_one_object_and_hash_in_constant_time():
    x = ir.load(1, dt.float32, View.contiguous((4,)))
    e = x
    for _ in range(300):  # a tree of 2**300 nodes
        e = Expr("add", dt.float32, (e, e))
    f = x
    for _ in range(300):
        f = Expr("add", dt.float32, (f, f))
    assert e is f and hash(e) == hash(f) and e == f
    assert len(e.walk()) == 301
    assert Expr("lit", dt.float32, (), 0.0) is not Expr("lit", dt.float32, (), -0.0)  # -0.0 == 0.0 in Python
    assert Expr("lit", dt.float32, (), 1) is not Expr("lit", dt.float32, (), 1.0)


def test_shared_subexpressions_render_once():
    x = ir.load(1, dt.float32, View.contiguous((8,)))
    e = x
    for _ in range(50):
        e = Expr("mul", dt.float32, (Expr("add", dt.float32, (e, e)), e))
    src = elementwise.render(Elementwise((8,), dt.float32, View.contiguous((8,)), e, 0, 1))
    assert src.count(" + ") == 50 and src.count(" * ") == 50


def _newton_steps(n: int) -> tuple[float, int]:
    a = kd.asarray(np.linspace(1, 2, 1000, dtype=np.float32))
    x = a
    for _ in range(n):
        x = 0.5 * (x + a / x)
    t0 = time.perf_counter()
    steps = schedule([x._node])
    lines = sum(elementwise.render(s.kernel).count("\n") for s in steps if isinstance(s.kernel, Elementwise))
    return time.perf_counter() - t0, lines


def test_newton_iteration_scales_linearly():
    _newton_steps(5)  # warm up imports
    t10, lines10 = _newton_steps(10)
    t40, lines40 = _newton_steps(40)
    assert lines40 < 6 * lines10  # 4x the steps: about 4x the GLSL (a tree would be 2**30 times bigger)
    assert t40 < 20 * t10 + 0.05


def test_newton_100_steps_compiles_fast_and_matches_numpy():
    a_np = np.linspace(1, 2, 1000, dtype=np.float32)
    a = kd.asarray(a_np)
    x = a
    t0 = time.perf_counter()
    for _ in range(100):
        x = 0.5 * (x + a / x)
    out = x.numpy()
    assert time.perf_counter() - t0 < 5.0  # well under a second when glslang's cache is warm; 2**100 before
    np.testing.assert_allclose(out, np.sqrt(a_np), rtol=1e-6)


def test_sin_plus_cos_twenty_times():
    y_np = np.linspace(-1, 1, 64, dtype=np.float32)
    y, ref = kd.asarray(y_np), y_np
    for _ in range(20):
        y = kd.sin(y) + kd.cos(y)
        ref = np.sin(ref) + np.cos(ref)
    np.testing.assert_allclose(y.numpy(), ref, rtol=1e-4, atol=1e-5)
