"""Blocked Cholesky and QR at the block boundaries, and the recorded plans (kdsl.linalg.graph) they replay."""

import importlib
import threading

import numpy as np
import pytest
from linalg_testing import spd, tol

import kdsl as kd
from kdsl.linalg import blocked, graph
from kdsl.linalg import kernels as K

cholesky_mod = importlib.import_module("kdsl.linalg.cholesky")  # the package exports the function by that name
qr_mod = importlib.import_module("kdsl.linalg.qr")


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(129, 129), (2, 130, 130), (191, 191), (192, 192), (193, 193), (257, 257)])
def test_blocked_cholesky_around_the_panel_boundaries(shape, dtype):
    a = spd(shape, dtype, seed=shape[-1])
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a)).numpy(), np.linalg.cholesky(a), **tol(dtype))


def test_blocked_cholesky_panels_shrink_to_the_shared_memory(monkeypatch):
    """Where two 64 x 64 float64 arrays do not fit a workgroup's shared memory the panels are 32, then 16."""
    monkeypatch.setattr(K, "shared_limit", lambda: 2 * 16 * 16 * 8)
    assert cholesky_mod.panel("float64") == 16 and cholesky_mod.panel("float32") == 16
    a = spd((2, 150, 150), "float64", seed=1)
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a)).numpy(), np.linalg.cholesky(a), **tol("float64"))


def test_blocked_cholesky_small_panels_and_layouts(monkeypatch):
    monkeypatch.setattr(blocked, "BLOCK", 4)  # 4-column panels: 5 panels and a partial one, every kernel many times
    a = spd((3, 22, 22), "float64", seed=2)
    for name, view, host in [("contiguous", kd.asarray(a), a),
                             ("transposed", kd.matrix_transpose(kd.asarray(np.swapaxes(a, -1, -2).copy())), a)]:
        np.testing.assert_allclose(kd.linalg.cholesky(view).numpy(), np.linalg.cholesky(host), **tol("float64"),
                                   err_msg=name)
        np.testing.assert_allclose(kd.linalg.cholesky(view, upper=True).numpy(), np.linalg.cholesky(host, upper=True),
                                   **tol("float64"), err_msg=name)


@pytest.mark.parametrize("bad", [0, 63, 64, 150, 199])
def test_blocked_cholesky_reports_a_bad_pivot_in_any_panel(bad):
    """A pivot that is not positive, in the first, last or any column of a 64-column panel of the blocked path,
    raises NumPy's error (potrf_diag flags it while it scales its columns only at the end of the block)."""
    a = spd((200, 200), "float64", seed=5)
    a[bad, bad] = -1e6
    with pytest.raises(kd.linalg.LinAlgError, match="not positive definite"):
        kd.linalg.cholesky(kd.asarray(a))


