"""Step-by-step NumPy programs (benchmarks/dsl_loops.py): the caches and fusions that make them fast, each
checked against NumPy, and the compile counts of a repeated loop."""

import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import kdsl as kd
from kdsl.engine import schedule as sched
from kdsl.engine.schedule import schedule
from kdsl.frontend.array import fused_stack
from kdsl.ir.kernels import Reduce
from kdsl.runtime import spirv
from kdsl.runtime.compiler import compile_source

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import dsl_loops  # noqa: E402

SHADER = ("#version 450\nlayout(local_size_x=1) in;\nlayout(binding=0) buffer B { float x[]; };\n"
          "void main() { x[0] = 1.0; }")


def kernels(*arrays) -> int:
    return len(schedule([a._node for a in arrays]))


# ----- the runtime's checks of a module, remembered


def test_spirv_check_is_cached_and_bounded():
    code = compile_source(SHADER)
    spirv.check_spirv(code)
    hits = spirv._checked_spirv.cache_info().hits
    spirv.check_spirv(bytearray(code))  # the same bytes, another object: a hit
    assert spirv._checked_spirv.cache_info().hits == hits + 1
    assert spirv._checked_spirv.cache_info().maxsize == 256
    assert spirv._checked_interface.cache_info().maxsize == 1024


def test_a_bad_module_raises_every_time():
    for _ in range(2):  # a failure is never remembered as a pass
        with pytest.raises(RuntimeError, match="magic number"):
            spirv.check_spirv(b"#version 450 // GLSL, not SPIR-V")
    bad = bytearray(compile_source(SHADER))
    bad[20:24] = (0).to_bytes(4, "little")  # an instruction of length 0
    with pytest.raises(RuntimeError, match="bad length"):
        spirv.check_spirv(bytes(bad))


def test_interface_check_cache_keeps_failing_dtypes():
    code = compile_source(SHADER)
    spirv.check_interface(code, [False], 0, [np.dtype(np.float32)])
    for _ in range(2):
        with pytest.raises(TypeError, match="holds int32"):
            spirv.check_interface(code, [False], 0, [np.dtype(np.int32)])
        with pytest.raises(RuntimeError, match="push constant"):
            spirv.check_interface(code, [False], 4, [np.dtype(np.float32)])


def test_checks_from_many_threads():
    code = compile_source(SHADER)
    errors = []

    def work():
        try:
            for _ in range(50):
                spirv.check_spirv(code)
                spirv.check_interface(code, [False], 0, [np.dtype(np.float32)])
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


# ----- stack of small pieces: one expression


@pytest.mark.parametrize("shape", [(), (3,), (2, 3), (1, 4)])
@pytest.mark.parametrize("k", [2, 3, 5])
def test_stack_matches_numpy(shape, k):
    rng = np.random.default_rng(k)
    hs = [rng.standard_normal(shape).astype(np.float32) for _ in range(k)]
    xs = [kd.asarray(h) for h in hs]
    for axis in range(-len(shape) - 1, len(shape) + 1):
        got = kd.stack([x * (i + 1) for i, x in enumerate(xs)], axis=axis)
        want = np.stack([h * (i + 1) for i, h in enumerate(hs)], axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got.numpy(), want)


def test_stack_of_views_and_mixed_dtypes():
    h = np.arange(12, dtype=np.int32).reshape(3, 4)
    a = kd.asarray(h)
    np.testing.assert_array_equal(kd.stack([a.T, a[::-1].T]).numpy(), np.stack([h.T, h[::-1].T]))
    got, want = kd.stack([a[0], a[1].astype(kd.float32)]), np.stack([h[0], h[1].astype(np.float32)])
    assert got.dtype == want.dtype  # (int32 with float32: float64, as NumPy promotes)
    np.testing.assert_array_equal(got.numpy(), want)
    b = kd.asarray(h > 5)
    np.testing.assert_array_equal(kd.stack([b[0], ~b[1]], axis=1).numpy(), np.stack([h[0] > 5, ~(h[1] > 5)], 1))


def test_array_of_scalar_elements_fuses_into_its_reader():
    y = kd.asarray(np.array([1.0, 2.0], np.float32)) * 3  # computed: not a buffer yet
    f = kd.array([y[1], -y[0]]) * 2
    assert kernels(f) == 1
    np.testing.assert_array_equal(f.numpy(), np.array([12.0, -6.0], np.float32))