@pytest.mark.parametrize("lookahead", [True, False])
@pytest.mark.parametrize("shape", [(200, 200), (2, 263, 263), (4, 22, 22)])
def test_cholesky_lookahead_records_the_next_block_alongside_the_update(monkeypatch, lookahead, shape):
    """With LOOKAHEAD each panel's update but the last two is cut in two, and its larger part is recorded with no
    barrier before it (after the next diagonal step, which touches other rows); without it every launch waits
    for the one before. Both give NumPy's factor (panels of 4 for the 22 x 22 stack: many of each)."""
    monkeypatch.setattr(cholesky_mod, "LOOKAHEAD", lookahead)
    if shape[-1] == 22:
        monkeypatch.setattr(blocked, "BLOCK", 4)
    a = spd(shape, "float64", seed=shape[-1])
    np.testing.assert_allclose(kd.linalg.cholesky(kd.asarray(a)).numpy(), np.linalg.cholesky(a), **tol("float64"))
    n = shape[-1]
    nb = cholesky_mod.panel("float64")
    plan = cholesky_mod._plan(kd.float64, int(np.prod(shape[:-2])), n)
    free = [ln for ln in plan.launches if not ln.barrier]
    panels = -(-n // nb)
    assert len(free) == (max(panels - 2, 0) if lookahead else 0)
    assert all(ln.kernel.name == "linalg.gemm" for ln in free)
    before = [plan.launches[plan.launches.index(ln) - 1].kernel.name for ln in free]
    assert all(name.startswith("linalg.potrf_diag") for name in before)
    plan.destroy()


def test_a_dispatch_recorded_without_a_barrier_runs():
    """kp.OpAlgoDispatch(barrier=False): two independent writes in one sequence, the second with no barrier."""
    from kdsl.linalg import kernels

    fill = kernels.compiled("doc_fill2", "layout(set = 0, binding = 0) buffer X_ { T x[]; };\n"
                            "layout(push_constant) uniform P { REAL v; };\n"
                            "void main() { x[gl_LocalInvocationID.x] = v; }\n", "float32", 4)
    x, y = kd.zeros((4,), dtype=kd.float32), kd.zeros((4,), dtype=kd.float32)

    def body(r):
        fill(r["x"], 1.0, groups=(1, 1, 1))
        with graph.alongside():
            fill(r["y"], 2.0, groups=(1, 1, 1))
        fill(r["x"], 3.0, groups=(1, 1, 1))

    plan = graph.Plan.record({"x": x, "y": y}, body)
    assert [ln.barrier for ln in plan.launches] == [True, False, True]
    with plan.lock:
        plan.run()
        assert plan.arrays["x"].tolist() == [3.0] * 4 and plan.arrays["y"].tolist() == [2.0] * 4
    plan.destroy()


def test_blocked_cholesky_ill_conditioned():
    """Condition 1e8 (float64): the diagonal blocks' inverses keep the error at LAPACK's cond * eps level."""
    rng = np.random.default_rng(3)
    q, _ = np.linalg.qr(rng.standard_normal((200, 200)))
    a = (q * np.logspace(0, -8, 200)) @ q.T
    a = (a + a.T) / 2
    low = kd.linalg.cholesky(kd.asarray(a)).numpy()
    assert np.abs(low @ low.T - a).max() <= 1e-14 * np.abs(a).max() * 200
    np.testing.assert_allclose(low, np.linalg.cholesky(a), rtol=0, atol=1e-6)


@pytest.mark.parametrize("column", [5, 64, 150, 199])
def test_blocked_cholesky_refuses_matrices_that_are_not_positive_definite(column):
    a = np.stack([spd((200, 200), "float64", seed=4)] * 2)
    a[1, column, column] = -1.0e3  # the pivot of that column (in the first, a middle or the last panel) fails
    with pytest.raises(kd.linalg.LinAlgError, match="not positive definite"):
        kd.linalg.cholesky(kd.asarray(a))
    good = kd.linalg.cholesky(kd.asarray(a[:1])).numpy()  # the same plan again: info was reset
    np.testing.assert_allclose(good, np.linalg.cholesky(a[:1]), **tol("float64"))


@pytest.mark.parametrize("shape", [(2, 20, 20), (25, 13), (13, 25), (2, 19, 7)])
def test_qr_with_blocked_panels_matches_numpy(shape, monkeypatch):
    monkeypatch.setattr(blocked, "BLOCK", 6)  # panels of 6 columns, factored 4 (then 2) at a time
    monkeypatch.setattr(blocked, "INNER", 4)
    a = np.random.default_rng(7).standard_normal(shape)
    for mode in ("reduced", "complete"):
        q, r = kd.linalg.qr(kd.asarray(a), mode=mode)
        want = np.linalg.qr(a, mode=mode)
        np.testing.assert_allclose(q.numpy(), want.Q, **tol("float64"), err_msg=mode)
        np.testing.assert_allclose(r.numpy(), want.R, **tol("float64"), err_msg=mode)
    np.testing.assert_allclose(kd.linalg.qr(kd.asarray(a), mode="r").numpy(), np.linalg.qr(a, mode="r"),
                               **tol("float64"))


@pytest.mark.parametrize("scale", [1e-30, 1e-22, 1e22, 1e30])
def test_qr_column_norms_far_from_one(scale):
    """float32 columns whose squares underflow or overflow take the scaled sum of squares (dnrm2's)."""
    a = (np.random.default_rng(8).standard_normal((150, 140)) * scale).astype(np.float32)
    q, r = kd.linalg.qr(kd.asarray(a))
    want = np.linalg.qr(a.astype(np.float64))
    np.testing.assert_allclose(q.numpy(), want.Q, **tol("float32", 10))
    np.testing.assert_allclose(r.numpy() / scale, want.R / scale, **tol("float32", 10))


def test_plans_are_reused_and_the_cache_is_bounded():
    graph.clear()
    a = spd((2, 140, 140), "float32", seed=5)
    first = kd.linalg.cholesky(kd.asarray(a)).numpy()
    assert len(graph._cache) == 1
    second = kd.linalg.cholesky(kd.asarray(a)).numpy()
    assert len(graph._cache) == 1
    np.testing.assert_array_equal(first, second)
    for n in range(2, 4 + graph.MAX_PLANS):
        kd.linalg.cholesky(kd.asarray(spd((n, n), "float32")))
    assert len(graph._cache) == graph.MAX_PLANS
    np.testing.assert_array_equal(kd.linalg.cholesky(kd.asarray(a)).numpy(), first)  # recorded again
    graph.clear()
    assert not graph._cache


def test_a_profile_sees_every_recorded_launch():
    a = spd((140, 140), "float32", seed=6)
    kd.linalg.cholesky(kd.asarray(a))
    plan = next(p for k, p in graph._cache.items() if k[0] == ("potrf", "float32", 1, 140))
    with kd.profile() as prof:
        low = kd.linalg.cholesky(kd.asarray(a))
    panels = -(-140 // cholesky_mod.panel("float32"))
    # 3 a panel, the last 1; with the look-ahead the update of each panel but the last two takes 2
    launches = 3 * panels - 2 + (max(panels - 2, 0) if cholesky_mod.LOOKAHEAD else 0)
    assert len(plan.launches) == launches and len(prof.records) >= len(plan.launches)
    np.testing.assert_allclose(low.numpy(), np.linalg.cholesky(a), **tol("float32"))


def test_threads_take_turns_on_a_plan():
    mats = [spd((140, 140), "float64", seed=s) for s in range(4)]
    results: dict[int, np.ndarray] = {}

    def work(i: int) -> None:
        results[i] = kd.linalg.cholesky(kd.asarray(mats[i])).numpy()

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for i, m in enumerate(mats):
        np.testing.assert_allclose(results[i], np.linalg.cholesky(m), **tol("float64"))


def test_eigh_and_svd_sweeps_replay():
    rng = np.random.default_rng(9)
    for _ in range(2):  # the second call replays the recorded sweep
        s = rng.standard_normal((2, 12, 12))
        s = (s + np.swapaxes(s, -1, -2)) / 2
        np.testing.assert_allclose(kd.linalg.eigvalsh(kd.asarray(s)).numpy(), np.linalg.eigvalsh(s), **tol("float64"))
        x = rng.standard_normal((2, 9, 5))
        np.testing.assert_allclose(kd.linalg.svdvals(kd.asarray(x)).numpy(), np.linalg.svd(x, compute_uv=False),
                                   **tol("float64"))


def test_tall_panels_take_the_largest_workgroup(monkeypatch):
    monkeypatch.setattr(qr_mod, "TALL", 50)  # from 50 rows on the panel kernel runs with up to 1024 threads
    a = np.random.default_rng(10).standard_normal((2, 300, 140))
    q, r = kd.linalg.qr(kd.asarray(a))
    want = np.linalg.qr(a)
    np.testing.assert_allclose(q.numpy(), want.Q, **tol("float64"))
    np.testing.assert_allclose(r.numpy(), want.R, **tol("float64"))


def test_timing_reports_every_recorded_launch():
    a = spd((140, 140), "float32", seed=11)
    want = kd.linalg.cholesky(kd.asarray(a)).numpy()
    plan = next(p for k, p in graph._cache.items() if k[0] == ("potrf", "float32", 1, 140))
    with graph.timing() as times:
        got = kd.linalg.cholesky(kd.asarray(a)).numpy()
    np.testing.assert_array_equal(got, want)
    names = [ln.kernel.name for ln in plan.launches]
    assert names[:3] == [f"linalg.potrf_diag{cholesky_mod.panel('float32')}",
                         f"linalg.potrf_trmm{cholesky_mod.panel('float32')}", "linalg.gemm"]
    assert [name for name, _, _ in times] == names or not times  # empty where the queue has no timestamps
    assert all(ms >= 0 for *_, ms in times)


@pytest.mark.parametrize("shape", [(2, 300, 140), (1, 1100, 136), (3, 9, 5), (1, 5, 9), (1, 300, 8)])
@pytest.mark.parametrize("scale", [1.0, 1e-30, 1e30])
def test_qr_register_panels(shape, scale, monkeypatch):
    """Where the device combines reductions by subgroups, float32 panels of 8 columns are factored in registers
    (kdsl/linalg/qr_registers.py): NumPy's Q and R, also for matrices narrower or shorter than a panel, two rows
    a thread (1100 rows, up to 1024 threads), zero columns (tau 0) and norms that need dnrm2's scaling."""
    dev = kd.device()
    if "subgroup_arithmetic" not in dev.features:
        pytest.skip("this device has no subgroup arithmetic in compute shaders")
    monkeypatch.setattr(dev, "reduce_subgroup", max(1, dev.subgroup_size))
    from kdsl.linalg import qr_apply, qr_registers

    a = np.random.default_rng(shape[1]).standard_normal(shape).astype(np.float32)
    a[..., 2] = 0  # a zero column: H = I
    used, applied = [], []
    panel, apply = qr_registers.panel, qr_apply.apply
    monkeypatch.setattr(qr_registers, "panel", lambda *args: used.append(args[2]) or panel(*args))
    monkeypatch.setattr(qr_apply, "apply", lambda *args: applied.append(args[2]) or apply(*args))
    graph.clear()  # record the plan again (one of an earlier test has the same key)
    q, r = kd.linalg.qr(kd.asarray(a * np.float32(scale)))
    # blocked matrices' inner panels are 8 wide, their reflectors applied to the rest of the 64-column panel by
    # qr_apply; an unblocked matrix is one panel, in registers up to 8 columns
    blocked_ = min(shape[1:]) > 2 * blocked.BLOCK
    assert bool(used) == (blocked_ or shape[2] <= qr_registers.WIDTH)
    assert bool(applied) == blocked_
    want = np.linalg.qr(a.astype(np.float64))
    np.testing.assert_allclose(q.numpy(), want.Q, atol=2e-4)
    np.testing.assert_allclose(r.numpy() / np.float32(scale), want.R, atol=2e-4 * np.abs(want.R).max())


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_qr_panels_with_subgroup_sums(dtype, monkeypatch):
    """Where the device combines reductions by subgroups (GPUs), the panel kernel's norms use them too."""
    dev = kd.device()
    if "subgroup_arithmetic" not in dev.features or (dtype == "float64" and not dev.supports(kd.float64)):
        pytest.skip("this device has no subgroup arithmetic in compute shaders")
    monkeypatch.setattr(dev, "reduce_subgroup", max(1, dev.subgroup_size))
    rng = np.random.default_rng(12)
    a = rng.standard_normal((2, 150, 140)) + (1j * rng.standard_normal((2, 150, 140)) if dtype == "complex64" else 0)
    a = a.astype(dtype)
    q, r = kd.linalg.qr(kd.asarray(a))
    want = np.linalg.qr(a)
    np.testing.assert_allclose(q.numpy(), want.Q, **tol(dtype.replace("complex64", "float32"), 10))
    np.testing.assert_allclose(r.numpy(), want.R, **tol(dtype.replace("complex64", "float32"), 10))
    tiny = (rng.standard_normal((6, 4)) * 1e-30).astype(np.float32)  # the scaled fallback: subgroupMax
    np.testing.assert_allclose(kd.linalg.qr(kd.asarray(tiny)).R.numpy() / 1e-30, np.linalg.qr(tiny).R / 1e-30,
                               **tol("float32", 10))


def test_qr_taller_than_a_register_panel(monkeypatch):
    """A matrix with more rows than a register panel holds factors in 16-column global-memory panels, and once
    the rows left fit, those 16 reflectors must not go to qr_apply (which applies at most 8): NumPy's R (with
    one row a thread, 1100 rows are past a 1024-thread panel until column 76)."""
    dev = kd.device()
    if "subgroup_arithmetic" not in dev.features:
        pytest.skip("this device has no subgroup arithmetic in compute shaders")
    monkeypatch.setattr(dev, "reduce_subgroup", max(1, dev.subgroup_size))
    from kdsl.linalg import qr_registers

    monkeypatch.setattr(qr_registers, "ROWS", max(1, 1100 // (2 * qr_registers.threads())))
    graph.clear()
    a = np.random.default_rng(1).standard_normal((1, 1100, 136)).astype(np.float32)
    want = np.linalg.qr(a.astype(np.float64))
    r = kd.linalg.qr(kd.asarray(a), mode="r").numpy()
    np.testing.assert_allclose(np.abs(r), np.abs(want.R), atol=2e-4 * np.abs(want.R).max())