def test_stack_falls_back_to_pieces_where_select_costs_too_much():
    many = [kd.ones(3000) * i for i in range(fused_stack.FEW_PIECES + 1)]  # 15000 elements > SMALL_RESULT
    assert fused_stack.select_stack(many, 0) is None
    np.testing.assert_array_equal(kd.stack(many).numpy(), np.stack([np.ones(3000) * i for i in range(5)]))
    empty = [kd.zeros((0, 2)), kd.zeros((0, 2))]
    assert fused_stack.select_stack(empty, 0) is None and kd.stack(empty).shape == (2, 0, 2)


# ----- plain keys


@pytest.mark.parametrize("key", [1, -1, (1, 2), (slice(1, -1),), (slice(None, None, -2), 0), (Ellipsis, 1),
                                 (None, 1), (0, None, slice(1, 3)), slice(2, None)])
def test_plain_keys_match_numpy(key):
    h = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(kd.asarray(h)[key].numpy(), h[key])


def test_keys_that_are_not_plain_still_work():
    h = np.arange(6, dtype=np.float32)
    a = kd.asarray(h)
    assert a[True].shape == h[True].shape and a[False].shape == h[False].shape
    np.testing.assert_array_equal(a[np.int64(2)].numpy(), h[np.int64(2)])
    np.testing.assert_array_equal(a[kd.asarray(np.array([0, 2]))].numpy(), h[[0, 2]])
    with pytest.raises(IndexError):
        a[7]


# ----- row writes in a loop, writes over most of an array, concatenate and roll


def test_row_writes_chain_into_one_buffer():
    y = kd.asarray(np.array([1.0, 0.0], np.float32))
    traj = kd.zeros((11, 2))
    traj[0] = y
    hy, htraj = y.numpy(), np.zeros((11, 2), np.float32)
    htraj[0] = hy
    for i in range(10):
        y = y * 0.5 + 1.0
        hy = hy * np.float32(0.5) + np.float32(1.0)
        traj[i + 1] = y
        htraj[i + 1] = hy
    # each write is one kernel into one buffer (no copy of traj per write); y's values, stored once each
    assert kernels(traj) <= 1 + 11 + 10
    np.testing.assert_allclose(traj.numpy(), htraj, rtol=1e-6)


def test_row_writes_that_read_the_array_or_are_kept():
    h = np.arange(8, dtype=np.float32).reshape(4, 2)
    a = kd.asarray(h) + 0
    a[1] = a[0] * 2  # the value reads the array: not written in place
    h[1] = h[0] * 2
    snapshot = a.copy()  # a lazy copy reads this value: the writes below must not land in it
    a[2] = 7
    h2 = h.copy()
    h2[2] = 7
    a[3] = a[2] + 1
    h2[3] = h2[2] + 1
    np.testing.assert_array_equal(a.numpy(), h2)
    np.testing.assert_array_equal(snapshot.numpy(), h)


@pytest.mark.parametrize("shape, key", [((10,), (slice(1, -1),)), ((6, 7), (slice(1, -1), slice(1, -1))),
                                        ((4, 5, 6), (slice(1, 3), slice(None), slice(2, 6))),
                                        ((8, 8), (slice(0, 4),))])
def test_writes_over_most_of_an_array_are_one_kernel(shape, key):
    h = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    u = kd.asarray(h)
    u[key] = u[key] * 2 + 1
    h[key] = h[key] * 2 + 1
    assert kernels(u) == 1
    np.testing.assert_array_equal(u.numpy(), h)


@pytest.mark.parametrize("key", [(slice(1, 9, 2),), (3,), (slice(0, 1),)])
def test_other_writes_keep_the_region_kernel(key):
    h = np.arange(10, dtype=np.float32)
    u = kd.asarray(h) + 0
    u[key] = -1
    h[key] = -1
    np.testing.assert_array_equal(u.numpy(), h)


@pytest.mark.parametrize("dtype", ["float32", "int32", "bool", "float64"])
def test_concatenate_and_roll_as_one_kernel(dtype):
    if not kd.device().supports(getattr(kd, dtype)):
        pytest.skip(f"this device has no {dtype}")
    h = (np.random.default_rng(2).standard_normal((5, 6)) > 0 if dtype == "bool" else
         (np.random.default_rng(2).standard_normal((5, 6)) * 10).astype(dtype))
    a = kd.asarray(h)
    for axis in (0, 1, -1):
        for shift in (1, -2, 7):
            np.testing.assert_array_equal(kd.roll(a, shift, axis).numpy(), np.roll(h, shift, axis))
        got = kd.concatenate([a, a[:, ::-1], a], axis=axis)
        assert kernels(got) == 1
        np.testing.assert_array_equal(got.numpy(), np.concatenate([h, h[:, ::-1], h], axis=axis))
    five = [a] * (sched.PATCH_PIECES + 1)  # more pieces: a kernel per piece
    np.testing.assert_array_equal(kd.concatenate(five).numpy(), np.concatenate([h] * 5))


# ----- reductions on a CPU driver


def test_cpu_reductions_fold_per_output():
    if not kd.device().partials:
        pytest.skip("a GPU: its reductions combine by workgroups, not the CPU driver's fold per output")
    h = np.random.default_rng(3).standard_normal((256, 256))
    a, v = kd.asarray(h), kd.asarray(h[0])
    for expr, want in ((a @ v, h @ h[0]), (a.sum(axis=0), h.sum(axis=0)), (a.T @ v, h.T @ h[0]),
                       (a[:3].sum(axis=1), h[:3].sum(axis=1))):
        steps = schedule([expr._node])
        assert all(s.kernel.mode == "thread" for s in steps if isinstance(s.kernel, Reduce))
        np.testing.assert_allclose(expr.numpy(), want, rtol=1e-10)


# ----- the loop programs: NumPy's answers, nothing compiled when run again


@pytest.mark.parametrize("name, kwargs", [("rk4", {"n": 30}), ("heat", {"steps": 40, "n": 50}),
                                          ("jacobi", {"steps": 20, "n": 12}), ("linreg", {"steps": 20}),
                                          ("power", {"steps": 10, "n": 32}), ("life", {"steps": 8, "n": 16}),
                                          ("scalar_sum", {"n": 300}), ("row_iter", {"n": 40})])
def test_loop_programs_match_numpy_and_compile_once(name, kwargs):
    prog = dsl_loops.PROGRAMS[name]
    want = dsl_loops.host(prog(np, **kwargs))
    np.testing.assert_allclose(dsl_loops.host(prog(kd, **kwargs)), want, rtol=1e-4, atol=1e-6)
    before = kd.stats()
    got = dsl_loops.host(prog(kd, **kwargs))
    after = kd.stats()
    assert after["programs"] == before["programs"] and after["compiled"] == before["compiled"]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-6)


def test_a_long_stencil_loop_replays_its_batch():
    def heat(steps=300):
        u = kd.asarray(np.linspace(0, 1, 64, dtype=np.float32))
        for _ in range(steps):
            u[1:-1] = u[1:-1] + 0.25 * (u[2:] - 2 * u[1:-1] + u[:-2])
        return u.numpy()

    heat()
    heat()  # the pool now holds a buffer per step
    before = kd.stats()
    heat()
    after = kd.stats()
    assert after["replays"] == before["replays"] + 1 and after["programs"] == before["programs"]


@pytest.mark.parametrize("dtype", ["float32", "int32", "float64", "bool"])
def test_writes_at_new_offsets_build_no_new_programs(dtype):
    """A region's offset is a push word (Lowering.region_word): ``traj[i + 1] = y`` over offsets never seen
    builds no program after the first few, and the results match NumPy's."""
    def fill(xp, start, stop):
        traj = xp.zeros((41, 3), dtype=dtype)
        y = xp.ones(3, dtype=dtype)
        for i in range(start, stop):
            traj[i + 1] = y
            traj[i, 1:] = xp.zeros(2, dtype=dtype)
            y = xp.logical_not(y) if dtype == "bool" else y + 1
        return traj

    np.testing.assert_array_equal(dsl_loops.host(fill(kd, 0, 6)), fill(np, 0, 6))
    before = kd.stats()
    got = dsl_loops.host(fill(kd, 6, 40))  # offsets never seen
    after = kd.stats()
    np.testing.assert_array_equal(got, fill(np, 6, 40))
    assert after["programs"] == before["programs"], (before, after)
